variable "module_dir" {
  type = string
}

module "m" {
  source = var.module_dir
}
