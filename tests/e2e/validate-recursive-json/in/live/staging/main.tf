module "service" {
  source = "../../modules/service"
  env    = "staging"
}

output "name" {
  value = module.service.name
}
