module "n" {
  source = "../../modules/net"
}
