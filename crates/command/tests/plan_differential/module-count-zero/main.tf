# Module count of zero and one; module outputs of complex types.
module "none" {
  source = "./mod"
  count  = 0
  items  = ["x"]
}

module "one" {
  source = "./mod"
  count  = 1
  items  = ["p", "q"]
}

module "plain" {
  source = "./mod"
  items  = []
}

output "none" {
  value = module.none
}

output "one_ids" {
  value = module.one[0].ids
}

output "plain" {
  value = module.plain
}

output "each_items" {
  value = module.one[0].items
}
