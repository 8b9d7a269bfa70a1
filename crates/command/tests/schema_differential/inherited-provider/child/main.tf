terraform {
  required_providers {
    testing = { source = "registry.terraform.io/tofu-rs/testing" }
  }
}

resource "testing_thing" "inherits" {
  name = "INVALID"
  listed {}
}
