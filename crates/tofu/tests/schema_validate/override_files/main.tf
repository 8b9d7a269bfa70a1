resource "test_instance" "a" {
  ami = "ami-1"
  network {
    name = "a"
  }
  network {
    name = "b"
  }
  network {
    name = "c"
  }
}

resource "test_instance" "b" {
  ami = "ami-1"
}
