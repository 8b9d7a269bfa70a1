terraform {
  required_providers {
    testing = { source = "registry.terraform.io/tofu-rs/testing", version = "1.0.0" }
  }
}

variable "items" {
  type    = map(string)
  default = { a = "1", b = "2" }
}

resource "testing_thing" "a" {
  name = "d"
  dynamic "listed" {
    for_each = var.items
    content {
      x = listed.value
      dynamic "inner" {
        for_each = [listed.key]
        iterator = it
        content {
          z = it.value
        }
      }
    }
  }
  dynamic "setted" {
    for_each = ["p", "q"]
    content {
      x = setted.value
    }
  }
  dynamic "mapped" {
    for_each = var.items
    labels   = [mapped.key]
    content {
      x = mapped.value
    }
  }
}

resource "testing_thing" "bad" {
  name = "d"
  listed {}
  dynamic "nosuch" {
    for_each = []
    content {}
  }
  dynamic "setted" {
    for_each = [1]
    content {
      y = 1
    }
  }
}
