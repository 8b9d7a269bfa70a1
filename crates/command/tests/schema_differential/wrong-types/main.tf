terraform {
  required_providers {
    testing = { source = "registry.terraform.io/tofu-rs/testing", version = "1.0.0" }
  }
}

resource "testing_thing" "a" {
  name     = ["not", "a", "string"]
  count_of = "many"
  tags     = 5
  old      = "maybe"
  listed {
    x = { a = 1 }
  }
  single_obj = "flat"
}
