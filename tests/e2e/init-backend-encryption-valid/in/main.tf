variable "passphrase" {
  type    = string
  default = "correct-horse-battery-staple"
}

locals {
  key_length = 32
}

terraform {
  encryption {
    key_provider "pbkdf2" "main" {
      passphrase = var.passphrase
      key_length = local.key_length
    }
    method "aes_gcm" "main" {
      keys = key_provider.pbkdf2.main
    }
    state {
      method = method.aes_gcm.main
    }
  }
}
