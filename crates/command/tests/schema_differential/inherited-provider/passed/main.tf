terraform {
  required_providers {
    tst = { source = "registry.terraform.io/tofu-rs/testing" }
  }
}

resource "testing_thing" "passed" {
  provider = tst
  name     = "INVALID"
  listed {}
}
