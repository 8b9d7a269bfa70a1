terraform {
  required_providers {
    testing = { source = "registry.terraform.io/tofu-rs/testing", version = "1.0.0" }
  }
}

resource "testing_thing" "a" {
  name = "a"
  old  = true
  listed {}
}

data "testing_info" "i" {
}
