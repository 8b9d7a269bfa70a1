resource "test_instance" "a" {
  amii = "ami-1"
}
