resource "random_id" "x" {}
