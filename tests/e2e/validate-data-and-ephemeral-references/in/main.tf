# Every kind of resource referenced by address: data and ephemeral
# resources once failed as "undeclared" (their blocks were stored under
# data.TYPE.NAME and looked up as TYPE.NAME).
data "external" "p" {}
output "o" { value = data.external.p.result }

data "external" "counted" {
  count = 2
}
output "counted" { value = data.external.counted[1].result }
output "splat" { value = data.external.counted[*].id }

ephemeral "random_password" "pw" {}
locals {
  pw_length = ephemeral.random_password.pw.length
}

# A managed resource and a data resource may share a type and a name.
resource "external" "p" {}
output "managed" { value = external.p.id }

check "site" {
  data "http" "site" {
    url = "https://example.com"
  }
  assert {
    condition     = data.http.site.status_code == 200
    error_message = "down"
  }
}

# The providers, served by the project's test provider (../plugins).
terraform {
  required_providers {
    external = { source = "tofu-rs/external" }
    random   = { source = "tofu-rs/random" }
    http     = { source = "tofu-rs/http" }
  }
}
