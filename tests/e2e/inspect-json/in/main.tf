variable "region" {
  type        = string
  default     = "eu-west-1"
  description = "Where to deploy."
}

variable "count_of" {
  type = number
}

output "region" {
  value     = var.region
  sensitive = true
}

module "net" {
  source  = "hashicorp/consul/aws"
  version = "~> 0.1"
}

resource "terraform_data" "a" {}

data "http" "b" {
  url = "https://example.com"
}
