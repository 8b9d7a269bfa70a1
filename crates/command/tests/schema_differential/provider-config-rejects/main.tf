terraform {
  required_providers {
    testing = { source = "registry.terraform.io/tofu-rs/testing", version = "1.0.0" }
  }
}

provider "testing" {
  region = "INVALID"
}

resource "testing_thing" "a" {
  name = "a"
  listed {}
}
