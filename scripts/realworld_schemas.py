#!/usr/bin/env python3
"""Stand-in providers that serve a schema, for the published-modules check.

mirror.py's stand-in packages exit at once, so a schema-checked `validate`
fails on them as `tofu validate` would. This script makes the check run
with provider schemas instead: it rewrites every package of a mirror built
by mirror.py so that its executable runs the project's test provider
(terraform-provider-testing) serving one permissive schema, derived from
the trees themselves:

- every `resource` and `data` type the trees declare, with each argument
  they set (type dynamic, optional) and each nested block they write
  (`dynamic "x"` blocks by their `content`), recursively;
- every argument and nested block of every `provider` block;
- every attribute the trees read from those objects
  (`aws_instance.web[0].arn`, `data.x.y.attr`), as computed attributes
  (through nested blocks where the path goes through one).

A configuration is therefore valid against it exactly when it is valid
without a schema, but `validate` now starts real plugins, reads their
schemas through the cache, decodes every block against them and asks the
provider's Validate* calls, on configurations nobody here wrote.

The trees are `terraform fmt`-formatted, so a block's arguments and nested
blocks are the lines one indentation step inside it. Anything more this
reads (an object literal's keys, heredoc lines) only adds optional
attributes, which changes no verdict.

usage: realworld_schemas.py TREES MIRROR TESTPROVIDER_BINARY
"""

import json
import os
import re
import sys
import zipfile

# Meta-arguments and meta-blocks: OpenTofu's, never a schema's.
RESOURCE_META = {"count", "for_each", "provider", "depends_on", "lifecycle", "provisioner",
                 "connection"}
PROVIDER_META = {"alias", "version", "for_each"}
HEADER = re.compile(r'^(resource|data)\s+"([^"]+)"\s+"[^"]+"\s*\{\s*$')
PROVIDER = re.compile(r'^provider\s+"([^"]+)"\s*\{\s*$')
ATTR = re.compile(r'^(\s*)([A-Za-z_][\w-]*)\s*=(?!=)')
BLOCK = re.compile(r'^(\s*)([A-Za-z_][\w-]*)((?:\s+"[^"]*")*)\s*\{\s*$')
ONE_LINE_BLOCK = re.compile(r'^(\s*)([A-Za-z_][\w-]*)((?:\s+"[^"]*")*)\s*\{(.*)\}\s*$')
IGNORE_CHANGES = re.compile(r'ignore_changes\s*=\s*\[((?:[^\[\]]|\[[^\[\]]*\])*)\]', re.S)


def new_block():
    return {"attributes": set(), "computed": set(), "blocks": {}}


def read_body(lines, start, indent, block):
    """Reads the body whose lines are indented by `indent` from `start` up to
    the closing brace at `indent - 2`; returns the index after it."""
    i = start
    close = " " * (indent - 2) + "}"
    while i < len(lines):
        line = lines[i].rstrip("\n")
        if line.rstrip() == close:
            return i + 1
        m = BLOCK.match(line)
        if m and len(m.group(1)) == indent:
            name, labels = m.group(2), m.group(3)
            if name == "dynamic":
                label = re.findall(r'"([^"]*)"', labels)
                target = block["blocks"].setdefault(label[0] if label else "dynamic", new_block())
                inner = new_block()
                i = read_body(lines, i + 1, indent + 2, inner)
                # The generated blocks are the `content` block's.
                content = inner["blocks"].get("content", new_block())
                merge(target, content)
                continue
            target = block["blocks"].setdefault(name, new_block())
            i = read_body(lines, i + 1, indent + 2, target)
            continue
        m = ONE_LINE_BLOCK.match(line)
        if m and len(m.group(1)) == indent and "=" not in line.split("{", 1)[0]:
            target = block["blocks"].setdefault(m.group(2), new_block())
            target["attributes"] |= set(re.findall(r'([A-Za-z_][\w-]*)\s*=(?!=)', m.group(4)))
            i += 1
            continue
        m = ATTR.match(line)
        if m and len(m.group(1)) == indent:
            block["attributes"].add(m.group(2))
        i += 1
    return i


def merge(into, other):
    into["attributes"] |= other["attributes"]
    into["computed"] |= other["computed"]
    for name, b in other["blocks"].items():
        merge(into["blocks"].setdefault(name, new_block()), b)


def tf_files(trees):
    """The text of every `.tf` file below `trees` (hidden directories,
    such as `.terraform`, left out)."""
    for dirpath, dirnames, filenames in os.walk(trees):
        dirnames[:] = [d for d in dirnames if not d.startswith(".")]
        for f in filenames:
            if f.endswith(".tf"):
                with open(os.path.join(dirpath, f), encoding="utf-8", errors="replace") as fh:
                    yield fh.read()


def scan(texts):
    resources, data, provider = {}, {}, new_block()
    # ignore_changes paths, followed once every block of every file is known.
    ignored = []
    for text in texts:
        lines = text.splitlines(keepends=True)
        i = 0
        while i < len(lines):
            line = lines[i].rstrip("\n")
            m = HEADER.match(line)
            p = PROVIDER.match(line)
            if m:
                kinds = resources if m.group(1) == "resource" else data
                block = kinds.setdefault(m.group(2), new_block())
                end = read_body(lines, i + 1, 2, block)
                # ignore_changes names the resource's own attributes,
                # which need not be set.
                body = "".join(lines[i + 1:end])
                for listed in IGNORE_CHANGES.findall(body):
                    for path in re.split(r"[,\s]+", listed):
                        ignored.append((block, "." + path))
                i = end
            elif p:
                i = read_body(lines, i + 1, 2, provider)
            else:
                i += 1
    for block, path in ignored:
        walk_path(block, path, "attributes")
    return resources, data, provider


REFERENCE = re.compile(r'(?<![\w.])(data\.)?([a-z][a-z0-9]*_[\w-]+)\.([A-Za-z_][\w-]*)((?:\[[^\]\[]*\]|\.[A-Za-z_][\w-]*)*)')
STEP = re.compile(r'\[[^\]\[]*\]|\.([A-Za-z_][\w-]*)')


def add_references(texts, resources, data):
    """Adds the attributes the files read: each `TYPE.NAME` (or
    `data.TYPE.NAME`) followed by attribute steps, through nested blocks
    (after the scan: a reference may come before its declaration)."""
    for text in texts:
        for m in REFERENCE.finditer(text):
            kinds = data if m.group(1) else resources
            block = kinds.get(m.group(2))
            if block is None:
                continue
            walk_path(block, m.group(4), "computed")


def walk_path(block, steps, kind):
    """Follows attribute steps (`.a[0].b`) from `block` through its nested
    blocks; the first name it lacks becomes an attribute of `kind`
    (`attributes`: optional; `computed`: set by the provider)."""
    for step in STEP.finditer(steps):
        name = step.group(1)
        if name is None:
            continue  # an index: into the block's elements
        if name in block["blocks"]:
            block = block["blocks"][name]
            continue
        if name not in block["attributes"]:
            block[kind].add(name)
        return


def to_schema(block, meta):
    names = block["attributes"] - meta
    blocks = {n: b for n, b in block["blocks"].items() if n not in meta}
    # A name written both ways is a nested block.
    names -= set(blocks)
    computed = block["computed"] - names - set(blocks)
    out = {"description_kind": "plain"}
    attrs = {n: {"type": "dynamic", "description_kind": "plain", "optional": True}
             for n in names}
    attrs.update({n: {"type": "dynamic", "description_kind": "plain", "computed": True}
                  for n in computed})
    if attrs:
        out["attributes"] = dict(sorted(attrs.items()))
    if blocks:
        out["block_types"] = {n: {"nesting_mode": "list", "block": to_schema(b, set())}
                              for n, b in sorted(blocks.items())}
    return out


def main(argv):
    if len(argv) != 4:
        print(__doc__.strip().splitlines()[-1], file=sys.stderr)
        return 2
    trees, mirror, binary = argv[1:]
    texts = list(tf_files(trees))
    resources, data, provider = scan(texts)
    add_references(texts, resources, data)
    schema = {
        "provider": {"version": 0, "block": to_schema(provider, PROVIDER_META)},
        "resource_schemas": {t: {"version": 0, "block": to_schema(b, RESOURCE_META)}
                             for t, b in sorted(resources.items())},
        "data_source_schemas": {t: {"version": 0, "block": to_schema(b, RESOURCE_META)}
                                for t, b in sorted(data.items())},
    }
    schema_path = os.path.join(mirror, "schema.json")
    with open(schema_path, "w") as f:
        json.dump(schema, f)
    script = "#!/bin/sh\nTOFU_RS_TESTPROVIDER_SCHEMA=%s exec %s \"$@\"\n" % (
        json.dumps(schema_path), json.dumps(binary))
    packages = 0
    for dirpath, _, filenames in os.walk(mirror):
        for f in filenames:
            if not f.endswith(".zip"):
                continue
            path = os.path.join(dirpath, f)
            with zipfile.ZipFile(path) as z:
                names = z.namelist()
            with zipfile.ZipFile(path, "w") as z:
                for name in names:
                    info = zipfile.ZipInfo(name)
                    info.external_attr = 0o755 << 16
                    z.writestr(info, script)
            packages += 1
    print("realworld_schemas: %d resource types, %d data sources; %d packages serve them"
          % (len(resources), len(data), packages))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
