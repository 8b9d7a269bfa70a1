#!/usr/bin/env python3
"""The published modules validated against the real AWS provider, beside terraform.

realworld.sh's other runs check verdicts with stand-in providers. This one
checks the schema-checked `validate` itself on configurations nobody here
wrote, with a real provider's real schema (the AWS provider: 1,500 resource
types, protocol 5, deprecations, nested blocks in every mode): every root
in the trees that needs only `hashicorp/aws` and no registry module is
initialized from a plugin directory holding the installed AWS provider,
then validated by terraform and by tofu-rs (twice: cold, then from the
schema cache), and the three `validate -json` results must agree on the
exit status and on every diagnostic's severity, summary, detail, range
and address. In the first root, `providers schema -json` (13 MB) must
also be terraform's byte for byte, the provider's registry host aside.

The trees ask for a newer AWS provider than the one installed, so the
copy's `aws` version constraints are pinned to the installed version.
The older schema lacks some arguments the modules set, so several roots
get errors: those errors are exactly what is compared.

usage: realworld_aws.py TREES TOFU_RS_BINARY AWS_PACKAGE_DIR
  AWS_PACKAGE_DIR is .../registry.terraform.io/hashicorp/aws/VERSION/OS_ARCH
Exits 1 when a root differs, 0 when all agree.
"""

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

REGISTRY_MODULE = re.compile(r'source\s*=\s*"[a-z0-9-]+/[a-z0-9-]+/[a-z0-9-]+(//[^"]*)?"')
PROVIDER_SOURCE = re.compile(r'source\s*=\s*"((?:[a-z0-9.-]+/)?[a-z0-9-]+/[a-z0-9-]+)"')
AWS_VERSION = re.compile(r'(\baws\s*=\s*\{[^}]*?\bversion\s*=\s*)"[^"]*"', re.S)


def tf_text(d):
    return "".join(
        open(os.path.join(d, f), encoding="utf-8").read()
        for f in sorted(os.listdir(d))
        if f.endswith(".tf")
    )


def roots(trees):
    """Directories whose only provider is hashicorp/aws and that call no
    registry module (init must not need the network)."""
    out = []
    for dp, dn, fn in os.walk(trees):
        dn[:] = sorted(d for d in dn if not d.startswith("."))
        if not any(f.endswith(".tf") for f in fn):
            continue
        text = tf_text(dp)
        if REGISTRY_MODULE.search(text):
            continue
        # Provider sources, an explicit registry host left off (a local
        # module's "../x/y" matches the pattern too).
        sources = {"/".join(s.split("/")[-2:])
                   for s in PROVIDER_SOURCE.findall(text) if not s.startswith(".")}
        if sources == {"hashicorp/aws"}:
            out.append(dp)
    return out


def pin_aws(trees, version):
    for dp, _, fn in os.walk(trees):
        for f in fn:
            if f.endswith(".tf"):
                p = os.path.join(dp, f)
                s = open(p, encoding="utf-8").read()
                t = AWS_VERSION.sub(lambda m: m.group(1) + '"' + version + '"', s)
                if t != s:
                    open(p, "w", encoding="utf-8").write(t)


def plugin_dir(work, package):
    """Both registry hosts' addresses for the one installed package."""
    version = os.path.basename(os.path.dirname(package))
    platform = os.path.basename(package)
    plugins = os.path.join(work, "plugins")
    for host in ("registry.terraform.io", "registry.opentofu.org"):
        d = os.path.join(plugins, host, "hashicorp", "aws", version, platform)
        os.makedirs(d)
        for f in os.listdir(package):
            if f.startswith("terraform-provider-aws"):
                os.symlink(os.path.join(package, f), os.path.join(d, f))
    return plugins, version


def key(d):
    r = d.get("range") or {}
    s, e = r.get("start") or {}, r.get("end") or {}
    return (d["severity"], d["summary"], d.get("detail", ""), r.get("filename"),
            s.get("line"), s.get("column"), e.get("line"), e.get("column"),
            d.get("address"))


def validate(cmd, d, env):
    v = subprocess.run(cmd + ["validate", "-json", "-no-color"], cwd=d, env=env,
                       capture_output=True, text=True, timeout=600)
    try:
        doc = json.loads(v.stdout)
    except ValueError:
        return ("not JSON", v.stdout[-300:] + v.stderr[-300:])
    return (v.returncode, sorted(key(x) for x in doc.get("diagnostics", [])))


def init(cmd, d, env, plugins):
    # The other tool's installation must not be reused.
    shutil.rmtree(os.path.join(d, ".terraform"), ignore_errors=True)
    lock = os.path.join(d, ".terraform.lock.hcl")
    if os.path.exists(lock):
        os.remove(lock)
    i = subprocess.run(cmd + ["init", "-backend=false", "-input=false", "-no-color",
                              "-plugin-dir=" + plugins],
                       cwd=d, env=env, capture_output=True, text=True, timeout=600)
    return i.returncode == 0, (i.stdout + i.stderr)[-600:]


def schema_document(cmd, d, env):
    v = subprocess.run(cmd + ["providers", "schema", "-json"], cwd=d, env=env,
                       capture_output=True, timeout=600)
    return v.returncode, v.stdout


def compare_schema_documents(want, got):
    """`providers schema -json` of both tools, byte for byte, but for the
    provider's key: `hashicorp/aws` means registry.opentofu.org to
    OpenTofu and registry.terraform.io to terraform."""
    got = (got[0], got[1].replace(b'"registry.opentofu.org/hashicorp/aws"',
                                  b'"registry.terraform.io/hashicorp/aws"'))
    if got == want:
        print(f"realworld-aws: providers schema -json: same ({len(want[1]):,} bytes)")
        return True
    at = next((i for i, (a, b) in enumerate(zip(got[1], want[1])) if a != b),
              min(len(got[1]), len(want[1])))
    print(f"realworld-aws: providers schema -json DIFFERS (exit terraform {want[0]}, "
          f"tofu-rs {got[0]}; {len(want[1])} / {len(got[1])} bytes; first difference "
          f"at byte {at}):\n  terraform: {want[1][max(0, at - 80):at + 80]!r}\n"
          f"  tofu-rs:   {got[1][max(0, at - 80):at + 80]!r}")
    return False


def main():
    trees, rs, package = sys.argv[1:4]
    rs = os.path.abspath(rs)
    with tempfile.TemporaryDirectory() as work:
        copy = os.path.join(work, "trees")
        shutil.copytree(trees, copy, ignore=shutil.ignore_patterns(".terraform*"))
        plugins, version = plugin_dir(work, package)
        pin_aws(copy, version)
        env = dict(os.environ, CHECKPOINT_DISABLE="1", TF_IN_AUTOMATION="1",
                   TOFU_RS_PROVIDER_SCHEMAS="on",
                   TOFU_RS_SCHEMA_CACHE_DIR=os.path.join(work, "schema-cache"))
        env.pop("TF_CLI_CONFIG_FILE", None)
        agree = differ = 0
        schema_compared = schema_same = False
        for d in roots(copy):
            name = os.path.relpath(d, copy)
            ok, out = init(["terraform"], d, env, plugins)
            if not ok:
                print(f"realworld-aws: {name}: skipped: terraform init failed: {out}")
                continue
            want = validate(["terraform"], d, env)
            # One schema document per provider version: the first root serves.
            want_doc = None if schema_compared else schema_document(["terraform"], d, env)
            ok, out = init([rs], d, env, plugins)
            if ok and want_doc is not None:
                schema_compared = True
                schema_same = compare_schema_documents(want_doc, schema_document([rs], d, env))
            got = [validate([rs], d, env) for _ in ("cold", "warm")] if ok else [
                ("init failed", out)]
            if all(g == want for g in got) and len(got) == 2:
                agree += 1
                print(f"realworld-aws: {name}: same (exit {want[0]}, "
                      f"{len(want[1])} diagnostics)")
                continue
            differ += 1
            print(f"realworld-aws: {name}: DIFFERS")
            for run, g in zip(("cold", "warm"), got):
                if g == want:
                    continue
                if isinstance(g[1], list) and isinstance(want[1], list):
                    print(f"  {run}: exit terraform {want[0]}, tofu-rs {g[0]}")
                    for x in want[1]:
                        if x not in g[1]:
                            print(f"  {run}: terraform only: {x}")
                    for x in g[1]:
                        if x not in want[1]:
                            print(f"  {run}: tofu-rs only: {x}")
                else:
                    print(f"  {run}: terraform {want!r}\n  {run}: tofu-rs {g!r}")
        print(f"realworld-aws: {agree}/{agree + differ} roots agree with terraform "
              f"(AWS provider {version})")
        return 1 if differ or not agree or not schema_same else 0


if __name__ == "__main__":
    sys.exit(main())
