//! The contexts a reference is written in: one configuration fragment per
//! place that accepts an expression (or, for `moved`, `removed` and
//! `import.to`, an address), with `@REF@` where the object goes.
//!
//! Conditions compare the reference with null (`@REF@ != null`) and error
//! messages interpolate that comparison, so every object gives a value of
//! the type the place wants and only the reference itself can be wrong.

/// What the place accepts and which repetition data it has.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Place {
    /// An expression; `count`, `each` and `self` say what is in scope.
    Expression {
        count: bool,
        each: bool,
        self_ok: bool,
    },
    /// A `condition` (precondition, postcondition, check assert):
    /// OpenTofu's decoder requires at least one reference in it.
    Condition { block: &'static str, self_ok: bool },
    /// `moved { from = @REF@ }`.
    MovedFrom,
    /// `removed { from = @REF@ }`.
    RemovedFrom,
    /// `import { to = @REF@ }`.
    ImportTo,
}

/// One context.
#[derive(Clone, Copy, Debug)]
pub struct Context {
    pub name: &'static str,
    pub template: &'static str,
    pub place: Place,
    /// Uses a non-builtin provider (`x_thing`, `provider "x"`): terraform
    /// cannot validate it offline, and OpenTofu itself would need the
    /// provider installed; the row checks references only.
    pub builtin_only: bool,
    /// Needs the child module `./child`.
    pub needs_child: bool,
}

const fn expr(count: bool, each: bool, self_ok: bool) -> Place {
    Place::Expression {
        count,
        each,
        self_ok,
    }
}

const fn ctx(name: &'static str, template: &'static str, place: Place) -> Context {
    Context {
        name,
        template,
        place,
        builtin_only: true,
        needs_child: false,
    }
}

/// Every context of the table.
pub fn all() -> Vec<Context> {
    let plain = expr(false, false, false);
    vec![
        ctx("local", "locals {\n  ctx = @REF@\n}\n", plain),
        ctx("output", "output \"ctx\" {\n  value = @REF@\n}\n", plain),
        ctx(
            "resource",
            "resource \"terraform_data\" \"ctx\" {\n  input = @REF@\n}\n",
            plain,
        ),
        ctx(
            "resource_count",
            "resource \"terraform_data\" \"ctx\" {\n  count = 1\n  input = @REF@\n}\n",
            expr(true, false, false),
        ),
        ctx(
            "resource_for_each",
            "resource \"terraform_data\" \"ctx\" {\n  for_each = toset([\"a\"])\n  input    = @REF@\n}\n",
            expr(false, true, false),
        ),
        Context {
            builtin_only: false,
            ..ctx(
                "nested_block",
                "resource \"x_thing\" \"ctx\" {\n  b {\n    a = @REF@\n  }\n}\n",
                plain,
            )
        },
        Context {
            builtin_only: false,
            ..ctx(
                "dynamic_block",
                "resource \"x_thing\" \"ctx\" {\n  dynamic \"b\" {\n    for_each = [1]\n    content {\n      a = @REF@\n    }\n  }\n}\n",
                plain,
            )
        },
        Context {
            needs_child: true,
            ..ctx(
                "module_argument",
                "module \"m2\" {\n  source = \"./child\"\n  in     = @REF@\n}\n",
                plain,
            )
        },
        // Not `provider "x"`: the ephemeral `x_e` belongs to provider x, and
        // a provider configured from its own resource is a cycle, not a
        // reference error.
        Context {
            builtin_only: false,
            ..ctx("provider", "provider \"p\" {\n  a = @REF@\n}\n", plain)
        },
        ctx(
            "check_condition",
            "check \"ctx\" {\n  assert {\n    condition     = @REF@ != null\n    error_message = \"m\"\n  }\n}\n",
            Place::Condition {
                block: "assert",
                self_ok: false,
            },
        ),
        ctx(
            "check_error_message",
            "check \"ctx\" {\n  assert {\n    condition     = path.module != null\n    error_message = \"${@REF@ != null}\"\n  }\n}\n",
            plain,
        ),
        ctx(
            "check_data",
            "check \"ctx\" {\n  data \"terraform_remote_state\" \"cd\" {\n    backend = \"local\"\n    config = {\n      path = \"nonexistent.tfstate\"\n    }\n    defaults = {\n      k = @REF@\n    }\n  }\n  assert {\n    condition     = data.terraform_remote_state.cd.outputs != null\n    error_message = \"m\"\n  }\n}\n",
            plain,
        ),
        ctx(
            "import_id",
            "resource \"terraform_data\" \"ctx\" {}\nimport {\n  to = terraform_data.ctx\n  id = \"${@REF@ != null}\"\n}\n",
            plain,
        ),
        ctx(
            "import_to",
            "import {\n  to = @REF@\n  id = \"i\"\n}\n",
            Place::ImportTo,
        ),
        ctx(
            "moved_from",
            "moved {\n  from = @REF@\n  to   = terraform_data.moved_to\n}\nresource \"terraform_data\" \"moved_to\" {}\n",
            Place::MovedFrom,
        ),
        ctx(
            "removed_from",
            "removed {\n  from = @REF@\n  lifecycle {\n    destroy = false\n  }\n}\n",
            Place::RemovedFrom,
        ),
        ctx(
            "variable_validation",
            "variable \"vv\" {\n  default = \"a\"\n  validation {\n    condition     = var.vv != null && @REF@ != null\n    error_message = \"m\"\n  }\n}\n",
            plain,
        ),
        ctx(
            "precondition",
            "resource \"terraform_data\" \"ctx\" {\n  lifecycle {\n    precondition {\n      condition     = @REF@ != null\n      error_message = \"m\"\n    }\n  }\n}\n",
            Place::Condition {
                block: "precondition",
                self_ok: false,
            },
        ),
        ctx(
            "postcondition",
            "resource \"terraform_data\" \"ctx\" {\n  lifecycle {\n    postcondition {\n      condition     = @REF@ != null\n      error_message = \"m\"\n    }\n  }\n}\n",
            Place::Condition {
                block: "postcondition",
                self_ok: true,
            },
        ),
        ctx(
            "output_precondition",
            "output \"ctx\" {\n  value = 1\n  precondition {\n    condition     = @REF@ != null\n    error_message = \"m\"\n  }\n}\n",
            Place::Condition {
                block: "precondition",
                self_ok: false,
            },
        ),
    ]
}
