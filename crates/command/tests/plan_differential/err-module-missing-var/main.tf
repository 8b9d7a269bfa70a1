module "m" {
  source = "./m"
}
