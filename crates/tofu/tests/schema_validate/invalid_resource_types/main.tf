resource "test_instanc" "a" {
}

resource "test_image" "b" {
}

data "test_instance" "c" {
}

ephemeral "test_nothing" "d" {
}

resource "test_zzzzzzzzzzzzz" "e" {
}

output "reference_to_invalid_type" {
  value = test_instanc.a.id
}
