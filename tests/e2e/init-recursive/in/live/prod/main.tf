module "service" {
  source = "../../modules/service"
  env    = "prod"
}

output "name" {
  value = module.service.name
}
