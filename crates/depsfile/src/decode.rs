//! Reading a lock file (`LoadLocksFromFile`): HCL native syntax, `provider`
//! blocks only, every value in its normal form, with OpenTofu's messages
//! for whatever a hand edit got wrong.

use std::collections::BTreeMap;
use std::path::Path;

use addrs::{parse_provider_source_string, Provider};
use hclsyntax::static_expr::expr_list;
use hclsyntax::{has_errors, Attribute, Block, BodySchema, Diagnostic, Diagnostics, Expr, Range};

use crate::constraints::VersionConstraints;
use crate::hash::{normalize_hashes, parse_hash};
use crate::locks::{is_lockable, Locks, ProviderLock};
use crate::version::Version;

/// The version named in the warning about `module` blocks; OpenTofu
/// prints its own version there (kept equal to `configs::language`'s by a
/// test in `configs`).
pub const TOFU_VERSION: &str = "1.13.0-dev";

/// Reads the lock file at `path`. With errors, the locks hold whatever
/// could be read. A missing file is an error here; see
/// [`load_locks_if_present`].
pub fn load_locks_from_file(path: &Path) -> (Locks, Diagnostics) {
    let name = path.to_string_lossy();
    match std::fs::read(path) {
        Ok(bytes) => load_locks_from_bytes(&bytes, &name),
        Err(_) => (
            Locks::new(),
            vec![Diagnostic {
                severity: hclsyntax::Severity::Error,
                summary: "Failed to read file".into(),
                detail: format!(
                    "The configuration file {} could not be read.",
                    addrs::go_quote(&name)
                ),
                subject: None,
                context: None,
            }],
        ),
    }
}

/// What `tofu init` and friends do (`Meta.lockedDependencies`): no file
/// means no locks yet, not an error.
pub fn load_locks_if_present(path: &Path) -> (Locks, Diagnostics) {
    if !path.exists() {
        return (Locks::new(), Diagnostics::new());
    }
    load_locks_from_file(path)
}

/// Reads lock file text as if from a file named `filename`.
pub fn load_locks_from_bytes(bytes: &[u8], filename: &str) -> (Locks, Diagnostics) {
    let mut locks = Locks::new();
    let (file, mut diags) = hclsyntax::parse_file(filename, bytes);
    locks.source = Some(file.source.clone());
    let schema = BodySchema::new(
        &[],
        &[("provider", &["source_addr"]), ("module", &["path"])],
    );
    let (content, more) = file.body.content(&schema);
    diags.extend(more);

    let mut seen: BTreeMap<Provider, Range> = BTreeMap::new();
    let mut seen_module = false;
    for block in &content.blocks {
        match block.type_name.as_str() {
            "provider" => {
                let (lock, more) = decode_provider_lock(block);
                diags.extend(more);
                let Some(lock) = lock else { continue };
                if let Some(previous) = seen.get(&lock.provider) {
                    diags.push(Diagnostic::error(
                        "Duplicate provider lock",
                        format!(
                            "This lockfile already declared a lock for provider {} at {previous}.",
                            lock.provider
                        ),
                        block.type_range.clone(),
                    ));
                    continue;
                }
                seen.insert(lock.provider.clone(), block.def_range());
                locks.set_provider(lock);
            }
            // A placeholder for module locks to come: one warning is enough.
            _ if !seen_module => {
                seen_module = true;
                diags.push(Diagnostic::warning(
                    "Dependency locks for modules are not yet supported",
                    format!("OpenTofu v{TOFU_VERSION} only supports dependency locks for providers, not for modules. This configuration may be intended for a later version of OpenTofu that also supports dependency locks for modules."),
                    block.type_range.clone(),
                ));
            }
            _ => {}
        }
    }
    (locks, diags)
}

fn invalid_address(detail: String, block: &Block) -> Diagnostic {
    Diagnostic::error(
        "Invalid provider source address",
        detail,
        block.labels[0].range.clone(),
    )
}

fn decode_provider_lock(block: &Block) -> (Option<ProviderLock>, Diagnostics) {
    let raw_addr = &block.labels[0].value;
    let provider = match parse_provider_source_string(raw_addr) {
        Ok(p) => p,
        // The parser's messages speak of `source` arguments; a lock file
        // gets a fixed message instead.
        Err(_) => return (None, vec![invalid_address(
            "The provider source address for a provider lock must be a valid, fully-qualified address of the form \"hostname/namespace/type\".".into(),
            block,
        )]),
    };
    if !is_lockable(&provider) {
        let detail = if provider.is_built_in() {
            format!("Cannot lock a version for built-in provider {provider}. Built-in providers are bundled inside OpenTofu itself, so you can't select a version for them independently of the OpenTofu release you are currently running.")
        } else {
            format!("Provider source address {provider} is a special provider that is not eligible for dependency locking.")
        };
        return (None, vec![invalid_address(detail, block)]);
    }
    let canonical = provider.to_string();
    if &canonical != raw_addr {
        return (
            None,
            vec![Diagnostic::error(
                "Non-normalized provider source address",
                format!(
                    "The provider source address for this provider lock must be written as {}, the fully-qualified and normalized form.",
                    addrs::go_quote(&canonical)
                ),
                block.labels[0].range.clone(),
            )],
        );
    }

    let schema = BodySchema::new(&["version", "constraints", "hashes"], &[]).require(&["version"]);
    let (content, mut diags) = block.body.content(&schema);
    let (version, more) = decode_version(&provider, content.attribute("version").map(|a| &**a));
    diags.extend(more);
    let (constraints, more) =
        decode_constraints(&provider, content.attribute("constraints").map(|a| &**a));
    diags.extend(more);
    let (mut hashes, more) = decode_hashes(content.attribute("hashes").map(|a| &**a));
    diags.extend(more);
    normalize_hashes(&mut hashes);
    let lock = ProviderLock {
        provider,
        version,
        constraints,
        hashes,
    };
    (Some(lock), diags)
}

fn decode_version(provider: &Provider, attr: Option<&Attribute>) -> (Version, Diagnostics) {
    // A missing argument was already reported by the schema.
    let Some(attr) = attr else {
        return (Version::default(), Diagnostics::new());
    };
    let expr = &attr.expr;
    let (raw, mut diags) = decode_string(expr, true);
    if has_errors(&diags) {
        return (Version::default(), diags);
    }
    let Some(raw) = raw else {
        diags.push(Diagnostic::error(
            "Missing required argument",
            "A provider lock block must contain a \"version\" argument.",
            expr.range.clone(),
        ));
        return (Version::default(), diags);
    };
    let version = match Version::parse(&raw) {
        Ok(v) => v,
        Err(e) => {
            diags.push(Diagnostic::error(
                "Invalid provider version number",
                format!("The selected version number for provider {provider} is invalid: {e}."),
                expr.range.clone(),
            ));
            Version::default()
        }
    };
    // Go compares the zero version's text too, so an unparsable version
    // gets both messages, as it does in OpenTofu.
    let canonical = version.to_string();
    if canonical != raw {
        diags.push(Diagnostic::error(
            "Invalid provider version number",
            format!(
                "The selected version number for provider {provider} must be written in normalized form: {}.",
                addrs::go_quote(&canonical)
            ),
            expr.range.clone(),
        ));
    }
    (version, diags)
}

fn decode_constraints(
    provider: &Provider,
    attr: Option<&Attribute>,
) -> (VersionConstraints, Diagnostics) {
    let Some(attr) = attr else {
        return (VersionConstraints::default(), Diagnostics::new());
    };
    let expr = &attr.expr;
    let (raw, mut diags) = decode_string(expr, false);
    let Some(raw) = raw.filter(|_| !has_errors(&diags)) else {
        return (VersionConstraints::default(), diags);
    };
    let constraints = match VersionConstraints::parse(&raw) {
        Ok(c) => c,
        Err(e) => {
            diags.push(Diagnostic::error(
                "Invalid provider version constraints",
                format!(
                    "The recorded version constraints for provider {provider} are invalid: {e}."
                ),
                expr.range.clone(),
            ));
            VersionConstraints::default()
        }
    };
    let canonical = constraints.to_string();
    if canonical != raw {
        diags.push(Diagnostic::error(
            "Invalid provider version constraints",
            format!(
                "The recorded version constraints for provider {provider} must be written in normalized form: {}.",
                addrs::go_quote(&canonical)
            ),
            expr.range.clone(),
        ));
    }
    (constraints, diags)
}

fn decode_hashes(attr: Option<&Attribute>) -> (Vec<String>, Diagnostics) {
    let Some(attr) = attr else {
        return (Vec::new(), Diagnostics::new());
    };
    let expr = &attr.expr;
    // Static analysis rather than evaluation, so each bad element gets its
    // own message.
    let items = match expr_list(expr) {
        Ok(items) => items,
        Err(diags) => return (Vec::new(), diags),
    };
    if items.is_empty() {
        return (
            Vec::new(),
            vec![Diagnostic::error(
                "Invalid provider hash set",
                "The \"hashes\" argument must either be omitted or contain at least one hash value.",
                expr.range.clone(),
            )],
        );
    }
    let mut out = Vec::new();
    let mut diags = Diagnostics::new();
    for item in &items {
        let (raw, more) = decode_string(item, false);
        let failed = has_errors(&more);
        diags.extend(more);
        let Some(raw) = raw.filter(|_| !failed) else {
            continue;
        };
        match parse_hash(&raw) {
            Ok(_) => out.push(raw),
            Err(e) => diags.push(Diagnostic::error(
                "Invalid provider hash string",
                format!(
                    "Cannot interpret {} as a provider hash: {e}.",
                    addrs::go_quote(&raw)
                ),
                // OpenTofu points at the whole list, not the element.
                expr.range.clone(),
            )),
        }
    }
    (out, diags)
}

/// `gohcl.DecodeExpression` into a Go string (or, with `nullable`, a
/// `*string`) with no evaluation context: no variables, no functions.
fn decode_string(expr: &Expr, nullable: bool) -> (Option<String>, Diagnostics) {
    let (val, mut diags) = lang::eval_expr(expr, &lang::EvalContext::empty());
    if has_errors(&diags) {
        return (None, diags);
    }
    let unsuitable = |msg: &str| {
        Diagnostic::error(
            "Unsuitable value type",
            format!("Unsuitable value: {msg}"),
            expr.range.start_range(),
        )
        .with_context(expr.range.clone())
    };
    let converted = match cty::convert::convert(&val, &cty::Type::String) {
        Ok(v) => v,
        Err(e) => {
            diags.push(unsuitable(&e.with_path()));
            return (None, diags);
        }
    };
    if converted.is_null() {
        if !nullable {
            diags.push(unsuitable("null value is not allowed"));
        }
        return (None, diags);
    }
    if !converted.is_known() {
        diags.push(unsuitable("value must be known"));
        return (None, diags);
    }
    match converted.as_str() {
        Some(s) => (Some(s.to_string()), diags),
        None => {
            diags.push(unsuitable("a string is required"));
            (None, diags)
        }
    }
}

#[cfg(test)]
#[path = "decode_tests.rs"]
mod tests;
