module "net" {
  source = "./net"
}

resource "null_resource" "a" {}
