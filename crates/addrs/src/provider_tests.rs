//! Ported from `internal/addrs/provider_test.go`.

use super::*;

fn p(host: &str, ns: &str, t: &str) -> Provider {
    Provider::new(Hostname::from_normalized(host), ns, t)
}

#[test]
fn string_and_display() {
    let cases = [
        (
            p("registry.opentofu.org", "hashicorp", "test"),
            "registry.opentofu.org/hashicorp/test",
            "hashicorp/test",
        ),
        (
            p("registry.terraform.com", "hashicorp", "test"),
            "registry.terraform.com/hashicorp/test",
            "registry.terraform.com/hashicorp/test",
        ),
        (
            p("registry.opentofu.org", "othercorp", "test"),
            "registry.opentofu.org/othercorp/test",
            "othercorp/test",
        ),
    ];
    for (provider, string, display) in cases {
        assert_eq!(provider.to_string(), string);
        assert_eq!(provider.for_display(), display);
    }
    assert_eq!(
        Provider::default_for("test-beta").to_string(),
        "registry.opentofu.org/hashicorp/test-beta"
    );
    assert_eq!(
        Provider::implied_for_unqualified_type("terraform").to_string(),
        "terraform.io/builtin/terraform"
    );
}

#[test]
fn predicates() {
    assert!(p("registry.opentofu.org", "hashicorp", "test").is_default());
    assert!(!p("registry.terraform.com", "hashicorp", "test").is_default());
    assert!(!p("registry.opentofu.org", "othercorp", "test").is_default());
    assert!(p("opentofu.org", "builtin", "test").is_built_in());
    assert!(p("terraform.io", "builtin", "terraform").is_built_in());
    assert!(!p("opentofu.org", "boop", "test").is_built_in());
    assert!(!p("registry.opentofu.org", "builtin", "test").is_built_in());
    assert!(p("registry.opentofu.org", "-", "test").is_legacy());
    assert!(!p("registry.terraform.com", "-", "test").is_legacy());
    assert!(!p("registry.opentofu.org", "hashicorp", "test").is_legacy());
}

#[test]
fn parse_provider_source_str_table() {
    let ok = |h: &str, ns: &str, t: &str| Some(p(h, ns, t));
    let tests = [
        (
            "registry.opentofu.org/hashicorp/aws",
            ok("registry.opentofu.org", "hashicorp", "aws"),
        ),
        (
            "registry.opentofu.org/HashiCorp/AWS",
            ok("registry.opentofu.org", "hashicorp", "aws"),
        ),
        (
            "hashicorp/aws",
            ok("registry.opentofu.org", "hashicorp", "aws"),
        ),
        (
            "HashiCorp/AWS",
            ok("registry.opentofu.org", "hashicorp", "aws"),
        ),
        ("aws", ok("registry.opentofu.org", "hashicorp", "aws")),
        ("AWS", ok("registry.opentofu.org", "hashicorp", "aws")),
        (
            "example.com/foo-bar/baz-boop",
            ok("example.com", "foo-bar", "baz-boop"),
        ),
        (
            "foo-bar/baz-boop",
            ok("registry.opentofu.org", "foo-bar", "baz-boop"),
        ),
        ("localhost:8080/foo/bar", ok("localhost:8080", "foo", "bar")),
        (
            "terraform.io/builtin/terraform",
            ok("terraform.io", "builtin", "terraform"),
        ),
        ("-/aws", ok("registry.opentofu.org", "-", "aws")),
        ("example.com/too/many/parts/here", None),
        ("/too///many//slashes", None),
        ("///", None),
        ("/ / /", None),
        ("badhost!/hashicorp/aws", None),
        ("example.com/badnamespace!/aws", None),
        ("example.com/bad--namespace/aws", None),
        ("example.com/-badnamespace/aws", None),
        ("example.com/badnamespace-/aws", None),
        ("example.com/bad.namespace/aws", None),
        ("example.com/hashicorp/badtype!", None),
        ("example.com/hashicorp/bad--type", None),
        ("example.com/hashicorp/-badtype", None),
        ("example.com/hashicorp/badtype-", None),
        ("example.com/hashicorp/bad.type", None),
        ("example.com/hashicorp/terraform-provider-bad", None),
        ("example.com/hashicorp/terraform-bad", None),
        ("example.com/-/aws", None),
        ("", None),
    ];
    for (input, want) in tests {
        let got = parse_provider_source_string(input);
        match (got, want) {
            (Ok(g), Some(w)) => assert_eq!(g, w, "{input}"),
            (Err(_), None) => {}
            (got, want) => panic!("{input}: got {got:?}, want {want:?}"),
        }
    }
}

#[test]
fn source_string_messages() {
    let err = |s: &str| parse_provider_source_string(s).unwrap_err().remove(0);
    let d = err("a/b/c/d");
    assert_eq!(d.summary, "Invalid provider source string");
    assert_eq!(
        d.detail,
        r#"The "source" attribute must be in the format "[hostname/][namespace/]name""#
    );
    let d = err("hashicorp/terraform-provider-aws");
    assert_eq!(d.summary, "Invalid provider type");
    assert_eq!(
        d.detail,
        "Provider source \"hashicorp/terraform-provider-aws\" has a type with the prefix \"terraform-provider-\", which isn't valid. Although that prefix is often used in the names of version control repositories for Terraform providers, provider source strings should not include it.\n\nDid you mean \"hashicorp/aws\"?"
    );
    let d = err("example.com/-/aws");
    assert_eq!(
        d.detail,
        "The legacy provider namespace \"-\" can be used only with hostname registry.opentofu.org."
    );
    let d = err("hashicorp/bad!");
    assert_eq!(
        d.detail,
        "Invalid provider type \"bad!\" in source \"hashicorp/bad!\": must contain only letters, digits, dashes, and underscores, and may not use leading or trailing dashes or underscores\""
    );
}

#[test]
fn parse_provider_part_table() {
    let rule = "must contain only letters, digits, dashes, and underscores, and may not use leading or trailing dashes or underscores";
    let tests = [
        ("foo", Ok("foo")),
        ("FOO", Ok("foo")),
        ("Foo", Ok("foo")),
        ("abc-123", Ok("abc-123")),
        ("abc_123", Ok("abc_123")),
        ("Испытание", Ok("испытание")),
        ("m\u{fc}nchen", Ok("m\u{fc}nchen")),
        ("mu\u{308}nchen", Ok("m\u{fc}nchen")),
        ("abc--123", Err("cannot use multiple consecutive dashes")),
        (
            "xn--80akhbyknj4f",
            Err("cannot use multiple consecutive dashes"),
        ),
        (
            "abc__123",
            Err("cannot use multiple consecutive underscores"),
        ),
        (
            "_abc",
            Err("underscores may not be used as a prefix or suffix"),
        ),
        ("abc.123", Err("dots are not allowed")),
        ("-abc123", Err(rule)),
        ("abc123-", Err(rule)),
        ("abc!", Err(rule)),
        ("", Err("must have at least one character")),
    ];
    for (given, want) in tests {
        assert_eq!(
            parse_provider_part(given),
            want.map(str::to_string).map_err(str::to_string),
            "{given}"
        );
    }
}
