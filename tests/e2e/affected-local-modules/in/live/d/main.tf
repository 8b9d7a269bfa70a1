module "u" {
  source = "../../modules/unrelated"
}
