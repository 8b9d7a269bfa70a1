variable "token" {
  type      = string
  default   = "secret"
  sensitive = true
}

terraform {
  cloud {
    hostname     = "tfe.invalid"
    organization = "acme"
    token        = var.token
    workspaces {
      name = "app"
    }
  }
}
