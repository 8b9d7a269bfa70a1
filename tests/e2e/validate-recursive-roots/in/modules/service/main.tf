variable "env" {
  type = string
}

module "naming" {
  source = "../naming"
  env    = var.env
}

resource "terraform_data" "service" {
  input = module.naming.prefix
}

output "name" {
  value = terraform_data.service.output
}
