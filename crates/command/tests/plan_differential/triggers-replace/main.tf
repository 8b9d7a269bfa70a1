# triggers_replace of every shape, and input left out.
resource "terraform_data" "seed" {
  input = 1
}

resource "terraform_data" "no_input" {
  triggers_replace = "static"
}

resource "terraform_data" "list_trigger" {
  input            = "x"
  triggers_replace = [terraform_data.seed.id, "y"]
}

resource "terraform_data" "map_trigger" {
  triggers_replace = { a = 1, b = terraform_data.seed.output }
}

resource "terraform_data" "empty" {
}

output "no_input_output" {
  value = terraform_data.no_input.output
}

output "empty_input" {
  value = terraform_data.empty.input
}
