resource "test_instance" "a" {
  ami = "ami-1"
  lifecycle {
    ignore_changes = [arn, zone, tags["x"], network[0].name, root_device.kind]
  }
}
