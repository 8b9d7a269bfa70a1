//! References to provider configurations: `provider = aws`,
//! `provider = aws.west`, `provider = aws.by_region["us"]` and
//! `provider = aws.by_region[each.key]` (OpenTofu's `decodeProviderConfigRef`).

use hclsyntax::static_expr::{abs_traversal, native_view};
use hclsyntax::{has_errors, Diagnostic, Diagnostics, Expr, ExprKind, Range, StepKind};

use crate::compat_shim::{is_native_quoted_string, shim_traversal_in_string, Shimmed};

/// A provider configuration reference as written.
#[derive(Debug, Clone)]
pub struct ProviderConfigRef {
    /// The provider's local name (`aws`).
    pub name: String,
    pub name_range: Range,
    /// The configuration alias (`west`); empty if none.
    pub alias: String,
    pub alias_range: Option<Range>,
    /// The instance key of a provider configuration using `for_each`
    /// (`"us"`, `each.key`), evaluated at plan time.
    pub key_expr: Option<Expr>,
}

impl ProviderConfigRef {
    /// The configuration referred to, without its instance key: the key
    /// of [`crate::Module::provider_configs`].
    pub fn addr(&self) -> addrs::LocalProviderConfig {
        addrs::LocalProviderConfig::new(&self.name, &self.alias)
    }

    /// `name` or `name.alias`, as OpenTofu prints a reference.
    pub fn display(&self) -> String {
        self.addr().string_compact()
    }
}

fn invalid_ref(detail: impl Into<String>, subject: Range) -> Diagnostic {
    Diagnostic::error("Invalid provider configuration reference", detail, subject)
}

const ALIAS_SHAPE_DETAIL: &str = "Provider name must either stand alone or be followed by a period and then a configuration alias.";

/// Decodes the expression of a provider reference argument (`provider`, or
/// a value in a module's `providers` map); `arg_name` names it in errors.
pub fn decode_provider_config_ref(
    expr: &Expr,
    arg_name: &str,
) -> (Option<ProviderConfigRef>, Diagnostics) {
    let mut diags = Diagnostics::new();
    // JSON strings spell native expressions here.
    let (view, json_diags) = native_view(expr);
    if has_errors(&json_diags) {
        return (None, json_diags);
    }
    diags.extend(json_diags);
    let mut expr: &Expr = &view;

    // name.alias[expr]: a dynamic key leaves name.alias as the traversal.
    let mut max_len = 3;
    let mut key_expr = None;
    if let ExprKind::Index {
        collection, key, ..
    } = &expr.kind
    {
        max_len = 2;
        key_expr = Some((**key).clone());
        expr = collection;
    }

    let (shimmed, more) = shim_traversal_in_string(expr, false);
    diags.extend(more);
    // Errors of the traversal are replaced by ours, with more context.
    let (traversal, subject, quoted) = match shimmed {
        Shimmed::Unchanged(e) => (
            abs_traversal(e).ok(),
            e.range.clone(),
            is_native_quoted_string(e),
        ),
        Shimmed::Traversal(t, range) => (t, range, false),
    };
    let traversal = match traversal {
        Some(t) if t.steps.len() < max_len => t,
        _ => {
            if quoted {
                diags.push(invalid_ref(
                    "A provider configuration reference must not be given in quotes.",
                    subject,
                ));
            } else {
                diags.push(invalid_ref(
                    format!("The {arg_name} argument requires a provider type name, optionally followed by a period and then a configuration alias and optional instance key."),
                    subject,
                ));
            }
            return (None, diags);
        }
    };

    diags.extend(check_provider_name_normalized(
        &traversal.root,
        &traversal.root_range,
    ));
    if has_errors(&diags) {
        return (None, diags);
    }

    let mut ret = ProviderConfigRef {
        name: traversal.root.clone(),
        name_range: traversal.root_range.clone(),
        alias: String::new(),
        alias_range: None,
        key_expr,
    };

    if let Some(step) = traversal.steps.first() {
        match &step.kind {
            StepKind::Attr(alias) => {
                ret.alias = alias.clone();
                ret.alias_range = Some(step.range.clone());
            }
            StepKind::Index(_) => {
                diags.push(invalid_ref(ALIAS_SHAPE_DETAIL, step.range.clone()));
                return (Some(ret), diags);
            }
        }
    }
    if let Some(step) = traversal.steps.get(1) {
        match &step.kind {
            StepKind::Index(key) => {
                ret.key_expr = Some(Expr::new(ExprKind::Literal(key.clone()), traversal.range()));
            }
            StepKind::Attr(_) => {
                diags.push(invalid_ref(ALIAS_SHAPE_DETAIL, step.range.clone()));
                return (Some(ret), diags);
            }
        }
    }

    if ret.alias.is_empty() && ret.key_expr.is_some() {
        diags.push(invalid_ref(
            "Provider assignment requires an alias when specifying an instance key, in the form of provider.name[instance_key]",
            traversal.range(),
        ));
    }
    (Some(ret), diags)
}

/// `checkProviderNameNormalized`: a local name must be written in its
/// normal (lower-case) form.
pub fn check_provider_name_normalized(name: &str, range: &Range) -> Diagnostics {
    match normalize_provider_part(name) {
        Err(why) => vec![Diagnostic::error(
            "Invalid provider local name",
            format!("{name} is an invalid provider local name: {why}"),
            range.clone(),
        )],
        Ok(normal) if normal != name => vec![Diagnostic::error(
            "Invalid provider local name",
            format!(
                "Provider names must be normalized. Replace {} with {} to fix this error.",
                hclsyntax::ast::quote_string(name),
                hclsyntax::ast::quote_string(&normal)
            ),
            range.clone(),
        )],
        Ok(_) => Vec::new(),
    }
}

/// The normal form of a provider name part (`ParseProviderPart`): case
/// folded; letters, digits and single dashes, no leading or trailing dash.
// TODO: use the addrs crate's IDNA-based version once it exists.
fn normalize_provider_part(given: &str) -> Result<String, &'static str> {
    if given.is_empty() {
        return Err("must have at least one character");
    }
    if given.contains('.') {
        return Err("dots are not allowed");
    }
    if given.contains("--") {
        return Err("cannot use multiple consecutive dashes");
    }
    let valid = given.chars().all(|c| c == '-' || c.is_alphanumeric())
        && !given.starts_with('-')
        && !given.ends_with('-');
    if !valid {
        return Err(
            "must contain only letters, digits, and dashes, and may not use leading or trailing dashes",
        );
    }
    Ok(given.to_lowercase())
}
