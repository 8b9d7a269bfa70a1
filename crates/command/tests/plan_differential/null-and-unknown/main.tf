# Null values, null inputs and unknown values in collections.
variable "maybe" {
  type    = string
  default = null
}

resource "terraform_data" "null_input" {
  input = null
}

resource "terraform_data" "from_null_var" {
  input = var.maybe
}

resource "terraform_data" "seed" {
  input = "seed"
}

resource "terraform_data" "mixed" {
  input = {
    known    = "k"
    nothing  = null
    unknown  = terraform_data.seed.id
    list     = ["a", terraform_data.seed.id, null]
    map      = { x = terraform_data.seed.output, y = "y" }
    coalesce = coalesce(var.maybe, "fallback")
  }
}

resource "terraform_data" "unknown_list" {
  input = [terraform_data.seed.id, terraform_data.seed.output]
}

output "null_output" {
  value = terraform_data.null_input.output
}

output "nothing" {
  value = null
}

output "maybe" {
  value = var.maybe
}

output "mixed" {
  value = terraform_data.mixed.input
}

output "unknown_element" {
  value = ["a", terraform_data.seed.id]
}
