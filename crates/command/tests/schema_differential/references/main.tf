terraform {
  required_providers {
    testing = { source = "registry.terraform.io/tofu-rs/testing", version = "1.0.0" }
  }
}

resource "testing_thing" "a" {
  name = "a"
  listed {}
}

output "bad" {
  value = testing_thing.a.nonexistent
}

output "typo" {
  value = testing_thing.a.nmae
}

output "nested" {
  value = testing_thing.a.listed[0].nope
}

output "fine" {
  value = [testing_thing.a.id, testing_thing.a.listed[0].y, testing_thing.a.single_obj]
}

output "data" {
  value = data.testing_info.i.outptu
}

data "testing_info" "i" {
}
