#!/usr/bin/env python3
"""`init -recursive` + `validate -recursive` against a per-directory loop.

usage: realworld_recursive.py TOFU_RS TREES_DIR WORK_DIR

Run by scripts/realworld.sh, after the published-modules check.

For every tree under TREES_DIR (a folder of module repositories): in one
copy, `tofu-rs init -recursive -backend=false -input=false -json` then
`tofu-rs validate -recursive -json`; a root passes when both report it
without errors. Then, for every root the recursive run listed, in a fresh
copy of the tree: `tofu-rs init -backend=false -input=false` and
`tofu-rs validate -json` in that directory alone, as the per-directory check
does. The two verdicts must agree for every root.

The CLI configuration (provider mirror) comes from the environment
(TF_CLI_CONFIG_FILE). Prints a line per disagreement and a summary (with
REALWORLD_VERBOSE=1, every root's verdict too); exit 1 on any
disagreement, or when a recursive run's output cannot be read.
"""
import json
import os
import shutil
import subprocess
import sys


def run(cmd, cwd):
    env = dict(os.environ, NO_COLOR="1", TF_IN_AUTOMATION="1")
    env.pop("TF_DATA_DIR", None)
    return subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, timeout=900)


def documents(out):
    docs = {}
    for line in out.splitlines():
        if line.strip():
            d = json.loads(line)
            docs[d["root"]] = d["result"]
    return docs


def main():
    tofu, trees, work = sys.argv[1:4]
    os.makedirs(work, exist_ok=True)
    total = agree = 0
    failures = []
    for tree in sorted(os.listdir(trees)):
        src = os.path.join(trees, tree)
        if not os.path.isdir(src):
            continue
        rec = os.path.join(work, "rec", tree)
        shutil.copytree(src, rec, symlinks=True)
        init = run([tofu, "init", "-recursive", "-backend=false", "-input=false", "-json"], rec)
        val = run([tofu, "validate", "-recursive", "-json"], rec)
        try:
            init_docs = documents(init.stdout)
            val_docs = documents(val.stdout)
        except (ValueError, KeyError) as e:
            failures.append(f"{tree}: unreadable -recursive output: {e}\n{init.stderr}{val.stderr}")
            continue
        if set(init_docs) != set(val_docs):
            failures.append(f"{tree}: init and validate -recursive found different roots")
        for i, root in enumerate(sorted(val_docs)):
            rec_ok = init_docs.get(root, {}).get("error_count", 1) == 0 and val_docs[root]["valid"]
            single = os.path.join(work, "single", f"{tree}-{i}")
            shutil.copytree(src, single, symlinks=True)
            d = os.path.join(single, root)
            s_init = run([tofu, "init", "-backend=false", "-input=false"], d)
            s_val = run([tofu, "validate", "-json"], d)
            try:
                s_valid = json.loads(s_val.stdout)["valid"]
            except ValueError:
                s_valid = False
            single_ok = s_init.returncode == 0 and s_valid
            total += 1
            if rec_ok == single_ok:
                agree += 1
            else:
                failures.append(
                    f"{tree}/{root}: -recursive says {'ok' if rec_ok else 'failed'}, "
                    f"alone {'ok' if single_ok else 'failed'}\n"
                    f"  recursive init: {json.dumps(init_docs.get(root))[:400]}\n"
                    f"  recursive validate: {json.dumps(val_docs[root])[:400]}\n"
                    f"  alone: init exit {s_init.returncode}: {s_init.stderr[:400]}"
                )
            shutil.rmtree(single, ignore_errors=True)
            if os.environ.get("REALWORLD_VERBOSE") == "1":
                verdict = "ok" if rec_ok else "failed"
                print(f"{tree}/{root}: {verdict}" + ("" if rec_ok == single_ok else " (DISAGREES)"))
    for f in failures:
        print("FAIL " + f)
    print(f"realworld-recursive: {agree}/{total} roots agree")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
