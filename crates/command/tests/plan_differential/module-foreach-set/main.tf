# Module for_each over a set of strings; outputs of module instances.
module "site" {
  source   = "./site"
  for_each = toset(["b", "a"])
  name     = each.key
}

resource "terraform_data" "all" {
  input = { for k, s in module.site : k => s.url }
}

output "urls" {
  value = [for s in module.site : s.url]
}

output "secret_len" {
  value     = length(module.site["a"].secret)
  sensitive = true
}
