resource "aws_vpc" "v" {}
