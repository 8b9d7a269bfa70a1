//! `csvdecode` (go-cty `stdlib/csv.go`) with a port of Go's
//! `encoding/csv` reader, so that quoting rules, skipped blank lines and
//! error texts match.

use std::collections::BTreeMap;

use cty::{Type, Value};

use crate::functions::framework::{FnError, Function, Param};

const ERR_BARE_QUOTE: &str = "bare \" in non-quoted-field";
const ERR_QUOTE: &str = "extraneous or missing \" in quoted-field";
const ERR_FIELD_COUNT: &str = "wrong number of fields";

struct Reader<'a> {
    src: &'a [u8],
    pos: usize,
    num_line: usize,
    fields_per_record: usize,
}

struct ParseError {
    line: usize,
    err: &'static str,
}

impl<'a> Reader<'a> {
    fn new(s: &'a str) -> Reader<'a> {
        Reader {
            src: s.as_bytes(),
            pos: 0,
            num_line: 0,
            fields_per_record: 0,
        }
    }

    /// Go `readLine`: the next line with `\r\n` normalized to `\n`;
    /// `None` at end of input.
    fn read_line(&mut self) -> Option<Vec<u8>> {
        if self.pos >= self.src.len() {
            self.num_line += 1;
            return None;
        }
        let rest = &self.src[self.pos..];
        let (mut line, adv) = match rest.iter().position(|&b| b == b'\n') {
            Some(i) => (rest[..=i].to_vec(), i + 1),
            None => {
                let mut l = rest.to_vec();
                if l.last() == Some(&b'\r') {
                    l.pop();
                }
                (l, rest.len())
            }
        };
        self.pos += adv;
        self.num_line += 1;
        let n = line.len();
        if n >= 2 && line[n - 2] == b'\r' && line[n - 1] == b'\n' {
            line.truncate(n - 2);
            line.push(b'\n');
        }
        Some(line)
    }

    fn length_nl(b: &[u8]) -> usize {
        usize::from(b.last() == Some(&b'\n'))
    }

    /// Go `readRecord`; `Ok(None)` at end of input.
    fn read(&mut self) -> Result<Option<Vec<String>>, ParseError> {
        let mut line;
        loop {
            match self.read_line() {
                None => return Ok(None),
                Some(l) => {
                    if l.len() == Self::length_nl(&l) && !l.is_empty() {
                        continue;
                    }
                    if l.is_empty() {
                        return Ok(None);
                    }
                    line = l;
                    break;
                }
            }
        }
        let rec_line = self.num_line;
        let mut fields: Vec<Vec<u8>> = Vec::new();
        let mut line_no = self.num_line;
        'parse: loop {
            if line.first() != Some(&b'"') {
                let (field, rest) = match line.iter().position(|&b| b == b',') {
                    Some(i) => (line[..i].to_vec(), Some(line[i + 1..].to_vec())),
                    None => (line[..line.len() - Self::length_nl(&line)].to_vec(), None),
                };
                if field.contains(&b'"') {
                    return Err(ParseError {
                        line: self.num_line,
                        err: ERR_BARE_QUOTE,
                    });
                }
                fields.push(field);
                match rest {
                    Some(r) => {
                        line = r;
                        continue 'parse;
                    }
                    None => break 'parse,
                }
            }
            // Quoted field.
            let mut field = Vec::new();
            line = line[1..].to_vec();
            loop {
                if let Some(i) = line.iter().position(|&b| b == b'"') {
                    field.extend_from_slice(&line[..i]);
                    line = line[i + 1..].to_vec();
                    match line.first() {
                        Some(b'"') => {
                            field.push(b'"');
                            line = line[1..].to_vec();
                        }
                        Some(b',') => {
                            line = line[1..].to_vec();
                            fields.push(field);
                            continue 'parse;
                        }
                        _ if Self::length_nl(&line) == line.len() => {
                            fields.push(field);
                            break 'parse;
                        }
                        _ => {
                            return Err(ParseError {
                                line: self.num_line,
                                err: ERR_QUOTE,
                            })
                        }
                    }
                } else if !line.is_empty() {
                    field.extend_from_slice(&line);
                    match self.read_line() {
                        Some(l) => {
                            line_no += 1;
                            line = l;
                        }
                        None => line = Vec::new(),
                    }
                } else {
                    return Err(ParseError {
                        line: line_no,
                        err: ERR_QUOTE,
                    });
                }
            }
        }
        let fields: Vec<String> = fields
            .into_iter()
            .map(|f| String::from_utf8_lossy(&f).into_owned())
            .collect();
        if self.fields_per_record > 0 {
            if fields.len() != self.fields_per_record {
                return Err(ParseError {
                    line: rec_line,
                    err: ERR_FIELD_COUNT,
                });
            }
        } else {
            self.fields_per_record = fields.len();
        }
        Ok(Some(fields))
    }
}

fn csv_error(e: ParseError) -> FnError {
    FnError::general(format!("CSV parse error on line {}: {}", e.line, e.err))
}

fn header_type(s: &str) -> Result<Type, FnError> {
    let mut r = Reader::new(s);
    let headers = r
        .read()
        .map_err(csv_error)?
        .ok_or_else(|| FnError::general("missing header line"))?;
    let mut atys = BTreeMap::new();
    for name in headers {
        if atys.contains_key(&name) {
            return Err(FnError::general(format!(
                "duplicate column name {}",
                cty::format::go_quote(&name)
            )));
        }
        atys.insert(name, Type::String);
    }
    Ok(Type::list(Type::object(atys)))
}

pub(super) fn csvdecode_fn() -> Function {
    Function::new(
        vec![Param::new("str", Type::String)],
        None,
        |args| {
            if !args[0].is_known() {
                return Ok(Type::Dynamic);
            }
            header_type(args[0].as_str().unwrap_or_default())
        },
        |args, ret_ty| {
            let ety = ret_ty.element_type().cloned().unwrap_or(Type::Dynamic);
            let s = args[0].as_str().unwrap_or_default();
            let mut r = Reader::new(s);
            let headers = r.read().map_err(csv_error)?.unwrap_or_default();
            r.fields_per_record = ety.attribute_types().map_or(0, |a| a.len());
            let mut rows = Vec::new();
            while let Some(cols) = r.read().map_err(csv_error)? {
                let vals: BTreeMap<String, Value> = headers
                    .iter()
                    .cloned()
                    .zip(cols.into_iter().map(Value::string))
                    .collect();
                rows.push(Value::object(vals));
            }
            if rows.is_empty() {
                return Ok(Value::list_empty(ety));
            }
            Ok(Value::list(ety, rows)?)
        },
    )
}

#[cfg(test)]
mod tests {
    use super::super::tests::call;
    use super::*;

    fn row(pairs: &[(&str, &str)]) -> Value {
        Value::object_from(pairs.iter().map(|(k, v)| (*k, Value::string(v))))
    }

    #[test]
    fn decodes() {
        let r = call("csvdecode", vec![Value::string("a,b\n1,2\n3,4\n")]).unwrap();
        let rows = vec![
            row(&[("a", "1"), ("b", "2")]),
            row(&[("a", "3"), ("b", "4")]),
        ];
        assert_eq!(r, Value::list(rows[0].ty().clone(), rows).unwrap());
        let r = call("csvdecode", vec![Value::string("a,b\n\n1,2\r\n")]).unwrap();
        let rows = vec![row(&[("a", "1"), ("b", "2")])];
        assert_eq!(r, Value::list(rows[0].ty().clone(), rows).unwrap());
        let r = call(
            "csvdecode",
            vec![Value::string("a,b\n\"x,\"\"y\"\"\nz\",2")],
        )
        .unwrap();
        let rows = vec![row(&[("a", "x,\"y\"\nz"), ("b", "2")])];
        assert_eq!(r, Value::list(rows[0].ty().clone(), rows).unwrap());
        let r = call("csvdecode", vec![Value::string("a,b")]).unwrap();
        let ety = row(&[("a", ""), ("b", "")]).ty().clone();
        assert_eq!(r, Value::list_empty(ety));
    }

    #[test]
    fn errors() {
        for (src, want) in [
            (
                "a,b\n1,2\n3",
                "CSV parse error on line 3: wrong number of fields",
            ),
            (
                "a,b\n1,\"2\n",
                "CSV parse error on line 2: extraneous or missing \" in quoted-field",
            ),
            (
                "a,b\n1,x\"y\n",
                "CSV parse error on line 2: bare \" in non-quoted-field",
            ),
            (
                "a,b\n\"1\"x,2\n",
                "CSV parse error on line 2: extraneous or missing \" in quoted-field",
            ),
            ("", "missing header line"),
            ("a,a\n", "duplicate column name \"a\""),
        ] {
            let e = call("csvdecode", vec![Value::string(src)]).unwrap_err();
            assert_eq!(e.message(), want, "{src:?}");
        }
        let unk = call("csvdecode", vec![Value::unknown(Type::String)]).unwrap();
        assert!(!unk.is_known());
    }
}
