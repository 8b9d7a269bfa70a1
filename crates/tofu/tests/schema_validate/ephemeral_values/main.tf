variable "token" {
  type      = string
  ephemeral = true
}

provider "test" {
  token = var.token
}

resource "test_instance" "a" {
  ami       = var.token
  secret_wo = var.token
  tags = {
    t = var.token
  }
}

ephemeral "test_secret" "s" {
}
