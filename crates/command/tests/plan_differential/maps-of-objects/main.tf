# for_each over a map of objects with nested collections.
variable "services" {
  type = map(object({
    port     = number
    replicas = number
    tags     = map(string)
    hosts    = list(string)
  }))
  default = {
    web = { port = 80, replicas = 2, tags = { tier = "front" }, hosts = ["a", "b"] }
    api = { port = 8080, replicas = 1, tags = {}, hosts = [] }
  }
}

resource "terraform_data" "svc" {
  for_each = var.services
  input    = each.value
  triggers_replace = {
    port = each.value.port
    key  = each.key
  }
}

output "ports" {
  value = { for k, s in terraform_data.svc : k => s.input.port }
}

output "all" {
  value = var.services
}

output "flat_hosts" {
  value = flatten([for s in var.services : s.hosts])
}
