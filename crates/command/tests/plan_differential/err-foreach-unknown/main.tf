# for_each keys known only after apply.
resource "terraform_data" "seed" {
  input = "x"
}

resource "terraform_data" "each" {
  for_each = toset([terraform_data.seed.id])
  input    = each.key
}
