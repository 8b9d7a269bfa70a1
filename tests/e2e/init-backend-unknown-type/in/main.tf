terraform {
  backend "foo" {
  }
}
