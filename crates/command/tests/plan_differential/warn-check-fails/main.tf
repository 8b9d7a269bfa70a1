# A failing check block is a warning; the plan still succeeds.
variable "port" {
  type    = number
  default = 80
}

check "port" {
  assert {
    condition     = var.port > 1024
    error_message = "The port is privileged."
  }
}

resource "terraform_data" "p" {
  input = var.port
}
