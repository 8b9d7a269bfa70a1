# depends_on on resources, modules and outputs.
resource "terraform_data" "first" {
  input = "first"
}

resource "terraform_data" "second" {
  input      = "second"
  depends_on = [terraform_data.first]
}

module "child" {
  source     = "./child"
  depends_on = [terraform_data.second]
}

resource "terraform_data" "after_module" {
  input      = module.child.value
  depends_on = [module.child]
}

output "value" {
  value      = module.child.value
  depends_on = [terraform_data.after_module]
}
