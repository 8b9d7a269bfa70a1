//! Encoding functions (OpenTofu `funcs/encoding.go`, go-cty `csv.go`,
//! go-cty-yaml): base64decode, base64encode, base64gzip, base64gunzip,
//! csvdecode, textdecodebase64, textencodebase64, urlencode, urldecode,
//! yamldecode and yamlencode; jsondecode and jsonencode in [`json`].

mod csv;
mod json;
mod yaml;

use std::io::Read;

use base64::Engine;
use cty::{Type, Value};

use super::numeric::redact_str;
use crate::functions::framework::{static_return, FnError, Function, FunctionTable, Param};

/// Go `base64.StdEncoding.DecodeString`: padding required, `\r` and `\n`
/// ignored, trailing bits not checked; the error is Go's
/// `CorruptInputError` offset.
pub(crate) fn go_base64_decode(src: &str) -> Result<Vec<u8>, usize> {
    fn val(c: u8) -> Option<u8> {
        match c {
            b'A'..=b'Z' => Some(c - b'A'),
            b'a'..=b'z' => Some(c - b'a' + 26),
            b'0'..=b'9' => Some(c - b'0' + 52),
            b'+' => Some(62),
            b'/' => Some(63),
            _ => None,
        }
    }
    let src = src.as_bytes();
    let mut out = Vec::with_capacity(src.len() / 4 * 3);
    let mut si = 0;
    loop {
        let mut dbuf = [0u8; 4];
        let mut j = 0usize;
        let mut dlen = 4;
        let mut end = false;
        while j < 4 {
            if si == src.len() {
                if j == 0 {
                    return Ok(out);
                }
                return Err(si - j);
            }
            let c = src[si];
            si += 1;
            if let Some(v) = val(c) {
                dbuf[j] = v;
                j += 1;
                continue;
            }
            if c == b'\n' || c == b'\r' {
                continue;
            }
            if c != b'=' {
                return Err(si - 1);
            }
            match j {
                0 | 1 => return Err(si - 1),
                2 => {
                    while si < src.len() && (src[si] == b'\n' || src[si] == b'\r') {
                        si += 1;
                    }
                    if si == src.len() {
                        return Err(src.len());
                    }
                    if src[si] != b'=' {
                        return Err(si - 1);
                    }
                    si += 1;
                }
                _ => {}
            }
            while si < src.len() && (src[si] == b'\n' || src[si] == b'\r') {
                si += 1;
            }
            if si < src.len() {
                return Err(si);
            }
            dlen = j;
            end = true;
            break;
        }
        let v = (u32::from(dbuf[0]) << 18)
            | (u32::from(dbuf[1]) << 12)
            | (u32::from(dbuf[2]) << 6)
            | u32::from(dbuf[3]);
        let bytes = [(v >> 16) as u8, (v >> 8) as u8, v as u8];
        out.extend_from_slice(&bytes[..dlen - 1]);
        if end {
            return Ok(out);
        }
    }
}

fn b64(bytes: &[u8]) -> String {
    base64::engine::general_purpose::STANDARD.encode(bytes)
}

fn str_param(name: &str) -> Param {
    Param::new(name, Type::String)
}

fn base64decode_fn() -> Function {
    Function::new(
        vec![str_param("str").allow_marked()],
        None,
        static_return(Type::String),
        |args, _| {
            let (v, marks) = args[0].unmark_deep();
            let s = v.as_str().unwrap_or_default();
            let dec = go_base64_decode(s).map_err(|_| {
                FnError::general(format!(
                    "failed to decode base64 data {}",
                    redact_str(s, &marks)
                ))
            })?;
            let text = String::from_utf8(dec).map_err(|_| {
                FnError::general("the result of decoding the provided string is not valid UTF-8")
            })?;
            Ok(Value::string(text).with_marks(marks))
        },
    )
}

fn simple(
    name: &str,
    f: impl Fn(&str) -> Result<String, FnError> + Send + Sync + 'static,
) -> Function {
    Function::new(
        vec![str_param(name)],
        None,
        static_return(Type::String),
        move |args, _| Ok(Value::string(f(args[0].as_str().unwrap_or_default())?)),
    )
}

/// Go `gzip.Writer` output: header with zero mtime and unknown OS, the
/// data as non-final deflate blocks ended by a sync flush, an empty final
/// stored block, then CRC and size.
fn go_gzip(data: &[u8]) -> Result<Vec<u8>, FnError> {
    use flate2::{Compress, Compression, FlushCompress};
    let mut out = vec![0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff];
    let mut c = Compress::new(Compression::new(6), false);
    let mut buf = Vec::with_capacity(data.len() / 2 + 64);
    let mut input = data;
    loop {
        if buf.capacity() - buf.len() < 64 {
            buf.reserve(buf.capacity().max(1024));
        }
        let before_in = c.total_in();
        c.compress_vec(input, &mut buf, FlushCompress::Sync)
            .map_err(|e| FnError::general(format!("failed to write gzip raw data: {e}")))?;
        let consumed = (c.total_in() - before_in) as usize;
        input = &input[consumed..];
        if input.is_empty() && buf.ends_with(&[0, 0, 0xff, 0xff]) && buf.len() < buf.capacity() {
            break;
        }
    }
    out.extend_from_slice(&buf);
    out.extend_from_slice(&[0x01, 0x00, 0x00, 0xff, 0xff]);
    let mut crc = flate2::Crc::new();
    crc.update(data);
    out.extend_from_slice(&crc.sum().to_le_bytes());
    out.extend_from_slice(&(data.len() as u32).to_le_bytes());
    Ok(out)
}

/// Largest decompressed output accepted by `base64gunzip`.
const MAX_GUNZIP: u64 = 256 * 1024 * 1024;

fn base64gunzip_fn() -> Function {
    Function::new(
        vec![str_param("str")],
        None,
        static_return(Type::String),
        |args, _| {
            let s = args[0].as_str().unwrap_or_default();
            let dec = go_base64_decode(s).map_err(|_| {
                FnError::general(format!(
                    "failed to decode base64 data {}",
                    cty::format::go_quote(s)
                ))
            })?;
            if dec.len() < 10 || dec[0] != 0x1f || dec[1] != 0x8b || dec[2] != 8 {
                let msg = if dec.len() < 10 {
                    "unexpected EOF"
                } else {
                    "gzip: invalid header"
                };
                return Err(FnError::general(format!(
                    "failed to gunzip bytestream: {msg}"
                )));
            }
            let mut out = Vec::new();
            flate2::read::MultiGzDecoder::new(&dec[..])
                .take(MAX_GUNZIP + 1)
                .read_to_end(&mut out)
                .map_err(|e| {
                    let msg = if e.kind() == std::io::ErrorKind::UnexpectedEof {
                        "unexpected EOF".to_string()
                    } else if e.to_string().contains("checksum") || e.to_string().contains("crc") {
                        "gzip: invalid checksum".to_string()
                    } else {
                        "flate: corrupt input before offset 0".to_string()
                    };
                    FnError::general(format!("failed to read gunzip raw data: {msg}"))
                })?;
            if out.len() as u64 > MAX_GUNZIP {
                return Err(FnError::general(
                    "failed to read gunzip raw data: decompressed data is too large",
                ));
            }
            Ok(Value::string(String::from_utf8_lossy(&out)))
        },
    )
}

/// Go `url.QueryEscape`.
fn query_escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                out.push(b as char)
            }
            b' ' => out.push('+'),
            _ => out.push_str(&format!("%{b:02X}")),
        }
    }
    out
}

/// Go `url.QueryUnescape`.
fn query_unescape(s: &str) -> Result<String, String> {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'%' => {
                let hex = |c: u8| (c as char).to_digit(16);
                match (
                    b.get(i + 1).and_then(|c| hex(*c)),
                    b.get(i + 2).and_then(|c| hex(*c)),
                ) {
                    (Some(h), Some(l)) => {
                        out.push((h * 16 + l) as u8);
                        i += 3;
                    }
                    _ => {
                        let end = (i + 3).min(b.len());
                        let bad = String::from_utf8_lossy(&b[i..end]);
                        return Err(format!(
                            "invalid URL escape {}",
                            cty::format::go_quote(&bad)
                        ));
                    }
                }
            }
            b'+' => {
                out.push(b' ');
                i += 1;
            }
            c => {
                out.push(c);
                i += 1;
            }
        }
    }
    Ok(String::from_utf8_lossy(&out).into_owned())
}

/// A text encoding `textencodebase64`/`textdecodebase64` can use.
enum TextEncoding {
    Utf16 { big_endian: bool, bom: bool },
    Latin1,
    Ascii,
    Other(&'static encoding_rs::Encoding),
}

/// Go `ianaindex.IANA.Encoding` (approximated with encoding_rs) and the
/// IANA name of the result.
fn lookup_encoding(name: &str) -> Option<(TextEncoding, String)> {
    let lower = name.trim().to_ascii_lowercase();
    let r = match lower.as_str() {
        "utf-16" | "csutf16" => (
            TextEncoding::Utf16 {
                big_endian: true,
                bom: true,
            },
            "UTF-16",
        ),
        "utf-16le" | "csutf16le" => (
            TextEncoding::Utf16 {
                big_endian: false,
                bom: false,
            },
            "UTF-16LE",
        ),
        "utf-16be" | "csutf16be" => (
            TextEncoding::Utf16 {
                big_endian: true,
                bom: false,
            },
            "UTF-16BE",
        ),
        "iso_8859-1:1987" | "iso-ir-100" | "iso_8859-1" | "iso-8859-1" | "latin1" | "l1"
        | "ibm819" | "cp819" | "csisolatin1" => (TextEncoding::Latin1, "ISO_8859-1:1987"),
        "us-ascii" | "ascii" | "iso646-us" | "us" | "ibm367" | "cp367" | "csascii"
        | "ansi_x3.4-1968" | "iso-ir-6" | "ansi_x3.4-1986" | "iso_646.irv:1991" => {
            (TextEncoding::Ascii, "US-ASCII")
        }
        _ => {
            let enc = encoding_rs::Encoding::for_label(lower.as_bytes())?;
            if enc == encoding_rs::REPLACEMENT || enc == encoding_rs::X_USER_DEFINED {
                return None;
            }
            if enc == encoding_rs::UTF_16LE || enc == encoding_rs::UTF_16BE {
                return None;
            }
            let iana = match enc.name() {
                "ISO-8859-2" => "ISO_8859-2:1987",
                "ISO-8859-3" => "ISO_8859-3:1988",
                "ISO-8859-4" => "ISO_8859-4:1988",
                "ISO-8859-5" => "ISO_8859-5:1988",
                "ISO-8859-6" => "ISO_8859-6:1987",
                "ISO-8859-7" => "ISO_8859-7:1987",
                "ISO-8859-8" => "ISO_8859-8:1988",
                "ISO-8859-10" => "ISO-8859-10",
                n => n,
            };
            return Some((TextEncoding::Other(enc), iana.to_string()));
        }
    };
    Some((r.0, r.1.to_string()))
}

fn encode_text(enc: &TextEncoding, s: &str) -> Option<Vec<u8>> {
    match enc {
        TextEncoding::Utf16 { big_endian, bom } => {
            let mut out = Vec::with_capacity(s.len() * 2 + 2);
            let mut push = |u: u16| {
                out.extend_from_slice(&if *big_endian {
                    u.to_be_bytes()
                } else {
                    u.to_le_bytes()
                })
            };
            if *bom {
                push(0xFEFF);
            }
            for u in s.encode_utf16() {
                push(u);
            }
            Some(out)
        }
        TextEncoding::Latin1 => s.chars().map(|c| u8::try_from(c as u32).ok()).collect(),
        TextEncoding::Ascii => s.chars().map(|c| c.is_ascii().then_some(c as u8)).collect(),
        TextEncoding::Other(enc) => {
            let mut encoder = enc.new_encoder();
            let cap = encoder.max_buffer_length_from_utf8_without_replacement(s.len())?;
            let mut out = vec![0u8; cap];
            let (res, _, written) = encoder.encode_from_utf8_without_replacement(s, &mut out, true);
            match res {
                encoding_rs::EncoderResult::InputEmpty => {
                    out.truncate(written);
                    Some(out)
                }
                _ => None,
            }
        }
    }
}

fn decode_text(enc: &TextEncoding, b: &[u8]) -> Option<String> {
    match enc {
        TextEncoding::Utf16 { big_endian, bom } => {
            let mut be = *big_endian;
            let mut b = b;
            if *bom && b.len() >= 2 {
                match (b[0], b[1]) {
                    (0xFE, 0xFF) => {
                        be = true;
                        b = &b[2..];
                    }
                    (0xFF, 0xFE) => {
                        be = false;
                        b = &b[2..];
                    }
                    _ => {}
                }
            }
            let units: Vec<u16> = b
                .chunks(2)
                .map(|c| {
                    if c.len() < 2 {
                        0xFFFD
                    } else if be {
                        u16::from_be_bytes([c[0], c[1]])
                    } else {
                        u16::from_le_bytes([c[0], c[1]])
                    }
                })
                .collect();
            Some(String::from_utf16_lossy(&units))
        }
        TextEncoding::Latin1 => Some(b.iter().map(|&c| c as char).collect()),
        TextEncoding::Ascii => Some(
            b.iter()
                .map(|&c| if c.is_ascii() { c as char } else { '\u{FFFD}' })
                .collect(),
        ),
        TextEncoding::Other(enc) => enc
            .decode_without_bom_handling_and_without_replacement(b)
            .map(|c| c.into_owned()),
    }
}

fn unsupported_encoding(name: &str) -> FnError {
    FnError::arg(
        1,
        format!(
            "{} is not a supported IANA encoding name or alias in this OpenTofu version",
            cty::format::go_quote(name)
        ),
    )
}

fn textencodebase64_fn() -> Function {
    Function::new(
        vec![str_param("string"), str_param("encoding")],
        None,
        static_return(Type::String),
        |args, _| {
            let s = args[0].as_str().unwrap_or_default();
            let name = args[1].as_str().unwrap_or_default();
            let (enc, enc_name) =
                lookup_encoding(name).ok_or_else(|| unsupported_encoding(name))?;
            let bytes = encode_text(&enc, s).ok_or_else(|| {
                FnError::arg(
                    0,
                    format!("the given string contains characters that cannot be represented in {enc_name}"),
                )
            })?;
            Ok(Value::string(b64(&bytes)))
        },
    )
}

fn textdecodebase64_fn() -> Function {
    Function::new(
        vec![str_param("source"), str_param("encoding")],
        None,
        static_return(Type::String),
        |args, _| {
            let s = args[0].as_str().unwrap_or_default();
            let name = args[1].as_str().unwrap_or_default();
            let (enc, enc_name) =
                lookup_encoding(name).ok_or_else(|| unsupported_encoding(name))?;
            let bytes = go_base64_decode(s).map_err(|off| {
                FnError::arg(
                    0,
                    format!("the given value is has an invalid base64 symbol at offset {off}"),
                )
            })?;
            match decode_text(&enc, &bytes) {
                Some(t) if !t.contains('\u{FFFD}') => Ok(Value::string(t)),
                _ => Err(FnError::arg(
                    0,
                    format!(
                        "the given string contains symbols that are not defined for {enc_name}"
                    ),
                )),
            }
        },
    )
}

/// Registers this family's functions.
pub fn register(table: &mut FunctionTable) {
    json::register(table);
    table.insert("base64decode", base64decode_fn());
    table.insert("base64encode", simple("str", |s| Ok(b64(s.as_bytes()))));
    table.insert(
        "base64gzip",
        simple("str", |s| Ok(b64(&go_gzip(s.as_bytes())?))),
    );
    table.insert("base64gunzip", base64gunzip_fn());
    table.insert("csvdecode", csv::csvdecode_fn());
    table.insert("textencodebase64", textencodebase64_fn());
    table.insert("textdecodebase64", textdecodebase64_fn());
    table.insert("urlencode", simple("str", |s| Ok(query_escape(s))));
    table.insert(
        "urldecode",
        simple("str", |s| {
            query_unescape(s).map_err(|e| FnError::general(format!("failed to decode URL '': {e}")))
        }),
    );
    table.insert("yamldecode", yaml::yamldecode_fn());
    table.insert("yamlencode", yaml::yamlencode_fn());
}

#[cfg(test)]
mod tests {
    use super::*;

    pub(super) fn call(name: &str, args: Vec<Value>) -> Result<Value, FnError> {
        let mut t = FunctionTable::new();
        register(&mut t);
        t.get(name).expect("registered").call(&args)
    }

    fn st(s: &str) -> Value {
        Value::string(s)
    }

    fn ok(name: &str, args: &[&str]) -> String {
        let args = args.iter().map(|a| st(a)).collect();
        call(name, args).unwrap().as_str().unwrap().to_string()
    }

    fn err(name: &str, args: &[&str]) -> String {
        let args = args.iter().map(|a| st(a)).collect();
        call(name, args).unwrap_err().message().to_string()
    }

    #[test]
    fn base64() {
        assert_eq!(
            ok("base64encode", &["abc123!?$*&()'-=@~"]),
            "YWJjMTIzIT8kKiYoKSctPUB+"
        );
        assert_eq!(
            ok("base64decode", &["YWJjMTIzIT8kKiYoKSctPUB+"]),
            "abc123!?$*&()'-=@~"
        );
        assert_eq!(ok("base64decode", &["YWJj\nMTIz"]), "abc123");
        assert_eq!(ok("base64decode", &["YQ=="]), "a");
        assert_eq!(ok("base64decode", &["YR=="]), "a");
        assert_eq!(
            err("base64decode", &["abc"]),
            "failed to decode base64 data \"abc\""
        );
        assert_eq!(
            err("base64decode", &["gA=="]),
            "the result of decoding the provided string is not valid UTF-8"
        );
        let secret = st("abc").mark(cty::Mark::Sensitive);
        let e = call("base64decode", vec![secret]).unwrap_err();
        assert_eq!(
            e.message(),
            "failed to decode base64 data (sensitive value)"
        );
        let secret = st("YQ==").mark(cty::Mark::Sensitive);
        assert!(call("base64decode", vec![secret])
            .unwrap()
            .has_mark(&cty::Mark::Sensitive));
    }

    #[test]
    fn gzip() {
        assert_eq!(
            ok("base64gzip", &["hello"]),
            "H4sIAAAAAAAA/8pIzcnJBwAAAP//AQAA//+GphA2BQAAAA=="
        );
        assert_eq!(
            ok(
                "base64gunzip",
                &["H4sIAAAAAAAA/8pIzcnJBwAAAP//AQAA//+GphA2BQAAAA=="]
            ),
            "hello"
        );
        let long = "x".repeat(100_000);
        let z = ok("base64gzip", &[&long]);
        assert_eq!(ok("base64gunzip", &[&z]), long);
        assert!(err("base64gunzip", &["aGVsbG8="]).starts_with("failed to gunzip bytestream"));
        assert_eq!(
            err("base64gunzip", &["abc"]),
            "failed to decode base64 data \"abc\""
        );
    }

    #[test]
    fn url() {
        assert_eq!(ok("urlencode", &["a b&c=d/é~"]), "a+b%26c%3Dd%2F%C3%A9~");
        assert_eq!(ok("urldecode", &["a+b%26c%3Dd%2F%C3%A9~"]), "a b&c=d/é~");
        assert_eq!(
            err("urldecode", &["a%zzb"]),
            "failed to decode URL '': invalid URL escape \"%zz\""
        );
        assert_eq!(
            err("urldecode", &["a%4"]),
            "failed to decode URL '': invalid URL escape \"%4\""
        );
    }

    #[test]
    fn text_encodings() {
        assert_eq!(ok("textencodebase64", &["hi", "UTF-16LE"]), "aABpAA==");
        assert_eq!(ok("textencodebase64", &["hé", "UTF-16"]), "/v8AaADp");
        assert_eq!(ok("textencodebase64", &["hé", "ISO-8859-1"]), "aOk=");
        assert_eq!(ok("textencodebase64", &["hé", "latin1"]), "aOk=");
        assert_eq!(ok("textencodebase64", &["€", "windows-1252"]), "gA==");
        assert_eq!(
            ok("textencodebase64", &["Hello World", "UTF-8"]),
            "SGVsbG8gV29ybGQ="
        );
        assert_eq!(ok("textdecodebase64", &["/v8AaADp", "UTF-16"]), "hé");
        assert_eq!(ok("textdecodebase64", &["gA==", "windows-1252"]), "€");
        assert_eq!(ok("textdecodebase64", &["aABpAA==", "UTF-16LE"]), "hi");
        assert_eq!(
            err("textencodebase64", &["日", "ISO-8859-1"]),
            "the given string contains characters that cannot be represented in ISO_8859-1:1987"
        );
        assert_eq!(
            err("textencodebase64", &["a", "foo"]),
            "\"foo\" is not a supported IANA encoding name or alias in this OpenTofu version"
        );
        for (src, off) in [("abc", 0), ("ab=c", 2), ("a!bc", 1), ("aGk", 0)] {
            assert_eq!(
                err("textdecodebase64", &[src, "UTF-8"]),
                format!("the given value is has an invalid base64 symbol at offset {off}")
            );
        }
        assert_eq!(
            err("textdecodebase64", &["/w==", "UTF-8"]),
            "the given string contains symbols that are not defined for UTF-8"
        );
    }
}
