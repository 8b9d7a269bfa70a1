# A variable validation that fails on its default.
variable "size" {
  type    = number
  default = 3
  validation {
    condition     = var.size % 2 == 0
    error_message = "The size must be even."
  }
}

resource "terraform_data" "a" {
  input = var.size
}
