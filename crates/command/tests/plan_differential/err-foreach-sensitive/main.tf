# for_each over a sensitive value.
variable "names" {
  type      = set(string)
  default   = ["a"]
  sensitive = true
}

resource "terraform_data" "each" {
  for_each = var.names
  input    = each.key
}
