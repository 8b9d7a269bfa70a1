//! `terraform { encryption { ... } }`: the structure of state and plan
//! encryption settings (OpenTofu's `internal/encryption/config`), decoded as
//! `gohcl` decodes its structs. Key provider and method bodies are decoded
//! later, statically, against their own schemas.

use std::sync::Arc;

use hclsyntax::{Block, Body, BodySchema, Diagnostic, Diagnostics, Expr, Range};

use crate::decode_value::decode_bool;
use crate::merged_body::{merge_bodies, ConfigBody};

/// The `encryption` block.
#[derive(Debug, Clone)]
pub struct EncryptionConfig {
    pub key_providers: Vec<KeyProviderConfig>,
    pub methods: Vec<MethodConfig>,
    pub state: Option<EnforceableTargetConfig>,
    pub plan: Option<EnforceableTargetConfig>,
    pub remote: Option<RemoteConfig>,
    /// The block header (`encryption`); not kept through merges.
    pub decl_range: Range,
}

/// `key_provider "type" "name" { ... }`.
#[derive(Debug, Clone)]
pub struct KeyProviderConfig {
    pub type_name: String,
    pub name: String,
    pub body: ConfigBody,
    pub decl_range: Range,
}

/// `method "type" "name" { ... }`.
#[derive(Debug, Clone)]
pub struct MethodConfig {
    pub type_name: String,
    pub name: String,
    pub body: ConfigBody,
    pub decl_range: Range,
}

/// A `fallback` block, or the shared part of the target blocks.
#[derive(Debug, Clone, Default)]
pub struct TargetConfig {
    pub method: Option<Expr>,
    pub fallback: Option<Box<TargetConfig>>,
}

/// `state { ... }` / `plan { ... }`.
#[derive(Debug, Clone, Default)]
pub struct EnforceableTargetConfig {
    pub enforced: bool,
    pub method: Option<Expr>,
    pub fallback: Option<Box<TargetConfig>>,
}

/// `remote_state_data_sources { default {} remote_state_data_source "name" {} }`.
#[derive(Debug, Clone, Default)]
pub struct RemoteConfig {
    pub default: Option<TargetConfig>,
    pub targets: Vec<NamedTargetConfig>,
}

/// `remote_state_data_source "name" { ... }`.
#[derive(Debug, Clone)]
pub struct NamedTargetConfig {
    pub name: String,
    pub method: Option<Expr>,
    pub fallback: Option<Box<TargetConfig>>,
}

fn encryption_schema() -> BodySchema {
    BodySchema::new(
        &[],
        &[
            ("key_provider", &["type", "name"]),
            ("method", &["type", "name"]),
            ("state", &[]),
            ("plan", &[]),
            ("remote_state_data_sources", &[]),
        ],
    )
}

/// gohcl's error for a second block where a struct field holds one.
fn single_block<'a>(blocks: &[&'a Arc<Block>], diags: &mut Diagnostics) -> Option<&'a Arc<Block>> {
    let first = blocks.first()?;
    if let Some(second) = blocks.get(1) {
        let t = &first.type_name;
        diags.push(Diagnostic::error(
            format!("Duplicate {t} block"),
            format!(
                "Only one {t} block is allowed. Another was defined at {}.",
                first.def_range()
            ),
            second.def_range(),
        ));
    }
    Some(first)
}

fn blocks_of<'a>(content: &'a hclsyntax::BodyContent, t: &'a str) -> Vec<&'a Arc<Block>> {
    content.blocks_of(t).collect()
}

/// Decodes an `encryption` block.
pub fn decode_encryption_block(block: &Block) -> (Option<EncryptionConfig>, Diagnostics) {
    let (cfg, diags) = decode_encryption_body(&block.body, block.def_range());
    (cfg, diags)
}

/// Decodes the body of an `encryption` block (also what `TF_ENCRYPTION`
/// holds); `rng` is where duplicate declarations are reported. As
/// OpenTofu's `DecodeConfig`, no configuration results from errors.
pub fn decode_encryption_body(body: &Body, rng: Range) -> (Option<EncryptionConfig>, Diagnostics) {
    let (content, mut diags) = body.content(&encryption_schema());
    let mut cfg = EncryptionConfig {
        key_providers: Vec::new(),
        methods: Vec::new(),
        state: None,
        plan: None,
        remote: None,
        decl_range: rng.clone(),
    };
    for b in content.blocks_of("key_provider") {
        cfg.key_providers.push(KeyProviderConfig {
            type_name: label(b, 0),
            name: label(b, 1),
            body: ConfigBody::Single(b.body.clone()),
            decl_range: b.def_range(),
        });
    }
    for b in content.blocks_of("method") {
        cfg.methods.push(MethodConfig {
            type_name: label(b, 0),
            name: label(b, 1),
            body: ConfigBody::Single(b.body.clone()),
            decl_range: b.def_range(),
        });
    }
    if let Some(b) = single_block(&blocks_of(&content, "state"), &mut diags) {
        cfg.state = Some(decode_enforceable(&b.body, &mut diags));
    }
    if let Some(b) = single_block(&blocks_of(&content, "plan"), &mut diags) {
        cfg.plan = Some(decode_enforceable(&b.body, &mut diags));
    }
    if let Some(b) = single_block(
        &blocks_of(&content, "remote_state_data_sources"),
        &mut diags,
    ) {
        cfg.remote = Some(decode_remote(&b.body, &mut diags));
    }
    if hclsyntax::has_errors(&diags) {
        return (None, diags);
    }

    let mut dup = Diagnostics::new();
    for (i, kp) in cfg.key_providers.iter().enumerate() {
        if cfg
            .key_providers
            .iter()
            .enumerate()
            .any(|(j, o)| i != j && o.type_name == kp.type_name && o.name == kp.name)
        {
            dup.push(Diagnostic::error(
                "Duplicate key_provider",
                format!(
                    "Found multiple instances of key_provider.{}.{}",
                    kp.type_name, kp.name
                ),
                rng.clone(),
            ));
        }
    }
    for (i, m) in cfg.methods.iter().enumerate() {
        if cfg
            .methods
            .iter()
            .enumerate()
            .any(|(j, o)| i != j && o.type_name == m.type_name && o.name == m.name)
        {
            dup.push(Diagnostic::error(
                "Duplicate method",
                format!(
                    "Found multiple instances of method.{}.{}",
                    m.type_name, m.name
                ),
                rng.clone(),
            ));
        }
    }
    if let Some(remote) = &cfg.remote {
        for (i, t) in remote.targets.iter().enumerate() {
            if remote
                .targets
                .iter()
                .enumerate()
                .any(|(j, o)| i != j && o.name == t.name)
            {
                dup.push(Diagnostic::error(
                    "Duplicate remote_data_source",
                    format!("Found multiple instances of remote_data_source.{}", t.name),
                    rng.clone(),
                ));
            }
        }
    }
    if !dup.is_empty() {
        diags.extend(dup);
        return (None, diags);
    }
    (Some(cfg), diags)
}

fn label(b: &Block, i: usize) -> String {
    b.labels.get(i).map(|l| l.value.clone()).unwrap_or_default()
}

fn decode_enforceable(body: &Body, diags: &mut Diagnostics) -> EnforceableTargetConfig {
    let schema = BodySchema::new(&["enforced", "method"], &[("fallback", &[])]);
    let (content, more) = body.content(&schema);
    diags.extend(more);
    let mut out = EnforceableTargetConfig::default();
    if let Some(attr) = content.attribute("enforced") {
        match decode_bool(&attr.expr) {
            Ok(b) => out.enforced = b,
            Err(more) => diags.extend(more),
        }
    }
    out.method = content.attribute("method").map(|a| a.expr.clone());
    if let Some(b) = single_block(&blocks_of(&content, "fallback"), diags) {
        out.fallback = Some(Box::new(decode_target(&b.body, diags)));
    }
    out
}

fn decode_target(body: &Body, diags: &mut Diagnostics) -> TargetConfig {
    let schema = BodySchema::new(&["method"], &[("fallback", &[])]);
    let (content, more) = body.content(&schema);
    diags.extend(more);
    let mut out = TargetConfig {
        method: content.attribute("method").map(|a| a.expr.clone()),
        fallback: None,
    };
    if let Some(b) = single_block(&blocks_of(&content, "fallback"), diags) {
        out.fallback = Some(Box::new(decode_target(&b.body, diags)));
    }
    out
}

fn decode_remote(body: &Body, diags: &mut Diagnostics) -> RemoteConfig {
    let schema = BodySchema::new(
        &[],
        &[("default", &[]), ("remote_state_data_source", &["name"])],
    );
    let (content, more) = body.content(&schema);
    diags.extend(more);
    let mut out = RemoteConfig::default();
    if let Some(b) = single_block(&blocks_of(&content, "default"), diags) {
        out.default = Some(decode_target(&b.body, diags));
    }
    for b in content.blocks_of("remote_state_data_source") {
        let t = decode_target(&b.body, diags);
        out.targets.push(NamedTargetConfig {
            name: label(b, 0),
            method: t.method,
            fallback: t.fallback,
        });
    }
    out
}

impl EncryptionConfig {
    /// Merges an override (`MergeConfigs`): key providers and methods of the
    /// same type and name merge their bodies, others are added; target
    /// settings given in the override win.
    pub fn merge(&mut self, over: EncryptionConfig) {
        for o in over.key_providers {
            match self
                .key_providers
                .iter_mut()
                .find(|k| k.type_name == o.type_name && k.name == o.name)
            {
                Some(k) => k.body = merge_bodies(&k.body, &o.body),
                None => self.key_providers.push(o),
            }
        }
        for o in over.methods {
            match self
                .methods
                .iter_mut()
                .find(|m| m.type_name == o.type_name && m.name == o.name)
            {
                Some(m) => m.body = merge_bodies(&m.body, &o.body),
                None => self.methods.push(o),
            }
        }
        self.state = merge_enforceable(self.state.take(), over.state);
        self.plan = merge_enforceable(self.plan.take(), over.plan);
        self.remote = match (self.remote.take(), over.remote) {
            (None, o) => o,
            (b, None) => b,
            (Some(mut b), Some(o)) => {
                b.default = merge_target(b.default.take(), o.default);
                for ot in o.targets {
                    match b.targets.iter_mut().find(|t| t.name == ot.name) {
                        Some(t) => {
                            if ot.method.is_some() {
                                t.method = ot.method;
                            }
                            if ot.fallback.is_some() {
                                t.fallback = ot.fallback;
                            }
                        }
                        None => b.targets.push(ot),
                    }
                }
                Some(b)
            }
        };
    }
}

fn merge_target(base: Option<TargetConfig>, over: Option<TargetConfig>) -> Option<TargetConfig> {
    match (base, over) {
        (None, o) => o,
        (b, None) => b,
        (Some(b), Some(o)) => Some(TargetConfig {
            method: o.method.or(b.method),
            fallback: o.fallback.or(b.fallback),
        }),
    }
}

fn merge_enforceable(
    base: Option<EnforceableTargetConfig>,
    over: Option<EnforceableTargetConfig>,
) -> Option<EnforceableTargetConfig> {
    match (base, over) {
        (None, o) => o,
        (b, None) => b,
        (Some(b), Some(o)) => Some(EnforceableTargetConfig {
            enforced: b.enforced || o.enforced,
            method: o.method.or(b.method),
            fallback: o.fallback.or(b.fallback),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::named_values::testing::{blocks, render};

    fn decode(name: &str, src: &str) -> Option<(Option<EncryptionConfig>, Diagnostics)> {
        let tf = blocks(name, src, "terraform", &[])?;
        let (content, _, _) = tf[0]
            .body
            .partial_content(&BodySchema::new(&[], &[("encryption", &[])]));
        Some(decode_encryption_block(&content.blocks[0]))
    }

    #[test]
    fn json_structure() {
        let src = r#"{"terraform": {"encryption": {
            "key_provider": {"pbkdf2": {"k": {"passphrase": "x"}}},
            "method": {"aes_gcm": {"m": {"keys": "${key_provider.pbkdf2.k}"}}},
            "state": {"enforced": true, "method": "${method.aes_gcm.m}", "fallback": {"method": "${method.unencrypted.u}"}},
            "remote_state_data_sources": {"default": {"method": "${method.aes_gcm.m}"}, "remote_state_data_source": {"r": {}}}
        }}}"#;
        let (cfg, diags) = decode("e.tf.json", src).unwrap();
        assert!(diags.is_empty(), "{diags:?}");
        let cfg = cfg.unwrap();
        assert_eq!(cfg.key_providers[0].type_name, "pbkdf2");
        assert_eq!(cfg.methods[0].name, "m");
        let state = cfg.state.unwrap();
        assert!(state.enforced && state.method.is_some());
        assert!(state.fallback.unwrap().method.is_some());
        let remote = cfg.remote.unwrap();
        assert!(remote.default.is_some());
        assert_eq!(remote.targets[0].name, "r");
    }

    #[test]
    fn duplicates() {
        let src = "terraform {\n  encryption {\n    key_provider \"a\" \"b\" {}\n    key_provider \"a\" \"b\" {}\n    state {}\n    state {}\n  }\n}\n";
        let Some((cfg, diags)) = decode("e.tf", src) else {
            return;
        };
        assert!(cfg.is_none());
        assert_eq!(
            render(&diags),
            vec!["e.tf:6,5-10: Duplicate state block; Only one state block is allowed. Another was defined at e.tf:5,5-10."]
        );
        let src = "terraform {\n  encryption {\n    key_provider \"a\" \"b\" {}\n    key_provider \"a\" \"b\" {}\n  }\n}\n";
        let (_, diags) = decode("e.tf", src).unwrap();
        assert_eq!(diags.len(), 2);
        assert_eq!(
            diags[0].detail,
            "Found multiple instances of key_provider.a.b"
        );
    }

    #[test]
    fn merge_override() {
        let base = r#"{"terraform": {"encryption": {"state": {"method": "${method.a.b}"}}}}"#;
        let over = r#"{"terraform": {"encryption": {"state": {"enforced": true}, "plan": {}}}}"#;
        let (b, _) = decode("x.tf.json", base).unwrap();
        let (o, _) = decode("x_override.tf.json", over).unwrap();
        let mut b = b.unwrap();
        b.merge(o.unwrap());
        let state = b.state.unwrap();
        assert!(state.enforced && state.method.is_some());
        assert!(b.plan.is_some());
    }
}
