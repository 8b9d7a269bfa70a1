//! Check rules: variable `validation`, resource `precondition` /
//! `postcondition`, and `check` block `assert` blocks share one shape.

use hclsyntax::{Block, BodySchema, Diagnostic, Diagnostics, Expr, Range};

/// A condition that must hold, and the message to give when it does not.
#[derive(Debug, Clone)]
pub struct CheckRule {
    pub condition: Option<Expr>,
    pub error_message: Option<Expr>,
    /// The block header (`validation`, `precondition`, ...).
    pub decl_range: Range,
}

fn schema() -> BodySchema {
    BodySchema::new(&["condition", "error_message"], &[]).require(&["condition", "error_message"])
}

/// Decodes a check-shaped block. Override files may not contain them.
pub fn decode_check_rule_block(block: &Block, override_file: bool) -> (CheckRule, Diagnostics) {
    let mut diags = Diagnostics::new();
    let mut rule = CheckRule {
        condition: None,
        error_message: None,
        decl_range: block.def_range(),
    };
    if override_file {
        diags.push(Diagnostic::error(
            format!("Can't override {} blocks", block.type_name),
            format!(
                "Override files cannot override \"{}\" blocks.",
                block.type_name
            ),
            rule.decl_range.clone(),
        ));
        return (rule, diags);
    }
    let (content, more) = block.body.content(&schema());
    diags.extend(more);
    if let Some(attr) = content.attribute("condition") {
        let cond = attr.expr.clone();
        if condition_has_no_references(&cond) {
            diags.push(Diagnostic::error(
                format!("Invalid {} expression", block.type_name),
                "The condition expression must refer to at least one object from elsewhere in the configuration, or else its result would not be checking anything.",
                cond.range.clone(),
            ));
        }
        rule.condition = Some(cond);
    }
    if let Some(attr) = content.attribute("error_message") {
        rule.error_message = Some(attr.expr.clone());
    }
    (rule, diags)
}

fn condition_has_no_references(expr: &Expr) -> bool {
    expr.variables().is_empty()
}
