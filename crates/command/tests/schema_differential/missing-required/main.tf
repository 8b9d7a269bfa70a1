terraform {
  required_providers {
    testing = { source = "registry.terraform.io/tofu-rs/testing", version = "1.0.0" }
  }
}

resource "testing_thing" "a" {
  listed {}
  single_obj = {}
}
