variable "items" {
  type = list(string)
}

resource "terraform_data" "item" {
  for_each = toset(var.items)
  input    = { name = each.value }
}

output "ids" {
  value = { for k, v in terraform_data.item : k => v.id }
}

output "items" {
  value = [for k, v in terraform_data.item : v.input]
}

output "count" {
  value = length(var.items)
}
