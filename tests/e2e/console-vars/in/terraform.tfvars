a = "from-tfvars"
b = "from-tfvars"
c = "from-tfvars"
n = 1
