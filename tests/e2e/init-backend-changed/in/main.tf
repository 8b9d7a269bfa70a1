terraform {
  backend "local" {
    path = "new.tfstate"
  }
}
