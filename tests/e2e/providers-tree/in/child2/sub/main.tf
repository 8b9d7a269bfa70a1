resource "tls_key" "a" {}
