variable "v" {
  default = 1
}
