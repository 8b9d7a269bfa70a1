terraform {
  cloud {
    hostname = "tfe.invalid"
    workspaces {
      name = "app"
      tags = ["a"]
    }
  }
}
