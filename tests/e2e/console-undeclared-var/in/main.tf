variable "n" {
  default = 1
}
