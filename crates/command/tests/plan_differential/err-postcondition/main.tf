# A postcondition on a known planned value that fails.
resource "terraform_data" "a" {
  input = "short"
  lifecycle {
    postcondition {
      condition     = length(self.input) > 10
      error_message = "The input is too short."
    }
  }
}
