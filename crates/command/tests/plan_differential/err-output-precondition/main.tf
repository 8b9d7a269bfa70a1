# An output precondition that fails on known values.
locals {
  name = "ab"
}

output "x" {
  value = local.name
  precondition {
    condition     = length(local.name) > 5
    error_message = "The name is too short."
  }
}
