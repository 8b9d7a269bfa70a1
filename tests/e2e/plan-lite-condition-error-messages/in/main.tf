variable "s" {
  type      = string
  default   = "secret"
  sensitive = true
}
resource "terraform_data" "a" {
  input = "x"
  lifecycle {
    precondition {
      condition     = var.s != ""
      error_message = "passes but sensitive ${var.s}"
    }
    precondition {
      condition     = var.s == ""
      error_message = "fails sensitive ${var.s}"
    }
    precondition {
      condition     = var.s == ""
      error_message = terraform_data.b.output
    }
    precondition {
      condition     = var.s == ""
      error_message = null
    }
    precondition {
      condition     = var.s == ""
      error_message = ["x"]
    }
  }
}
resource "terraform_data" "b" {
  input = "y"
}
check "c" {
  assert {
    condition     = terraform_data.b.output == "y"
    error_message = "unknown cond"
  }
}
output "o" {
  value = 1
  precondition {
    condition     = var.s != ""
    error_message = "ok ${var.s}"
  }
}
