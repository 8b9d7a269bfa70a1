provider "configured" {
}

run "setup" {
  module {
    source = "./setup"
  }
}

run "plain" {
}
