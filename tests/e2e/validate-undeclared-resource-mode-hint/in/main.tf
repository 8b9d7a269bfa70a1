# OpenTofu's only hint for an undeclared resource is a block of another
# mode with the same type and name (candidateSuggestion).
data "external" "p" {}
ephemeral "random_password" "pw" {}

output "forgot_data_prefix" { value = external.p.result }
locals {
  wrong_mode  = data.random_password.pw
  no_such     = data.external.nope
  no_managed  = terraform_data.p
}

# The providers, served by the project's test provider (../plugins).
terraform {
  required_providers {
    external = { source = "tofu-rs/external" }
    random   = { source = "tofu-rs/random" }
    http     = { source = "tofu-rs/http" }
  }
}
