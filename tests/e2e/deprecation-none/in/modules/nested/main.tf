variable "legacy" {
  type       = string
  default    = null
  deprecated = "The legacy variable is ignored."
}

output "legacy_out" {
  value      = "l"
  deprecated = "legacy_out will be removed."
}
