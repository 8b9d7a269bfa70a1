variable "v" {
  default = "x"
}
