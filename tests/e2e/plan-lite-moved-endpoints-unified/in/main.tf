resource "terraform_data" "r" {}
module "a" {
  source = "./m"
}
module "c" {
  source = "./m"
  count  = 2
}
moved {
  from = terraform_data.r
  to   = terraform_data.x[0]
}
moved {
  from = module.a
  to   = module.b
}
moved {
  from = module.a
  to   = module.b[0]
}
moved {
  from = module.c[1]
  to   = module.d
}
