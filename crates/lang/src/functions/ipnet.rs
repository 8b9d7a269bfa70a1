//! IP network functions (OpenTofu `funcs/cidr.go` on `internal/ipaddr` and
//! `apparentlymart/go-cidr`): cidrcontains, cidrhost, cidrnetmask,
//! cidrsubnet and cidrsubnets, with big-integer host and network numbers
//! as go-cidr's `HostBig`/`SubnetBig` use them.

use cty::{Type, Value};
use num_bigint::{BigInt, Sign};
use num_traits::{One, Signed};

use super::numeric::{to_bigint, to_int};
use crate::functions::framework::{static_return, FnError, Function, FunctionTable, Param};

/// An address: its value and width (32 or 128 bits). IPv4-mapped IPv6
/// addresses print as IPv4, as Go's `net.IP.String` does.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Ip {
    v: u128,
    bits: u32,
}

/// A network: an address (not necessarily masked) and a prefix length.
#[derive(Clone, Copy, Debug)]
struct Net {
    ip: Ip,
    prefix: i64,
}

fn mask(bits: u32, prefix: i64) -> u128 {
    let all: u128 = if bits == 128 {
        u128::MAX
    } else {
        (1u128 << bits) - 1
    };
    if prefix <= 0 {
        return 0;
    }
    if prefix as u32 >= bits {
        return all;
    }
    all & !(all >> prefix as u32)
}

/// Go 1.16 `parseIPv4` (leading zeros allowed, read as decimal).
fn parse_ipv4(s: &str) -> Option<u32> {
    let parts: Vec<&str> = s.split('.').collect();
    if parts.len() != 4 {
        return None;
    }
    let mut v = 0u32;
    for p in parts {
        if p.is_empty() || p.len() > 3 || !p.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        let n: u32 = p.parse().ok()?;
        if n > 255 {
            return None;
        }
        v = (v << 8) | n;
    }
    Some(v)
}

/// `ipaddr.ParseIP`.
fn parse_ip(s: &str) -> Option<Ip> {
    if let Some(v) = parse_ipv4(s) {
        return Some(Ip {
            v: u128::from(v),
            bits: 32,
        });
    }
    if !s.contains(':') {
        return None;
    }
    // Allow Go's leading-zero IPv4 tails by normalizing them first.
    let addr = match s.rfind(':') {
        Some(i) if s[i + 1..].contains('.') => {
            let v4 = parse_ipv4(&s[i + 1..])?;
            let a = std::net::Ipv4Addr::from(v4);
            format!("{}:{a}", &s[..i])
        }
        _ => s.to_string(),
    };
    let v6: std::net::Ipv6Addr = addr.parse().ok()?;
    Some(Ip {
        v: u128::from(v6),
        bits: 128,
    })
}

/// `ipaddr.ParseCIDR`: the network with its address masked.
fn parse_cidr(s: &str) -> Result<Net, String> {
    let bad = || format!("invalid CIDR address: {s}");
    let (addr, len) = s.split_once('/').ok_or_else(bad)?;
    let ip = parse_ip(addr).ok_or_else(bad)?;
    if len.is_empty() || len.len() > 3 || !len.bytes().all(|b| b.is_ascii_digit()) {
        return Err(bad());
    }
    let prefix: i64 = len.parse().map_err(|_| bad())?;
    if prefix > i64::from(ip.bits) {
        return Err(bad());
    }
    Ok(Net {
        ip: Ip {
            v: ip.v & mask(ip.bits, prefix),
            bits: ip.bits,
        },
        prefix,
    })
}

fn is_v4_mapped(v: u128) -> bool {
    v >> 32 == 0xffff
}

impl std::fmt::Display for Ip {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.bits == 32 || is_v4_mapped(self.v) {
            write!(f, "{}", std::net::Ipv4Addr::from(self.v as u32))
        } else {
            write!(f, "{}", std::net::Ipv6Addr::from(self.v))
        }
    }
}

impl std::fmt::Display for Net {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.prefix < 0 || self.prefix > i64::from(self.ip.bits) {
            return write!(f, "{}/<nil>", self.ip);
        }
        // An IPv4-mapped network shows the IPv4 prefix length.
        let prefix = if self.ip.bits == 128 && is_v4_mapped(self.ip.v) && self.prefix >= 96 {
            self.prefix - 96
        } else {
            self.prefix
        };
        write!(f, "{}/{prefix}", self.ip)
    }
}

fn invalid_cidr(e: String) -> FnError {
    FnError::general(format!("invalid CIDR expression: {e}"))
}

/// go-cidr `insertNumIntoIP`: ORs `num << (bits - prefix)` into the address
/// with big.Int semantics and keeps the low bytes.
fn insert_num(ip: Ip, num: &BigInt, prefix: i64) -> Ip {
    let shift = i64::from(ip.bits) - prefix;
    let shifted = if shift >= 0 {
        num << (shift as usize)
    } else {
        num >> ((-shift) as usize)
    };
    let combined = BigInt::from(ip.v) | shifted;
    let (_, bytes) = combined.to_bytes_be();
    let width = (ip.bits / 8) as usize;
    let tail = if bytes.len() > width {
        &bytes[bytes.len() - width..]
    } else {
        &bytes[..]
    };
    let mut v: u128 = 0;
    for b in tail {
        v = (v << 8) | u128::from(*b);
    }
    Ip { v, bits: ip.bits }
}

/// Go `big.Int.Uint64`: the low 64 bits of the magnitude.
fn low_u64(n: &BigInt) -> BigInt {
    let m = n.magnitude().to_u64_digits();
    BigInt::from(m.first().copied().unwrap_or(0))
}

fn cidrhost_fn() -> Function {
    Function::new(
        vec![
            Param::new("prefix", Type::String),
            Param::new("hostnum", Type::Number),
        ],
        None,
        static_return(Type::String),
        |args, _| {
            let mut num = to_bigint(&args[1]).map_err(FnError::general)?;
            let net = parse_cidr(args[0].as_str().unwrap_or_default()).map_err(invalid_cidr)?;
            let host_len = i64::from(net.ip.bits) - net.prefix;
            let max: BigInt = (BigInt::one() << host_len as usize) - 1;
            let mut check = low_u64(&num);
            if num.sign() == Sign::Minus {
                check = -num.clone() - 1;
                num = &max - &check;
            }
            if check > max {
                return Err(FnError::general(format!(
                    "prefix of {} does not accommodate a host numbered {num}",
                    net.prefix
                )));
            }
            Ok(Value::string(
                insert_num(net.ip, &num, i64::from(net.ip.bits)).to_string(),
            ))
        },
    )
}

fn cidrnetmask_fn() -> Function {
    Function::new(
        vec![Param::new("prefix", Type::String)],
        None,
        static_return(Type::String),
        |args, _| {
            let s = args[0].as_str().unwrap_or_default();
            let net = parse_cidr(s).map_err(invalid_cidr)?;
            if net.ip.bits != 32 {
                return Err(FnError::general(format!(
                    "IPv6 addresses cannot have a netmask: {s}"
                )));
            }
            let m = Ip {
                v: mask(32, net.prefix),
                bits: 32,
            };
            Ok(Value::string(m.to_string()))
        },
    )
}

fn cidrsubnet_fn() -> Function {
    Function::new(
        vec![
            Param::new("prefix", Type::String),
            Param::new("newbits", Type::Number),
            Param::new("netnum", Type::Number),
        ],
        None,
        static_return(Type::String),
        |args, _| {
            let newbits = to_int(&args[1]).map_err(FnError::general)?;
            let num = to_bigint(&args[2]).map_err(FnError::general)?;
            let net = parse_cidr(args[0].as_str().unwrap_or_default()).map_err(invalid_cidr)?;
            let new_prefix = net.prefix.saturating_add(newbits);
            if new_prefix > i64::from(net.ip.bits) {
                return Err(FnError::general(format!(
                    "insufficient address space to extend prefix of {} by {newbits}",
                    net.prefix
                )));
            }
            // Go: uint64(1<<uint64(newBits)) - 1, where shifts of 64 or
            // more (including negative counts) give 0.
            let max: u64 = if (0..64).contains(&newbits) {
                (1u64 << newbits) - 1
            } else {
                u64::MAX
            };
            if low_u64(&num) > BigInt::from(max) {
                return Err(FnError::general(format!(
                    "prefix extension of {newbits} does not accommodate a subnet numbered {num}"
                )));
            }
            if new_prefix < 0 || num.abs().bits() > 256 {
                return Ok(Value::string(format!("{}/<nil>", net.ip)));
            }
            let ip = insert_num(net.ip, &num, new_prefix);
            Ok(Value::string(
                Net {
                    ip,
                    prefix: new_prefix,
                }
                .to_string(),
            ))
        },
    )
}

/// go-cidr `AddressRange`.
fn address_range(n: &Net) -> (u128, u128) {
    let m = mask(n.ip.bits, n.prefix);
    let all = mask(n.ip.bits, i64::from(n.ip.bits));
    (n.ip.v & m, (n.ip.v | !m) & all)
}

fn cidrsubnets_fn() -> Function {
    Function::new(
        vec![Param::new("prefix", Type::String)],
        Some(Param::new("newbits", Type::Number)),
        static_return(Type::list(Type::String)),
        |args, _| {
            let net = parse_cidr(args[0].as_str().unwrap_or_default())
                .map_err(|e| FnError::arg(0, format!("invalid CIDR expression: {e}")))?;
            let lengths = &args[1..];
            if lengths.is_empty() {
                return Ok(Value::list_empty(Type::String));
            }
            let bits = net.ip.bits;
            let all = mask(bits, i64::from(bits));
            let first = to_int(&lengths[0]).map_err(|e| FnError::arg(1, e))?;
            let first_len = first.saturating_add(net.prefix);
            // PreviousSubnet(network, firstLength)
            let mut current = Net {
                ip: Ip {
                    v: net.ip.v.wrapping_sub(1) & all & mask(bits, first_len),
                    bits,
                },
                prefix: first_len,
            };
            let mut out = Vec::with_capacity(lengths.len());
            for (i, arg) in lengths.iter().enumerate() {
                let length = to_int(arg).map_err(|e| FnError::arg(i + 1, e))?;
                if length < 1 {
                    return Err(FnError::arg(
                        i + 1,
                        "must extend prefix by at least one bit",
                    ));
                }
                if length > 32 {
                    return Err(FnError::arg(
                        i + 1,
                        "may not extend prefix by more than 32 bits",
                    ));
                }
                let length = length + net.prefix;
                if length > i64::from(bits) {
                    let protocol = if bits == 32 { "IPv4" } else { "IPv6" };
                    return Err(FnError::arg(
                        i + 1,
                        format!(
                            "would extend prefix to {length} bits, which is too long for an {protocol} address"
                        ),
                    ));
                }
                // NextSubnet(current, length)
                let (_, current_last) = address_range(&current);
                let m = mask(bits, length);
                let sub = Net {
                    ip: Ip {
                        v: current_last & m,
                        bits,
                    },
                    prefix: length,
                };
                let (_, last) = address_range(&sub);
                let last = last.wrapping_add(1) & all;
                let next = Net {
                    ip: Ip { v: last & m, bits },
                    prefix: length,
                };
                let rollover = last == 0;
                let net_mask = mask(bits, net.prefix);
                if rollover || (next.ip.v & net_mask) != net.ip.v {
                    return Err(FnError::arg(
                        i + 1,
                        format!(
                            "not enough remaining address space for a subnet with a prefix of {length} bits after {current}"
                        ),
                    ));
                }
                current = next;
                out.push(Value::string(current.to_string()));
            }
            Ok(Value::list(Type::String, out)?)
        },
    )
}

fn cidrcontains_fn() -> Function {
    Function::new(
        vec![
            Param::new("containing_prefix", Type::String),
            Param::new("contained_ip_or_prefix", Type::String),
        ],
        None,
        static_return(Type::Bool),
        |args, _| {
            let prefix = args[0].as_str().unwrap_or_default();
            let addr = args[1].as_str().unwrap_or_default();
            let containing = parse_cidr(prefix).map_err(FnError::general)?;
            let (start, end) = match parse_ip(addr) {
                Some(ip) => (ip, None),
                None => {
                    let contained = parse_cidr(addr).map_err(|_| {
                        FnError::general(format!("invalid IP address or prefix: {addr}"))
                    })?;
                    let (s, e) = address_range(&contained);
                    let b = contained.ip.bits;
                    (Ip { v: s, bits: b }, Some(Ip { v: e, bits: b }))
                }
            };
            let v4 = |ip: &Ip| ip.bits == 32 || is_v4_mapped(ip.v);
            if v4(&start) != v4(&containing.ip) {
                return Err(FnError::general(format!(
                    "address family mismatch: {prefix} vs. {addr}"
                )));
            }
            let contains = |ip: &Ip| {
                let (v, bits) = if ip.bits == 128 && containing.ip.bits == 32 {
                    (ip.v & 0xffff_ffff, 32)
                } else {
                    (ip.v, ip.bits)
                };
                let m = mask(containing.ip.bits, containing.prefix);
                bits == containing.ip.bits && (v & m) == containing.ip.v
            };
            let mut result = contains(&start);
            if let Some(e) = end {
                result = result && contains(&e);
            }
            Ok(Value::bool(result))
        },
    )
}

/// Registers this family's functions.
pub fn register(table: &mut FunctionTable) {
    table.insert("cidrcontains", cidrcontains_fn());
    table.insert("cidrhost", cidrhost_fn());
    table.insert("cidrnetmask", cidrnetmask_fn());
    table.insert("cidrsubnet", cidrsubnet_fn());
    table.insert("cidrsubnets", cidrsubnets_fn());
}

#[cfg(test)]
mod tests {
    use super::*;

    fn call(name: &str, args: Vec<Value>) -> Result<Value, FnError> {
        let mut t = FunctionTable::new();
        register(&mut t);
        t.get(name).expect("registered").call(&args)
    }

    fn st(s: &str) -> Value {
        Value::string(s)
    }

    fn n(i: i64) -> Value {
        Value::number_int(i)
    }

    fn ok(name: &str, args: Vec<Value>) -> String {
        call(name, args).unwrap().as_str().unwrap().to_string()
    }

    fn err(name: &str, args: Vec<Value>) -> String {
        call(name, args).unwrap_err().message().to_string()
    }

    #[test]
    fn cidrhost_cases() {
        for (p, h, want) in [
            ("192.168.1.0/24", 5, "192.168.1.5"),
            ("192.168.1.0/24", -5, "192.168.1.251"),
            ("192.168.1.0/24", 255, "192.168.1.255"),
            ("10.0.0.0/8", -1, "10.255.255.255"),
            ("1::/64", 5, "1::5"),
            ("fe80::/64", 5, "fe80::5"),
            ("1::/64", -1, "1::ffff:ffff:ffff:ffff"),
            ("010.1.2.3/8", 1, "10.0.0.1"),
        ] {
            assert_eq!(ok("cidrhost", vec![st(p), n(h)]), want, "{p} {h}");
        }
        for (p, h, want) in [
            (
                "192.168.1.0/24",
                256,
                "prefix of 24 does not accommodate a host numbered 256",
            ),
            (
                "192.168.1.0/24",
                -257,
                "prefix of 24 does not accommodate a host numbered -1",
            ),
            (
                "10.0.0.0/8",
                99999999999,
                "prefix of 8 does not accommodate a host numbered 99999999999",
            ),
            (
                "10.0.0.0/8",
                -99999999999,
                "prefix of 8 does not accommodate a host numbered -99983222783",
            ),
            (
                "not-a-cidr",
                6,
                "invalid CIDR expression: invalid CIDR address: not-a-cidr",
            ),
            (
                "10.0.0.0/33",
                1,
                "invalid CIDR expression: invalid CIDR address: 10.0.0.0/33",
            ),
        ] {
            assert_eq!(err("cidrhost", vec![st(p), n(h)]), want, "{p} {h}");
        }
        let e = err(
            "cidrhost",
            vec![st("10.0.0.0/8"), Value::parse_number("1.5").unwrap()],
        );
        assert_eq!(e, "value must be a whole number");
    }

    #[test]
    fn cidrnetmask_cases() {
        assert_eq!(
            ok("cidrnetmask", vec![st("192.168.1.0/24")]),
            "255.255.255.0"
        );
        assert_eq!(
            ok("cidrnetmask", vec![st("192.168.1.0/32")]),
            "255.255.255.255"
        );
        assert_eq!(ok("cidrnetmask", vec![st("0.0.0.0/0")]), "0.0.0.0");
        assert_eq!(ok("cidrnetmask", vec![st("10.0.0.0/8")]), "255.0.0.0");
        assert_eq!(
            err("cidrnetmask", vec![st("fe80::/10")]),
            "IPv6 addresses cannot have a netmask: fe80::/10"
        );
        assert_eq!(
            err("cidrnetmask", vec![st("not-a-cidr")]),
            "invalid CIDR expression: invalid CIDR address: not-a-cidr"
        );
    }

    #[test]
    fn cidrsubnet_cases() {
        for (p, b, num, want) in [
            ("192.168.2.0/20", 4, 6, "192.168.6.0/24"),
            ("fe80::/48", 16, 6, "fe80:0:0:6::/64"),
            ("fe80::/48", 16, 65535, "fe80:0:0:ffff::/64"),
            ("10.0.0.0/8", 8, -1, "0.1.0.0/16"),
            ("10.0.0.0/8", -1, 0, "10.0.0.0/7"),
            ("::ffff:10.0.0.0/104", 8, 1, "10.1.0.0/16"),
            ("fe80::/40", 68, 1, "fe80::10:0/108"),
        ] {
            assert_eq!(
                ok("cidrsubnet", vec![st(p), n(b), n(num)]),
                want,
                "{p} {b} {num}"
            );
        }
        for (p, b, num, want) in [
            (
                "10.0.0.0/8",
                25,
                0,
                "insufficient address space to extend prefix of 8 by 25",
            ),
            (
                "10.0.0.0/8",
                8,
                256,
                "prefix extension of 8 does not accommodate a subnet numbered 256",
            ),
            (
                "not-a-cidr",
                4,
                6,
                "invalid CIDR expression: invalid CIDR address: not-a-cidr",
            ),
        ] {
            assert_eq!(err("cidrsubnet", vec![st(p), n(b), n(num)]), want);
        }
    }

    #[test]
    fn cidrsubnets_cases() {
        let strs = |v: Value| -> Vec<String> {
            v.as_elements()
                .unwrap()
                .iter()
                .map(|e| e.as_str().unwrap().to_string())
                .collect()
        };
        assert_eq!(
            strs(call("cidrsubnets", vec![st("10.0.0.0/8"), n(8), n(4), n(8)]).unwrap()),
            ["10.0.0.0/16", "10.16.0.0/12", "10.32.0.0/16"]
        );
        assert_eq!(
            strs(call("cidrsubnets", vec![st("10.0.0.0/24"), n(1), n(1)]).unwrap()),
            ["10.0.0.0/25", "10.0.0.128/25"]
        );
        assert_eq!(
            strs(call("cidrsubnets", vec![st("fe80::/48"), n(16), n(16)]).unwrap()),
            ["fe80::/64", "fe80:0:0:1::/64"]
        );
        assert!(strs(call("cidrsubnets", vec![st("10.0.0.0/8")]).unwrap()).is_empty());
        for (args, idx, want) in [
            (vec![st("10.0.0.0/30"), n(1), n(1), n(1)], 3, "not enough remaining address space for a subnet with a prefix of 31 bits after 10.0.0.2/31"),
            (vec![st("10.0.0.0/8"), n(0)], 1, "must extend prefix by at least one bit"),
            (vec![st("10.0.0.0/8"), n(33)], 1, "may not extend prefix by more than 32 bits"),
            (vec![st("10.0.0.0/28"), n(5)], 1, "would extend prefix to 33 bits, which is too long for an IPv4 address"),
            (vec![st("nope"), n(1)], 0, "invalid CIDR expression: invalid CIDR address: nope"),
        ] {
            assert_eq!(call("cidrsubnets", args).unwrap_err(), FnError::arg(idx, want));
        }
    }

    #[test]
    fn cidrcontains_cases() {
        for (p, a, want) in [
            ("192.168.2.0/20", "192.168.2.1", true),
            ("192.168.2.0/20", "192.126.2.1", false),
            ("fe80::/48", "fe80::1", true),
            ("fe80::/48", "fe81::1", false),
            ("192.168.2.0/20", "192.168.2.0/22", true),
            ("192.168.2.0/20", "192.126.2.0/18", false),
            ("fe80::/48", "fe80::/64", true),
        ] {
            assert_eq!(
                call("cidrcontains", vec![st(p), st(a)]).unwrap().as_bool(),
                Some(want)
            );
        }
        assert_eq!(
            err("cidrcontains", vec![st("192.168.2.0/20"), st("fe80::1")]),
            "address family mismatch: 192.168.2.0/20 vs. fe80::1"
        );
        assert_eq!(
            err("cidrcontains", vec![st("192.168.2.0/20"), st("bad")]),
            "invalid IP address or prefix: bad"
        );
        assert_eq!(
            err("cidrcontains", vec![st("bad"), st("1.2.3.4")]),
            "invalid CIDR address: bad"
        );
    }
}
