run "first" {
  module {
    source = "./setup/inner"
  }
}
run "plain" {}
