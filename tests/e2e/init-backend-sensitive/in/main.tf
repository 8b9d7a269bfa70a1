variable "path" {
  type      = string
  default   = "secret.tfstate"
  sensitive = true
}

terraform {
  backend "local" {
    path = var.path
  }
}
