resource "test_instance" "a" {
  ami = "ami-1"
  network {
    name = "1"
  }
  network {
    name = "2"
  }
  network {
    name = "3"
  }
  root_device {}
  root_device {}
  setting "k" {}
  setting "k" {}
}

resource "test_group" "g" {
}
