# A resource precondition that fails.
variable "name" {
  type    = string
  default = "x"
}

resource "terraform_data" "a" {
  input = var.name
  lifecycle {
    precondition {
      condition     = length(var.name) > 3
      error_message = "The name is too short."
    }
  }
}
