variable "name" {
  type = string
}

variable "secret" {
  type      = string
  default   = "pw"
  sensitive = true
}

resource "terraform_data" "page" {
  for_each = toset(["index", "about"])
  input    = "https://${var.name}.example/${each.key}"
}

resource "terraform_data" "cred" {
  input = var.secret
}

output "url" {
  value = terraform_data.page["index"].input
}

output "secret" {
  value     = var.secret
  sensitive = true
}
