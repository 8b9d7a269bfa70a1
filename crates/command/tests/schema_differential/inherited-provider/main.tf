# A module's resources use the provider configuration their caller lets
# them inherit or passes them: when that configuration is rejected, they
# are not validated (they wait for it); when it is accepted, they are.
terraform {
  required_providers {
    testing = { source = "registry.terraform.io/tofu-rs/testing", version = "1.0.0" }
  }
}

provider "testing" {
  region = "INVALID"
}

provider "testing" {
  alias  = "other"
  region = "fine"
}

module "child" {
  source = "./child"
}

module "passed" {
  source = "./passed"
  providers = {
    tst = testing.other
  }
}
