#!/usr/bin/env python3
"""Synthetic provider schemas and a configuration that uses them, for the
schema-checked validate benchmark (bench/schemas_vs_terraform.sh).

    gen_provider_schemas.py OUT_DIR [TYPES_PER_PROVIDER] [RESOURCES]

Writes OUT_DIR/schemas/{alpha,beta,gamma}.json, each one provider's entry of
`providers schema -json` (what terraform-provider-testing serves from
TOFU_RS_TESTPROVIDER_SCHEMA): TYPES_PER_PROVIDER managed resource types
(default 300) and a third as many data sources, each with 8 to 40
attributes of every primitive and collection type (required, optional,
computed, optional+computed, some sensitive or deprecated) and nested
blocks in list, set and single nesting, as large provider schemas have them.
Also writes OUT_DIR/config/main.tf: RESOURCES resources (default 300) spread
over the three providers, each setting its required arguments, some
optional ones and its nested blocks, with references between them.
Deterministic: the same arguments always write the same files.
"""
import json
import os
import random
import sys

PROVIDERS = ["alpha", "beta", "gamma"]
PRIMS = ["string", "number", "bool"]
# No meta-argument names (count, for_each, provider, version, ...): a
# resource or provider block reserves them.
WORDS = ("name arn tags region zone size capacity enabled policy role subnet vpc bucket key value "
         "kms_key_id description timeout retries port protocol cidr engine release class storage "
         "endpoint owner mode schedule window target source destination priority weight").split()


def attr_type(rng):
    r = rng.random()
    if r < 0.55:
        return rng.choice(PRIMS)
    if r < 0.75:
        return ["list", "string"]
    if r < 0.9:
        return ["map", "string"]
    return ["set", "string"]


def block(rng, depth, n_attrs):
    attrs = {}
    names = rng.sample(WORDS, min(n_attrs, len(WORDS)))
    for i, name in enumerate(names):
        a = {"type": attr_type(rng), "description_kind": "plain"}
        r = rng.random()
        if i == 0 or r < 0.15:
            a["required"] = True
        elif r < 0.6:
            a["optional"] = True
        elif r < 0.8:
            a["computed"] = True
        else:
            a["optional"] = True
            a["computed"] = True
        if rng.random() < 0.05:
            a["sensitive"] = True
        if rng.random() < 0.03 and not a.get("required"):
            a["deprecated"] = True
        attrs[name] = a
    attrs.setdefault("id", {"type": "string", "description_kind": "plain", "computed": True})
    b = {"attributes": attrs, "description_kind": "plain"}
    if depth < 2:
        blocks = {}
        for j in range(rng.randint(0, 3)):
            mode = rng.choice(["list", "set", "single"])
            nb = {"nesting_mode": mode, "block": block(rng, depth + 1, rng.randint(2, 8))}
            # nested blocks' ids are not computed attributes of their own
            nb["block"]["attributes"].pop("id", None)
            if mode != "single" and rng.random() < 0.3:
                nb["max_items"] = 1
            blocks["%s_config" % rng.choice(WORDS) + str(j)] = nb
        if blocks:
            b["block_types"] = blocks
    return b


def provider_schema(rng, name, types):
    res, data = {}, {}
    for i in range(types):
        res["%s_%s_%d" % (name, rng.choice(WORDS), i)] = {"version": 0, "block": block(rng, 0, rng.randint(8, 40))}
    for i in range(types // 3):
        data["%s_%s_%d" % (name, rng.choice(WORDS), i)] = {"version": 0, "block": block(rng, 0, rng.randint(8, 30))}
    prov = {"version": 0, "block": {"attributes": {
        "region": {"type": "string", "description_kind": "plain", "optional": True},
        "token": {"type": "string", "description_kind": "plain", "optional": True, "sensitive": True},
    }, "description_kind": "plain"}}
    return {"provider": prov, "resource_schemas": res, "data_source_schemas": data}


def value_for(ty, rng, ref):
    if ty == "string":
        return ref or '"v%d"' % rng.randint(0, 999)
    if ty == "number":
        return str(rng.randint(0, 99))
    if ty == "bool":
        return rng.choice(["true", "false"])
    if ty[0] in ("list", "set"):
        return '["a", "b"]'
    return '{ k = "v" }'


def body(b, rng, ref, indent):
    out = []
    pad = " " * indent
    for name, a in sorted(b.get("attributes", {}).items()):
        if a.get("computed") and not a.get("optional"):
            continue
        if a.get("required") or (a.get("optional") and rng.random() < 0.3 and not a.get("deprecated")):
            out.append("%s%s = %s" % (pad, name, value_for(a["type"], rng, ref if a["type"] == "string" else None)))
    for name, nb in sorted(b.get("block_types", {}).items()):
        if rng.random() < 0.6:
            out.append("%s%s {" % (pad, name))
            out.extend(body(nb["block"], rng, None, indent + 2))
            out.append("%s}" % pad)
    return out


def main(argv):
    if len(argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    out = argv[1]
    types = int(argv[2]) if len(argv) > 2 else 300
    count = int(argv[3]) if len(argv) > 3 else 300
    rng = random.Random(15)
    os.makedirs(os.path.join(out, "schemas"), exist_ok=True)
    os.makedirs(os.path.join(out, "config"), exist_ok=True)
    schemas = {}
    for p in PROVIDERS:
        schemas[p] = provider_schema(rng, p, types)
        with open(os.path.join(out, "schemas", p + ".json"), "w") as f:
            json.dump(schemas[p], f, separators=(",", ":"))
    lines = ["terraform {", "  required_providers {"]
    for p in PROVIDERS:
        lines.append('    %s = { source = "tofu-rs/%s", version = "1.0.0" }' % (p, p))
    lines += ["  }", "}", ""]
    for p in PROVIDERS:
        lines += ['provider "%s" {' % p, '  region = "r1"', "}", ""]
    made = []
    for i in range(count):
        p = PROVIDERS[i % 3]
        rtype = rng.choice(sorted(schemas[p]["resource_schemas"]))
        name = "r%d" % i
        ref = None
        if made and rng.random() < 0.5:
            t, n = rng.choice(made)
            ref = "%s.%s.id" % (t, n)
        lines.append('resource "%s" "%s" {' % (rtype, name))
        lines.extend(body(schemas[p]["resource_schemas"][rtype]["block"], rng, ref, 2))
        lines += ["}", ""]
        made.append((rtype, name))
    with open(os.path.join(out, "config", "main.tf"), "w") as f:
        f.write("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
