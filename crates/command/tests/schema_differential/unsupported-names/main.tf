terraform {
  required_providers {
    testing = { source = "registry.terraform.io/tofu-rs/testing", version = "1.0.0" }
  }
}

resource "testing_thing" "a" {
  name  = "a"
  nmae  = "typo"
  tagz  = {}
  listed {
    xxx = "1"
  }
  lsted {
  }
}

data "testing_info" "i" {
  inptu = "x"
}
