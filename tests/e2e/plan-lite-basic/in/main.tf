# count, for_each, unknowns flowing from one instance to another, nested
# values and outputs.
locals {
  envs = { dev = 1, prod = 3 }
}

resource "terraform_data" "env" {
  for_each = local.envs
  input = {
    name     = each.key
    replicas = each.value
    zones    = [for i in range(each.value) : "zone-${i}"]
  }
}

resource "terraform_data" "worker" {
  count = 2
  input = "worker-${count.index}"
}

resource "terraform_data" "link" {
  input = {
    after  = terraform_data.worker[0].id
    names  = [for w in terraform_data.worker : w.input]
    script = "line one\nline two\n"
  }
}

resource "terraform_data" "nothing" {}

output "env_names" {
  value = keys(terraform_data.env)
}

output "first_worker_id" {
  value = terraform_data.worker[0].id
}

output "none" {
  value = null
}
