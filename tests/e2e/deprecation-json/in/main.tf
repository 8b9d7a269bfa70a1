module "local" {
  source   = "./modules/local"
  old_name = "given"
}

module "remote" {
  source   = "git::https://example.com/org/remote.git?ref=v1.0.0"
  old_name = "given"
}

locals {
  from_local  = module.local.old_out
  from_remote = module.remote.old_out
  both        = "${module.local.old_out}-${module.remote.new_out}"
}

resource "terraform_data" "r" {
  input = {
    a = module.remote.old_out
    b = module.local.new_out
  }
}

module "again" {
  source   = "./modules/nested"
  legacy   = module.local.old_out
}

output "o" {
  value = module.local.old_out
}
