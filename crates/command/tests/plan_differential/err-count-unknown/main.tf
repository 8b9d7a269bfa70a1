# count known only after apply.
resource "terraform_data" "seed" {
  input = 2
}

resource "terraform_data" "counted" {
  count = terraform_data.seed.output
}
