# count must be a whole number.
resource "terraform_data" "a" {
  count = 1.5
}
