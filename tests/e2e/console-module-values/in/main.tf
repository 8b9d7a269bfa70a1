# for_each on a module; each instance has counted and for_each resources.
module "bucket" {
  source    = "./modules/bucket"
  for_each  = { logs = { versioned = true, rules = ["expire"] }, assets = { versioned = false, rules = ["a", "b"] } }
  name      = each.key
  versioned = each.value.versioned
  rules     = each.value.rules
}

output "names" {
  value = { for k, m in module.bucket : k => m.name }
}

output "rule_counts" {
  value = { for k, m in module.bucket : k => length(m.rule_ids) }
}

resource "terraform_data" "root" {
  count = 2
  input = "root-${count.index}"
}
