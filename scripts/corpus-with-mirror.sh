#!/usr/bin/env bash
# Runs corpus-check with a provider mirror, so that the corpus entries that
# fail only because `init` cannot download providers (there is no network)
# can be judged on everything else.
#
# 1. For every fixture in the corpus manifest, a temporary copy gets
#    `tofu-rs init -backend=false -input=false` (which installs its local
#    modules even when the providers then fail) and `tofu-rs providers`,
#    whose tree lists every provider address with the constraints of each
#    module and test file.
# 2. For each fixture, one version per provider that satisfies all of its
#    constraints together (the newest of a few candidates built from the
#    version numbers the constraints mention); the mirror holds the union.
# 3. A packed filesystem mirror (HOST/NAMESPACE/TYPE/
#    terraform-provider-TYPE_VERSION_OS_ARCH.zip, each zip holding a tiny
#    executable terraform-provider-TYPE_vVERSION) in a temporary directory,
#    and a HOME whose .tofurc installs only from it. corpus-check strips
#    TF_* variables but keeps HOME, so tofu-rs reads that .tofurc.
# 4. corpus-check with that HOME; its arguments are this script's.
#
# The stand-in packages serve no schema, so with provider schemas (the
# default) every validate entry whose fixture has a provider that init
# installed from the mirror fails as `tofu validate` would fail with them
# (a plugin that exits at once); OpenTofu's Go tests behind those entries
# inject mock providers instead. Entries whose providers are not installed
# (the `cli` validate entries, run without init) are checked from their
# configuration alone, as tofu-rs validate does without init.
# TOFU_RS_PROVIDER_SCHEMAS=off judges the configuration-level diagnostics
# alone (2026-12-06: 238/271 that way, 229/271 with schemas; corpus-check
# without the mirror: 232/271 either way).
#
#   scripts/corpus-with-mirror.sh [--bin target/release/tofu-rs] [corpus-check args...]
#   SHARED=/work/shared (corpus and tools)   KEEP=1 keeps the temp dir
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
SHARED=${SHARED:-/work/shared}
CORPUS=$SHARED/corpus/opentofu
CHECK=$SHARED/tools/corpus-check
BIN=$ROOT/target/release/tofu-rs
ARGS=()
while [ $# -gt 0 ]; do
  case $1 in
    --bin) BIN=$(realpath "$2"); shift 2 ;;
    --bin=*) BIN=$(realpath "${1#--bin=}"); shift ;;
    *) ARGS+=("$1"); shift ;;
  esac
done
[ -x "$BIN" ] || { echo "no tofu-rs binary at $BIN (cargo build --release -p tofu-rs --bin tofu-rs)" >&2; exit 2; }
[ -f "$CORPUS/MANIFEST.json" ] || { echo "no corpus at $CORPUS (set SHARED)" >&2; exit 2; }
W=$(mktemp -d)
if [ -z "${KEEP:-}" ]; then trap 'rm -rf "$W"' EXIT; else echo "temp dir: $W" >&2; fi

python3 - "$BIN" "$CORPUS" "$W" <<'PY'
import json, os, re, shutil, subprocess, sys, zipfile

bin_, corpus, work = sys.argv[1:4]
plat = "linux_" + {"x86_64": "amd64", "aarch64": "arm64"}.get(os.uname().machine, os.uname().machine)
empty_home = os.path.join(work, "empty-home")
os.makedirs(empty_home)
env = {k: v for k, v in os.environ.items() if not k.startswith("TF_")}
env.update(HOME=empty_home, NO_COLOR="1")
env.pop("XDG_DATA_HOME", None)

# --- versions and constraints (OpenTofu's rules, enough for choosing) ---
def parse_version(s):
    m = re.fullmatch(r"v?(\d+)(?:\.(\d+))?(?:\.(\d+))?(-[0-9A-Za-z.-]+)?(\+[0-9A-Za-z.-]+)?", s.strip())
    if not m:
        return None
    parts = [m.group(1), m.group(2), m.group(3)]
    given = sum(p is not None for p in parts)
    return tuple(int(p or 0) for p in parts), (m.group(4) or "")[1:], given

def parse_constraint(text):
    """A list of (op, version, prerelease, parts given), or None if unreadable."""
    out = []
    for item in text.split(","):
        item = item.strip()
        if not item:
            continue
        m = re.fullmatch(r"(~>|>=|<=|!=|=|>|<)?\s*(\S+)", item)
        if not m:
            return None
        v = parse_version(m.group(2))
        if v is None:
            return None
        out.append((m.group(1) or "=", v[0], v[1], v[2]))
    return out

def satisfies(version, cons):
    v = version
    for op, c, pre, given in cons:
        if pre:  # a prerelease is only ever selected exactly
            return False
        if op == "=" and v != c: return False
        if op == "!=" and v == c: return False
        if op == ">" and not v > c: return False
        if op == ">=" and not v >= c: return False
        if op == "<" and not v < c: return False
        if op == "<=" and not v <= c: return False
        if op == "~>":
            if v < c:
                return False
            keep = max(given - 1, 1)
            upper = list(c[:keep]) + [0] * (3 - keep)
            upper[keep - 1] += 1
            if v >= tuple(upper):
                return False
    return True

def choose(constraint_texts):
    cons = []
    for t in constraint_texts:
        c = parse_constraint(t)
        if c is None:
            return None
        cons.extend(c)
    cands = {(0, 0, 1), (1, 0, 0), (99, 0, 0)}
    for _, c, _, _ in cons:
        a, b, p = c
        cands |= {c, (a, b, p + 1), (a, b + 1, 0), (a + 1, 0, 0)}
        if p > 0: cands.add((a, b, p - 1))
        if b > 0: cands.add((a, b - 1, 0))
        if a > 0: cands.add((a - 1, 99, 0))
    ok = sorted(v for v in cands if satisfies(v, cons))
    return ok[-1] if ok else None

# --- the providers each fixture requires ---
manifest = json.load(open(os.path.join(corpus, "MANIFEST.json")))
line = re.compile(r"provider\[([^\]]+)\]\s*(.*)$")
wanted = {}      # address -> set of versions
unresolved = []  # (fixture, address, constraints)
seen = set()
for e in manifest:
    cmd = e.get("command") or []
    var_args = tuple(a for i, a in enumerate(cmd) if a.startswith("-var")
                     or (i > 0 and cmd[i - 1] in ("-var", "-var-file")))
    key = (e["path"], e["kind"], var_args)
    if key in seen:
        continue
    seen.add(key)
    src = os.path.join(corpus, e["path"])
    d = os.path.join(work, "probe")
    shutil.rmtree(d, ignore_errors=True)
    if e["kind"] == "file":
        os.makedirs(d)
        shutil.copy(src, d)
    elif os.path.isdir(src):
        shutil.copytree(src, d, symlinks=True)
    else:
        continue
    for p, _, files in os.walk(d):
        os.chmod(p, 0o755)
        for f in files:
            fp = os.path.join(p, f)
            if not os.path.islink(fp):
                os.chmod(fp, 0o644)
    def run(*args):
        return subprocess.run([bin_, *args], cwd=d, env=env, stdin=subprocess.DEVNULL,
                              capture_output=True, text=True, timeout=60)
    run("init", "-backend=false", "-input=false", *var_args)
    out = run("providers", "-no-color", *var_args).stdout
    per = {}
    for l in out.splitlines():
        m = line.search(l)
        if m:
            per.setdefault(m.group(1), []).append(m.group(2).strip())
    for addr, texts in per.items():
        if addr.startswith("terraform.io/builtin/"):
            continue
        v = choose([t for t in texts if t])
        if v is None:
            unresolved.append((e["path"], addr, texts))
            continue
        wanted.setdefault(addr, set()).add(v)

# --- the mirror and the CLI configuration ---
mirror = os.path.join(work, "mirror")
count = 0
for addr, versions in sorted(wanted.items()):
    parts = addr.split("/")
    if len(parts) != 3:
        continue
    host, ns, typ = parts
    d = os.path.join(mirror, host, ns, typ)
    os.makedirs(d, exist_ok=True)
    for v in sorted(versions):
        ver = "%d.%d.%d" % v
        with zipfile.ZipFile(os.path.join(d, f"terraform-provider-{typ}_{ver}_{plat}.zip"), "w") as z:
            info = zipfile.ZipInfo(f"terraform-provider-{typ}_v{ver}")
            info.external_attr = 0o755 << 16
            z.writestr(info, "#!/bin/sh\necho 'a stand-in provider for the corpus; it serves nothing' >&2\nexit 1\n")
        count += 1
home = os.path.join(work, "home")
os.makedirs(home)
with open(os.path.join(home, ".tofurc"), "w") as f:
    f.write('provider_installation {\n  filesystem_mirror {\n    path = %s\n  }\n}\n' % json.dumps(mirror))
print(f"mirror: {count} packages of {len(wanted)} providers, {plat}, at {mirror}", file=sys.stderr)
for path, addr, texts in unresolved:
    print(f"mirror: no version chosen for {addr} in {path}: constraints {texts}", file=sys.stderr)
PY

HOME=$W/home "$CHECK" --bin "$BIN" ${ARGS[@]+"${ARGS[@]}"}
