resource "test_instance" "missing_content" {
  ami = "ami-1"
  dynamic "network" {
    for_each = ["a"]
  }
}

resource "test_instance" "two_contents" {
  ami = "ami-1"
  dynamic "network" {
    for_each = ["a"]
    content {
      name = "x"
    }
    content {
      name = "y"
    }
  }
}

resource "test_instance" "null_for_each" {
  ami = "ami-1"
  dynamic "network" {
    for_each = null
    content {
      name = "x"
    }
  }
}

resource "test_instance" "number_for_each" {
  ami = "ami-1"
  dynamic "network" {
    for_each = 5
    content {
      name = "x"
    }
  }
}

resource "test_instance" "labels_on_unlabelled_block" {
  ami = "ami-1"
  dynamic "network" {
    for_each = ["a"]
    labels   = ["x"]
    content {
      name = "x"
    }
  }
}

resource "test_instance" "map_block_without_labels" {
  ami = "ami-1"
  dynamic "setting" {
    for_each = ["a"]
    content {}
  }
}

resource "test_instance" "bad_iterator" {
  ami = "ami-1"
  dynamic "network" {
    for_each = ["a"]
    iterator = a.b
    content {
      name = "x"
    }
  }
}

resource "test_instance" "wrong_type_in_content" {
  ami = "ami-1"
  dynamic "network" {
    for_each = ["a", "b", "c"]
    content {
      name = network.value
      port = "port ${network.key}"
    }
  }
}

resource "test_instance" "nested_dynamic_unknown_attr" {
  ami = "ami-1"
  dynamic "root_device" {
    for_each = [1]
    content {
      volume_size = root_device.value
      dynamic "extra" {
        for_each = [1]
        content {}
      }
    }
  }
}

resource "test_instance" "null_label" {
  ami = "ami-1"
  dynamic "setting" {
    for_each = ["a"]
    labels   = [null]
    content {}
  }
}
