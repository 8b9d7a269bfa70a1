# for_each over sets of strings: toset of a list with duplicates, each.key = each.value.
variable "names" {
  type    = list(string)
  default = ["b", "a", "c", "a"]
}

variable "zones" {
  type    = set(string)
  default = ["z2", "z1"]
}

resource "terraform_data" "name" {
  for_each = toset(var.names)
  input    = "${each.key}=${each.value}"
}

resource "terraform_data" "zone" {
  for_each = var.zones
  input    = { zone = each.value }
}

resource "terraform_data" "empty" {
  for_each = toset([])
  input    = each.key
}

output "names" {
  value = [for n in terraform_data.name : n.input]
}

output "zone_keys" {
  value = keys(terraform_data.zone)
}
