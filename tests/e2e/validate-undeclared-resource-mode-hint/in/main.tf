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
