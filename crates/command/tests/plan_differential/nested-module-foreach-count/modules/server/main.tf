variable "label" {
  type = string
}

resource "terraform_data" "disk" {
  count = 2
  input = "${var.label}-disk-${count.index}"
}

output "label" {
  value = var.label
}
