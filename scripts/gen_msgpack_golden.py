#!/usr/bin/env python3
"""Generates crates/configschema/testdata/msgpack/terraform.json: msgpack
encodings of values written by real go-cty, taken from a plan file that
terraform writes offline (root variables and outputs, which the plan
stores as dynamic values, the local backend's configuration, and a
terraform_data resource's planned object).

Each entry is {"what", "type" (cty type JSON), "msgpack" (hex)};
crates/configschema/src/msgpack_tests.rs decodes each and encodes it again.

    python3 scripts/gen_msgpack_golden.py > crates/configschema/testdata/msgpack/terraform.json

Needs terraform on PATH and nothing from the network (the configuration
uses only the builtin provider).
"""
import json
import os
import subprocess
import sys
import tempfile
import zipfile

CONFIG = r'''
variable "str" {}
variable "str_40" {}
variable "str_300" {}
variable "unicode" {}
variable "html" {}
variable "num_small" {}
variable "num_neg" {}
variable "num_neg_fix" {}
variable "num_32k" {}
variable "num_i64max" {}
variable "num_i64min" {}
variable "num_u64max" {}
variable "num_big" {}
variable "num_float" {}
variable "num_frac" {}
variable "num_exp" {}
variable "num_zero" {}
variable "bool" {}
variable "null" {}
variable "typed_null" { type = string }
variable "list" { type = list(string) }
variable "set_num" { type = set(number) }
variable "set_str" { type = set(string) }
variable "set_obj" { type = set(object({ n = string, v = number })) }
variable "map" { type = map(number) }
variable "map_empty" { type = map(string) }
variable "obj" { type = object({ a = string, b = optional(number), c = list(bool) }) }
variable "tuple" {}
variable "nested" {}
variable "many" {}
variable "wide" {}
resource "terraform_data" "x" {
  input = {
    obj   = var.obj
    set   = var.set_num
    later = timestamp()
  }
}

output "obj" { value = var.obj }
output "later" { value = terraform_data.x.output }
output "list_of_sets" { value = [var.set_str, var.set_str] }
output "sets" { value = { num = var.set_num, obj = var.set_obj, str = var.set_str } }
output "typed" { value = { list = var.list, map = var.map, empty = var.map_empty, null = var.typed_null } }
'''

TFVARS = r'''
str = "hello"
str_40 = "%(s40)s"
str_300 = "%(s300)s"
unicode = "café ☃ e\u0301"
html = "<a & b>"
num_small = 42
num_neg = -129
num_neg_fix = -7
num_32k = 40000
num_i64max = 9223372036854775807
num_i64min = -9223372036854775808
num_u64max = 18446744073709551615
num_big = 99999999999999999999999999999
num_float = 1.5
num_frac = 0.1
num_exp = 1e-7
num_zero = 0
bool = true
null = null
typed_null = null
list = ["a", "b"]
set_num = [3, 1, 2, 100, -5]
set_str = ["b", "a", "c", "zz", ""]
set_obj = [{ n = "a", v = 1 }, { n = "b", v = 2 }, { n = "c", v = 3 }]
map = { a = 1, b = 2 }
map_empty = {}
obj = { a = "x", c = [true] }
tuple = [1, "x", true, null]
nested = { k = [{ x = 1 }, { x = 2 }], e = {} }
many = [%(many)s]
wide = { %(wide)s }
'''

DATA_TYPE = '["object",{"id":"string","input":"dynamic","output":"dynamic","triggers_replace":"dynamic"}]'
LOCAL_BACKEND_TYPE = '["object",{"path":"string","workspace_dir":"string"}]'


def varint(b, i):
    shift = result = 0
    while True:
        byte = b[i]
        i += 1
        result |= (byte & 0x7F) << shift
        shift += 7
        if not byte & 0x80:
            return result, i


def fields(b):
    """(field number, wire type, value) of one protobuf message."""
    i = 0
    out = []
    while i < len(b):
        key, i = varint(b, i)
        num, wt = key >> 3, key & 7
        if wt == 0:
            v, i = varint(b, i)
        elif wt == 2:
            n, i = varint(b, i)
            v = b[i:i + n]
            i += n
        elif wt == 1:
            v = b[i:i + 8]
            i += 8
        elif wt == 5:
            v = b[i:i + 4]
            i += 4
        else:
            raise ValueError(f"wire type {wt}")
        out.append((num, wt, v))
    return out


def field(msg, num):
    return [v for n, _, v in fields(msg) if n == num]


def dynamic_value(msg):
    return field(msg, 1)[0].hex()


def main():
    tfvars = TFVARS % {
        "s40": "x" * 40,
        "s300": "y" * 300,
        "many": ", ".join(str(i) for i in range(20)),
        "wide": ", ".join(f"k{i:02} = {i}" for i in range(17)),
    }
    env = dict(os.environ, CHECKPOINT_DISABLE="1", TF_CLI_CONFIG_FILE="/dev/null", TF_IN_AUTOMATION="1")
    with tempfile.TemporaryDirectory() as d:
        with open(os.path.join(d, "main.tf"), "w") as f:
            f.write(CONFIG)
        # Only variables given values (not defaults) are stored in a plan.
        with open(os.path.join(d, "terraform.tfvars"), "w") as f:
            f.write(tfvars)
        run = lambda *a: subprocess.run(["terraform", *a], cwd=d, env=env, check=True, capture_output=True)
        run("init", "-input=false")
        run("plan", "-input=false", "-out=plan.tfplan")
        version = json.loads(run("version", "-json").stdout)["terraform_version"]
        with zipfile.ZipFile(os.path.join(d, "plan.tfplan")) as z:
            plan = z.read("tfplan")

    entries = []
    for entry in field(plan, 2):  # variables
        name = field(entry, 1)[0].decode()
        entries.append({"what": f"variable {name}", "type": '"dynamic"', "msgpack": dynamic_value(field(entry, 2)[0])})
    for rc in field(plan, 3):  # resource_changes
        addr = field(rc, 13)[0].decode()
        for i, v in enumerate(field(field(rc, 9)[0], 2)):
            entries.append({"what": f"{addr} value {i}", "type": DATA_TYPE, "msgpack": dynamic_value(v)})
    for oc in field(plan, 4):  # output_changes
        name = field(oc, 1)[0].decode()
        for i, v in enumerate(field(field(oc, 2)[0], 2)):
            entries.append({"what": f"output {name} value {i}", "type": '"dynamic"', "msgpack": dynamic_value(v)})
    for backend in field(plan, 13):
        entries.append({"what": "local backend config", "type": LOCAL_BACKEND_TYPE, "msgpack": dynamic_value(field(backend, 2)[0])})
    entries.sort(key=lambda e: e["what"])
    json.dump({"terraform_version": version, "values": entries}, sys.stdout, indent=1, ensure_ascii=False)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
