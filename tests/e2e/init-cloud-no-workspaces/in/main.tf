terraform {
  cloud {
    hostname     = "tfe.invalid"
    organization = "acme"
  }
}
