//! Provider configuration addresses and references.

use super::*;
use crate::hostname::Hostname;
use crate::test_traversal::{range, traversal};

fn scope(src: &str) -> Expr {
    let t = traversal(src);
    let r = t.range();
    Expr::new(ExprKind::ScopeTraversal(t), r)
}

fn detail(expr: &Expr) -> Option<String> {
    let (_, diags) = parse_provider_config_ref(expr, "provider");
    diags.first().map(|d| d.detail.clone())
}

#[test]
fn display() {
    let aws = Provider::new(
        Hostname::from_normalized("registry.opentofu.org"),
        "hashicorp",
        "aws",
    );
    let abs = AbsProviderConfig {
        module: Module::root(),
        provider: aws.clone(),
        alias: "west".into(),
    };
    assert_eq!(
        abs.to_string(),
        r#"provider["registry.opentofu.org/hashicorp/aws"].west"#
    );
    let abs = AbsProviderConfig {
        module: Module::root().child("a"),
        provider: aws,
        alias: String::new(),
    };
    assert_eq!(
        abs.to_string(),
        r#"module.a.provider["registry.opentofu.org/hashicorp/aws"]"#
    );
    let local = LocalProviderConfig {
        local_name: "aws".into(),
        alias: "west".into(),
    };
    assert_eq!(local.to_string(), "provider.aws.west");
    assert_eq!(local.string_compact(), "aws.west");
}

#[test]
fn references() {
    let (r, diags) = parse_provider_config_ref(&scope("aws"), "provider");
    assert!(diags.is_empty());
    let r = r.unwrap();
    assert_eq!((r.name.as_str(), r.alias.as_str()), ("aws", ""));
    assert!(r.key_expr.is_none());

    let (r, diags) = parse_provider_config_ref(&scope("aws.west"), "provider");
    assert!(diags.is_empty());
    let r = r.unwrap();
    assert_eq!(r.alias, "west");
    assert_eq!(r.alias_range, Some(range(3, 8)));

    let (r, diags) = parse_provider_config_ref(&scope(r#"aws.by_region["us"]"#), "provider");
    assert!(diags.is_empty());
    let key = r.unwrap().key_expr.unwrap();
    assert_eq!(key.kind, ExprKind::Literal(Literal::String("us".into())));
    assert_eq!(key.range, range(0, 19));

    // aws.by_region[each.key]
    let index = Expr::new(
        ExprKind::Index {
            collection: Box::new(scope("aws.by_region")),
            key: Box::new(scope("each.key")),
            open_bracket_range: range(13, 14),
        },
        range(0, 23),
    );
    let (r, diags) = parse_provider_config_ref(&index, "provider");
    assert!(diags.is_empty());
    let r = r.unwrap();
    assert_eq!(r.alias, "by_region");
    assert!(matches!(
        r.key_expr.unwrap().kind,
        ExprKind::ScopeTraversal(_)
    ));
}

#[test]
fn reference_errors() {
    let quoted = Expr::new(
        ExprKind::Literal(Literal::String("aws.foo".into())),
        range(0, 9),
    );
    assert_eq!(
        detail(&quoted).unwrap(),
        "A provider configuration reference must not be given in quotes."
    );
    assert_eq!(
        detail(&scope("aws.a.b.c")).unwrap(),
        "The provider argument requires a provider type name, optionally followed by a period and then a configuration alias and optional instance key."
    );
    assert_eq!(
        detail(&scope(r#"aws["a"]"#)).unwrap(),
        "Provider name must either stand alone or be followed by a period and then a configuration alias."
    );
    assert_eq!(
        detail(&scope("aws.a.b")).unwrap(),
        "Provider name must either stand alone or be followed by a period and then a configuration alias."
    );
    let index = Expr::new(
        ExprKind::Index {
            collection: Box::new(scope("aws")),
            key: Box::new(scope("each.key")),
            open_bracket_range: range(3, 4),
        },
        range(0, 13),
    );
    assert_eq!(
        detail(&index).unwrap(),
        "Provider assignment requires an alias when specifying an instance key, in the form of provider.name[instance_key]"
    );
    assert_eq!(
        detail(&scope("AWS")).unwrap(),
        r#"Provider names must be normalized. Replace "AWS" with "aws" to fix this error."#
    );
}
