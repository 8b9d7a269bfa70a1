terraform {
  required_providers {
    testing = { source = "registry.terraform.io/tofu-rs/testing", version = "1.0.0" }
  }
}

provider "testing" {
  region = "eu"
  token  = "secret"
}

variable "names" {
  type    = list(string)
  default = ["p", "q"]
}

resource "testing_thing" "a" {
  name     = "a"
  count_of = 3
  tags     = { team = "x" }

  single_obj = { a = "s", b = null }
  list_obj   = [{ a = "l1" }, { a = "l2" }]
  set_obj    = [{ a = "s1" }]
  map_obj    = { k = { a = "m" } }

  single {
    x = "one"
  }
  group {
    x = "g"
  }
  listed {
    x = "first"
    inner {
      z = "deep"
    }
  }
  listed {
    x = "second"
  }
  setted {
    x = "s"
  }
  mapped "k1" {
    x = "m1"
  }
}

resource "testing_thing" "b" {
  name = testing_thing.a.id
  listed {
    x = testing_thing.a.listed[0].x
  }
}

resource "testing_thing" "c" {
  for_each = toset(var.names)
  name     = each.key
  listed {}
}

data "testing_info" "i" {
  input = "in"
}

output "info" {
  value = data.testing_info.i.output
}
