terraform {
  backend "local" {}
}
