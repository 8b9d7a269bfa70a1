resource "test_nested" "a" {
  disks  = [{ size = "big" }]
  config = { a = "x", b = "y" }
}

resource "test_nested" "b" {
  disks  = [{ label = "no size" }]
  labels = "not a map"
}
