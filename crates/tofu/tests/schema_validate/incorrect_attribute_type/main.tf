resource "test_instance" "a" {
  ami  = "ami-1"
  size = "big"
  tags = ["not", "a", "map"]
}
