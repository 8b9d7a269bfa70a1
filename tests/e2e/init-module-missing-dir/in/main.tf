module "gone" {
  source = "./nope"
}
