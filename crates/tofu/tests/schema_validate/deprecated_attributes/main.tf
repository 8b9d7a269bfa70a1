# Setting a deprecated attribute is for the provider to warn about; reading
# one from a resource is OpenTofu's "Value derived from a deprecated source".
resource "test_instance" "a" {
  ami      = "ami-1"
  old_size = 1
  old_name = "x"
}

resource "test_instance" "b" {
  ami  = test_instance.a.old_name
  size = test_instance.a.old_size
}

output "whole" {
  value = test_instance.a.old_name
}

resource "test_instance" "counted" {
  count = 2
  ami   = "ami-1"
}

output "counted" {
  value = test_instance.counted[0].old_name
}
