module "x" {
  source = "https://example.com/x.tgz//a/../../x"
}
