variable "env" {
  type = string
}

output "prefix" {
  value = "app-${var.env}"
}
