terraform {
  required_version = ">= 1.6"
}

variable "environment" {
  type        = string
  description = "Deployment environment name."
  default     = "staging"
}

variable "zones" {
  type    = list(string)
  default = ["a", "b"]
}

locals {
  name_prefix = "app-${var.environment}"
  subnets     = { for z in var.zones : z => "${local.name_prefix}-${z}" }
}

resource "terraform_data" "server" {
  count = length(var.zones)
  input = "${local.name_prefix}-${count.index}"

  lifecycle {
    precondition {
      condition     = length(var.zones) > 0
      error_message = "At least one zone is required."
    }
  }
}

resource "terraform_data" "subnet" {
  for_each = local.subnets
  input    = each.value
}

output "subnet_names" {
  value = [for s in terraform_data.subnet : s.input]
}
