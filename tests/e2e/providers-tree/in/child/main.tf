terraform {
  required_providers {
    null = { version = "~> 3.1, < 4" }
  }
}
module "grand" {
  source = "./grand"
}
