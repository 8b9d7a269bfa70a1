#!/usr/bin/env python3
"""Generates configurations for the graph benchmarks (issue 5).

  gen_graph_config.py instances DIR N [MODULES]
      N terraform_data resources spread over MODULES module directories
      (default 50), each called once from the root; every resource block is
      written out (about 600 bytes each: 3 MB at 5,000), with references to
      variables, locals, other resources and a counted/for_each resource per
      module.
  gen_graph_config.py tree DIR
      a tree of 1,910 small local module instances: the root calls l1
      (count 10), l1 calls l2 (count 10), l2 calls l3 (count 18); each
      instance holds a local, a terraform_data and an output.
"""
import os
import sys


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)


def instances(root, n, modules):
    per = max(1, n // modules)
    calls = []
    for m in range(modules):
        name = f"mod_{m:03d}"
        calls.append(
            f'module "{name}" {{\n  source = "./modules/{name}"\n  prefix = "p{m}"\n'
            f'  tags   = {{ team = "t{m % 7}", env = var.env }}\n}}\n'
        )
        body = [
            'variable "prefix" {\n  type = string\n}\n',
            'variable "tags" {\n  type = map(string)\n}\n',
            'locals {\n  base = "${var.prefix}-base"\n  n    = length(var.tags)\n}\n',
        ]
        # A counted and a for_each resource, each 5 instances.
        body.append(
            'resource "terraform_data" "counted" {\n  count = 5\n'
            '  input = { index = count.index, name = "${local.base}-${count.index}" }\n}\n'
        )
        body.append(
            'resource "terraform_data" "each" {\n  for_each = toset(["a", "b", "c", "d", "e"])\n'
            '  input = { key = each.key, tags = var.tags }\n}\n'
        )
        for i in range(max(0, per - 10)):
            prev = f"terraform_data.r{i - 1}.output" if i % 3 == 1 and i > 0 else '"none"'
            body.append(
                f'resource "terraform_data" "r{i}" {{\n'
                f'  input = {{\n'
                f'    name        = "${{var.prefix}}-r{i}"\n'
                f'    description = "generated resource number {i} in module {name} for the benchmark"\n'
                f'    size        = {i} * 2 + local.n\n'
                f'    enabled     = {str(i % 2 == 0).lower()}\n'
                f'    labels      = merge(var.tags, {{ index = "{i}" }})\n'
                f'    upstream    = {prev}\n'
                f'    list        = [for x in range(3) : "${{local.base}}-{i}-${{x}}"]\n'
                f'    owner       = "team-{m % 7}@example.com"\n'
                f'    notes       = upper("resource {i} of {name}: ${{var.prefix}} in ${{local.base}}")\n'
                f'    settings    = {{ retries = {i % 5}, timeout = "{i % 60}s", tier = "standard" }}\n'
                f'  }}\n'
                f'  triggers_replace = [var.prefix, "{i}"]\n'
                f'}}\n'
            )
        body.append('output "base" {\n  value = local.base\n}\n')
        body.append('output "count_names" {\n  value = terraform_data.counted[*].input.name\n}\n')
        write(os.path.join(root, "modules", name, "main.tf"), "\n".join(body))
    calls.append('variable "env" {\n  type    = string\n  default = "bench"\n}\n')
    calls.append(
        'output "bases" {\n  value = [' + ", ".join(f"module.mod_{m:03d}.base" for m in range(modules)) + "]\n}\n"
    )
    write(os.path.join(root, "main.tf"), "\n".join(calls))


def tree(root):
    levels = [("l1", 10), ("l2", 10), ("l3", 18)]
    write(
        os.path.join(root, "main.tf"),
        'module "l1" {\n  source = "./l1"\n  count  = 10\n  path   = "root-${count.index}"\n}\n'
        'output "paths" {\n  value = module.l1[*].path\n}\n',
    )
    for depth, (name, _) in enumerate(levels):
        body = [
            'variable "path" {\n  type = string\n}\n',
            'locals {\n  me = "${var.path}/' + name + '"\n}\n',
            'resource "terraform_data" "node" {\n  input = local.me\n}\n',
            'output "path" {\n  value = terraform_data.node.input\n}\n',
        ]
        if depth + 1 < len(levels):
            child, count = levels[depth + 1]
            body.append(
                f'module "{child}" {{\n  source = "../{child}"\n  count  = {count}\n'
                f'  path   = "${{local.me}}-${{count.index}}"\n}}\n'
            )
        write(os.path.join(root, name, "main.tf"), "\n".join(body))


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    kind, root = sys.argv[1], sys.argv[2]
    if kind == "instances":
        instances(root, int(sys.argv[3]), int(sys.argv[4]) if len(sys.argv) > 4 else 50)
    elif kind == "tree":
        tree(root)
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
