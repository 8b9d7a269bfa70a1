variable "bucket" {
  type = string
}

terraform {
  backend "s3" {
    bucket = var.bucket
    key    = "state/terraform.tfstate"
    region = "eu-west-1"
    endpoints = {
      s3 = "http://localhost:9000"
    }
  }
}
