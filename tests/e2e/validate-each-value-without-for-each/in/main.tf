resource "terraform_data" "a" {
  input = each.value
}
resource "terraform_data" "b" {
  input = each.key
}
