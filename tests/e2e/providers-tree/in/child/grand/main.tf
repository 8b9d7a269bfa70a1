resource "aws_instance" "x" {}
