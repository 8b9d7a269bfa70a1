terraform {
  required_providers {
    a = { version = "~> 1.2.3.4" }
  }
}
resource "b_thing" "x" {}
