# Splats over counted resources, full and legacy, and over module instances.
resource "terraform_data" "node" {
  count = 3
  input = { index = count.index, name = "node-${count.index}" }
}

resource "terraform_data" "summary" {
  input = {
    names = terraform_data.node[*].input.name
    ids   = terraform_data.node[*].id
    legacy = terraform_data.node.*.input.index
  }
}

resource "terraform_data" "per_node" {
  count = length(terraform_data.node)
  input = terraform_data.node[count.index].input.name
}

module "m" {
  source = "./m"
  count  = 2
  n      = count.index
}

output "names" {
  value = terraform_data.node[*].input.name
}

output "ids" {
  value = terraform_data.node[*].id
}

output "module_values" {
  value = module.m[*].value
}

output "first_input" {
  value = terraform_data.node[0].input
}
