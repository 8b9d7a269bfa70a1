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
    /// Characters `from..to` of the reference (a step of an address).
    Within { from: u64, to: u64 },
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
    /// plan-lite is known to lack the plan-time check that gives the
    /// (plan-only) errors: its plan is reported, not failed.
    pub plan_gap: Option<&'static str>,
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
                    At::Within { from, to } => Span {
                        column: reference.column + from,
                        end_column: reference.column + to,
                        ..reference
                    },
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
        plan_gap: None,
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

/// The declaring block's `DefRange` (its type keyword): where the moved
/// block's own checks point.
fn block_keyword(word: &str) -> At {
    At::Fixed(Span {
        line: 1,
        column: 1,
        end_line: 1,
        end_column: 1 + word.len() as u64,
    })
}

/// The last `part` of the address as written (`.o`, `[0]`): HCL's
/// attribute steps start at their dot, index steps at their bracket.
fn part(object: &Object, part: &str) -> At {
    let from = object.text.rfind(part).expect("the part is in the address") as u64;
    At::Within {
        from,
        to: from + part.chars().count() as u64,
    }
}

/// The trailing attribute step of a resource `Attribute` object.
fn attribute_step(object: &Object) -> At {
    let dot = object.text.rfind('.').expect("an attribute step");
    part(object, &object.text[dot..])
}

/// The instance key step of a `module.x[k]` or resource instance object.
fn key_step(object: &Object) -> At {
    let open = object.text.rfind('[').expect("an index step");
    part(object, &object.text[open..])
}

/// `hcl.AbsTraversalForExpr`: the splat and the function call are not
/// traversals.
fn not_a_traversal() -> Error {
    error(
        "Invalid expression",
        "A single static variable reference is required: only attribute access and indexing with constant keys. No calculations, function calls, template expressions, etc are allowed here.",
        At::Reference,
    )
}

/// `parseResourceTypeAndName` (internal/addrs/parse_target.go): a single
/// name left after the module prefix (`self`, `module.m.o`'s `.o`).
fn no_type_and_name(at: At) -> Error {
    error(
        "Invalid address",
        "Resource specification must include a resource type and name.",
        at,
    )
}

/// `moved.from`, `removed.from`, `import.to`: the text is an address.
///
/// OpenTofu has no reserved first words in addresses: after the module
/// prefix, `parseResourceInstanceUnderModule` and `parseResourceUnderModule`
/// (internal/addrs/parse_target.go) take the first two names as a managed
/// resource's type and name unless the first is `data` or `ephemeral`, so
/// `var.v`, `local.l`, `count.index`, `each.key`, `path.module` and
/// `terraform.workspace` are the (undeclared) managed resources of types
/// `var`, `local`, `count`, ... Only `self` (one name) and the two names
/// followed by an attribute step are refused.
fn address(object: &Object, place: Place) -> Expectation {
    match place {
        Place::MovedFrom => moved_from(object),
        Place::RemovedFrom => removed_from(object),
        _ => import_to(object),
    }
}

/// `decodeMovedBlock` (internal/configs/moved.go) with
/// `ParseMoveEndpoint` (internal/addrs/move_endpoint.go). When `from`
/// does not parse, `moved.From` stays nil and `SubjectAllowed` is false
/// for nil (move_endpoint.go), so every refused `from` also gets the
/// "not allowed to be moved" error at the block's keyword.
fn moved_from(object: &Object) -> Expectation {
    let not_movable = || {
        error(
            "Invalid \"moved\" address",
            "The resource referenced by the \"from\" attribute is not allowed to be moved.",
            block_keyword("moved"),
        )
    };
    let parse_error = |e: Error| rejected_at_load(vec![e, not_movable()]);
    match object.kind {
        Kind::ModuleOutput => parse_error(no_type_and_name(part(object, ".o"))),
        // A module instance and a resource cannot unify (MightUnifyWith).
        Kind::ModuleCall | Kind::ModuleInstance => rejected_at_load(vec![error(
            "Invalid \"moved\" addresses",
            "The \"from\" and \"to\" addresses must either both refer to resources or both refer to modules.",
            block_keyword("moved"),
        )]),
        Kind::Resource(_, Shape::Splat) | Kind::ProviderFunction => parse_error(not_a_traversal()),
        Kind::Resource(_, Shape::Attribute) => parse_error(error(
            "Invalid address",
            "Resource instance key must be given in square brackets.",
            attribute_step(object),
        )),
        Kind::Resource(Mode::Ephemeral, _) => rejected_at_load(vec![not_movable()]),
        // ValidateMoves (internal/refactoring/move_validate.go), after the
        // plan: the table declares the objects it moves from.
        Kind::Resource(mode @ (Mode::Managed | Mode::Data), shape) => {
            // movableObjectDeclRange: the resource block, or the count or
            // for_each expression that declares the instance (line 7 is
            // the first declaration after the five-line template).
            let (noun, short, at) = match (mode, shape) {
                (_, Shape::Whole) => ("resource", "resource", "7,1"),
                (Mode::Managed, Shape::CountInstance) => ("resource instance", "instance", "11,11"),
                (Mode::Managed, _) => ("resource instance", "instance", "15,14"),
                (_, Shape::CountInstance) => ("resource instance", "instance", "14,13"),
                _ => ("resource instance", "instance", "21,14"),
            };
            rejected_by_plan(vec![error(
                "Moved object still exists",
                format!(
                    "This statement declares a move from {}, but that {noun} is still declared at main.tf:{at}.\n\nChange your configuration so that this {short} will be declared as terraform_data.moved_to instead.",
                    object.text
                ),
                block_keyword("moved"),
            )])
        }
        Kind::SelfRef => parse_error(no_type_and_name(At::Reference)),
        // Managed resources of types var, local, count, each, path and
        // terraform that nothing declares.
        Kind::Variable
        | Kind::Local
        | Kind::CountIndex
        | Kind::EachKey
        | Kind::EachValue
        | Kind::Path
        | Kind::Workspace => accepted(),
    }
}

/// `decodeRemovedBlock` (internal/configs/removed.go) with
/// `ParseRemoveEndpoint` (internal/addrs/remove_endpoint.go): a module or
/// resource without instance keys, never a data source or an ephemeral
/// resource.
fn removed_from(object: &Object) -> Expectation {
    let keys = |at: At| {
        rejected_at_load(vec![error(
            "Resource instance address with keys is not allowed",
            "Resource address cannot be a resource instance (e.g. \"null_resource.a[0]\"), it must be a resource instead (e.g. \"null_resource.a\").",
            at,
        )])
    };
    match object.kind {
        Kind::ModuleOutput => rejected_at_load(vec![no_type_and_name(part(object, ".o"))]),
        // validateRemoveStatements (internal/refactoring/
        // remove_statement.go), when the plan starts.
        Kind::ModuleCall => rejected_by_plan(vec![error(
            "Removed module block still exists",
            "This statement declares a removal of the module module.m, but this module block still exists in the configuration. Please remove the module block.",
            block_keyword("removed"),
        )]),
        // parseModulePrefix (internal/addrs/module.go).
        Kind::ModuleInstance => rejected_at_load(vec![error(
            "Module instance address with keys is not allowed",
            "Module address cannot be a module instance (e.g. \"module.a[0]\"), it must be a module instead (e.g. \"module.a\").",
            key_step(object),
        )]),
        Kind::Resource(_, Shape::Splat) | Kind::ProviderFunction => {
            rejected_at_load(vec![not_a_traversal()])
        }
        // parseResourceUnderModule: any one step after the name is taken
        // for a key, an attribute step too.
        Kind::Resource(_, Shape::Attribute) => keys(attribute_step(object)),
        Kind::Resource(_, Shape::CountInstance | Shape::ForEachInstance) => keys(key_step(object)),
        Kind::Resource(Mode::Data, Shape::Whole) => rejected_at_load(vec![error(
            "Data source address is not allowed",
            "Data sources cannot be destroyed, and therefore, 'removed' blocks are not allowed to target them. To remove data sources from the state, you should remove the data source block from the configuration.",
            At::Reference,
        )]),
        Kind::Resource(Mode::Ephemeral, Shape::Whole) => rejected_at_load(vec![error(
            "Ephemeral resource address is not allowed",
            "Ephemeral resources cannot be destroyed, and therefore, 'removed' blocks are not allowed to target them. To remove ephemeral resources from the state, you should remove the ephemeral resource block from the configuration.",
            At::Reference,
        )]),
        Kind::Resource(Mode::Managed, Shape::Whole) => rejected_by_plan(vec![error(
            "Removed resource block still exists",
            "This statement declares a removal of the resource terraform_data.r, but this resource block still exists in the configuration. Please remove the resource block.",
            block_keyword("removed"),
        )]),
        Kind::SelfRef => rejected_at_load(vec![no_type_and_name(At::Reference)]),
        Kind::Variable
        | Kind::Local
        | Kind::CountIndex
        | Kind::EachKey
        | Kind::EachValue
        | Kind::Path
        | Kind::Workspace => accepted(),
    }
}

/// `decodeImportBlock` (internal/configs/import.go): `to` is an
/// expression whose index keys may be dynamic (`absTraversalForImportToExpr`),
/// then `ParseAbsResourceInstance` (internal/addrs/parse_target.go). Any
/// resource mode parses; only the plan wants a managed resource the
/// configuration declares (internal/tofu/context_plan.go:766).
fn import_to(object: &Object) -> Expectation {
    // The detail names the static address (ConfigResource): no key.
    let missing_target = || {
        rejected_by_plan(vec![error(
            "Configuration for import target does not exist",
            format!(
                "The configuration for the given import {} does not exist. All target instances must have an associated configuration to be imported.",
                object.text.split('[').next().unwrap_or(object.text)
            ),
            block_keyword("import"),
        )])
    };
    match object.kind {
        Kind::ModuleOutput => rejected_at_load(vec![no_type_and_name(part(object, ".o"))]),
        Kind::ModuleCall | Kind::ModuleInstance => rejected_at_load(vec![error(
            "Invalid address",
            "A resource instance address is required here. The module path must be followed by a resource instance specification.",
            At::Reference,
        )]),
        Kind::Resource(_, Shape::Splat) | Kind::ProviderFunction => rejected_at_load(vec![error(
            "Invalid import address expression",
            "Import address must be a reference to a resource's address, and only allows for indexing with dynamic keys. For example: module.my_module[expression1].aws_s3_bucket.my_buckets[expression2] for resources inside of modules, or simply aws_s3_bucket.my_bucket for a resource in the root module",
            At::Reference,
        )]),
        Kind::Resource(_, Shape::Attribute) => rejected_at_load(vec![error(
            "Invalid address",
            "Resource instance key must be given in square brackets.",
            attribute_step(object),
        )]),
        Kind::Resource(Mode::Managed, _) => accepted(),
        Kind::Resource(Mode::Data | Mode::Ephemeral, _) => missing_target(),
        Kind::SelfRef => rejected_at_load(vec![no_type_and_name(At::Reference)]),
        Kind::Variable
        | Kind::Local
        | Kind::CountIndex
        | Kind::EachKey
        | Kind::EachValue
        | Kind::Path
        | Kind::Workspace => missing_target(),
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
        // ("Data source address is not allowed", "Resource instance
        // address with keys is not allowed") than terraform's.
        return Some("OpenTofu's removed block");
    }
    if !matches!(context.name, "moved_from" | "import_to") {
        return None;
    }
    let reserved_in_terraform = matches!(
        object.kind,
        Kind::Variable
            | Kind::Local
            | Kind::CountIndex
            | Kind::EachKey
            | Kind::EachValue
            | Kind::Path
            | Kind::Workspace
            | Kind::SelfRef
    );
    if reserved_in_terraform {
        // terraform refuses these first words as resource types ("The
        // keyword ... is reserved"; `self` is a one-name address OpenTofu
        // refuses with its own text); OpenTofu's
        // parseResourceInstanceUnderModule (internal/addrs/
        // parse_target.go:74) has no such check.
        return Some("terraform's reserved keywords in addresses");
    }
    let unparsed = matches!(
        object.kind,
        Kind::ModuleOutput
            | Kind::SelfRef
            | Kind::ProviderFunction
            | Kind::Resource(_, Shape::Splat | Shape::Attribute)
    );
    if context.name == "moved_from" && unparsed {
        // OpenTofu's decodeMovedBlock also refuses the nil endpoint a
        // failed parse leaves (internal/configs/moved.go:49,
        // internal/addrs/move_endpoint.go:306 SubjectAllowed); terraform
        // has no SubjectAllowed.
        return Some("OpenTofu's SubjectAllowed of a nil moved.from");
    }
    let dynamic_in_import = matches!(
        object.kind,
        Kind::ProviderFunction | Kind::Resource(_, Shape::Splat)
    );
    if context.name == "import_to" && dynamic_in_import {
        // OpenTofu parses import.to as an expression with dynamic keys
        // (internal/configs/import.go:203, "Invalid import address
        // expression"); terraform wants a static traversal.
        return Some("OpenTofu's import.to expression");
    }
    None
}
