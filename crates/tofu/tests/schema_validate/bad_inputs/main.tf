resource "test_instance" "deep" {
  ami = "ami-1"
  root_device {
    root_device {
      root_device {
        root_device {}
      }
    }
  }
}

resource "test_instance" "dynamic_without_anything" {
  ami = "ami-1"
  dynamic "network" {}
}

resource "test_instance" "dynamic_two_labels" {
  ami = "ami-1"
  dynamic "network" "extra" {
    for_each = []
    content {}
  }
}

resource "test_instance" "dynamic_on_attribute" {
  dynamic "ami" {
    for_each = []
    content {}
  }
}

resource "test_instance" "label_on_single" {
  ami = "ami-1"
  root_device "x" {}
}

resource "test_instance" "unknown_for_each" {
  ami = "ami-1"
  dynamic "network" {
    for_each = test_instance.deep.tags
    content {
      name = network.value
    }
  }
  dynamic "setting" {
    for_each = test_instance.deep.tags
    labels   = [setting.key]
    content {}
  }
  # An unknown for_each leaves the generated block's arguments unknown,
  # unevaluated (dynblock's unknownBody): no type error here.
  dynamic "root_device" {
    for_each = test_instance.deep.tags
    content {
      volume_size = "not a number"
    }
  }
}
