c = "from-auto"
n = 2
