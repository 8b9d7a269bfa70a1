locals {
  x = 1
}
resource "terraform_data" "a" {
  lifecycle {
    precondition {
      condition     = local.x == 2
      error_message = "pre fails"
    }
  }
}
output "o" {
  value = 1
  precondition {
    condition     = local.x == 2
    error_message = "out fails"
  }
}
check "c" {
  assert {
    condition     = local.x == 2
    error_message = "check fails"
  }
}
