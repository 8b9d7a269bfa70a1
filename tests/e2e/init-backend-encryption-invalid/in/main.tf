variable "passphrase" {
  type    = string
  default = "correct-horse-battery-staple"
}

terraform {
  encryption {
    key_provider "pbkdf2" "main" {
      passphrase = var.passphrase
    }
    key_provider "nope" "other" {
    }
    key_provider "pbkdf2" "short" {
      passphrase = "too short"
    }
    method "aes_gcm" "nokeys" {
      aad = "x"
      typo = 1
    }
    method "aes_gcm" "main" {
      keys = key_provider.pbkdf2.main
    }
    state {
      method = method.aes_gcm.missing
    }
  }
}
