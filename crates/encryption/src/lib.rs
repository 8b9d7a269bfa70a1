//! The encryption configuration of a working directory (OpenTofu's
//! `internal/encryption`): the `terraform { encryption { ... } }` block
//! merged with `TF_ENCRYPTION`, checked, and its key providers built where
//! tofu-rs can (all of `aws_kms`: credentials, SigV4, STS and KMS).
//! Nothing is encrypted or decrypted here: tofu-rs reads and writes no
//! state or plan files. Must not know: backends, the command line, how
//! diagnostics are rendered (it returns them; it never prints).
//!
//! What `init` makes of `terraform { encryption { ... } }` and
//! `TF_ENCRYPTION` (OpenTofu's `EncryptionFromModule`, which `init` runs
//! before the backend and before any provider is installed): the
//! environment's configuration merged over the file's, key provider and
//! method types known, references between key providers resolved without
//! cycles, every other reference evaluated in the static context
//! (variables and locals allowed), and the `state` / `plan` targets naming
//! declared methods.
//!
//! Key providers are built as OpenTofu's `setupKeyProvider` builds them
//! where tofu-rs can: `pbkdf2`'s `Config.Build` checks, and the whole of
//! `aws_kms` (credentials, STS validation, KMS `GenerateDataKey`; see
//! [`aws_kms`]), which fails with OpenTofu's "Unable to build / fetch
//! encryption key data" diagnostics. The other key providers that reach a
//! service (`gcp_kms`, `azure_vault`, `openbao`, `external`) are checked
//! but not run.

pub mod aws_kms;
pub mod evaluated_body;
#[cfg(feature = "test-support")]
pub mod testing;

use std::collections::BTreeSet;
use std::sync::Arc;

use configs::encryption::{decode_encryption_body, EncryptionConfig, KeyProviderConfig};
use configs::module::Module;
use configs::static_eval::StaticEvaluator;
use hclsyntax::{Attribute, BodySchema, Diagnostic, Expr, StepKind, Traversal};

use evaluated_body::{EvaluatedArgument, EvaluatedBody};

/// Key provider types OpenTofu's default encryption registry holds.
const KEY_PROVIDERS: &[&str] = &[
    "pbkdf2",
    "aws_kms",
    "gcp_kms",
    "azure_vault",
    "openbao",
    "external",
];
/// Method types OpenTofu's encryption registry knows.
const METHODS: &[&str] = &["aes_gcm", "unencrypted", "external"];

/// Checks the root module's encryption configuration merged with
/// `TF_ENCRYPTION`, and builds its key providers.
pub fn check(root: &Module) -> tfdiags::Diagnostics {
    check_with_env(root, &|name| std::env::var(name).ok())
}

/// [`check`] with the environment given: `TF_ENCRYPTION` and what the
/// key providers read (AWS credentials, endpoints, shared files).
pub fn check_with_env(root: &Module, env_lookup: aws_kms::Env<'_>) -> tfdiags::Diagnostics {
    let mut diags = tfdiags::Diagnostics::new();
    let env = env_lookup("TF_ENCRYPTION").unwrap_or_default();
    let mut cfg = root.encryption.clone();
    if !env.trim().is_empty() {
        let name = if env.trim_start().starts_with('{') {
            "TF_ENCRYPTION.json"
        } else {
            "TF_ENCRYPTION"
        };
        let (file, parse) = hclsyntax::parse_file(name, env.as_bytes());
        let failed = hclsyntax::has_errors(&parse);
        diags.append(parse);
        if failed {
            return diags;
        }
        let (env_cfg, more) = decode_encryption_body(&file.body, file.body.range.clone());
        let failed = hclsyntax::has_errors(&more);
        diags.append(more);
        if failed {
            return diags;
        }
        if let Some(e) = env_cfg {
            cfg = Some(match cfg {
                Some(mut base) => {
                    base.merge(e);
                    base
                }
                None => e,
            });
        }
    }
    let (Some(cfg), Some(eval)) = (cfg, root.static_evaluator.as_ref()) else {
        return diags;
    };
    let mut out = Vec::new();
    let mut done = BTreeSet::new();
    // OpenTofu sets the key providers up for each target (state, plan,
    // remote state): with no target none is run, and nothing is fetched.
    let run = KeyRun {
        env: env_lookup,
        fetch: cfg.state.is_some()
            || cfg.plan.is_some()
            || cfg
                .remote
                .as_ref()
                .is_some_and(|r| r.default.is_some() || !r.targets.is_empty()),
    };
    for kp in &cfg.key_providers {
        setup_key_provider(&cfg, eval, kp, &run, &mut Vec::new(), &mut done, &mut out);
    }
    for m in &cfg.methods {
        if !METHODS.contains(&m.type_name.as_str()) {
            out.push(sourceless(
                "Unknown method type",
                format!("Can not find {}", cty::format::go_quote(&m.type_name)),
            ));
            continue;
        }
        if let Some(schema) = method_schema(&m.type_name) {
            let (_, more) = m.body.content(&schema);
            out.extend(more);
        }
        let (attrs, more) = m.body.just_attributes();
        out.extend(more);
        let ident = eval.method_identifier(m);
        for a in attrs {
            check_refs(&cfg, &a.expr, &mut out);
            if a.expr.variables().iter().all(|t| !is_encryption_ref(t)) {
                let (_, more) = eval.evaluate(&a.expr, &ident);
                out.extend(more);
            }
        }
    }
    if let Some(state) = &cfg.state {
        check_target(
            &cfg,
            state.method.as_ref(),
            state.enforced,
            "state",
            &mut out,
        );
    }
    if let Some(plan) = &cfg.plan {
        check_target(&cfg, plan.method.as_ref(), plan.enforced, "plan", &mut out);
    }
    diags.append(out);
    diags
}

/// The arguments of the key providers whose configuration structs are
/// known here (`gohcl` decoding reports any other argument), plus the
/// `encrypted_metadata_alias` every key provider block takes.
fn key_provider_schema(type_name: &str) -> Option<BodySchema> {
    match type_name {
        "pbkdf2" => Some(BodySchema::new(
            &[
                "passphrase",
                "key_length",
                "iterations",
                "hash_function",
                "salt_length",
                "chain",
                "encrypted_metadata_alias",
            ],
            &[],
        )),
        "aws_kms" => Some(aws_kms::config::body_schema()),
        _ => None,
    }
}

/// The arguments of a key provider's nested blocks.
fn key_provider_block_schema(type_name: &str, block: &str) -> Option<BodySchema> {
    match (type_name, block) {
        ("aws_kms", "endpoints") => Some(aws_kms::config::endpoints_schema()),
        _ => None,
    }
}

/// How far key providers are run: `fetch` is false when no target uses
/// them (OpenTofu then builds none).
struct KeyRun<'a> {
    env: aws_kms::Env<'a>,
    fetch: bool,
}

/// The arguments of the methods (`aes_gcm`'s `keys` is required).
fn method_schema(type_name: &str) -> Option<BodySchema> {
    match type_name {
        "aes_gcm" => Some(BodySchema::new(&["keys", "aad"], &[]).require(&["keys"])),
        "unencrypted" => Some(BodySchema::new(&[], &[])),
        _ => None,
    }
}

fn sourceless(summary: &str, detail: String) -> Diagnostic {
    Diagnostic {
        severity: hclsyntax::Severity::Error,
        summary: summary.to_string(),
        detail,
        subject: None,
        context: None,
    }
}

fn is_encryption_ref(t: &Traversal) -> bool {
    t.root == "key_provider" || t.root == "method"
}

/// `key_provider.<type>.<name>` as (type, name).
fn kp_ref(t: &Traversal) -> Option<(String, String)> {
    if t.root != "key_provider" {
        return None;
    }
    match (t.steps.first(), t.steps.get(1)) {
        (
            Some(hclsyntax::TraversalStep {
                kind: StepKind::Attr(ty),
                ..
            }),
            Some(hclsyntax::TraversalStep {
                kind: StepKind::Attr(name),
                ..
            }),
        ) => Some((ty.clone(), name.clone())),
        _ => None,
    }
}

/// References to key providers must name declared ones.
fn check_refs(cfg: &EncryptionConfig, expr: &Expr, out: &mut Vec<Diagnostic>) {
    for t in expr.variables() {
        if t.root != "key_provider" {
            continue;
        }
        match kp_ref(&t) {
            None => out.push(Diagnostic::error(
                "Invalid Key Provider expression format",
                "Expected key_provider.<type>.<name>",
                t.range(),
            )),
            Some((ty, name)) => {
                if !cfg
                    .key_providers
                    .iter()
                    .any(|k| k.type_name == ty && k.name == name)
                {
                    out.push(Diagnostic::error(
                        "Undefined Key Provider",
                        format!("Key provider {ty}.{name} is missing from the encryption configuration."),
                        t.range(),
                    ));
                }
            }
        }
    }
}

/// `setupKeyProvider` without building the key: dependencies first (with
/// cycle detection), then the provider's own static references.
fn setup_key_provider(
    cfg: &EncryptionConfig,
    eval: &StaticEvaluator,
    kp: &KeyProviderConfig,
    run: &KeyRun<'_>,
    stack: &mut Vec<(String, String)>,
    done: &mut BTreeSet<(String, String)>,
    out: &mut Vec<Diagnostic>,
) {
    let key = (kp.type_name.clone(), kp.name.clone());
    if done.contains(&key) {
        return;
    }
    if stack.contains(&key) {
        out.push(sourceless(
            "Circular reference detected",
            format!(
                "Can not load {} due to circular reference",
                cty::format::go_quote(&format!("key_provider.{}.{}", kp.type_name, kp.name))
            ),
        ));
        done.insert(key);
        return;
    }
    done.insert(key.clone());
    if !KEY_PROVIDERS.contains(&kp.type_name.as_str()) {
        out.push(sourceless(
            "Unknown key_provider type",
            format!("Can not find {}", cty::format::go_quote(&kp.type_name)),
        ));
        return;
    }
    stack.push(key.clone());
    let before = out.len();
    // A known schema decodes arguments and blocks (`gohcl`); otherwise the
    // body may hold arguments only.
    let (attrs, blocks) = match key_provider_schema(&kp.type_name) {
        Some(schema) => {
            let (content, more) = kp.body.content(&schema);
            out.extend(more);
            (content.attributes, content.blocks)
        }
        None => {
            let (attrs, more) = kp.body.just_attributes();
            out.extend(more);
            (attrs, Vec::new())
        }
    };
    let mut nested = Vec::new();
    for b in &blocks {
        if let Some(schema) = key_provider_block_schema(&kp.type_name, &b.type_name) {
            let (content, more) = b.body.content(&schema);
            out.extend(more);
            for a in &content.attributes {
                check_refs(cfg, &a.expr, out);
            }
            nested.push((b.clone(), content.attributes));
        }
    }
    for a in &attrs {
        check_refs(cfg, &a.expr, out);
        for t in a.expr.variables() {
            if let Some((ty, name)) = kp_ref(&t) {
                if let Some(dep) = cfg
                    .key_providers
                    .iter()
                    .find(|k| k.type_name == ty && k.name == name)
                {
                    // Re-entering a provider on the stack is the cycle.
                    let dep_key = (dep.type_name.clone(), dep.name.clone());
                    if stack.contains(&dep_key) {
                        out.push(sourceless(
                            "Circular reference detected",
                            format!(
                                "Can not load {} due to circular reference",
                                cty::format::go_quote(&format!("key_provider.{ty}.{name}"))
                            ),
                        ));
                        continue;
                    }
                    setup_key_provider(cfg, eval, dep, run, stack, done, out);
                }
            }
        }
    }
    stack.pop();
    if out[before..]
        .iter()
        .any(|d| d.severity == hclsyntax::Severity::Error)
    {
        return;
    }
    let ident = eval.key_provider_identifier(kp);
    let mut failed = false;
    let mut evaluate = |attrs: &[Arc<Attribute>]| -> Vec<EvaluatedArgument> {
        attrs
            .iter()
            .map(|a| {
                let value = if a.expr.variables().iter().all(|t| !is_encryption_ref(t)) {
                    let (v, more) = eval.evaluate(&a.expr, &ident);
                    failed |= hclsyntax::has_errors(&more);
                    out.extend(more);
                    Some(v.unmark_deep().0)
                } else {
                    // Another key provider's output: known only once built.
                    None
                };
                EvaluatedArgument {
                    attr: a.clone(),
                    value,
                }
            })
            .collect()
    };
    let mut body = EvaluatedBody {
        arguments: evaluate(&attrs),
        blocks: Vec::new(),
    };
    for (block, block_attrs) in nested {
        let arguments = evaluate(&block_attrs);
        body.blocks.push((
            block,
            EvaluatedBody {
                arguments,
                blocks: Vec::new(),
            },
        ));
    }
    if failed {
        return;
    }
    let build_error = |summary: &str, err: &str| {
        sourceless(
            summary,
            format!(
                "key_provider.{}.{} failed with error: {err}",
                kp.type_name, kp.name
            ),
        )
    };
    match kp.type_name.as_str() {
        "pbkdf2" => {
            let values = body
                .arguments
                .iter()
                .map(|a| (a.attr.name.clone(), a.value.clone()))
                .collect();
            if let Some(err) = pbkdf2_build_error(&values) {
                out.push(build_error("Unable to build encryption key data", &err));
            }
        }
        "aws_kms" if run.fetch => match aws_kms::config::Config::decode(&body) {
            Err(diags) => out.extend(diags),
            Ok(None) => {}
            Ok(Some(config)) => {
                // No encrypted data is read here, so there is no stored
                // metadata: only a new data key is asked for.
                let meta = aws_kms::KeyMeta::default();
                if let Err(f) = aws_kms::run(&config, &meta, run.env) {
                    out.push(build_error(f.summary(), f.message()));
                }
            }
        },
        _ => {}
    }
}

/// The checks of the pbkdf2 key provider's `Config.Build`, with the
/// descriptor's defaults (32-byte key and salt, 600000 iterations, SHA-512).
fn pbkdf2_build_error(
    values: &std::collections::BTreeMap<String, Option<cty::Value>>,
) -> Option<String> {
    let known = |name: &str| -> Option<cty::Value> {
        values
            .get(name)
            .cloned()
            .flatten()
            .filter(|v| v.is_known() && !v.is_null())
    };
    let int = |name: &str, default: i64| -> Option<i64> {
        match values.get(name) {
            None => Some(default),
            Some(None) => None,
            Some(Some(_)) => {
                let v = known(name)?;
                let n = cty::convert::convert(&v, &cty::Type::Number).ok()?;
                Some(n.as_number()?.to_f64() as i64)
            }
        }
    };
    if !values.contains_key("chain") {
        match values.get("passphrase") {
            Some(None) => {}
            _ => {
                let p = known("passphrase")
                    .and_then(|v| cty::convert::convert(&v, &cty::Type::String).ok())
                    .and_then(|v| v.as_str().map(str::to_string))
                    .unwrap_or_default();
                if p.is_empty() {
                    return Some("no passphrase provided".into());
                }
                if p.len() < 16 {
                    return Some("passphrase is too short (minimum 16 characters)".into());
                }
            }
        }
    }
    if int("key_length", 32).is_some_and(|n| n <= 0) {
        return Some("the key length must be larger than zero".into());
    }
    match int("iterations", 600_000) {
        Some(n) if n <= 0 => {
            return Some("the number of iterations must be larger than zero".into())
        }
        Some(n) if n < 200_000 => {
            return Some(
                "the number of iterations is dangerously low (<200000), refusing to generate key"
                    .into(),
            )
        }
        _ => {}
    }
    if int("salt_length", 32).is_some_and(|n| n <= 0) {
        return Some("the salt length must be larger than zero".into());
    }
    let hash = match values.get("hash_function") {
        None => Some("sha512".to_string()),
        Some(_) => known("hash_function").and_then(|v| v.as_str().map(str::to_string)),
    };
    match hash.as_deref() {
        Some("") => {
            Some("invalid key provider configuration: please specify a hash function".into())
        }
        Some(h) if h != "sha256" && h != "sha512" => Some(format!(
            "invalid key provider configuration: invalid hash function name: {h}"
        )),
        _ => None,
    }
}

/// A `state` / `plan` target: its method must be declared; an enforced
/// target needs one.
fn check_target(
    cfg: &EncryptionConfig,
    method: Option<&Expr>,
    enforced: bool,
    name: &str,
    out: &mut Vec<Diagnostic>,
) {
    let Some(expr) = method else {
        if enforced {
            out.push(sourceless(
                "Encryption method required",
                format!(
                    "{} is enforced, and therefore requires a method to be provided",
                    cty::format::go_quote(name)
                ),
            ));
        }
        return;
    };
    let vars = expr.variables();
    let [t] = vars.as_slice() else {
        return;
    };
    if t.root != "method" {
        return;
    }
    let parts: Vec<&str> = t
        .steps
        .iter()
        .filter_map(|s| match &s.kind {
            StepKind::Attr(a) => Some(a.as_str()),
            _ => None,
        })
        .collect();
    let [ty, n] = parts.as_slice() else {
        return;
    };
    if !cfg
        .methods
        .iter()
        .any(|m| m.type_name == *ty && m.name == *n)
    {
        out.push(Diagnostic::error(
            "Undefined encryption method",
            format!(
                "Can not find {} for {}",
                cty::format::go_quote(&format!("method.{ty}.{n}")),
                cty::format::go_quote(name)
            ),
            expr.range.clone(),
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use cty::Value;
    use std::collections::BTreeMap;

    fn vals(pairs: &[(&str, Value)]) -> BTreeMap<String, Option<Value>> {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), Some(v.clone())))
            .collect()
    }

    #[test]
    fn pbkdf2_build_checks() {
        let long = Value::string("correct-horse-battery-staple");
        assert_eq!(
            pbkdf2_build_error(&vals(&[("passphrase", long.clone())])),
            None
        );
        assert_eq!(
            pbkdf2_build_error(&vals(&[("passphrase", Value::string("short"))])).as_deref(),
            Some("passphrase is too short (minimum 16 characters)")
        );
        assert_eq!(
            pbkdf2_build_error(&vals(&[])).as_deref(),
            Some("no passphrase provided")
        );
        assert_eq!(
            pbkdf2_build_error(&vals(&[
                ("passphrase", long.clone()),
                ("iterations", Value::number_int(1000))
            ]))
            .as_deref(),
            Some("the number of iterations is dangerously low (<200000), refusing to generate key")
        );
        assert_eq!(
            pbkdf2_build_error(&vals(&[
                ("passphrase", long),
                ("hash_function", Value::string("md5"))
            ]))
            .as_deref(),
            Some("invalid key provider configuration: invalid hash function name: md5")
        );
        let mut chained = BTreeMap::new();
        chained.insert("chain".to_string(), None);
        assert_eq!(pbkdf2_build_error(&chained), None);
    }
}
