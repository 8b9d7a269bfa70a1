terraform {
  cloud {
    hostname     = "tfe.invalid"
    organization = "acme"
    workspaces {
      tags = "app"
    }
    unknown = true
  }
}
