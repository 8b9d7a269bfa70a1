//! The scope: references become context variables through `Data`.

use std::cell::RefCell;

use addrs::*;
use cty::{Type, Value};
use hclsyntax::{has_errors, Diagnostic, Diagnostics, Range};

use super::{Data, Scope};
use crate::test_util::parse;

/// Answers every question with a fixed value and records what was asked.
#[derive(Default)]
struct Fixed {
    asked: RefCell<Vec<String>>,
}

impl Fixed {
    fn note(&self, s: String) {
        self.asked.borrow_mut().push(s);
    }
}

impl Data for Fixed {
    fn static_validate_references(
        &self,
        refs: &[Reference],
        _self_addr: Option<&Referenceable>,
        _source: Option<&Referenceable>,
    ) -> Diagnostics {
        refs.iter()
            .filter(|r| r.subject.to_string() == "var.undeclared")
            .map(|r| {
                Diagnostic::error(
                    "Reference to undeclared input variable",
                    "An input variable with the name \"undeclared\" has not been declared.",
                    r.source_range.clone(),
                )
            })
            .collect()
    }
    fn get_count_attr(&self, a: &CountAttr, _: &Range) -> (Value, Diagnostics) {
        self.note(format!("count.{}", a.name));
        (Value::number_int(0), vec![])
    }
    fn get_for_each_attr(&self, a: &ForEachAttr, _: &Range) -> (Value, Diagnostics) {
        self.note(format!("each.{}", a.name));
        (Value::string("k"), vec![])
    }
    fn get_resource(&self, a: &Resource, _: &Range) -> (Value, Diagnostics) {
        self.note(format!("{a:?}"));
        let inst = Value::object_from([("id", Value::string(format!("{}-id", a.name)))]);
        (Value::tuple(vec![inst]), vec![])
    }
    fn get_local_value(&self, a: &LocalValue, r: &Range) -> (Value, Diagnostics) {
        self.note(format!("local.{}", a.name));
        if a.name == "broken" {
            return (
                Value::string("x"),
                vec![Diagnostic::error("Broken local", "", r.clone())],
            );
        }
        (Value::string("L"), vec![])
    }
    fn get_module(&self, a: &ModuleCall, _: &Range) -> (Value, Diagnostics) {
        self.note(format!("module.{}", a.name));
        (Value::object_from([("out", Value::number_int(7))]), vec![])
    }
    fn get_path_attr(&self, a: &PathAttr, _: &Range) -> (Value, Diagnostics) {
        self.note(format!("path.{}", a.name));
        (Value::string("."), vec![])
    }
    fn get_terraform_attr(&self, a: &TerraformAttr, _: &Range) -> (Value, Diagnostics) {
        self.note(format!("terraform.{}", a.name));
        (Value::string("default"), vec![])
    }
    fn get_input_variable(&self, a: &InputVariable, _: &Range) -> (Value, Diagnostics) {
        self.note(format!("var.{}", a.name));
        (Value::number_int(a.name.len() as i64), vec![])
    }
}

fn eval(data: &Fixed, src: &str) -> (Value, Diagnostics) {
    let scope = Scope::new(data, crate::functions::builtin_table());
    scope.eval_expr(&parse(src), &Type::Dynamic)
}

#[test]
fn references_become_variables() {
    let data = Fixed::default();
    let (v, d) = eval(
        &data,
        "[var.abc, local.x, path.module, terraform.workspace, module.m.out, aws_instance.web[0].id, data.d.e[0].id, count.index, each.key, upper(\"q\")]",
    );
    assert!(!has_errors(&d), "{d:?}");
    assert_eq!(
        crate::test_util::show(&v),
        r#"[ 3, "L", ".", "default", 7, "web-id", "e-id", 0, "k", "Q", ]"#
    );
    let asked = data.asked.borrow();
    assert!(asked.contains(&"var.abc".to_string()));
    assert!(asked.iter().any(|a| a.contains("Data")));
}

#[test]
fn invalid_references_and_static_errors_stop_evaluation() {
    let data = Fixed::default();
    let (v, d) = eval(&data, "var.undeclared + 1");
    assert_eq!(d[0].summary, "Reference to undeclared input variable");
    assert!(!v.is_known());
    assert!(data.asked.borrow().is_empty());

    let (_, d) = eval(&data, "count");
    assert_eq!(d[0].summary, "Invalid reference");
}

#[test]
fn values_with_errors_become_unknown() {
    let data = Fixed::default();
    let (v, d) = eval(&data, "local.broken");
    assert_eq!(d[0].summary, "Broken local");
    // Evaluation stops early with an unknown of the wanted type.
    assert_eq!(v, Value::dynamic());
    // The context holds an unknown of the type the data source gave.
    let scope = Scope::new(&data, crate::functions::builtin_table());
    let (refs, _) = scope.references_in_expr(&parse("local.broken"));
    let (ctx, _) = scope.eval_context(&refs);
    let local = ctx.variables().unwrap()["local"]
        .get_attr("broken")
        .unwrap();
    assert_eq!(local, Value::unknown(Type::String));
}

#[test]
fn self_needs_a_self_address() {
    let data = Fixed::default();
    let (_, d) = eval(&data, "self.id");
    assert_eq!(d[0].summary, "Invalid \"self\" reference");

    let mut scope = Scope::new(&data, crate::functions::builtin_table());
    scope.self_addr = Some(Referenceable::ResourceInstance(ResourceInstance {
        resource: Resource {
            mode: ResourceMode::Managed,
            type_name: "aws_instance".into(),
            name: "web".into(),
        },
        key: InstanceKey::Int(0),
    }));
    let (v, d) = scope.eval_expr(&parse("self.id"), &Type::Dynamic);
    assert!(!has_errors(&d), "{d:?}");
    assert_eq!(v, Value::string("web-id"));
}

#[test]
fn results_convert_to_the_wanted_type() {
    let data = Fixed::default();
    let scope = Scope::new(&data, crate::functions::builtin_table());
    let (v, d) = scope.eval_expr(&parse("var.abc"), &Type::String);
    assert!(d.is_empty());
    assert_eq!(v, Value::string("3"));
    let (v, d) = scope.eval_expr(&parse("[var.abc]"), &Type::Bool);
    assert_eq!(d[0].summary, "Incorrect value type");
    assert_eq!(d[0].detail, "Invalid expression value: bool required.");
    assert_eq!(v, Value::unknown(Type::Bool));
}
