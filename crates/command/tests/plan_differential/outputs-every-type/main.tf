# Outputs of every type: primitives, collections, structural, nested, empty.
resource "terraform_data" "r" {
  input = "r"
}

output "string" {
  value = "text"
}

output "number_int" {
  value = 42
}

output "number_frac" {
  value = 3.25
}

output "number_big" {
  value = 12345678901234567890
}

output "bool" {
  value = true
}

output "list" {
  value = tolist(["a", "b"])
}

output "set" {
  value = toset(["b", "a", "b"])
}

output "map" {
  value = tomap({ a = 1, b = 2 })
}

output "tuple" {
  value = ["a", 1, true]
}

output "object" {
  value = { name = "n", size = 2, flags = [true, false] }
}

output "empty_list" {
  value = []
}

output "empty_map" {
  value = {}
}

output "empty_set" {
  value = toset([])
}

output "list_of_maps" {
  value = [{ a = "1" }, { b = "2" }]
}

output "unknown_string" {
  value = terraform_data.r.id
}

output "object_with_unknown" {
  value = { id = terraform_data.r.id, name = "r" }
}

output "number_string" {
  value = tostring(1.5)
}
