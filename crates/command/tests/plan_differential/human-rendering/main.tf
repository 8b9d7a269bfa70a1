# Values the human plan renders specially: multi-line strings, empty values, numbers, nesting.
resource "terraform_data" "strings" {
  input = {
    empty     = ""
    multiline = "line one\nline two\n"
    heredoc   = <<-EOT
      first
        indented
      last
    EOT
    quote     = "say \"hi\""
    unicode   = "héllo wörld"
    json      = jsonencode({ a = [1, 2], b = "c" })
  }
}

resource "terraform_data" "numbers" {
  input = [0, -1, 1.5, 1e10, 0.1, 123456789012, 1 / 3]
}

resource "terraform_data" "nesting" {
  input = {
    list_of_objects = [{ a = 1, b = [true] }, { a = 2, b = [] }]
    map_of_lists    = { x = ["1"], y = [] }
    deep            = { l1 = { l2 = { l3 = "bottom" } } }
    empty_object    = {}
    empty_list      = []
  }
}

resource "terraform_data" "set" {
  input = toset(["c", "a", "b"])
}

resource "terraform_data" "string_only" {
  input = "just a string"
}

resource "terraform_data" "number_only" {
  input = 7
}

resource "terraform_data" "bool_only" {
  input = false
}

resource "terraform_data" "multiline_only" {
  input = "a\nb"
}

output "multiline" {
  value = "x\ny\n"
}

output "nested" {
  value = { a = [1, { b = "c" }] }
}
