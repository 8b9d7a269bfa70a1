variable "old_name" {
  type       = string
  default    = "d"
  deprecated = "Remote: use new_name."
}

module "sub" {
  source = "./sub"
  knob   = "on"
}

output "old_out" {
  value      = "${var.old_name}-${module.sub.sub_out}"
  deprecated = "Remote: use new_out."
}

output "new_out" {
  value = "n"
}
