//! Case mapping, joining and splitting: upper, lower, join, split (go-cty
//! `stdlib/string.go`).

use cty::{Type, Value};

use crate::functions::framework::{FnError, Function, FunctionTable, Param};

pub(super) fn register(t: &mut FunctionTable) {
    t.insert("upper", case_fn(true));
    t.insert("lower", case_fn(false));
    t.insert("join", join());
    t.insert("split", split());
}

/// Go's `strings.ToUpper`/`ToLower`: rune by rune, keeping runes whose
/// case mapping is not a single rune (so `ß` stays `ß`).
pub(crate) fn map_case(s: &str, upper: bool) -> String {
    s.chars()
        .map(|c| {
            let mut m: Vec<char> = if upper {
                c.to_uppercase().collect()
            } else {
                c.to_lowercase().collect()
            };
            if m.len() == 1 {
                m.pop().unwrap_or(c)
            } else {
                c
            }
        })
        .collect()
}

fn case_fn(upper: bool) -> Function {
    Function::new(
        vec![Param::new("str", Type::String).allow_dynamic()],
        None,
        |_| Ok(Type::String),
        move |args, _| {
            Ok(Value::string(map_case(
                args[0].as_str().unwrap_or_default(),
                upper,
            )))
        },
    )
}

fn join() -> Function {
    Function::new(
        vec![Param::new("separator", Type::String)],
        Some(Param::new("lists", Type::list(Type::String))),
        |_| Ok(Type::String),
        |args, _| {
            let sep = args[0].as_str().unwrap_or_default();
            let lists = &args[1..];
            if lists.is_empty() {
                return Err(FnError::general("at least one list is required"));
            }
            if lists.iter().any(|l| !l.is_wholly_known()) {
                return Ok(Value::unknown(Type::String));
            }
            let mut items: Vec<String> = Vec::new();
            for (ai, list) in lists.iter().enumerate() {
                for (ei, (_, v)) in list.elements().into_iter().enumerate() {
                    if v.is_null() {
                        return Err(FnError::arg(
                            ai + 1,
                            if lists.len() > 1 {
                                format!("element {ei} of list {} is null; cannot concatenate null values", ai + 1)
                            } else {
                                format!("element {ei} is null; cannot concatenate null values")
                            },
                        ));
                    }
                    items.push(v.as_str().unwrap_or_default().to_string());
                }
            }
            Ok(Value::string(items.join(sep)))
        },
    )
}

/// Go's `strings.Split`: an empty separator splits after each character.
pub(crate) fn go_split(s: &str, sep: &str) -> Vec<String> {
    if sep.is_empty() {
        return s.chars().map(String::from).collect();
    }
    s.split(sep).map(String::from).collect()
}

fn split() -> Function {
    Function::new(
        vec![
            Param::new("separator", Type::String),
            Param::new("str", Type::String),
        ],
        None,
        |_| Ok(Type::list(Type::String)),
        |args, _| {
            let sep = args[0].as_str().unwrap_or_default();
            let s = args[1].as_str().unwrap_or_default();
            let elems: Vec<Value> = go_split(s, sep).into_iter().map(Value::string).collect();
            Ok(Value::list(Type::String, elems)?)
        },
    )
}
