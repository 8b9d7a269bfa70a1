# Variables converted to their declared types (numbers from strings, sets, nested optionals).
variable "count_str" {
  type    = number
  default = "3"
}

variable "set_of_numbers" {
  type    = set(number)
  default = [3, 1, 2, 1]
}

variable "nested" {
  type = list(object({
    name = string
    opt  = optional(object({ a = optional(number, 7), b = optional(string) }), {})
  }))
  default = [{ name = "x" }, { name = "y", opt = { b = "bee" } }]
}

variable "any_value" {
  type    = any
  default = { k = [1, 2] }
}

variable "untyped" {
  default = ["a", 1]
}

resource "terraform_data" "counted" {
  count = var.count_str
  input = var.set_of_numbers
}

resource "terraform_data" "nested" {
  input = var.nested
}

resource "terraform_data" "any" {
  input = [var.any_value, var.untyped]
}

output "nested" {
  value = var.nested
}

output "set_of_numbers" {
  value = var.set_of_numbers
}
