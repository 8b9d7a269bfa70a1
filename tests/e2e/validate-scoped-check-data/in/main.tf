check "site" {
  data "terraform_remote_state" "s" {
    backend = "local"
    config = { path = "nonexistent.tfstate" }
  }
  assert {
    condition     = data.terraform_remote_state.s.outputs != null
    error_message = "x"
  }
}
output "o" { value = data.terraform_remote_state.s.outputs }
resource "terraform_data" "r" { input = data.terraform_remote_state.s }
