resource "test_instance" "a" {
  ami = "ami-1"
  netwrk {}
  dynamic "nope" {
    for_each = []
    content {}
  }
  network "labelled" {
    name = "x"
  }
  setting {}
}
