# Before it plans, OpenTofu checks that every import targets a managed
# resource the configuration declares, and that no removed block's object
# is still declared; each step's errors stop the plan.
resource "terraform_data" "kept" {}

import {
  to = terraform_data.missing
  id = "x"
}

import {
  to = data.terraform_remote_state.s
  id = "y"
}
