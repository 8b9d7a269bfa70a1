resource "terraform_data" "a" {
  input = local.missing
}
