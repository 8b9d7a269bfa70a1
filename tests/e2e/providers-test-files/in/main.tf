terraform {
  required_providers {
    tls = {
      source  = "hashicorp/tls"
      version = "~> 3.0"
    }
  }
}

resource "implied_foo" "bar" {
}

data "terraform_remote_state" "bar" {
}

module "child" {
  source = "./child"
}
