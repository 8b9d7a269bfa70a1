variable "knob" {
  type       = string
  default    = "off"
  deprecated = "Remote sub: knob is gone."
}

output "sub_out" {
  value      = "s"
  deprecated = "Remote sub: sub_out is gone."
}
