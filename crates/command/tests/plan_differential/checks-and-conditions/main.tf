# Passing preconditions, postconditions on known and unknown values, check blocks.
variable "name" {
  type    = string
  default = "service"
  validation {
    condition     = length(var.name) > 3
    error_message = "Too short."
  }
}

resource "terraform_data" "a" {
  input = var.name
  lifecycle {
    precondition {
      condition     = var.name != ""
      error_message = "Empty."
    }
    postcondition {
      condition     = self.input == var.name
      error_message = "Input differs."
    }
    postcondition {
      condition     = self.output != "never"
      error_message = "Unknown until apply."
    }
  }
}

check "name_ok" {
  assert {
    condition     = startswith(var.name, "serv")
    error_message = "Bad prefix."
  }
}

output "name" {
  value = terraform_data.a.input
  precondition {
    condition     = terraform_data.a.input != ""
    error_message = "Empty output."
  }
}
