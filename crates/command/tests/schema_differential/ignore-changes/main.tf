terraform {
  required_providers {
    testing = { source = "registry.terraform.io/tofu-rs/testing", version = "1.0.0" }
  }
}

resource "testing_thing" "a" {
  name = "a"
  listed {}
  lifecycle {
    ignore_changes = [nme, tags["k"], listed[0].x, listed[0].nope, id]
  }
}
