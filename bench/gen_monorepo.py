#!/usr/bin/env python3
"""Generates the monorepo of bench/monorepo_vs_terraform.sh (issue 18) and
checks the module manifests that init leaves in it.

  gen_monorepo.py repos DIR
      10 bare git repositories DIR/repo1 .. DIR/repo10, each with the tags
      v1.0.0, v1.1.0 and v1.2.0 (one commit per tag; the module at the
      repository's top level changes a little from tag to tag).
  gen_monorepo.py tree TOP REPOS N
      TOP/modules/m1 .. m20: local modules shared by every root; m1-m5 call
      m6-m10 and m6-m10 call m16-m20 (so m1 -> m6 -> m16 is 3 deep).
      TOP/live/<env>/<name>/: N root modules, spread over four environments,
      each calling every repository of REPOS at each of the three tags
      (git::file://REPOS/repoK?ref=v1.x.0, 30 calls) and every local module
      (../../../modules/mK, 20 calls, 35 more records through the nested
      calls). Prints the root directories, relative to TOP, one a line.
  gen_monorepo.py check TOP ROOTS_FILE
      Every root listed in ROOTS_FILE (relative to TOP) must have
      .terraform/modules/modules.json with exactly the expected records
      (RECORDS_GIT git sources, RECORDS_LOCAL local ones; the root's own
      record with key "" is not counted). Exits 1 with the first few
      mismatches.

terraform_data resources only, so neither tofu-rs nor terraform needs a
provider or the network. Variables (with types, defaults and validation),
locals, module outputs and resource references everywhere, so that
validate has real work in every module.
"""
import json
import os
import subprocess
import sys

REPOS = 10
TAGS = ["1.0.0", "1.1.0", "1.2.0"]
LOCALS = 20
ENVS = ["dev", "staging", "prod", "sandbox"]


def children(k):
    """The local modules that module mK calls."""
    if 1 <= k <= 5:
        return [k + 5]
    if 6 <= k <= 10:
        return [k + 10]
    return []


def count_records(k):
    """Records below (and including) one call of mK."""
    return 1 + sum(count_records(c) for c in children(k))


RECORDS_GIT = REPOS * len(TAGS)
RECORDS_LOCAL = sum(count_records(k) for k in range(1, LOCALS + 1))


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)


def git(*args, cwd=None):
    env = dict(os.environ, GIT_AUTHOR_NAME="bench", GIT_AUTHOR_EMAIL="bench@example.com",
               GIT_COMMITTER_NAME="bench", GIT_COMMITTER_EMAIL="bench@example.com")
    subprocess.run(["git", *args], cwd=cwd, env=env, check=True,
                   stdout=subprocess.DEVNULL)


def git_module(k, version):
    minor = version.split(".")[1]
    extra = ""
    if minor != "0":
        extra = (
            '\nresource "terraform_data" "extra" {\n'
            '  count = var.replicas > 1 ? 1 : 0\n'
            f'  input = "${{local.full_name}}-extra-{minor}"\n'
            '}\n'
        )
    return f'''variable "name" {{
  type        = string
  description = "Name of the component (repo{k} v{version})."
}}

variable "tags" {{
  type    = map(string)
  default = {{}}
}}

variable "replicas" {{
  type    = number
  default = 1

  validation {{
    condition     = var.replicas >= 1 && var.replicas <= 10
    error_message = "replicas must be between 1 and 10."
  }}
}}

locals {{
  full_name = "repo{k}-${{var.name}}"
  labels    = merge(var.tags, {{ module = "repo{k}", version = "v{version}" }})
}}

resource "terraform_data" "main" {{
  count = var.replicas
  input = {{
    name   = "${{local.full_name}}-${{count.index}}"
    labels = local.labels
    hosts  = [for i in range(3) : format("%s-%02d.example.com", local.full_name, i)]
  }}
}}
{extra}
output "name" {{
  value = local.full_name
}}

output "ids" {{
  value = terraform_data.main[*].id
}}

output "version" {{
  value = "v{version}"
}}
'''


def repos(top):
    os.makedirs(top, exist_ok=True)
    for k in range(1, REPOS + 1):
        work = os.path.join(top, f".work-repo{k}")
        os.makedirs(work)
        git("init", "-q", "-b", "main", cwd=work)
        for v in TAGS:
            write(os.path.join(work, "main.tf"), git_module(k, v))
            write(os.path.join(work, "README.md"), f"# repo{k}\n\nVersion {v}.\n")
            git("add", "-A", cwd=work)
            git("commit", "-q", "-m", f"v{v}", cwd=work)
            git("tag", f"v{v}", cwd=work)
        git("clone", "-q", "--bare", work, os.path.join(top, f"repo{k}"))
        subprocess.run(["rm", "-rf", work], check=True)


def local_module(k):
    calls = "".join(
        f'''
module "m{c}" {{
  source   = "../m{c}"
  name     = "${{local.full_name}}-m{c}"
  settings = {{ size = var.settings.size + 1, zones = var.settings.zones }}
}}
''' for c in children(k))
    child_out = " + ".join([f"module.m{c}.size" for c in children(k)] or ["0"])
    variables = f'''variable "name" {{
  type = string
}}

variable "settings" {{
  type = object({{
    size    = number
    zones   = optional(list(string), ["a", "b"])
    enabled = optional(bool, true)
  }})
  default = {{ size = 1 }}

  validation {{
    condition     = var.settings.size > 0
    error_message = "size must be positive."
  }}
}}
'''
    main = f'''locals {{
  full_name = "m{k}-${{var.name}}"
  zones     = {{ for z in var.settings.zones : z => "${{local.full_name}}-${{z}}" }}
}}

resource "terraform_data" "zone" {{
  for_each = var.settings.enabled ? local.zones : {{}}
  input = {{
    zone = each.key
    name = each.value
    size = var.settings.size
  }}
}}

resource "terraform_data" "summary" {{
  input = {{
    name  = local.full_name
    zones = [for z, r in terraform_data.zone : r.input.name]
  }}
  triggers_replace = [length(local.zones)]
}}
{calls}'''
    outputs = f'''output "name" {{
  value = local.full_name
}}

output "size" {{
  value = var.settings.size + {child_out}
}}

output "zone_names" {{
  value = [for z in sort(keys(local.zones)) : local.zones[z]]
}}
'''
    return variables, main, outputs


def tree(top, repo_dir, n):
    repo_dir = os.path.abspath(repo_dir)
    for k in range(1, LOCALS + 1):
        variables, main, outputs = local_module(k)
        d = os.path.join(top, "modules", f"m{k}")
        write(os.path.join(d, "variables.tf"), variables)
        write(os.path.join(d, "main.tf"), main)
        write(os.path.join(d, "outputs.tf"), outputs)
    write(os.path.join(top, "README.md"), "# Generated monorepo (bench/gen_monorepo.py)\n")
    roots = []
    for i in range(n):
        env = ENVS[i % len(ENVS)]
        name = f"svc{i:04d}"
        rel = os.path.join("live", env, name)
        d = os.path.join(top, rel)
        roots.append(rel)
        write(os.path.join(d, "versions.tf"), '''terraform {
  required_version = ">= 1.6.0"
}
''')
        write(os.path.join(d, "variables.tf"), f'''variable "region" {{
  type    = string
  default = "eu-west-{i % 3 + 1}"
}}

variable "replicas" {{
  type    = number
  default = {i % 3 + 1}

  validation {{
    condition     = var.replicas >= 1
    error_message = "At least one replica."
  }}
}}
''')
        git_calls = []
        for k in range(1, REPOS + 1):
            for v in TAGS:
                key = f"repo{k}_v{v.replace('.', '_')}"
                git_calls.append(key)
        local_calls = [f"m{k}" for k in range(1, LOCALS + 1)]
        body = [f'''locals {{
  env     = "{env}"
  service = "{name}"
  tags = {{
    env     = local.env
    service = local.service
    region  = var.region
  }}
}}
''']
        for k in range(1, REPOS + 1):
            for v in TAGS:
                key = f"repo{k}_v{v.replace('.', '_')}"
                body.append(f'''
module "{key}" {{
  source   = "git::file://{repo_dir}/repo{k}?ref=v{v}"
  name     = "${{local.service}}-{k}"
  tags     = local.tags
  replicas = var.replicas
}}
''')
        for k in range(1, LOCALS + 1):
            body.append(f'''
module "m{k}" {{
  source   = "../../../modules/m{k}"
  name     = "${{local.service}}-{env}"
  settings = {{ size = {k}, zones = ["a", "b", "c"] }}
}}
''')
        body.append('''
resource "terraform_data" "inventory" {
  input = {
    git   = { %s }
    local = { %s }
  }
}
''' % (", ".join(f"{c} = module.{c}.name" for c in git_calls),
       ", ".join(f"{c} = module.{c}.size" for c in local_calls)))
        write(os.path.join(d, "main.tf"), "".join(body))
        write(os.path.join(d, "outputs.tf"), '''output "inventory" {
  value = terraform_data.inventory.output
}

output "total_size" {
  value = sum([%s])
}

output "versions" {
  value = distinct([%s])
}
''' % (", ".join(f"module.{c}.size" for c in local_calls),
       ", ".join(f"module.{c}.version" for c in git_calls)))
    for r in roots:
        print(r)


def check(top, roots_file):
    with open(roots_file) as f:
        roots = [line.strip() for line in f if line.strip()]
    bad = []
    for r in roots:
        path = os.path.join(top, r, ".terraform", "modules", "modules.json")
        try:
            with open(path) as f:
                mods = json.load(f)["Modules"]
        except (OSError, ValueError, KeyError) as e:
            bad.append(f"{r}: {e}")
            continue
        recs = [m for m in mods if m.get("Key")]
        git_n = sum(1 for m in recs if m.get("Source", "").startswith("git::"))
        local_n = sum(1 for m in recs if m.get("Source", "").startswith("../"))
        if git_n != RECORDS_GIT or local_n != RECORDS_LOCAL or len(recs) != RECORDS_GIT + RECORDS_LOCAL:
            bad.append(f"{r}: {len(recs)} records ({git_n} git, {local_n} local), "
                       f"expected {RECORDS_GIT} git + {RECORDS_LOCAL} local")
    if bad:
        sys.exit(f"{len(bad)} of {len(roots)} roots with a wrong modules.json:\n  "
                 + "\n  ".join(bad[:5]))


def main():
    cmd = sys.argv[1] if len(sys.argv) > 1 else ""
    if cmd == "repos" and len(sys.argv) == 3:
        repos(sys.argv[2])
    elif cmd == "tree" and len(sys.argv) == 5:
        tree(sys.argv[2], sys.argv[3], int(sys.argv[4]))
    elif cmd == "check" and len(sys.argv) == 4:
        check(sys.argv[2], sys.argv[3])
    elif cmd == "records":
        print(RECORDS_GIT, RECORDS_LOCAL)
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
