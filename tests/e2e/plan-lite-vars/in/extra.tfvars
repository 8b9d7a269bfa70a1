password = "hunter2"
tags = { team = "edge", "cost center" = "42" }
