module "me" {
  source = "./"
}

module "a" {
  source = "./a"
}
