variable "env" {
  type = string
}

variable "retries" {
  type    = number
  default = 1
}

locals {
  state_file = "state/${var.env}.tfstate"
}

terraform {
  backend "local" {
    path = local.state_file
  }
}
