module "s" {
  source = "./sub"
}
