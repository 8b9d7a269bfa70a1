resource "terraform_data" "r" {}
resource "terraform_data" "rc" {
  count = 2
}
moved {
  from = terraform_data.r
  to   = terraform_data.moved_to
}
moved {
  from = terraform_data.rc[1]
  to   = terraform_data.moved_to2
}
moved {
  from = terraform_data.rc[5]
  to   = terraform_data.moved_to3
}
