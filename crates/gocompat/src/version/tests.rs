use std::cmp::Ordering;

use super::*;

fn v(s: &str) -> Version {
    Version::parse(s).unwrap()
}

#[test]
fn parse_and_display() {
    let cases = [
        ("1.0", "1.0.0"),
        ("v1.2.3", "1.2.3"),
        ("1.2.3-alpha.1", "1.2.3-alpha.1"),
        ("1.2.3.4", "1.2.3.4"),
        ("1.2-beta+x.y", "1.2.0-beta+x.y"),
        ("1.0beta", "1.0.0-beta"),
        ("01.002.3", "1.2.3"),
        ("v1.2.3-x+y", "1.2.3-x+y"),
    ];
    for (input, want) in cases {
        assert_eq!(v(input).to_string(), want, "{input}");
    }
    for bad in ["", "x", "1.", "1..2", "1.0.0+", " 1.0", "1.0.0-beta."] {
        assert_eq!(
            Version::parse(bad).unwrap_err().to_string(),
            format!("Malformed version: {bad}"),
            "{bad:?}"
        );
    }
    assert_eq!(
        Version::parse("1.99999999999999999999").unwrap_err().to_string(),
        "Error parsing version: strconv.ParseInt: parsing \"99999999999999999999\": value out of range"
    );
}

#[test]
fn ordering() {
    assert!(v("1.0.0") > v("1.0.0-beta"));
    assert!(v("1.0.0-beta.2") > v("1.0.0-beta.1"));
    assert!(v("1.0.0-beta.11") > v("1.0.0-beta.2"));
    assert!(v("1.0.0-beta") > v("1.0.0-alpha"));
    assert!(v("1.10.0") > v("1.9.9"));
    assert_eq!(v("1.0.0").compare(&v("1.0.0+meta")), Ordering::Equal);
    assert_eq!(v("1.0").compare(&v("1.0.0.0")), Ordering::Equal);
}

/// go-version's `comparePart` treats a missing part as less than a number
/// and greater than a word: `1.0.0-alpha` < `1.0.0-alpha.1` but
/// > `1.0.0-alpha.beta`. configs' copy had the first one backwards.
#[test]
fn missing_prerelease_parts_compare_as_go_version() {
    assert!(v("1.0.0-alpha") < v("1.0.0-alpha.1"));
    assert!(v("1.0.0-alpha") > v("1.0.0-alpha.beta"));
    assert!(v("1.0.0-1") < v("1.0.0-alpha"));
    // Equal as numbers, different as text: neither is greater, so Less.
    assert_eq!(v("1.0.0-01").compare(&v("1.0.0-1")), Ordering::Less);
    assert_eq!(v("1.0.0-1").compare(&v("1.0.0-01")), Ordering::Less);
}

#[test]
fn parses_constraints() {
    for ok in [
        "1.0",
        ">= 1.0, < 2",
        "~> 1.2",
        "= 1.0",
        "!= 1.0",
        ">=1.0.0-beta",
        " v1.2.3+meta ",
        "~>0.12.0",
    ] {
        let c = Constraints::parse(ok).unwrap();
        assert_eq!(c.to_string(), ok, "the text parsed is kept");
    }
    for bad in [
        "", "1.0,", ">> 1", "banana", "1.0 1.1", "=> 1.0", "999.99.x",
    ] {
        assert!(Constraints::parse(bad).is_err(), "{bad}");
    }
    assert_eq!(
        Constraints::parse(">= x").unwrap_err().to_string(),
        "Malformed constraint: >= x"
    );
    assert_eq!(
        Constraints::parse(">= 1.0,<2.x").unwrap_err().to_string(),
        "Malformed constraint: <2.x"
    );
    assert_eq!(
        Constraints::parse(">= 99999999999999999999").unwrap_err().to_string(),
        "Error parsing version: strconv.ParseInt: parsing \"99999999999999999999\": value out of range"
    );
}

#[test]
fn checks() {
    let cases = [
        (">= 1.0, < 2.0", "1.5.0", true),
        (">= 1.0, < 2.0", "2.0.0", false),
        (">= 1.12", "1.13.0", true),
        (">= 1.11", "1.11.0", true),
        (">= 1.12", "1.11.0", false),
        ("999.9", "1.13.0", false),
        ("~> 1.2", "1.9.0", true),
        ("~> 1.2", "2.0.0", false),
        ("~> 1.2.0", "1.2.9", true),
        ("~> 1.2.0", "1.3.0", false),
        ("~> 1.2.3", "1.2.9", true),
        ("~> 1.2.3", "1.3.0", false),
        ("~> 0.9.0", "1.13.0", false),
        ("< 2", "1.99.0", true),
        ("1.0.0", "1.0.0", true),
        ("=1.0.0", "1.0.1", false),
        ("= 1.0", "1.0.0", true),
        ("!= 1.0", "1.0.0", false),
        ("!= 1.0.0", "1.0.1", true),
        (">= 1.0.0", "1.1.0-beta", false),
        (">= 1.0.0-beta", "1.0.0-rc", true),
        (">= 1.0.0", "1.1.0-rc", false),
        (">= 1.1.0-alpha", "1.1.0-beta", true),
        ("<=0.0.3-alpha.1", "0.0.2", true),
        ("0.0.3-alpha.1", "0.0.3-alpha.1", true),
    ];
    for (c, ver, want) in cases {
        assert_eq!(
            Constraints::parse(c).unwrap().check(&v(ver)),
            want,
            "{c} vs {ver}"
        );
    }
    assert!(Constraints::none().check(&v("0.0.1-beta")));
}

#[test]
fn constraint_parts() {
    let c = Constraints::parse(">= 1.0.0-beta1, <2").unwrap();
    assert!(c.0[0].prerelease());
    assert_eq!(c.0[0].op, Operator::GreaterOrEqual);
    assert_eq!(c.0[1].to_string(), " <2");
    assert_eq!(c.to_string(), ">= 1.0.0-beta1, <2");
}
