resource "test_instance" "a" {
  count = 2
  ami   = "ami-1"
}

resource "test_instance" "b" {
  count = 2
  ami   = "ami-1"
  lifecycle {
    replace_triggered_by = [
      test_instance.a[count.index].ami,
      test_instance.a[count.index].nonexistent,
      test_instance.a[each.key],
      test_instance.missing,
      test_instance.a[count.index].network.name,
      test_instance.a[0].rule[0],
      test_instance.a[count.index + 1],
    ]
  }
}
