# The override's one network block hides the base's three (no "Too many").
resource "test_instance" "a" {
  network {
    name = "only"
  }
}

# configs.MergeBodies reads both bodies partially: "amii" goes unreported,
# as in OpenTofu; the type error does not.
resource "test_instance" "b" {
  size = "not a number"
  amii = "x"
}
