variable "owner" {
  type       = string
  default    = "platform"
  deprecated = "Owners come from tags now."
}

output "owner" {
  value = var.owner
}

output "region" {
  value = var.region
}
