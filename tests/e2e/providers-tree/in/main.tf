terraform {
  required_providers {
    null = { source = "registry.opentofu.org/hashicorp/null", version = ">= 3.0" }
  }
}
module "child" {
  source = "./child"
}
resource "random_id" "x" {}
provider "configured" {
  version = "~> 1.4"
}
data "terraform_remote_state" "s" {}
module "child2" {
  source = "./child2"
}
