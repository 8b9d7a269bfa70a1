terraform {
  required_providers {
    testing = { source = "registry.terraform.io/tofu-rs/testing", version = "1.0.0" }
  }
}

provider "testing" {
  token = "secret"
}

resource "testing_thing" "a" {
  name     = "a"
  password = "pw"
  tags     = { team = "x", env = "prod" }

  listed {
    x = "first"
    inner {
      z = "deep"
    }
    inner {
      z = "deeper"
    }
  }
  setted {
    x = "s1"
  }
  setted {
    x = "s2"
  }
  mapped "k1" {
    x = "m1"
  }
  single {}
}

resource "testing_thing" "b" {
  count = 2
  name  = "${testing_thing.a.name}-${count.index}"
  listed {
    x = testing_thing.a.id
  }
}

output "ids" {
  value = testing_thing.b[*].id
}
