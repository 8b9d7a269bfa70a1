provider "test" {
  regin = "x"
  token = 5
}

provider "test" {
  alias = "empty"
}
