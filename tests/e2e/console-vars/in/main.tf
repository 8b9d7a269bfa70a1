variable "a" { default = "default" }
variable "b" { default = "default" }
variable "c" { default = "default" }
variable "n" { type = number }
