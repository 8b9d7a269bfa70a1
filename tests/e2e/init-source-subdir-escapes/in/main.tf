module "x" {
  source = "git::file:///tmp/repo.git//../../.."
}
