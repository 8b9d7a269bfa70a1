resource "terraform_data" "x" {
  dynamic "foo" {
    for_each = []
    content {}
  }
}
