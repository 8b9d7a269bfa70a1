module "r" {
  source = "git::https://example.com/r.git?ref=v1"
}
