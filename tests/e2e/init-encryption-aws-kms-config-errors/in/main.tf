terraform {
  encryption {
    key_provider "aws_kms" "spec" {
      kms_key_id = "alias/state"
      region     = "eu-central-1"
      key_spec   = "RSA_2048"
    }
    key_provider "aws_kms" "empty_id" {
      kms_key_id = ""
      region     = "eu-central-1"
      key_spec   = "AES_256"
    }
    key_provider "aws_kms" "no_spec" {
      kms_key_id = "alias/state"
      region     = "eu-central-1"
    }
    key_provider "aws_kms" "no_region" {
      kms_key_id = "alias/state"
      key_spec   = "AES_256"
    }
    key_provider "aws_kms" "two_endpoints" {
      kms_key_id = "alias/state"
      region     = "eu-central-1"
      key_spec   = "AES_256"
      endpoints {
        sts = "sts.example.com"
      }
      endpoints {
        iam = "iam.example.com"
      }
    }
    key_provider "aws_kms" "kms_endpoint" {
      kms_key_id = "alias/state"
      region     = "eu-central-1"
      key_spec   = "AES_256"
      endpoints {
        kms = "http://127.0.0.1:4566"
      }
    }
    key_provider "aws_kms" "retries" {
      kms_key_id  = "alias/state"
      region      = "eu-central-1"
      key_spec    = "AES_256"
      max_retries = "many"
    }
    key_provider "aws_kms" "short_role" {
      kms_key_id = "alias/state"
      region     = "eu-central-1"
      key_spec   = "AES_256"
      assume_role = {
        role_arn = "arn:aws:iam::111122223333:role/state"
        duration = "5m"
      }
    }
    method "aes_gcm" "main" {
      keys = key_provider.aws_kms.spec
    }
    state {
      method = method.aes_gcm.main
    }
  }
}
