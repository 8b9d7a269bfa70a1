module "sub" { source = "./sub" }
resource "null_resource" "a" {}
