terraform {
  required_providers {
    testing = { source = "registry.terraform.io/tofu-rs/testing", version = "1.0.0" }
  }
}

provider "testing" {
  regoin = "eu"
  token  = 5
}

resource "testing_thing" "a" {
  name = "a"
  listed {}
}
