variable "x" {
  type    = string
  default = var.y
}

variable "x" {}

resource "aws_instance" "web" {
  count    = 2
  for_each = {}
}

varable "typo" {}
