terraform {
  required_providers {
    aws = {
      source  = "hashicorp/aws"
      version = ">= 5.1, ~> 5.0"
    }
  }
}

resource "aws_instance" "a" {}
resource "google_compute_instance" "b" {}
