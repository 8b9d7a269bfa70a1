module "inner" {
  source = "./inner"
}
