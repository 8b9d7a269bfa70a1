# count from conditionals: zero instances, one instance, from variables.
variable "enabled" {
  type    = bool
  default = false
}

variable "size" {
  type    = number
  default = 3
}

resource "terraform_data" "maybe" {
  count = var.enabled ? 1 : 0
  input = "enabled"
}

resource "terraform_data" "always" {
  count = var.enabled ? 0 : 1
  input = "disabled"
}

resource "terraform_data" "sized" {
  count = var.size > 2 ? var.size - 1 : var.size
  input = count.index * 10
}

resource "terraform_data" "none" {
  count = 0
  input = "never"
}

output "maybe_ids" {
  value = terraform_data.maybe[*].id
}

output "always_input" {
  value = one(terraform_data.always[*].input)
}

output "sized_inputs" {
  value = terraform_data.sized[*].input
}

output "none_count" {
  value = length(terraform_data.none)
}
