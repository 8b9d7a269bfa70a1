//! JSON for values and types, as `cty/json`: `Marshal` with Go's string
//! escaping and `Text('f', -1)` numbers, decoding with implied types, and
//! the JSON form of types (`"string"`, `["list","string"]`, ...).

use std::collections::BTreeMap;

use crate::convert::convert;
use crate::number::Number;
use crate::types::Type;
use crate::value::Value;

/// Go `encoding/json` string quoting (HTML-safe: `<`, `>`, `&` as `\u003c`...).
pub fn quote_string(s: &str) -> String {
    gocompat::json::string(s)
}

/// `json.Marshal(val, val.Type())`: compact JSON (marks are ignored).
pub fn marshal(v: &Value) -> Result<String, String> {
    let mut out = String::new();
    write_value(&v.unmark_deep().0, &mut out)?;
    Ok(out)
}

fn write_value(v: &Value, out: &mut String) -> Result<(), String> {
    if !v.is_known() {
        return Err("value is not known".into());
    }
    if v.is_null() {
        out.push_str("null");
        return Ok(());
    }
    match v.ty() {
        Type::String => out.push_str(&quote_string(v.as_str().unwrap_or_default())),
        Type::Bool => out.push_str(if v.as_bool() == Some(true) {
            "true"
        } else {
            "false"
        }),
        Type::Number => {
            let n = v.as_number().ok_or("invalid number")?;
            if n.is_inf() {
                return Err("can't marshal infinity as JSON".into());
            }
            out.push_str(&n.to_text());
        }
        Type::List(_) | Type::Set(_) | Type::Tuple(_) => {
            out.push('[');
            for (i, e) in v.as_elements().unwrap_or_default().iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_value(e, out)?;
            }
            out.push(']');
        }
        Type::Map(_) | Type::Object(_) => {
            out.push('{');
            for (i, (k, e)) in v.as_attrs().into_iter().flatten().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                out.push_str(&quote_string(k));
                out.push(':');
                write_value(e, out)?;
            }
            out.push('}');
        }
        Type::Dynamic => return Err("value is not known".into()),
    }
    Ok(())
}

/// `ctyjson.MarshalType`.
pub fn marshal_type(t: &Type) -> String {
    match t {
        Type::String => "\"string\"".into(),
        Type::Number => "\"number\"".into(),
        Type::Bool => "\"bool\"".into(),
        Type::Dynamic => "\"dynamic\"".into(),
        Type::List(e) => format!("[\"list\",{}]", marshal_type(e)),
        Type::Set(e) => format!("[\"set\",{}]", marshal_type(e)),
        Type::Map(e) => format!("[\"map\",{}]", marshal_type(e)),
        Type::Tuple(ts) => {
            let parts: Vec<String> = ts.iter().map(marshal_type).collect();
            format!("[\"tuple\",[{}]]", parts.join(","))
        }
        Type::Object(o) => {
            let parts: Vec<String> = o
                .attrs
                .iter()
                .map(|(k, v)| format!("{}:{}", quote_string(k), marshal_type(v)))
                .collect();
            let mut s = format!("[\"object\",{{{}}}", parts.join(","));
            if !o.optional.is_empty() {
                let opts: Vec<String> = o.optional.iter().map(|k| quote_string(k)).collect();
                s.push_str(&format!(",[{}]", opts.join(",")));
            }
            s.push(']');
            s
        }
    }
}

/// `ctyjson.ImpliedType` + value: objects become objects, arrays tuples,
/// numbers are parsed at 512 bits, `null` is a dynamic null.
pub fn decode_implied(src: &str) -> Result<Value, String> {
    let mut p = Parser {
        b: src.as_bytes(),
        i: 0,
    };
    p.ws();
    let v = p.value(0)?;
    p.ws();
    if p.i != p.b.len() {
        return Err("extraneous data after JSON value".into());
    }
    Ok(v)
}

/// `ctyjson.Unmarshal(src, ty)`: decode then convert to `ty`.
pub fn unmarshal(src: &str, ty: &Type) -> Result<Value, String> {
    let v = decode_implied(src)?;
    convert(&v, ty).map_err(|e| e.with_path())
}

/// Why a type description did not decode ([`unmarshal_type`]), in go-cty's words.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TypeJsonError {
    /// go-cty's message, e.g. `invalid primitive type name "strin"`.
    pub msg: String,
}

impl std::fmt::Display for TypeJsonError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.msg)
    }
}

impl std::error::Error for TypeJsonError {}

/// `cty.Type.UnmarshalJSON`: the inverse of [`marshal_type`] (`"string"`,
/// `["list","number"]`, `["object",{...},["optional",...]]`, ...).
pub fn unmarshal_type(src: &str) -> Result<Type, TypeJsonError> {
    let v = decode_implied(src).map_err(|msg| TypeJsonError { msg })?;
    type_from_value(&v)
}

fn type_error(msg: impl Into<String>) -> TypeJsonError {
    TypeJsonError { msg: msg.into() }
}

/// Interprets a decoded type description: strings name primitive types,
/// arrays are `[kind, ...]`.
fn type_from_value(v: &Value) -> Result<Type, TypeJsonError> {
    if let Some(name) = v.as_str() {
        return match name {
            "bool" => Ok(Type::Bool),
            "number" => Ok(Type::Number),
            "string" => Ok(Type::String),
            "dynamic" => Ok(Type::Dynamic),
            _ => Err(type_error(format!(
                "invalid primitive type name {}",
                crate::format::go_quote(name)
            ))),
        };
    }
    let Some(parts) = v.as_elements().filter(|_| v.ty().is_tuple()) else {
        return Err(type_error(if v.ty().is_object() {
            "invalid complex type description"
        } else {
            "invalid type description"
        }));
    };
    let Some(kind) = parts.first().and_then(Value::as_str) else {
        return Err(type_error("invalid complex type kind name"));
    };
    let arg = parts
        .get(1)
        .ok_or_else(|| type_error("unexpected end of JSON input"))?;
    let max_len = if kind == "object" { 3 } else { 2 };
    let ty = match kind {
        "list" => Type::list(type_from_value(arg)?),
        "map" => Type::map(type_from_value(arg)?),
        "set" => Type::set(type_from_value(arg)?),
        "tuple" => {
            let elems = arg
                .as_elements()
                .filter(|_| arg.ty().is_tuple())
                .ok_or_else(|| type_error("tuple element types must be an array"))?;
            Type::tuple(
                elems
                    .iter()
                    .map(type_from_value)
                    .collect::<Result<_, _>>()?,
            )
        }
        "object" => {
            let attrs = arg
                .as_attrs()
                .filter(|_| arg.ty().is_object())
                .ok_or_else(|| type_error("object attribute types must be an object"))?;
            let attrs = attrs
                .iter()
                .map(|(k, t)| Ok((k.clone(), type_from_value(t)?)))
                .collect::<Result<BTreeMap<_, _>, TypeJsonError>>()?;
            match parts.get(2) {
                None => Type::object(attrs),
                Some(opt) => {
                    let names = opt
                        .as_elements()
                        .filter(|_| opt.ty().is_tuple())
                        .ok_or_else(|| type_error("optional attribute names must be an array"))?;
                    let names = names
                        .iter()
                        .map(|n| n.as_str().map(str::to_owned))
                        .collect::<Option<_>>()
                        .ok_or_else(|| type_error("optional attribute names must be strings"))?;
                    Type::object_with_optional(attrs, names)
                }
            }
        }
        _ => return Err(type_error("invalid complex type kind name")),
    };
    if parts.len() > max_len {
        return Err(type_error("unexpected extra data in type description"));
    }
    Ok(ty)
}

struct Parser<'a> {
    b: &'a [u8],
    i: usize,
}

impl Parser<'_> {
    fn ws(&mut self) {
        while self.i < self.b.len() && matches!(self.b[self.i], b' ' | b'\t' | b'\n' | b'\r') {
            self.i += 1;
        }
    }

    fn eat(&mut self, lit: &str) -> bool {
        if self.b[self.i..].starts_with(lit.as_bytes()) {
            self.i += lit.len();
            true
        } else {
            false
        }
    }

    fn value(&mut self, depth: usize) -> Result<Value, String> {
        if depth > 10_000 {
            return Err("JSON nesting too deep".into());
        }
        match self.b.get(self.i) {
            None => Err("unexpected end of JSON input".into()),
            Some(b'{') => {
                self.i += 1;
                let mut attrs = BTreeMap::new();
                self.ws();
                if self.eat("}") {
                    return Ok(Value::object(attrs));
                }
                loop {
                    self.ws();
                    let k = self.string()?;
                    self.ws();
                    if !self.eat(":") {
                        return Err("expected colon".into());
                    }
                    self.ws();
                    let v = self.value(depth + 1)?;
                    if attrs.insert(k.clone(), v).is_some() {
                        return Err(format!(
                            "duplicate {} property in JSON object",
                            crate::format::go_quote(&k)
                        ));
                    }
                    self.ws();
                    if self.eat("}") {
                        return Ok(Value::object(attrs));
                    }
                    if !self.eat(",") {
                        return Err("expected comma".into());
                    }
                }
            }
            Some(b'[') => {
                self.i += 1;
                let mut vals = Vec::new();
                self.ws();
                if self.eat("]") {
                    return Ok(Value::tuple(vals));
                }
                loop {
                    self.ws();
                    vals.push(self.value(depth + 1)?);
                    self.ws();
                    if self.eat("]") {
                        return Ok(Value::tuple(vals));
                    }
                    if !self.eat(",") {
                        return Err("expected comma".into());
                    }
                }
            }
            Some(b'"') => Ok(Value::string(self.string()?)),
            Some(b't') if self.eat("true") => Ok(Value::bool(true)),
            Some(b'f') if self.eat("false") => Ok(Value::bool(false)),
            Some(b'n') if self.eat("null") => Ok(Value::null(Type::Dynamic)),
            Some(c) if *c == b'-' || c.is_ascii_digit() => {
                let start = self.i;
                while self.i < self.b.len()
                    && matches!(
                        self.b[self.i],
                        b'-' | b'+' | b'.' | b'e' | b'E' | b'0'..=b'9'
                    )
                {
                    self.i += 1;
                }
                let text =
                    std::str::from_utf8(&self.b[start..self.i]).map_err(|e| e.to_string())?;
                Number::parse(text)
                    .map(Value::number)
                    .map_err(|_| format!("invalid number {text:?}"))
            }
            Some(c) => Err(format!(
                "invalid character {:?} looking for beginning of value",
                *c as char
            )),
        }
    }

    fn string(&mut self) -> Result<String, String> {
        if !self.eat("\"") {
            return Err("expected string".into());
        }
        let mut out = String::new();
        loop {
            let Some(&c) = self.b.get(self.i) else {
                return Err("unterminated string".into());
            };
            self.i += 1;
            match c {
                b'"' => return Ok(out),
                b'\\' => {
                    let Some(&e) = self.b.get(self.i) else {
                        return Err("unterminated string".into());
                    };
                    self.i += 1;
                    match e {
                        b'"' => out.push('"'),
                        b'\\' => out.push('\\'),
                        b'/' => out.push('/'),
                        b'b' => out.push('\x08'),
                        b'f' => out.push('\x0c'),
                        b'n' => out.push('\n'),
                        b'r' => out.push('\r'),
                        b't' => out.push('\t'),
                        b'u' => {
                            let hi = self.hex4()?;
                            let cp = if (0xD800..0xDC00).contains(&hi) && self.eat("\\u") {
                                let lo = self.hex4()?;
                                if (0xDC00..0xE000).contains(&lo) {
                                    0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00)
                                } else {
                                    0xFFFD
                                }
                            } else {
                                hi
                            };
                            out.push(char::from_u32(cp).unwrap_or('\u{FFFD}'));
                        }
                        _ => return Err("invalid escape in string".into()),
                    }
                }
                c if c < 0x20 => return Err("invalid control character in string".into()),
                _ => {
                    // Copy one UTF-8 sequence.
                    let start = self.i - 1;
                    let len = match c {
                        0xF0..=0xFF => 4,
                        0xE0..=0xEF => 3,
                        0xC0..=0xDF => 2,
                        _ => 1,
                    };
                    let end = (start + len).min(self.b.len());
                    out.push_str(&String::from_utf8_lossy(&self.b[start..end]));
                    self.i = end;
                }
            }
        }
    }

    fn hex4(&mut self) -> Result<u32, String> {
        let h = self.b.get(self.i..self.i + 4).ok_or("bad unicode escape")?;
        self.i += 4;
        u32::from_str_radix(std::str::from_utf8(h).map_err(|e| e.to_string())?, 16)
            .map_err(|e| e.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encode_like_jsonencode() {
        let v = Value::object_from([("a", Value::string("<&>"))]);
        assert_eq!(marshal(&v).unwrap(), "{\"a\":\"\\u003c\\u0026\\u003e\"}");
        let v = Value::object_from([
            (
                "b",
                Value::tuple(vec![Value::bool(true), Value::null(Type::String)]),
            ),
            ("a", Value::parse_number("1.5").unwrap()),
        ]);
        assert_eq!(marshal(&v).unwrap(), "{\"a\":1.5,\"b\":[true,null]}");
        assert!(marshal(&Value::unknown(Type::String)).is_err());
        assert_eq!(
            marshal(&Value::string("\u{1}\n")).unwrap(),
            "\"\\u0001\\n\""
        );
    }

    #[test]
    fn decode_implied_types() {
        let v = decode_implied(r#"{"b": [1, "x", null], "a": {"c": true}, "n": 1e23}"#).unwrap();
        assert_eq!(
            marshal_type(v.ty()),
            r#"["object",{"a":["object",{"c":"bool"}],"b":["tuple",["number","string","dynamic"]],"n":"number"}]"#
        );
        assert_eq!(
            marshal(&v).unwrap(),
            r#"{"a":{"c":true},"b":[1,"x",null],"n":100000000000000000000000}"#
        );
        assert!(decode_implied(r#"{"a":1,"a":2}"#)
            .unwrap_err()
            .contains("duplicate \"a\" property"));
        assert!(decode_implied("[1,").is_err());
        assert_eq!(
            decode_implied(r#""\ud83d\udc4d""#).unwrap().as_str(),
            Some("👍")
        );
        let l = unmarshal("[1,2]", &Type::list(Type::String)).unwrap();
        assert_eq!(l.ty(), &Type::list(Type::String));
    }

    #[test]
    fn type_json_round_trips() {
        let cases = [
            r#""string""#,
            r#""dynamic""#,
            r#"["list","number"]"#,
            r#"["set",["map","bool"]]"#,
            r#"["tuple",["string",["list","dynamic"]]]"#,
            r#"["tuple",[]]"#,
            r#"["object",{}]"#,
            r#"["object",{"a":"string","b":["object",{"c":"number"}]}]"#,
            r#"["object",{"a":"string","b":"number"},["b"]]"#,
        ];
        for src in cases {
            let ty = unmarshal_type(src).unwrap();
            assert_eq!(marshal_type(&ty), src);
        }
        for (src, msg) in [
            (r#""strin""#, r#"invalid primitive type name "strin""#),
            (r#"["lst","string"]"#, "invalid complex type kind name"),
            (
                r#"["list","string","x"]"#,
                "unexpected extra data in type description",
            ),
            ("1", "invalid type description"),
            ("{}", "invalid complex type description"),
        ] {
            assert_eq!(unmarshal_type(src).unwrap_err().msg, msg, "{src}");
        }
    }
}
