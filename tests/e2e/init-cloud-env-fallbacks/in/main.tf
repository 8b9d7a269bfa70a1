terraform {
  cloud {
    workspaces {
      tags = ["app"]
    }
  }
}
