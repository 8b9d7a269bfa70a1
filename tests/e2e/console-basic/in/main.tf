variable "names" {
  type    = list(string)
  default = ["a", "b"]
}

variable "secret" {
  type      = string
  default   = "s3cr3t"
  sensitive = true
}

variable "required" {
  type = map(number)
}

variable "opts" {
  type = object({
    name = string
    size = optional(string, "small")
  })
  default = { name = "x" }
}

locals {
  upper  = [for n in var.names : upper(n)]
  joined = join(",", local.upper)
  conn   = { user = "admin", password = var.secret }
}

resource "null_resource" "r" {
  count = 2
}
