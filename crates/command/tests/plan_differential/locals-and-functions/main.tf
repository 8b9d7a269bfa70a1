# Locals built with functions, templates, conditionals and for expressions.
variable "prefix" {
  type    = string
  default = "app"
}

locals {
  names   = [for i in range(3) : format("%s-%02d", var.prefix, i)]
  lookup  = zipmap(local.names, range(length(local.names)))
  upper   = { for k, v in local.lookup : upper(k) => v if v > 0 }
  joined  = join(",", local.names)
  tpl     = <<-EOT
    prefix=${var.prefix}
    %{for n in local.names}n=${n}
    %{endfor}
  EOT
  numbers = [1, 2.5, -3, 1e3]
  merged  = merge({ a = 1 }, { b = "two" })
}

resource "terraform_data" "l" {
  input = {
    names   = local.names
    lookup  = local.lookup
    upper   = local.upper
    joined  = local.joined
    tpl     = local.tpl
    numbers = local.numbers
    sum     = sum(local.numbers)
    merged  = local.merged
  }
}

output "tpl" {
  value = local.tpl
}

output "upper" {
  value = local.upper
}

output "numbers" {
  value = local.numbers
}
