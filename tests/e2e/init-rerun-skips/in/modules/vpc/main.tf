module "sub" {
  source = "./sub"
}
