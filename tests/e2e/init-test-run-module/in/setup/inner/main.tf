output "v" { value = 1 }
