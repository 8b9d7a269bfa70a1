terraform {
  required_providers {
    testing = { source = "registry.terraform.io/tofu-rs/testing", version = "1.0.0" }
  }
}

resource "testing_thin" "a" {
  name = "x"
}

resource "testing_info" "b" {
}

data "testing_thing" "c" {
  name = "x"
}

data "testing_inf" "d" {
}
