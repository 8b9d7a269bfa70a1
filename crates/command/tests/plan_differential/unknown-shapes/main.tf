# Unknown values inside sets, maps, templates and conditionals.
resource "terraform_data" "seed" {
  count = 2
  input = count.index
}

resource "terraform_data" "set_unknown" {
  input = toset([terraform_data.seed[0].id, "known"])
}

resource "terraform_data" "template" {
  input = "id=${terraform_data.seed[0].id}, n=${length(terraform_data.seed)}"
}

resource "terraform_data" "cond" {
  input = terraform_data.seed[0].id == "" ? "empty" : "full"
}

resource "terraform_data" "splat_unknown" {
  input = {
    ids     = terraform_data.seed[*].id
    outputs = terraform_data.seed[*].output
    inputs  = terraform_data.seed[*].input
  }
}

resource "terraform_data" "map_unknown" {
  input = tomap({ a = terraform_data.seed[0].id, b = "b" })
}

resource "terraform_data" "sensitive_unknown" {
  input = sensitive(terraform_data.seed[1].id)
}

output "ids" {
  value = terraform_data.seed[*].id
}

output "template" {
  value = terraform_data.template.input
}

output "partial_object" {
  value = { known = "k", unknown = terraform_data.seed[0].output }
}
