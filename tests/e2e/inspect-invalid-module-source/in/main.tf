module "a" {
  source = "stage"
}
