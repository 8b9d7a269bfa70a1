//! `yamlencode` and `yamldecode` as OpenTofu does them with go-cty-yaml.
//!
//! The encoder is a port of the parts of the libyaml emitter (as Go's
//! yaml.v2 ports it) that go-cty-yaml's events reach: block mappings and
//! sequences, flow `{}`/`[]` for empty collections, double-quoted strings
//! folded at 80 columns, literal `|` blocks for multi-line strings, plain
//! numbers/bools/null and the `...` document end after a plain root.
//!
//! The decoder reads events with yaml-rust2 and resolves scalars as
//! go-cty-yaml does (YAML 1.1 booleans, timestamps as RFC 3339 strings,
//! mappings as objects and sequences as tuples).

use std::collections::{BTreeMap, HashMap};

use cty::{Number, Type, Value};
use yaml_rust2::parser::{Event, Parser, Tag};
use yaml_rust2::scanner::TScalarStyle;

use crate::functions::framework::{static_return, FnError, Function, Param};

// ---------------------------------------------------------------- encoder

const BEST_INDENT: i64 = 2;
const BEST_WIDTH: usize = 80;

struct Emitter {
    out: String,
    column: usize,
    whitespace: bool,
    indention: bool,
    open_ended: bool,
    indent: i64,
    indents: Vec<i64>,
}

fn is_break(c: char) -> bool {
    matches!(c, '\r' | '\n' | '\u{85}' | '\u{2028}' | '\u{2029}')
}

/// libyaml `IS_PRINTABLE` on the character's UTF-8 bytes.
fn is_printable(c: char) -> bool {
    let u = c as u32;
    u == 0x0A
        || (0x20..=0x7E).contains(&u)
        || (0xA0..=0xD7FF).contains(&u)
        || ((0xE000..=0xFFFD).contains(&u) && u != 0xFEFF)
}

impl Emitter {
    fn new() -> Emitter {
        Emitter {
            out: String::new(),
            column: 0,
            whitespace: true,
            indention: true,
            open_ended: false,
            indent: -1,
            indents: Vec::new(),
        }
    }

    fn put(&mut self, c: char) {
        self.out.push(c);
        self.column += 1;
    }

    fn put_break(&mut self) {
        self.out.push('\n');
        self.column = 0;
    }

    fn increase_indent(&mut self, flow: bool, indentless: bool) {
        self.indents.push(self.indent);
        if self.indent < 0 {
            self.indent = if flow { BEST_INDENT } else { 0 };
        } else if !indentless {
            self.indent += BEST_INDENT;
        }
    }

    fn pop_indent(&mut self) {
        self.indent = self.indents.pop().unwrap_or(-1);
    }

    fn write_indent(&mut self) {
        let indent = self.indent.max(0) as usize;
        if !self.indention || self.column > indent || (self.column == indent && !self.whitespace) {
            self.put_break();
        }
        while self.column < indent {
            self.put(' ');
        }
        self.whitespace = true;
        self.indention = true;
    }

    fn write_indicator(&mut self, ind: &str, need_ws: bool, is_ws: bool, is_indention: bool) {
        if need_ws && !self.whitespace {
            self.put(' ');
        }
        for c in ind.chars() {
            self.put(c);
        }
        self.whitespace = is_ws;
        self.indention = self.indention && is_indention;
        self.open_ended = false;
    }

    fn node(&mut self, v: &Value, root: bool, mapping: bool, simple_key: bool) {
        let ty = v.ty();
        if v.is_null() || ty.is_primitive() {
            self.scalar(v, root, simple_key);
        } else if ty.is_list() || ty.is_set() || ty.is_tuple() {
            let elems = v.as_elements().unwrap_or_default();
            if elems.is_empty() {
                self.write_indicator("[", true, true, false);
                self.write_indicator("]", false, false, false);
                return;
            }
            self.increase_indent(false, mapping && !self.indention);
            for e in elems {
                self.write_indent();
                self.write_indicator("-", true, false, true);
                self.node(e, false, false, false);
            }
            self.pop_indent();
        } else {
            let attrs = v.as_attrs().cloned().unwrap_or_default();
            if attrs.is_empty() {
                self.write_indicator("{", true, true, false);
                self.write_indicator("}", false, false, false);
                return;
            }
            self.increase_indent(false, false);
            for (k, val) in &attrs {
                self.write_indent();
                let key = Value::string(k);
                let simple = k.len() <= 128 && !k.chars().any(is_break);
                if simple {
                    self.node(&key, false, true, true);
                    self.write_indicator(":", false, false, false);
                } else {
                    self.write_indicator("?", true, false, true);
                    self.node(&key, false, true, false);
                    self.write_indent();
                    self.write_indicator(":", true, false, true);
                }
                self.node(val, false, true, false);
            }
            self.pop_indent();
        }
    }

    fn scalar(&mut self, v: &Value, root: bool, simple_key: bool) {
        self.increase_indent(true, false);
        if let Some(s) = v.as_str() {
            if s.contains('\n') && block_allowed(s) && !simple_key {
                self.literal(s);
            } else {
                self.double_quoted(s, !simple_key);
            }
        } else {
            let text = if v.is_null() {
                "null".to_string()
            } else if let Some(b) = v.as_bool() {
                b.to_string()
            } else {
                v.as_number().map(Number::to_text).unwrap_or_default()
            };
            if !self.whitespace {
                self.put(' ');
            }
            for c in text.chars() {
                self.put(c);
            }
            self.whitespace = false;
            self.indention = false;
            if root {
                self.open_ended = true;
            }
        }
        self.pop_indent();
    }

    fn double_quoted(&mut self, s: &str, allow_breaks: bool) {
        // yaml.v2's `is_bom` looks at the start of the value whatever the
        // position, so a leading BOM escapes every character.
        let bom = s.starts_with('\u{FEFF}');
        self.write_indicator("\"", true, false, false);
        let chars: Vec<char> = s.chars().collect();
        let mut spaces = false;
        for (i, &c) in chars.iter().enumerate() {
            if !is_printable(c) || bom || is_break(c) || c == '"' || c == '\\' {
                self.put('\\');
                let esc = match c {
                    '\0' => "0".to_string(),
                    '\x07' => "a".to_string(),
                    '\x08' => "b".to_string(),
                    '\t' => "t".to_string(),
                    '\n' => "n".to_string(),
                    '\x0b' => "v".to_string(),
                    '\x0c' => "f".to_string(),
                    '\r' => "r".to_string(),
                    '\x1b' => "e".to_string(),
                    '"' => "\"".to_string(),
                    '\\' => "\\".to_string(),
                    '\u{85}' => "N".to_string(),
                    '\u{a0}' => "_".to_string(),
                    '\u{2028}' => "L".to_string(),
                    '\u{2029}' => "P".to_string(),
                    c if (c as u32) <= 0xFF => format!("x{:02X}", c as u32),
                    c if (c as u32) <= 0xFFFF => format!("u{:04X}", c as u32),
                    c => format!("U{:08X}", c as u32),
                };
                for e in esc.chars() {
                    self.put(e);
                }
                spaces = false;
            } else if c == ' ' {
                if allow_breaks
                    && !spaces
                    && self.column > BEST_WIDTH
                    && i > 0
                    && i < chars.len() - 1
                {
                    self.write_indent();
                    if chars.get(i + 1) == Some(&' ') {
                        self.put('\\');
                    }
                } else {
                    self.put(c);
                }
                spaces = true;
            } else {
                self.put(c);
                spaces = false;
            }
        }
        self.write_indicator("\"", false, false, false);
        self.whitespace = false;
        self.indention = false;
    }

    fn literal(&mut self, s: &str) {
        self.write_indicator("|", true, false, false);
        let first = s.chars().next();
        if first == Some(' ') || first.is_some_and(is_break) {
            self.write_indicator(&BEST_INDENT.to_string(), false, false, false);
        }
        let mut rev = s.chars().rev();
        let chomp = match (rev.next(), rev.next()) {
            (None, _) => Some("-"),
            (Some(l), _) if !is_break(l) => Some("-"),
            (Some(_), None) => Some("+"),
            (Some(_), Some(p)) if is_break(p) => Some("+"),
            _ => None,
        };
        if let Some(ch) = chomp {
            self.write_indicator(ch, false, false, false);
        }
        self.put_break();
        self.indention = true;
        self.whitespace = true;
        let mut breaks = true;
        for c in s.chars() {
            if is_break(c) {
                if c == '\n' {
                    self.put_break();
                } else {
                    self.out.push(c);
                    self.column = 0;
                }
                self.indention = true;
                breaks = true;
            } else {
                if breaks {
                    self.write_indent();
                    breaks = false;
                }
                self.put(c);
                self.indention = false;
            }
        }
    }
}

/// libyaml's `block_allowed` analysis for a string containing a newline.
fn block_allowed(s: &str) -> bool {
    if s.starts_with('\u{FEFF}') || s.ends_with(' ') {
        return false;
    }
    let mut prev_space = false;
    for c in s.chars() {
        if !is_printable(c) {
            return false;
        }
        if is_break(c) && prev_space {
            return false;
        }
        prev_space = c == ' ';
    }
    true
}

/// go-cty-yaml `Marshal`.
pub(crate) fn yaml_encode(v: &Value) -> String {
    let mut e = Emitter::new();
    e.node(v, true, false, false);
    // document end
    e.write_indent();
    if e.open_ended {
        e.write_indicator("...", true, false, false);
        e.write_indent();
    }
    e.out
}

pub(super) fn yamlencode_fn() -> Function {
    Function::new(
        vec![Param::new("value", Type::Dynamic)
            .allow_null()
            .allow_dynamic()],
        None,
        static_return(Type::String),
        |args, _| {
            if !args[0].is_wholly_known() {
                return Ok(Value::unknown(Type::String));
            }
            Ok(Value::string(yaml_encode(&args[0])))
        },
    )
}

// ---------------------------------------------------------------- decoder

const TAG_PREFIX: &str = "tag:yaml.org,2002:";

fn full_tag(tag: &Option<Tag>) -> Option<String> {
    let t = tag.as_ref()?;
    if t.handle == "!!" {
        return Some(format!("{TAG_PREFIX}{}", t.suffix));
    }
    if t.handle.is_empty() {
        return Some(t.suffix.clone());
    }
    if t.handle == TAG_PREFIX {
        return Some(format!("{TAG_PREFIX}{}", t.suffix));
    }
    Some(format!("{}{}", t.handle, t.suffix))
}

/// yaml.v2 `parseTimestamp`, formatted as Go's `time.RFC3339`.
fn parse_timestamp(s: &str) -> Option<String> {
    let digits = s.bytes().take_while(u8::is_ascii_digit).count();
    if digits != 4 || s.as_bytes().get(4) != Some(&b'-') {
        return None;
    }
    let (date, rest) = match s.find(['T', 't', ' ']) {
        Some(i) => (&s[..i], Some((&s[i..i + 1], &s[i + 1..]))),
        None => (s, None),
    };
    let mut dp = date.split('-');
    let (y, m, d) = (dp.next()?, dp.next()?, dp.next()?);
    if dp.next().is_some()
        || y.len() != 4
        || !(1..=2).contains(&m.len())
        || !(1..=2).contains(&d.len())
    {
        return None;
    }
    let num = |x: &str| -> Option<u32> {
        x.bytes()
            .all(|b| b.is_ascii_digit())
            .then(|| x.parse().ok())?
    };
    let date = chrono::NaiveDate::from_ymd_opt(num(y)? as i32, num(m)?, num(d)?)?;
    let Some((sep, time)) = rest else {
        return Some(format!("{}T00:00:00Z", date.format("%Y-%m-%d")));
    };
    // time: h:m:s[.frac] then a zone (Z or ±hh:mm) unless space-separated.
    let (clock, zone) = if sep == " " {
        (time, None)
    } else if let Some(c) = time.strip_suffix('Z') {
        (c, Some(0i32))
    } else {
        let i = time.rfind(['+', '-'])?;
        let z = &time[i + 1..];
        let (zh, zm) = z.split_once(':')?;
        if zh.len() != 2 || zm.len() != 2 {
            return None;
        }
        let secs = (num(zh)? * 3600 + num(zm)? * 60) as i32;
        (
            &time[..i],
            Some(if &time[i..i + 1] == "-" { -secs } else { secs }),
        )
    };
    let mut cp = clock.split(':');
    let (h, mi, sec) = (cp.next()?, cp.next()?, cp.next()?);
    if cp.next().is_some() {
        return None;
    }
    let (sec, frac) = match sec.split_once('.') {
        Some((s, f)) if !f.is_empty() && f.len() <= 9 && f.bytes().all(|b| b.is_ascii_digit()) => {
            (s, Some(f))
        }
        Some(_) => return None,
        None => (sec, None),
    };
    let _ = frac;
    for part in [h, mi, sec] {
        if !(1..=2).contains(&part.len()) {
            return None;
        }
    }
    let t = chrono::NaiveTime::from_hms_opt(num(h)?, num(mi)?, num(sec)?)?;
    let dt = date.and_time(t);
    let zone = match zone {
        None | Some(0) => return Some(format!("{}Z", dt.format("%Y-%m-%dT%H:%M:%S"))),
        Some(z) => z,
    };
    let sign = if zone < 0 { '-' } else { '+' };
    let z = zone.abs();
    Some(format!(
        "{}{sign}{:02}:{:02}",
        dt.format("%Y-%m-%dT%H:%M:%S"),
        z / 3600,
        (z % 3600) / 60
    ))
}

enum Resolved {
    Value(Value),
    Merge,
}

fn bool_word(s: &str) -> Option<bool> {
    match s {
        "y" | "Y" | "yes" | "Yes" | "YES" | "true" | "True" | "TRUE" | "on" | "On" | "ON" => {
            Some(true)
        }
        "n" | "N" | "no" | "No" | "NO" | "false" | "False" | "FALSE" | "off" | "Off" | "OFF" => {
            Some(false)
        }
        _ => None,
    }
}

fn decimal(s: &str) -> Option<Value> {
    let b = s.as_bytes();
    let body = s.strip_prefix(['+', '-']).unwrap_or(s);
    if body.is_empty()
        || !body
            .bytes()
            .all(|c| c.is_ascii_digit() || matches!(c, b'.' | b'e' | b'E' | b'+' | b'-'))
    {
        return None;
    }
    if !b.iter().any(u8::is_ascii_digit) {
        return None;
    }
    Number::parse(s).ok().map(Value::number)
}

fn int_value(s: &str) -> Result<Option<Value>, ()> {
    if let Some(v) = decimal(s) {
        return Ok(v.as_number().filter(|n| n.is_int()).map(|_| v.clone()));
    }
    for (prefix, radix) in [("0x", 16), ("0o", 8)] {
        if let Some(d) = s.strip_prefix(prefix) {
            if d.is_empty() || !d.chars().all(|c| c.is_digit(radix)) {
                return Ok(None);
            }
            return match i64::from_str_radix(d, radix) {
                Ok(i) => Ok(Some(Value::number_int(i))),
                Err(_) => Err(()),
            };
        }
    }
    Ok(None)
}

fn cannot_parse(s: &str, tag: &str) -> FnError {
    FnError::general(format!(
        "cannot parse {} as {tag}",
        cty::format::go_quote(s)
    ))
}

fn inf_word(s: &str) -> Option<f64> {
    match s {
        ".inf" | ".Inf" | ".INF" | "+.inf" | "+.Inf" | "+.INF" => Some(f64::INFINITY),
        "-.inf" | "-.Inf" | "-.INF" => Some(f64::NEG_INFINITY),
        _ => None,
    }
}

fn resolve_scalar(s: &str, style: TScalarStyle, tag: Option<String>) -> Result<Resolved, FnError> {
    let v = |v: Value| Ok(Resolved::Value(v));
    if style != TScalarStyle::Plain {
        return v(Value::string(s));
    }
    let Some(tag) = tag else {
        if let Some(b) = bool_word(s) {
            return v(Value::bool(b));
        }
        match s {
            "" | "~" | "null" | "Null" | "NULL" => return v(Value::null(Type::Dynamic)),
            ".nan" | ".NaN" | ".NAN" => {
                return Err(FnError::general("floating point NaN is not supported"))
            }
            "<<" => return Ok(Resolved::Merge),
            _ => {}
        }
        if let Some(f) = inf_word(s) {
            return v(Value::number_float(f).unwrap_or_else(|| Value::number_int(0)));
        }
        if s.starts_with(|c: char| c.is_ascii_digit() || matches!(c, '+' | '-' | '.')) {
            if let Some(t) = parse_timestamp(s) {
                return v(Value::string(t));
            }
            if let Some(n) = decimal(s) {
                return v(n);
            }
            match int_value(s) {
                Ok(Some(n)) => return v(n),
                Ok(None) => {}
                Err(()) => return Err(cannot_parse(s, &format!("{TAG_PREFIX}int"))),
            }
        }
        return v(Value::string(s));
    };
    let short = tag.strip_prefix(TAG_PREFIX);
    match short {
        Some("str") | Some("binary") => v(Value::string(s)),
        Some("null") => v(Value::null(Type::Dynamic)),
        Some("bool") => bool_word(s)
            .map(|b| Resolved::Value(Value::bool(b)))
            .ok_or_else(|| cannot_parse(s, &tag)),
        Some("int") => match int_value(s) {
            Ok(Some(n)) => v(n),
            _ => Err(cannot_parse(s, &tag)),
        },
        Some("float") => {
            if let Some(f) = inf_word(s) {
                return v(Value::number_float(f).unwrap_or_else(|| Value::number_int(0)));
            }
            match decimal(s).or_else(|| int_value(s).ok().flatten()) {
                Some(n) => v(n),
                None => Err(cannot_parse(s, &tag)),
            }
        }
        Some("timestamp") => parse_timestamp(s)
            .map(|t| Resolved::Value(Value::string(t)))
            .ok_or_else(|| cannot_parse(s, &tag)),
        Some("merge") => Ok(Resolved::Merge),
        _ => Err(FnError::general(format!(
            "unsupported tag {}",
            cty::format::go_quote(&tag)
        ))),
    }
}

struct Decoder<'a> {
    parser: Parser<std::str::Chars<'a>>,
    src: &'a str,
    /// Each anchor's value and the number of nodes it expands to.
    anchors: HashMap<usize, (Value, u64)>,
    depth: usize,
    /// Nodes of the document as its aliases expand it, and how many of
    /// them came from alias expansion (go-yaml v3's `decodeCount` and
    /// `aliasCount`).
    decode_count: u64,
    alias_count: u64,
}

const MAX_DEPTH: usize = 1000;

/// The share of a document's expanded nodes that may come from aliases
/// (go-yaml v3's `allowedAliasRatio`): 99% up to 400,000 nodes, falling
/// to 10% at 4,000,000. A value shares an alias's nodes, so decoding is
/// cheap, but printing, converting or walking the value expands them: nine
/// levels of nine aliases are 9^9 leaves, which exhausted memory.
fn allowed_alias_ratio(decode_count: u64) -> f64 {
    const LOW: u64 = 400_000;
    const HIGH: u64 = 4_000_000;
    match decode_count {
        n if n <= LOW => 0.99,
        n if n >= HIGH => 0.10,
        n => 0.99 - 0.89 * ((n - LOW) as f64 / (HIGH - LOW) as f64),
    }
}

fn yaml_err(src: &str, e: &yaml_rust2::ScanError) -> FnError {
    let m = e.marker();
    if e.info().contains("unknown anchor") {
        let rest = &src[m.index().min(src.len())..];
        let start = rest.find('*').map_or(0, |i| i + 1);
        let name: String = rest[start..]
            .chars()
            .take_while(|c| !c.is_whitespace() && !matches!(c, ',' | ']' | '}'))
            .collect();
        return FnError::general(format!(
            "reference to undefined anchor {}",
            cty::format::go_quote(&name)
        ));
    }
    FnError::general(format!(
        "on line {}, column {}: {}",
        m.line(),
        m.col() + 1,
        e.info()
    ))
}

impl Decoder<'_> {
    fn next(&mut self) -> Result<Event, FnError> {
        self.parser
            .next_token()
            .map(|(ev, _)| ev)
            .map_err(|e| yaml_err(self.src, &e))
    }

    fn remember(&mut self, anchor: usize, v: &Value, first_node: u64) {
        if anchor > 0 {
            let size = self.decode_count - first_node;
            self.anchors.insert(anchor, (v.clone(), size));
        }
    }

    /// An alias: the anchored value again, counted as the nodes it expands
    /// to; a document whose expansion is mostly aliases is refused, as
    /// go-yaml v3 refuses it, before anything expands it.
    fn alias(&mut self, id: usize) -> Result<Value, FnError> {
        let Some((v, size)) = self.anchors.get(&id).cloned() else {
            return Ok(Value::null(Type::Dynamic));
        };
        self.decode_count = self.decode_count.saturating_add(size);
        self.alias_count = self.alias_count.saturating_add(size);
        if self.alias_count > 100
            && self.decode_count > 1000
            && self.alias_count as f64 / self.decode_count as f64
                > allowed_alias_ratio(self.decode_count)
        {
            return Err(FnError::general(
                "yaml: document contains excessive aliasing",
            ));
        }
        Ok(v)
    }

    /// Decodes the node starting with `ev`; `Ok(None)` for a merge key.
    fn node(&mut self, ev: Event) -> Result<Option<Value>, FnError> {
        let first_node = self.decode_count;
        self.decode_count += 1;
        match ev {
            Event::Scalar(s, style, anchor, tag) => {
                match resolve_scalar(&s, style, full_tag(&tag))? {
                    Resolved::Value(v) => {
                        self.remember(anchor, &v, first_node);
                        Ok(Some(v))
                    }
                    Resolved::Merge => Ok(None),
                }
            }
            Event::Alias(id) => self.alias(id).map(Some),
            Event::SequenceStart(anchor, tag) => {
                if let Some(t) = full_tag(&tag) {
                    if t != format!("{TAG_PREFIX}seq") {
                        return Err(FnError::general(format!("can't interpret sequence as {t}")));
                    }
                }
                self.enter()?;
                let mut elems = Vec::new();
                loop {
                    let ev = self.next()?;
                    if matches!(ev, Event::SequenceEnd) {
                        break;
                    }
                    let v = self.node(ev)?.unwrap_or_else(|| Value::string("<<"));
                    elems.push(v);
                }
                self.depth -= 1;
                let v = Value::tuple(elems);
                self.remember(anchor, &v, first_node);
                Ok(Some(v))
            }
            Event::MappingStart(anchor, tag) => {
                if let Some(t) = full_tag(&tag) {
                    if t != format!("{TAG_PREFIX}map") {
                        return Err(FnError::general(format!("can't interpret mapping as {t}")));
                    }
                }
                self.enter()?;
                let mut attrs: BTreeMap<String, Value> = BTreeMap::new();
                loop {
                    let ev = self.next()?;
                    if matches!(ev, Event::MappingEnd) {
                        break;
                    }
                    let key = self.node(ev)?;
                    let val_ev = self.next()?;
                    let val = self.node(val_ev)?.unwrap_or_else(|| Value::string("<<"));
                    match key {
                        None => {
                            // Merge key: a mapping or a sequence of mappings.
                            let sources = if val.ty().is_tuple() {
                                val.as_elements().unwrap_or_default().to_vec()
                            } else {
                                vec![val]
                            };
                            for src in sources {
                                if !src.ty().is_object() {
                                    return Err(FnError::general(
                                        "map merge requires map or sequence of maps as the value",
                                    ));
                                }
                                for (k, v) in src.as_attrs().cloned().unwrap_or_default() {
                                    attrs.insert(k, v);
                                }
                            }
                        }
                        Some(k) => {
                            let name = if let Some(s) = k.as_str() {
                                s.to_string()
                            } else if let Some(b) = k.as_bool() {
                                b.to_string()
                            } else if let Some(n) = k.as_number() {
                                n.to_text()
                            } else {
                                return Err(FnError::general(
                                    "only strings are allowed as mapping keys",
                                ));
                            };
                            attrs.insert(name, val);
                        }
                    }
                }
                self.depth -= 1;
                let v = Value::object(attrs);
                self.remember(anchor, &v, first_node);
                Ok(Some(v))
            }
            _ => Err(FnError::general(
                "on line 1, column 1: did not find expected node content",
            )),
        }
    }

    fn enter(&mut self) -> Result<(), FnError> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(FnError::general("yaml: exceeded max depth"));
        }
        Ok(())
    }
}

/// go-cty-yaml `Unmarshal` with an implied type.
pub(crate) fn yaml_decode(src: &str) -> Result<Value, FnError> {
    let mut d = Decoder {
        parser: Parser::new_from_str(src),
        src,
        anchors: HashMap::new(),
        depth: 0,
        decode_count: 0,
        alias_count: 0,
    };
    let mut ev = d.next()?;
    if matches!(ev, Event::StreamStart) {
        ev = d.next()?;
    }
    if !matches!(ev, Event::DocumentStart) {
        return Err(FnError::general(
            "on line 1, column 1: missing start of document",
        ));
    }
    let first = d.next()?;
    let v = d.node(first)?.unwrap_or_else(|| Value::string("<<"));
    let end = d.next()?;
    if !matches!(end, Event::DocumentEnd) {
        return Err(FnError::general(
            "on line 1, column 1: unexpected extra content after value",
        ));
    }
    let after = d.next()?;
    if !matches!(after, Event::StreamEnd) {
        return Err(FnError::general(
            "on line 1, column 1: unexpected extra content after value",
        ));
    }
    Ok(v)
}

pub(super) fn yamldecode_fn() -> Function {
    Function::new(
        vec![Param::new("src", Type::String)],
        None,
        |args| {
            if !args[0].is_known() {
                return Ok(Type::Dynamic);
            }
            Ok(yaml_decode(args[0].as_str().unwrap_or_default())?
                .ty()
                .clone())
        },
        |args, _| yaml_decode(args[0].as_str().unwrap_or_default()),
    )
}

#[cfg(test)]
mod tests {
    use super::super::tests::call;
    use super::*;

    fn enc(v: Value) -> String {
        let r = call("yamlencode", vec![v.clone()]).unwrap();
        r.as_str()
            .unwrap_or_else(|| panic!("{v:?} -> {r:?}"))
            .to_string()
    }

    fn st(s: &str) -> Value {
        Value::string(s)
    }

    fn n(s: &str) -> Value {
        Value::parse_number(s).unwrap()
    }

    #[test]
    fn encode_scalars() {
        for (v, want) in [
            (st("x"), "\"x\"\n"),
            (n("1"), "1\n...\n"),
            (Value::bool(true), "true\n...\n"),
            (Value::null(Type::Dynamic), "null\n...\n"),
            (n("-0.5"), "-0.5\n...\n"),
            (n("1e-7"), "0.0000001\n...\n"),
            (n("1e21"), "1000000000000000000000\n...\n"),
            (st("a\n\n"), "|+\n  a\n\n"),
            (st("é\nx"), "|-\n  é\n  x\n"),
            (st("a \nb"), "\"a \\nb\"\n"),
            (st("a\nb "), "\"a\\nb \"\n"),
            (st("\na"), "|2-\n\n  a\n"),
            (st("a\n"), "|\n  a\n"),
            (st("\n"), "|2+\n\n"),
            (st(" a\n"), "|2\n   a\n"),
            (st("a\n  b\n"), "|\n  a\n    b\n"),
            (st("  a\nb"), "|2-\n    a\n  b\n"),
            (st("a\tb\nc"), "\"a\\tb\\nc\"\n"),
            (st("x\r\ny"), "\"x\\r\\ny\"\n"),
            (st("a\n\nb"), "|-\n  a\n\n  b\n"),
            (st("😸"), "\"\\U0001F638\"\n"),
            (st("a\u{1}b"), "\"a\\x01b\"\n"),
            (st("a\u{85}b"), "\"a\\Nb\"\n"),
            (st("a\u{a0}b"), "\"a\u{a0}b\"\n"),
            (st("\u{feff}x"), "\"\\uFEFF\\x78\"\n"),
            (Value::empty_tuple(), "[]\n"),
            (Value::empty_object(), "{}\n"),
        ] {
            assert_eq!(enc(v.clone()), want, "{v:?}");
        }
    }

    #[test]
    fn encode_collections() {
        let v = Value::object_from([
            ("a", n("1")),
            ("b", st("x")),
            (
                "c",
                Value::tuple(vec![n("1"), st("two"), Value::bool(true), Value::null(Type::Dynamic)]),
            ),
            ("d", Value::empty_object()),
            ("e", Value::empty_tuple()),
            ("f", st("line1\nline2\n")),
            ("g", st("line1\nline2")),
            (
                "h",
                Value::object_from([(
                    "x",
                    Value::object_from([("y", Value::tuple(vec![Value::object_from([("z", n("1"))])]))]),
                )]),
            ),
            ("k y", st("v:w")),
            ("long", st("aaaaaaaaaa aaaaaaaaaaaaa aaaaaaaaaaaaaaaa aaaaaaaaaaaaaaaaaa aaaaaaaaaaaaaaaaaaaa aaaaaaaaaaaaaaaa aaaaaaaaaaaaaa")),
        ]);
        let want = "\"a\": 1\n\"b\": \"x\"\n\"c\":\n- 1\n- \"two\"\n- true\n- null\n\"d\": {}\n\"e\": []\n\"f\": |\n  line1\n  line2\n\"g\": |-\n  line1\n  line2\n\"h\":\n  \"x\":\n    \"y\":\n    - \"z\": 1\n\"k y\": \"v:w\"\n\"long\": \"aaaaaaaaaa aaaaaaaaaaaaa aaaaaaaaaaaaaaaa aaaaaaaaaaaaaaaaaa aaaaaaaaaaaaaaaaaaaa\n  aaaaaaaaaaaaaaaa aaaaaaaaaaaaaa\"\n";
        assert_eq!(enc(v), want);
        let nested = Value::tuple(vec![
            Value::tuple(vec![n("1"), n("2")]),
            Value::tuple(vec![n("3")]),
        ]);
        assert_eq!(enc(nested), "- - 1\n  - 2\n- - 3\n");
        let objs = Value::tuple(vec![Value::object_from([("a", n("1")), ("b", n("2"))])]);
        assert_eq!(enc(objs), "- \"a\": 1\n  \"b\": 2\n");
        assert_eq!(
            enc(Value::object_from([("a", st("x\ny"))])),
            "\"a\": |-\n  x\n  y\n"
        );
        assert_eq!(
            enc(Value::tuple(vec![Value::tuple(vec![st("a\nb")])])),
            "- - |-\n    a\n    b\n"
        );
        assert_eq!(
            enc(Value::object_from([("a\nb", n("1"))])),
            "? |-\n  a\n  b\n: 1\n"
        );
        assert_eq!(
            enc(Value::object_from([("a", Value::empty_object())])),
            "\"a\": {}\n"
        );
        assert_eq!(enc(Value::tuple(vec![Value::empty_tuple()])), "- []\n");
    }

    fn dec(s: &str) -> Value {
        call("yamldecode", vec![st(s)]).unwrap()
    }

    fn dec_err(s: &str) -> String {
        call("yamldecode", vec![st(s)])
            .unwrap_err()
            .message()
            .to_string()
    }

    #[test]
    fn decode_values() {
        let v = dec("a: 1\nb: yes\nc: ~\nd: 0x1F\ne: 1.5e3\nf: \"1\"\ng: [1, two]\nh: 2001-12-14\nj: 0o17\nk: 017\nl: 1_000\nm: on\nn: -0b101\no: +12");
        let want = Value::object_from([
            ("a", n("1")),
            ("b", Value::bool(true)),
            ("c", Value::null(Type::Dynamic)),
            ("d", n("31")),
            ("e", n("1500")),
            ("f", st("1")),
            ("false", st("-0b101")),
            ("g", Value::tuple(vec![n("1"), st("two")])),
            ("h", st("2001-12-14T00:00:00Z")),
            ("j", n("15")),
            ("k", n("17")),
            ("l", st("1_000")),
            ("m", Value::bool(true)),
            ("o", n("12")),
        ]);
        assert_eq!(v, want);
        assert_eq!(dec("- &x 1\n- *x"), Value::tuple(vec![n("1"), n("1")]));
        let merged = dec("a: &a {x: 1}\nb:\n  <<: *a\n  z: 2");
        assert_eq!(
            merged.get_attr("b").unwrap(),
            Value::object_from([("x", n("1")), ("z", n("2"))])
        );
        assert_eq!(dec("!!binary aGk="), st("aGk="));
        assert_eq!(
            dec("1: a\ntrue: b"),
            Value::object_from([("1", st("a")), ("true", st("b"))])
        );
        assert_eq!(dec("a: !!str 1"), Value::object_from([("a", st("1"))]));
        assert_eq!(dec("{a: 1, a: 2}"), Value::object_from([("a", n("2"))]));
        assert_eq!(
            dec("a: !!int \"12\""),
            Value::object_from([("a", st("12"))])
        );
        assert_eq!(
            dec("a:"),
            Value::object_from([("a", Value::null(Type::Dynamic))])
        );
        assert_eq!(
            dec("[2001-12-14t21:59:43.10-05:00, 2001-12-14 21:59:43.10 -5, 1., .5, 0x, 0o8, Inf, 0xFF, .5e3]"),
            Value::tuple(vec![
                st("2001-12-14T21:59:43-05:00"),
                st("2001-12-14 21:59:43.10 -5"),
                n("1"),
                n("0.5"),
                st("0x"),
                st("0o8"),
                st("Inf"),
                n("255"),
                n("500"),
            ])
        );
        let inf = dec("a: .inf").get_attr("a").unwrap();
        assert!(inf.as_number().unwrap().is_inf());
    }

    #[test]
    fn decode_errors() {
        assert_eq!(dec_err("a: .nan"), "floating point NaN is not supported");
        assert_eq!(
            dec_err(""),
            "on line 1, column 1: missing start of document"
        );
        assert_eq!(
            dec_err("--- 1\n--- 2"),
            "on line 1, column 1: unexpected extra content after value"
        );
        assert_eq!(
            dec_err("a: !!int x"),
            "cannot parse \"x\" as tag:yaml.org,2002:int"
        );
        assert_eq!(dec_err("a: !foo x"), "unsupported tag \"!foo\"");
        assert_eq!(
            dec_err("!!set {a: 1}"),
            "can't interpret mapping as tag:yaml.org,2002:set"
        );
        assert_eq!(
            dec_err("? [1]\n: 2"),
            "only strings are allowed as mapping keys"
        );
        assert_eq!(dec_err("x: *y"), "reference to undefined anchor \"y\"");
        assert_eq!(
            dec_err("[0xFFFFFFFFFFFFFFFFFFFF]"),
            "cannot parse \"0xFFFFFFFFFFFFFFFFFFFF\" as tag:yaml.org,2002:int"
        );
        assert!(dec_err("a: [").starts_with("on line "));
        let deep = "[".repeat(5000);
        assert!(call("yamldecode", vec![st(&deep)]).is_err());
    }

    /// Nine levels of nine aliases: 9^9 leaves once expanded. Decoding
    /// shared them, but printing the value aborted on a 2 GB allocation
    /// (terraform 1.11 runs out of memory); go-yaml v3's alias ratio
    /// refuses it.
    #[test]
    fn excessive_aliasing_is_refused() {
        let mut doc = String::from("a0: &a0 [x, x, x, x, x, x, x, x, x]\n");
        for i in 1..=9 {
            let p = i - 1;
            doc.push_str(&format!(
                "a{i}: &a{i} [*a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}]\n"
            ));
        }
        assert_eq!(dec_err(&doc), "yaml: document contains excessive aliasing");
    }

    /// An anchor of about a thousand nodes: fifty aliases of it are 98% of
    /// the document, which go-yaml v3 allows; two hundred are 99.5%, which
    /// it refuses.
    #[test]
    fn alias_ratio_boundary() {
        let items: Vec<String> = (0..499).map(|i| format!("k{i}: v")).collect();
        let doc = |aliases: usize| {
            let mut d = format!("base: &b {{{}}}\nuses:\n", items.join(", "));
            for _ in 0..aliases {
                d.push_str("  - *b\n");
            }
            d
        };
        let v = dec(&doc(50));
        assert_eq!(v.get_attr("uses").unwrap().as_elements().unwrap().len(), 50);
        assert_eq!(
            dec_err(&doc(200)),
            "yaml: document contains excessive aliasing"
        );
        // A few aliases of a small anchor are never counted against it.
        let small = dec("a: &x {k: 1}\nb: *x\nc: *x\n");
        assert_eq!(small.get_attr("c"), small.get_attr("a"));
    }

    #[test]
    fn round_trip() {
        let v = Value::object_from([
            ("a", st("multi\nline\n")),
            ("b", Value::tuple(vec![n("1.5"), Value::bool(false)])),
        ]);
        let text = enc(v.clone());
        assert_eq!(dec(&text), v);
    }
}
