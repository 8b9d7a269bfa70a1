variable "needed" {
  type = string
}
