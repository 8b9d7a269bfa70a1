# for_each over null.
variable "m" {
  type    = map(string)
  default = null
}

resource "terraform_data" "a" {
  for_each = var.m
}
