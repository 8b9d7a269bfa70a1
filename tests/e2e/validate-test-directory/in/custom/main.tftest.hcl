run "check" {
  bogus = 1
}
