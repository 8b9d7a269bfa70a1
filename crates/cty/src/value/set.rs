//! cty set internals: hash serialization (`makeSetHashBytes`), CRC32
//! hashing, duplicate elimination and element order (`setRules.Less`).

use std::cmp::Ordering;
use std::collections::HashMap;

use crate::format::go_quote;

use super::{Data, Value};

/// cty's set-hash serialization of a value (marks are ignored).
pub fn set_hash_bytes(v: &Value) -> String {
    let mut buf = String::new();
    append_hash(v, &mut buf);
    buf
}

/// `Value.Hash`: CRC32 (IEEE) of [`set_hash_bytes`].
pub fn set_hash(v: &Value) -> u32 {
    crc32fast::hash(set_hash_bytes(v).as_bytes())
}

fn append_hash(v: &Value, buf: &mut String) {
    match v.data() {
        Data::Unknown => buf.push('?'),
        Data::Null => buf.push('~'),
        Data::Number(n) => buf.push_str(&n.go_string()),
        Data::Bool(b) => buf.push(if *b { 'T' } else { 'F' }),
        Data::String(s) => buf.push_str(&go_quote(s)),
        Data::Attrs(m) if v.ty().is_map() => {
            buf.push('{');
            for (k, e) in m {
                buf.push_str(&go_quote(k));
                buf.push(':');
                append_hash(e, buf);
                buf.push(';');
            }
            buf.push('}');
        }
        Data::Attrs(m) => {
            buf.push('<');
            for e in m.values() {
                append_hash(e, buf);
                buf.push(';');
            }
            buf.push('>');
        }
        Data::Seq(items) => {
            let (open, close) = if v.ty().is_tuple() {
                ('<', '>')
            } else {
                ('[', ']')
            };
            buf.push(open);
            for e in items {
                append_hash(e, buf);
                buf.push(';');
            }
            buf.push(close);
        }
    }
}

/// cty `setRules.Less`.
pub(crate) fn set_less(a: &Value, b: &Value) -> bool {
    if a.raw_equals(b) {
        return false;
    }
    if b.is_null() && !a.is_null() {
        return true;
    } else if a.is_null() {
        return false;
    }
    if a.is_known() && !b.is_known() {
        return true;
    } else if !a.is_known() {
        return false;
    }
    match (a.data(), b.data()) {
        (Data::String(x), Data::String(y)) => x < y,
        (Data::Bool(x), Data::Bool(y)) => *y || !*x,
        (Data::Number(x), Data::Number(y)) => x.compare(y) == Ordering::Less,
        _ => set_hash_bytes(a).as_bytes() < set_hash_bytes(b).as_bytes(),
    }
}

fn equivalent(a: &Value, b: &Value) -> bool {
    a.equals(b).unmark().as_bool() == Some(true)
}

/// Merges duplicates (by cty equality; unknowns never merge) and orders
/// the elements as Go's `set.Values()` does: by bucket, then stably by `Less`.
pub(crate) fn build_set(vals: Vec<Value>) -> Vec<Value> {
    let mut buckets: HashMap<u32, Vec<usize>> = HashMap::new();
    let mut kept: Vec<(u32, Value)> = Vec::with_capacity(vals.len());
    for v in vals {
        let h = set_hash(&v);
        let bucket = buckets.entry(h).or_default();
        if bucket.iter().any(|&i| equivalent(&kept[i].1, &v)) {
            continue;
        }
        bucket.push(kept.len());
        kept.push((h, v));
    }
    kept.sort_by_key(|(h, _)| *h);
    let mut out: Vec<Value> = kept.into_iter().map(|(_, v)| v).collect();
    out.sort_by(|a, b| {
        if set_less(a, b) {
            Ordering::Less
        } else if set_less(b, a) {
            Ordering::Greater
        } else {
            Ordering::Equal
        }
    });
    out
}
