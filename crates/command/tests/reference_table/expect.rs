//! What OpenTofu does with each row, as rules over (object kind, place).
//! The texts are OpenTofu's (internal/tofu/evaluate.go,
//! internal/tofu/evaluate_valid.go, internal/configs/checks.go,
//! internal/addrs/*.go at the mirror's HEAD, 1.13.0-dev).

use super::contexts::{Context, Place};
use super::objects::{Kind, Object};
use super::objects::{Mode, Shape};
use super::runner::{Diag, Span};

/// Where an expected diagnostic points.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum At {
    /// The reference (or address) as written.
    Reference,
    /// `@REF@ != null`: a whole condition expression.
    Condition,
    /// A fixed place in the generated file.
    Fixed(Span),
}

/// One expected error.
#[derive(Clone, Debug)]
pub struct Error {
    pub summary: &'static str,
    pub detail: String,
    pub at: At,
}

/// A row's expectation.
#[derive(Clone, Debug)]
pub struct Expectation {
    /// Empty: accepted.
    pub errors: Vec<Error>,
    /// The errors come from decoding the configuration (address and
    /// condition checks), so no graph can be built.
    pub at_load: bool,
    /// `validate` accepts and only `plan` gives the errors (OpenTofu's
    /// validate walk gives unknown repetition data, or skips the place).
    pub plan_only: bool,
    /// No rule is encoded for this address: `validate` is compared with
    /// terraform's where terraform can run, else only checked to survive.
    pub as_terraform: bool,
    /// tofu-rs is known to differ; the row is reported, not failed.
    pub known_gap: Option<&'static str>,
}

impl Expectation {
    pub fn resolve(&self, reference: Span) -> Vec<Diag> {
        self.errors
            .iter()
            .map(|e| Diag {
                summary: e.summary.to_string(),
                detail: e.detail.clone(),
                range: Some(match e.at {
                    At::Reference => reference,
                    // ` != null` follows the reference.
                    At::Condition => Span {
                        end_column: reference.end_column + 8,
                        ..reference
                    },
                    At::Fixed(span) => span,
                }),
            })
            .collect()
    }
}

fn error(summary: &'static str, detail: impl Into<String>, at: At) -> Error {
    Error {
        summary,
        detail: detail.into(),
        at,
    }
}

fn rejected(errors: Vec<Error>) -> Expectation {
    Expectation {
        errors,
        at_load: false,
        plan_only: false,
        as_terraform: false,
        known_gap: None,
    }
}

fn accepted() -> Expectation {
    rejected(Vec::new())
}

fn rejected_at_load(errors: Vec<Error>) -> Expectation {
    Expectation {
        at_load: true,
        ..rejected(errors)
    }
}

fn rejected_by_plan(errors: Vec<Error>) -> Expectation {
    Expectation {
        plan_only: !errors.is_empty(),
        ..rejected(errors)
    }
}

/// HCL's own error for a variable the evaluation context lacks: OpenTofu
/// reports it for `self` where the reference is not statically validated
/// first, because `Scope.EvalContext` drops `putSelfValue`'s diagnostic
/// (internal/lang/eval.go:377 calls `diags.Append` without keeping the
/// result) and HCL then finds no `self`.
fn unknown_self() -> Error {
    error(
        "Unknown variable",
        "There is no variable named \"self\".",
        At::Reference,
    )
}

/// `GetCountAttr` (internal/tofu/evaluate.go).
fn non_counted() -> Error {
    error(
        "Reference to \"count\" in non-counted context",
        "The \"count\" object can only be used in \"module\", \"resource\", and \"data\" blocks, and only when the \"count\" argument is set.",
        At::Reference,
    )
}

/// `GetForEachAttr` (internal/tofu/evaluate.go): each.key without a key.
fn each_without_for_each() -> Error {
    error(
        "Reference to \"each\" in context without for_each",
        "The \"each\" object can be used only in \"module\" or \"resource\" blocks, and only when the \"for_each\" argument is set.",
        At::Reference,
    )
}

/// `GetForEachAttr`: each.value is checked on its own first.
fn each_value_unavailable() -> Error {
    error(
        "each.value cannot be used in this context",
        "A reference to \"each.value\" has been used in a context in which it is unavailable, such as when the configuration no longer contains the value in its \"for_each\" expression. Remove this reference to each.value in your configuration to work around this error.",
        At::Reference,
    )
}

/// `staticValidateReference` (internal/tofu/evaluate_valid.go) and
/// `putSelfValue` (internal/lang/eval.go) say the same.
fn invalid_self() -> Error {
    error(
        "Invalid \"self\" reference",
        "The \"self\" object is not available in this context. This object can be used only in resource provisioner, connection, and postcondition blocks.",
        At::Reference,
    )
}

/// The errors an expression place gives for `object`.
fn expression_errors(object: &Object, count: bool, each: bool, self_ok: bool) -> Vec<Error> {
    match object.kind {
        Kind::CountIndex if !count => vec![non_counted()],
        Kind::EachKey if !each => vec![each_without_for_each()],
        Kind::EachValue if !each => vec![each_value_unavailable()],
        Kind::SelfRef if !self_ok => vec![invalid_self()],
        _ => Vec::new(),
    }
}

/// The rule: what OpenTofu does with `object` written in `context`.
pub fn expect(object: &Object, context: &Context) -> Expectation {
    match context.place {
        Place::Expression {
            count,
            each,
            self_ok,
        } => {
            let errors = expression_errors(object, count, each, self_ok);
            match context.name {
                // nodeModuleVariable.evalModuleVariable
                // (internal/tofu/node_module_variable.go:214): validate
                // gives module call arguments unknown count/each data, so
                // only the plan refuses them.
                "module_argument" if object.kind != Kind::SelfRef => rejected_by_plan(errors),
                // validateCheckRule evaluates a check's error message in
                // the context even when static validation refused it, so
                // self is reported twice (internal/tofu/eval_conditions.go).
                // A variable validation skips the rule instead
                // (evalVariableValidations), so it is reported once.
                "check_error_message" if object.kind == Kind::SelfRef => {
                    rejected(vec![invalid_self(), unknown_self()])
                }
                _ if errors.is_empty() => accepted(),
                _ => rejected(errors),
            }
        }
        Place::Condition { block, self_ok } => {
            // decodeCheckRuleBlock (internal/configs/checks.go): a
            // condition without any reference is refused while decoding.
            if object.kind == Kind::ProviderFunction {
                let summary: &'static str = match block {
                    "assert" => "Invalid assert expression",
                    "precondition" => "Invalid precondition expression",
                    _ => "Invalid postcondition expression",
                };
                let mut errors = vec![error(
                    summary,
                    "The condition expression must refer to at least one object from elsewhere in the configuration, or else its result would not be checking anything.",
                    At::Condition,
                )];
                if block == "assert" {
                    // decodeCheckBlock keeps only valid asserts, so the
                    // check then has none (internal/configs/checks.go).
                    errors.push(error(
                        "Zero assert blocks",
                        "Check blocks must have at least one assert block.",
                        At::Fixed(Span {
                            line: 1,
                            column: 1,
                            end_line: 1,
                            end_column: 12,
                        }),
                    ));
                }
                return rejected_at_load(errors);
            }
            // Conditions are evaluated in their context even when static
            // validation refused it (validate's evaluateExpr,
            // internal/tofu/node_resource_validate.go, and evalCheckRule):
            // self where it is not available is also HCL's unknown
            // variable. A check's condition is not evaluated by validate
            // (nodeCheckAssert without executeChecks), so it is reported
            // once there.
            let mut errors = expression_errors(object, false, false, self_ok);
            if object.kind == Kind::SelfRef && !self_ok && block != "assert" {
                errors.push(unknown_self());
            }
            if errors.is_empty() {
                accepted()
            } else {
                rejected(errors)
            }
        }
        Place::MovedFrom | Place::RemovedFrom | Place::ImportTo => address(object, context.place),
    }
}

/// `moved.from`, `removed.from`, `import.to`: the text is an address,
/// parsed by addrs.ParseMoveEndpoint / ParseRemoveEndpoint /
/// ParseAbsResourceInstance. The reserved first words are refused the
/// same way everywhere (internal/addrs/parse_ref.go's keyword check);
/// the rest is compared with terraform where it can run.
fn address(object: &Object, place: Place) -> Expectation {
    let reserved = |word: &str| {
        error(
            "Invalid address",
            format!("The keyword \"{word}\" is reserved and cannot be used to target a resource address. If you are targeting a resource type that uses a reserved keyword, please prefix your address with \"resource.\"."),
            At::Reference,
        )
    };
    let first = match object.kind {
        Kind::CountIndex => Some("count"),
        Kind::EachKey | Kind::EachValue => Some("each"),
        _ => None,
    };
    match (first, place) {
        (Some(word), Place::MovedFrom | Place::RemovedFrom) => {
            rejected_at_load(vec![reserved(word)])
        }
        _ => Expectation {
            as_terraform: true,
            at_load: true,
            ..accepted()
        },
    }
}

/// The root module as `console` sees it: no count, each or self.
pub fn console_context() -> Context {
    Context {
        name: "console",
        template: "",
        place: Place::Expression {
            count: false,
            each: false,
            self_ok: false,
        },
        builtin_only: true,
        needs_child: false,
    }
}

/// Where terraform v1.11 knowingly says something else than OpenTofu,
/// with the OpenTofu source that decides.
pub fn terraform_differs(object: &Object, context: &Context) -> Option<&'static str> {
    if context.name == "removed_from" {
        // OpenTofu's removed block is its own (internal/addrs/
        // remove_endpoint.go, internal/configs/removed.go): other texts
        // ("Data source address is not allowed", "Invalid address" for
        // instance keys) than terraform's.
        return Some("OpenTofu's removed block");
    }
    let dynamic_in_import = matches!(
        object.kind,
        Kind::ProviderFunction | Kind::Resource(Mode::Data | Mode::Managed, Shape::Splat)
    );
    if context.name == "import_to" && dynamic_in_import {
        // OpenTofu parses import.to as an expression with dynamic keys
        // (internal/configs/import.go:219, "Invalid import address
        // expression"); terraform wants a static traversal.
        return Some("OpenTofu's import.to expression");
    }
    None
}
