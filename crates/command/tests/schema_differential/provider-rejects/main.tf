terraform {
  required_providers {
    testing = { source = "registry.terraform.io/tofu-rs/testing", version = "1.0.0" }
  }
}

resource "testing_thing" "a" {
  name = "INVALID"
  tags = { k = "INVALID" }
  single_obj = { a = "INVALID" }
  listed {
    x = "ok"
  }
  listed {
    x = "INVALID"
    inner {
      z = "INVALID"
    }
  }
  mapped "key" {
    x = "INVALID"
  }
}

data "testing_info" "i" {
  input = "INVALID"
}
