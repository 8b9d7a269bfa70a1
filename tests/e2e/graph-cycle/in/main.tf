resource "terraform_data" "a" { input = terraform_data.b.id }
resource "terraform_data" "b" { input = terraform_data.a.id }
