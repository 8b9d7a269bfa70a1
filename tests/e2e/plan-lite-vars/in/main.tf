variable "region" {
  type = string
}

variable "password" {
  type      = string
  sensitive = true
}

variable "tags" {
  type = map(string)
  default = {
    team = "core"
  }
}

resource "terraform_data" "server" {
  input = {
    region   = var.region
    password = var.password
    tags     = var.tags
  }
}

output "password" {
  value     = var.password
  sensitive = true
}

output "region" {
  value = var.region
}
