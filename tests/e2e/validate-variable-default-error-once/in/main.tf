variable "a" {
  default = "x"
}

variable "b" {
  default = "${var.a}"
}
