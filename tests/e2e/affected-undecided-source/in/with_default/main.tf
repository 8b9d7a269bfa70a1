variable "module_dir" {
  type    = string
  default = "../modules/x"
}

module "m" {
  source = var.module_dir
}
