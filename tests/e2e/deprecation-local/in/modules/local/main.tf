variable "old_name" {
  type       = string
  default    = "d"
  deprecated = "Use new_name instead."
}

variable "new_name" {
  type    = string
  default = "n"
}

module "nested" {
  source = "../nested"
  legacy = var.new_name
}

locals {
  inner = module.nested.legacy_out
}

output "old_out" {
  value      = var.old_name
  deprecated = "Use new_out instead."
}

output "new_out" {
  value = var.new_name
}
