terraform {
  cloud {
    hostname     = "tfe.invalid"
    organization = "acme"
    workspaces {
      name = "app"
    }
  }
}
