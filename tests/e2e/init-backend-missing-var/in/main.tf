variable "state_path" {
  type = string
}

terraform {
  backend "local" {
    path = var.state_path
  }
}
