//! The referenceable objects of the table: what a row refers to, and the
//! declarations that object needs in the generated configuration.

/// Which resource mode an object belongs to.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Mode {
    /// `terraform_data`, builtin.
    Managed,
    /// `terraform_remote_state`, builtin.
    Data,
    /// `x_e`, from a provider tofu-rs has no schema for.
    Ephemeral,
}

/// What kind of object a reference names; the expectation rules match on it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Kind {
    Variable,
    Local,
    ModuleOutput,
    /// `module.m`: the whole (single-instance) call.
    ModuleCall,
    /// `module.mc[0]` / `module.mf["a"]`.
    ModuleInstance,
    /// A resource, data or ephemeral resource; `shape` says how it is named.
    Resource(Mode, Shape),
    CountIndex,
    EachKey,
    EachValue,
    SelfRef,
    Path,
    Workspace,
    ProviderFunction,
}

/// How a resource reference is written.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Shape {
    Whole,
    CountInstance,
    ForEachInstance,
    Splat,
    Attribute,
}

/// One referenceable object.
#[derive(Clone, Copy, Debug)]
pub struct Object {
    /// The reference as written in an expression.
    pub text: &'static str,
    pub kind: Kind,
}

impl Object {
    /// Declarations the reference needs (besides the child module).
    pub fn declarations(&self) -> &'static str {
        match self.kind {
            Kind::Variable => "variable \"v\" {\n  default = \"a\"\n}\n",
            Kind::Local => "locals {\n  l = \"a\"\n}\n",
            Kind::ModuleOutput | Kind::ModuleCall => "module \"m\" {\n  source = \"./child\"\n}\n",
            Kind::ModuleInstance => {
                "module \"mc\" {\n  source = \"./child\"\n  count  = 1\n}\n\
                 module \"mf\" {\n  source   = \"./child\"\n  for_each = toset([\"a\"])\n}\n"
            }
            Kind::Resource(Mode::Managed, _) => {
                "resource \"terraform_data\" \"r\" {\n  input = \"a\"\n}\n\
                 resource \"terraform_data\" \"rc\" {\n  count = 1\n  input = \"a\"\n}\n\
                 resource \"terraform_data\" \"rf\" {\n  for_each = toset([\"a\"])\n  input    = \"a\"\n}\n"
            }
            Kind::Resource(Mode::Data, _) => {
                "data \"terraform_remote_state\" \"s\" {\n  backend = \"local\"\n  config = {\n    path = \"nonexistent.tfstate\"\n  }\n}\n\
                 data \"terraform_remote_state\" \"sc\" {\n  count   = 1\n  backend = \"local\"\n  config = {\n    path = \"nonexistent.tfstate\"\n  }\n}\n\
                 data \"terraform_remote_state\" \"sf\" {\n  for_each = toset([\"a\"])\n  backend  = \"local\"\n  config = {\n    path = \"nonexistent.tfstate\"\n  }\n}\n"
            }
            Kind::Resource(Mode::Ephemeral, _) => {
                "ephemeral \"x_e\" \"e\" {}\n\
                 ephemeral \"x_e\" \"ec\" {\n  count = 1\n}\n\
                 ephemeral \"x_e\" \"ef\" {\n  for_each = toset([\"a\"])\n}\n"
            }
            // terraform v1.11 finds provider functions only through
            // required_providers; OpenTofu has the builtin provider's
            // functions either way (both accept the declaration).
            Kind::ProviderFunction => {
                "terraform {\n  required_providers {\n    terraform = {\n      source = \"terraform.io/builtin/terraform\"\n    }\n  }\n}\n"
            }
            _ => "",
        }
    }

    /// Whether the object needs the child module `./child`.
    pub fn needs_child(&self) -> bool {
        matches!(
            self.kind,
            Kind::ModuleOutput | Kind::ModuleCall | Kind::ModuleInstance
        )
    }

    /// Whether the object comes from a provider terraform cannot run
    /// offline (the ephemeral `x_e`).
    pub fn builtin_only(&self) -> bool {
        !matches!(self.kind, Kind::Resource(Mode::Ephemeral, _))
    }
}

const fn obj(text: &'static str, kind: Kind) -> Object {
    Object { text, kind }
}

/// Every object of the table.
pub fn all() -> Vec<Object> {
    use Kind::*;
    use Shape::*;
    let mut out = vec![
        obj("var.v", Variable),
        obj("local.l", Local),
        obj("module.m.o", ModuleOutput),
        obj("module.m", ModuleCall),
        obj("module.mc[0]", ModuleInstance),
        obj("module.mf[\"a\"]", ModuleInstance),
    ];
    let resources = [
        (
            Mode::Managed,
            "terraform_data.r",
            "terraform_data.rc",
            "terraform_data.rf",
            "output",
        ),
        (
            Mode::Data,
            "data.terraform_remote_state.s",
            "data.terraform_remote_state.sc",
            "data.terraform_remote_state.sf",
            "outputs",
        ),
        (
            Mode::Ephemeral,
            "ephemeral.x_e.e",
            "ephemeral.x_e.ec",
            "ephemeral.x_e.ef",
            "a",
        ),
    ];
    for (mode, single, counted, for_each, attr) in resources {
        let leak = |s: String| -> &'static str { Box::leak(s.into_boxed_str()) };
        out.push(obj(single, Resource(mode, Whole)));
        out.push(obj(
            leak(format!("{counted}[0]")),
            Resource(mode, CountInstance),
        ));
        out.push(obj(
            leak(format!("{for_each}[\"a\"]")),
            Resource(mode, ForEachInstance),
        ));
        out.push(obj(
            leak(format!("{counted}[*].{attr}")),
            Resource(mode, Splat),
        ));
        out.push(obj(
            leak(format!("{single}.{attr}")),
            Resource(mode, Attribute),
        ));
    }
    out.extend([
        obj("count.index", CountIndex),
        obj("each.key", EachKey),
        obj("each.value", EachValue),
        obj("self", SelfRef),
        obj("path.module", Path),
        obj("path.root", Path),
        obj("path.cwd", Path),
        obj("terraform.workspace", Workspace),
        obj("provider::terraform::encode_expr(1)", ProviderFunction),
    ]);
    out
}
