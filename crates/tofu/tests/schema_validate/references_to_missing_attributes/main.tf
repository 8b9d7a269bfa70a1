resource "test_instance" "a" {
  ami = "ami-1"
}

resource "test_instance" "b" {
  ami  = test_instance.a.nonexistent
  size = test_instance.a.sise
  tags = { x = test_instance.a.network.name }
  zone = test_instance.a.count
}

output "rule" {
  value = test_instance.a.rule[0]
}

output "inside_attribute" {
  value = test_instance.a.tags.x.y
}
