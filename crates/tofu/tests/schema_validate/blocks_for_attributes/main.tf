resource "test_legacy" "bad" {
  ingress {
    from = "x"
    to   = 2
  }
  ingress {
    form = 1
  }
}

resource "test_legacy" "attribute_and_dynamic" {
  dynamic "ingress" {
    for_each = [1, 2]
    content {
      from = ingress.value
      to   = ingress.value
    }
  }
}
