# The configuration the differential console test evaluates in (a copy of
# the shared expression sample's context): variables with defaults and
# locals, and only the builtin provider (for its provider::terraform::
# functions), so `terraform console` needs no `init`.

terraform {
  required_providers {
    terraform = {
      source = "terraform.io/builtin/terraform"
    }
  }
}

variable "regions" {
  type    = list(string)
  default = ["us-east-1", "eu-west-1", "ap-south-1"]
}

variable "tags" {
  type    = set(string)
  default = ["prod", "web", "critical", "web", "Alpha", "10", "9"]
}

variable "ports" {
  type = map(number)
  default = {
    http   = 80
    https  = 443
    ssh    = 22
    custom = 8080.5
  }
}

variable "users" {
  type = map(object({
    role     = string
    is_admin = bool
  }))
  default = {
    alice = { role = "admin", is_admin = true }
    bob   = { role = "dev", is_admin = false }
    carol = { role = "dev", is_admin = false }
    dave  = { role = "ops", is_admin = true }
    erin  = { role = "dev", is_admin = true }
  }
}

variable "instance" {
  type = object({
    name     = string
    size     = optional(string, "small")
    replicas = number
    labels   = map(string)
    zones    = list(string)
    backup = optional(object({
      enabled   = bool
      retention = number
    }))
  })
  default = {
    name     = "app-server"
    replicas = 3
    labels   = { team = "core", env = "prod" }
    zones    = ["a", "b"]
  }
}

variable "untyped" {
  # no type constraint: default keeps its literal (tuple/object) type
  default = {
    name  = "untyped"
    items = [1, "two", true, null]
    inner = { x = 1.5, y = [] }
  }
}

variable "nothing" {
  type    = string
  default = null
}

variable "secret" {
  type      = string
  default   = "hunter2"
  sensitive = true
}

variable "empty_list" {
  type    = list(string)
  default = []
}

variable "nums" {
  type    = list(number)
  default = [3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5]
}

variable "fractions" {
  type    = list(number)
  default = [0.1, 0.2, 1.5, -2.25, 0.0000001, 3.14159265358979, 100]
}

variable "flags" {
  type    = list(bool)
  default = [true, false, true]
}

variable "matrix" {
  type    = list(list(number))
  default = [[1, 2, 3], [4, 5, 6], [7, 8, 9]]
}

variable "env_map" {
  type = map(string)
  default = {
    LOG_LEVEL = "debug"
    APP_PORT  = "8080"
    EMPTY     = ""
    Zeta      = "last"
  }
}

variable "count_str" {
  type    = string
  default = "42"
}

locals {
  servers = [
    { name = "web-1", ip = "10.0.1.10", port = 80, tags = ["web", "prod"], disk = null },
    { name = "web-2", ip = "10.0.1.11", port = 8080, tags = ["web"], disk = 100 },
    { name = "db-1", ip = "10.0.2.10", port = 5432, tags = ["db", "prod"], disk = 500 },
  ]

  mixed_tuple = ["a", 1, true, null, ["x", "y"], { k = "v" }]

  obj_with_nulls = {
    name        = "thing"
    description = null
    count       = 0
    enabled     = false
    nested = {
      a = null
      b = 1
      c = [null, "z"]
    }
  }

  big_numbers = {
    int64_max   = 9223372036854775807
    beyond      = 12345678901234567890123
    float_big   = 1e21
    pi          = 3.141592653589793
    tiny        = 1e-10
    neg         = -42
    exp         = 6.02e23
    two_53_plus = 9007199254740993
  }

  greeting  = "Héllo, wörld! 日本語 🚀"
  emoji     = "👍🏽 ok"
  escaped   = "tab\there \"quoted\" back\\slash"
  tmpl_like = "literal $${not_interp} and %%{ not_directive }"
  multiline = "line1\nline2\nline3\n"
  padded    = "   padded text \n"
  empty_str = ""

  csv_data = "name,age,city\nalice,30,Paris\nbob,25,\"New York, NY\"\n"
  json_doc = "{\"a\": 1, \"b\": [true, null, \"x\"], \"c\": {\"d\": 2.5}}"
  yaml_doc = "a: 1\nb:\n  - x\n  - y\nc:\n  d: true\n  e: null\n"

  vpc_cidr = "10.0.0.0/16"
  v6_cidr  = "fd00:fd12:3456:7890::/56"

  networks = {
    public = {
      cidr    = "10.0.0.0/24"
      subnets = { a = "10.0.0.0/26", b = "10.0.0.64/26" }
    }
    private = {
      cidr    = "10.0.1.0/24"
      subnets = { a = "10.0.1.0/26" }
    }
  }

  empty_map   = {}
  empty_tuple = []
  empty_set   = toset([])

  admin_names = [for name, u in var.users : name if u.is_admin]
  by_role     = { for name, u in var.users : u.role => name... }
  port_list   = [for k, v in var.ports : "${k}:${v}"]
  word_list   = ["banana", "Apple", "cherry", "apple", "10", "9", "banana"]
  nested_list = [["a", "b"], [], ["c", ["d", "e"]]]
  maybe_list  = ["x", "", null, "y"]

  banner = <<-EOT
    Hello ${var.instance.name}!
      indented ${length(var.regions)} regions
    done
  EOT

  conn = {
    user     = "admin"
    password = var.secret
    host     = "db.internal"
  }
}
