provider "test" {
  region = "here"
}

variable "nets" {
  type    = list(string)
  default = ["a", "b"]
}

resource "test_instance" "a" {
  ami  = "ami-1"
  size = 2
  tags = { Name = "a" }

  dynamic "network" {
    for_each = var.nets
    iterator = n
    content {
      name = n.value
      port = n.key
    }
  }

  root_device {
    volume_size = 8
  }

  setting "one" {
    value = "1"
  }

  dynamic "setting" {
    for_each = { two = "2" }
    labels   = [setting.key]
    content {
      value = setting.value
    }
  }

  rule {
    cidr = "10.0.0.0/8"
  }
}

resource "test_group" "g" {
  required_one {}
  member {}
}

resource "test_nested" "n" {
  disks  = [{ size = 1 }, { size = 2, label = "b" }]
  config = { a = "x" }
  labels = { k = { v = "v" } }
}

resource "test_legacy" "l" {
  ingress {
    from = 1
    to   = 2
  }
  ingress {
    from = 3
    to   = 4
  }
}

data "test_image" "i" {
  name = test_instance.a.root_device.volume_size
}

ephemeral "test_secret" "s" {}

output "ok" {
  value = [test_instance.a.arn, test_instance.a.network[0].name, test_instance.a.setting["one"].value, data.test_image.i.id, test_nested.n.disks[0].serial]
}
