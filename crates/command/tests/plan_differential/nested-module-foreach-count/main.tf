# A module for_each whose child calls a counted module holding counted resources.
module "env" {
  source   = "./modules/env"
  for_each = { dev = 1, prod = 2 }
  name     = each.key
  replicas = each.value
}

output "servers" {
  value = { for k, m in module.env : k => m.servers }
}

output "ids" {
  value = module.env["prod"].ids
}
