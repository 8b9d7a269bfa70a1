variable "host" {
  type = string
}

terraform {
  cloud {
    hostname     = var.host
    organization = "acme"
    workspaces {
      name = "app"
    }
  }
}
