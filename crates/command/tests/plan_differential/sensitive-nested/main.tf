# Sensitive values inside nested attributes of an input.
variable "db_password" {
  type      = string
  default   = "s3cret"
  sensitive = true
}

variable "creds" {
  type = object({ user = string, token = string })
  default = { user = "bob", token = "t0k" }
  sensitive = true
}

resource "terraform_data" "db" {
  input = {
    name     = "main"
    password = var.db_password
    nested   = { list = ["x", var.db_password], plain = 1 }
  }
}

resource "terraform_data" "whole" {
  input = var.creds
}

resource "terraform_data" "partial" {
  input = { user = nonsensitive(var.creds.user), len = length(var.db_password) }
}

resource "terraform_data" "list" {
  input            = [var.db_password, "open"]
  triggers_replace = { secret = var.db_password }
}

output "db_input" {
  value     = terraform_data.db.input
  sensitive = true
}

output "user" {
  value = terraform_data.partial.input.user
}
