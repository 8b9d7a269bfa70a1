module "vpc" {
  source = "./modules/vpc"
}
