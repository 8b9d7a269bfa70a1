//! Number vectors, most captured from `terraform console` 1.11.4.

use super::*;

fn n(s: &str) -> Number {
    Number::parse(s).unwrap()
}

#[test]
fn terraform_division_vectors() {
    let third = n("1").quo(&n("3")).unwrap().to_text();
    assert_eq!(third.len(), 2 + 155);
    assert!(
        third.starts_with("0.3333") && third.ends_with("33335"),
        "{third}"
    );
    assert!(n("2").quo(&n("3")).unwrap().to_text().ends_with("6667"));
    assert!(n("10").quo(&n("3")).unwrap().to_text().ends_with("3332"));
    let r = n("-7").quo(&n("3")).unwrap().to_text();
    assert!(r.starts_with("-2.333") && r.ends_with("3332"), "{r}");
    assert_eq!(n("1").quo(&n("0")).unwrap().to_text(), "+Inf");
    assert_eq!(n("-1").quo(&n("0")).unwrap().to_text(), "-Inf");
    let e = n("0").quo(&n("0")).unwrap_err();
    assert_eq!(e.msg, "division of zero by zero or infinity by infinity");
}

#[test]
fn terraform_sum_and_product_vectors() {
    let s = n("0.1").add(&n("0.2")).unwrap();
    assert_eq!(s.to_text(), "0.3");
    assert!(s.cty_equals(&n("0.3")));
    let r = n("1").quo(&n("3")).unwrap().mul(&n("3")).unwrap();
    assert_eq!(r.to_text(), "1");
    let sq = n("0.1").mul(&n("0.1")).unwrap().to_text();
    assert!(sq.starts_with("0.0100000000") && sq.ends_with("01"), "{sq}");
    let sq = n("1.1").mul(&n("1.1")).unwrap().to_text();
    assert!(sq.starts_with("1.2100000000") && sq.ends_with("01"), "{sq}");
    assert_eq!(
        n("12345678901234567890").add(&n("1")).unwrap().to_text(),
        "12345678901234567891"
    );
    let third = n("1").quo(&n("3")).unwrap();
    assert!(!third.cty_equals(&n("0.3333333333333333")));
}

#[test]
fn terraform_literal_vectors() {
    let cases = [
        ("1e23", "100000000000000000000000"),
        ("1e-7", "0.0000001"),
        ("1.5", "1.5"),
        ("0.1", "0.1"),
        ("-0.25", "-0.25"),
        ("8080.5", "8080.5"),
        ("1E3", "1000"),
        ("00012", "12"),
        ("1.", "1"),
        (".5", "0.5"),
        ("1p3", "8"),
        ("Inf", "+Inf"),
        ("-inf", "-Inf"),
        (
            "123456789012345678901234567890",
            "123456789012345678901234567890",
        ),
    ];
    for (input, want) in cases {
        assert_eq!(n(input).to_text(), want, "{input}");
    }
    for bad in [
        "", "-", ".", "1e", "1x", "abc", "1_000", " 1", "1e+", "0x10",
    ] {
        assert!(Number::parse(bad).is_err(), "{bad:?}");
    }
}

#[test]
fn terraform_modulo_vectors() {
    let cases = [
        ("-5", "3", "-2"),
        ("5.5", "2", "1.5"),
        ("-7", "3", "-1"),
        ("7", "0", "7"),
        ("10", "2.5", "0"),
    ];
    for (a, b, want) in cases {
        assert_eq!(n(a).modulo(&n(b)).unwrap().to_text(), want, "{a} % {b}");
    }
    let big = n("12345678901234567890123").modulo(&n("7")).unwrap();
    assert_eq!(big.to_text(), "3");
    assert_eq!(
        n("5")
            .modulo(&Number::parse("Inf").unwrap())
            .unwrap()
            .to_text(),
        "+Inf"
    );
}

#[test]
fn float64_vectors() {
    assert_eq!(
        Number::from_f64(2f64.powi(100)).unwrap().to_text(),
        "1267650600228229400000000000000"
    );
    assert_eq!(
        Number::from_f64(2f64.powi(64)).unwrap().to_text(),
        "18446744073709550000"
    );
    let r = Number::from_f64(2f64.sqrt()).unwrap().add(&n("1")).unwrap();
    assert_eq!(
        r.to_text(),
        "2.4142135623730951454746218587388284504413604736328125"
    );
    assert_eq!(
        Number::from_f64(1.6989700043360185).unwrap().to_text(),
        "1.6989700043360185"
    );
    assert_eq!(Number::from_f64(0.1).unwrap().to_text(), "0.1");
    assert_eq!(Number::from_f64(-0.0).unwrap().to_text(), "-0");
    assert!(Number::from_f64(-0.0)
        .unwrap()
        .cty_equals(&Number::from_i64(0)));
    assert!(Number::from_f64(f64::NAN).is_none());
}

#[test]
fn bigint_vectors() {
    let v = BigInt::parse_bytes(b"ffffffffffffffffffff", 16).unwrap();
    assert_eq!(
        Number::from_bigint(&v).to_text(),
        "1208925819614629174706175"
    );
}

#[test]
fn go_string_is_percent_10g() {
    let cases = [
        ("1", "1"),
        ("0.1", "0.1"),
        ("12345678901", "1.23456789e+10"),
        ("1234567890", "1234567890"),
        ("0.00001", "1e-05"),
        ("0.0001", "0.0001"),
        ("-2.5", "-2.5"),
        ("0", "0"),
    ];
    for (input, want) in cases {
        assert_eq!(n(input).go_string(), want, "{input}");
    }
    assert_eq!(n("1").quo(&n("3")).unwrap().go_string(), "0.3333333333");
}

#[test]
fn fixed_precision_text() {
    let cases = [
        ("2.5", 'f', 0, "2"),
        ("3.5", 'f', 0, "4"),
        ("1.005", 'f', 2, "1.00"),
        ("3.14159", 'f', 2, "3.14"),
        ("3.14159", 'e', 3, "3.142e+00"),
        ("123456", 'e', -1, "1.23456e+05"),
        ("123456", 'g', -1, "123456"),
        ("1234567", 'g', -1, "1.234567e+06"),
        ("0.5", 'f', 6, "0.500000"),
        ("0", 'e', 2, "0.00e+00"),
    ];
    for (input, fmt, prec, want) in cases {
        assert_eq!(n(input).text(fmt, prec), want, "{input} {fmt} {prec}");
    }
}

#[test]
fn precision_labels_follow_cty() {
    assert_eq!(n("1").prec(), 512);
    assert_eq!(Number::from_i64(1).prec(), 64);
    assert_eq!(Number::from_f64(1.5).unwrap().prec(), 53);
    assert_eq!(n("1").add(&Number::from_i64(2)).unwrap().prec(), 512);
    let p = Number::from_i64(i64::MAX)
        .mul(&Number::from_i64(i64::MAX))
        .unwrap();
    assert_eq!(p.prec(), 126);
    assert_eq!(p.to_text(), "85070591730234615847396907784232501249");
}

#[test]
fn small_fast_path_matches_big_path() {
    let vals = [
        0i64,
        1,
        -1,
        7,
        -7,
        3,
        100,
        i64::MAX,
        i64::MIN,
        1 << 53,
        -(1 << 40) + 3,
    ];
    for &a in &vals {
        for &b in &vals {
            let (na, nb) = (Number::from_i64(a), Number::from_i64(b));
            let (ba, bb) = (
                Number::Big(Box::new(na.to_big())),
                Number::Big(Box::new(nb.to_big())),
            );
            let pairs: [(Result<Number, NanError>, Result<Number, NanError>); 4] = [
                (na.add(&nb), ba.add(&bb)),
                (na.mul(&nb), ba.mul(&bb)),
                (na.quo(&nb), ba.quo(&bb)),
                (na.modulo(&nb), ba.modulo(&bb)),
            ];
            for (i, (fast, slow)) in pairs.into_iter().enumerate() {
                match (fast, slow) {
                    (Ok(f), Ok(s)) => {
                        assert_eq!(f.to_text(), s.to_text(), "op {i} on {a} {b}");
                        assert_eq!(f.prec(), s.prec(), "op {i} on {a} {b}");
                    }
                    (Err(_), Err(_)) => {}
                    (f, s) => panic!("op {i} on {a} {b}: {f:?} vs {s:?}"),
                }
            }
        }
    }
}

#[test]
fn many_small_additions_stay_small() {
    let mut acc = Number::from_i64(0);
    let one = n("1");
    for _ in 0..100_000 {
        acc = acc.add(&one).unwrap();
    }
    assert!(matches!(
        acc,
        Number::Small {
            v: 100_000,
            prec: 512
        }
    ));
}

#[test]
fn huge_exponents_do_not_hang() {
    assert_eq!(n("1e1000000000").to_text(), "+Inf");
    assert_eq!(n("1e-1000000000").to_text(), "0");
    assert!(Number::parse("1e99999999999999999999").is_err());
}

#[test]
fn ordering_and_equality() {
    assert_eq!(n("0.1").compare(&n("0.2")), Ordering::Less);
    assert_eq!(n("-Inf").compare(&n("-1e300")), Ordering::Less);
    assert_eq!(
        n("2").compare(&Number::from_f64(2.0).unwrap()),
        Ordering::Equal
    );
    assert!(n("0.1").cty_equals(&Number::from_f64(0.1).unwrap()));
    assert!(!n("18446744073709550000").cty_equals(&Number::from_f64(2f64.powi(64)).unwrap()));
}

#[test]
fn small_integer_parse_matches_the_big_path() {
    for s in [
        "0",
        "7",
        "007",
        "-1",
        "123456789012345678",
        "-123456789012345678",
        "9223372036854775807",
        "-0",
        "1e3",
        "1.0",
    ] {
        let fast = Number::parse(s).unwrap();
        let slow = Number::from_big(BigFloat::parse(s, PARSE_PRECISION).unwrap());
        assert_eq!(fast.prec(), slow.prec(), "{s}");
        assert_eq!(fast.to_text(), slow.to_text(), "{s}");
        assert_eq!(
            matches!(fast, Number::Small { .. }),
            matches!(slow, Number::Small { .. }),
            "{s}"
        );
        assert!(fast.cty_equals(&slow), "{s}");
    }
}
