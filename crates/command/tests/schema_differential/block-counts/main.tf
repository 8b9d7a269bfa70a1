terraform {
  required_providers {
    testing = { source = "registry.terraform.io/tofu-rs/testing", version = "1.0.0" }
  }
}

resource "testing_thing" "none" {
  name = "n"
}

resource "testing_thing" "many" {
  name = "m"
  listed {}
  listed {}
  listed {}
  listed {}
  setted { x = "1" }
  setted { x = "2" }
  setted { x = "3" }
  setted { x = "4" }
  setted { x = "5" }
  setted { x = "6" }
}

resource "testing_thing" "twice" {
  name = "t"
  listed {}
  single {}
  single {}
  mapped {}
}
