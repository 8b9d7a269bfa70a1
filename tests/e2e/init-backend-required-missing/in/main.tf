terraform {
  backend "gcs" {
    prefix = "p"
  }
}
