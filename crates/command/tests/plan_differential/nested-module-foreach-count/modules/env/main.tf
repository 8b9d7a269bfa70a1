variable "name" {
  type = string
}

variable "replicas" {
  type = number
}

module "server" {
  source = "../server"
  count  = var.replicas
  label  = "${var.name}-${count.index}"
}

resource "terraform_data" "group" {
  count = var.replicas > 1 ? 2 : 1
  input = { env = var.name, slot = count.index }
}

output "servers" {
  value = module.server[*].label
}

output "ids" {
  value = terraform_data.group[*].id
}
