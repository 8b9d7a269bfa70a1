variable "n" {
  type = number
}

output "value" {
  value = var.n * 2
}
