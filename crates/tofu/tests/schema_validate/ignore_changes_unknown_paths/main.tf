resource "test_instance" "a" {
  ami = "ami-1"
  lifecycle {
    ignore_changes = [amii, network.name, rule[0], tags["x"], root_device.volume_sise]
  }
}
