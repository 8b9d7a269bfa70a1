//! Generated string contents: arbitrary text, the multibyte and special
//! strings functions are sensitive to, and long repeats (capped, so that
//! the fuzzer does not spend its time on inputs that are merely big), and
//! their spelling inside an HCL quoted string.

use arbitrary::Arbitrary;

/// Strings that reach the interesting branches of the function library:
/// CIDRs, timestamps, format verbs, JSON/YAML, durations, regexes, file
/// names of the sandbox, and multibyte text (combining marks, ZWJ
/// sequences, zero-width spaces, right-to-left text, case folding traps).
pub const SPECIAL: &[&str] = &[
    "",
    " ",
    "a",
    "abc",
    "é",
    "e\u{301}",
    "日本語",
    "👩‍👩‍👧‍👦",
    "\u{200B}",
    "\u{FEFF}x",
    "עברית",
    "ß",
    "İı",
    "\u{10FFFF}",
    "\u{0}",
    "\t\n\r",
    "10.0.0.0/8",
    "192.168.1.0/24",
    "2001:db8::/32",
    "::/0",
    "0.0.0.0/0",
    "10.0.0.1",
    "2006-01-02T15:04:05Z",
    "2017-11-22T00:00:00+05:30",
    "YYYY-MM-DD hh:mm:ss ZZZZZ EEEE MMM aa",
    "1h30m",
    "-1.5h",
    "%s",
    "%d %v %#v %q %t %f %.3e %x %X %o %b %[2]s %*d %% %",
    "%-10.5s|%+08.3f",
    "{\"a\": [1, 2.5e3, null, true], \"b\": {}}",
    "[1, \"x\"]",
    "a: [1, 2]\nb: {c: d}\n",
    "--- !!binary aGk=\n",
    "&a [*a]",
    "aGVsbG8=",
    "H4sIAAAAAAAA/w==",
    "^(a+)+$",
    "(?P<name>[a-z]+)-(\\d+)",
    "[",
    "a.txt",
    "tpl.tftpl",
    "dir",
    "missing.txt",
    "*.txt",
    "**/*",
    "~/x",
    "../outside",
    "${",
    "%{",
    "~}",
    "x${y}",
    "1.0.0",
    "0x1F",
    "1e3",
    "-0",
    "NaN",
    "Inf",
    "true",
    "null",
    "cdc4ad8b-a5a5-4a5c-8dfc-4f5d55ef7ea4",
    "provider::terraform::encode_tfvars",
];

/// The text of a string literal.
#[derive(Arbitrary, Debug, Clone)]
pub enum Text {
    /// One of [`SPECIAL`].
    Special(u8),
    /// Whatever the fuzzer spells.
    Free(String),
    /// A special string repeated (long strings), at most [`MAX_REPEAT`] times.
    Repeat(u8, u16),
    /// Two texts joined.
    Concat(Box<Text>, Box<Text>),
}

/// Long enough to cross every buffer size worth crossing, short enough
/// to keep executions fast.
pub const MAX_REPEAT: usize = 2048;

impl Text {
    /// The string itself.
    pub fn value(&self) -> String {
        match self {
            Text::Special(i) => SPECIAL[*i as usize % SPECIAL.len()].to_string(),
            Text::Free(s) => s.clone(),
            Text::Repeat(i, n) => {
                let s = SPECIAL[*i as usize % SPECIAL.len()];
                let n = (*n as usize % MAX_REPEAT).max(1);
                // Keep repeats of long specials within the same cap.
                let n = n.min(MAX_REPEAT * 4 / s.len().max(1)).max(1);
                s.repeat(n)
            }
            Text::Concat(a, b) => {
                let mut s = a.value();
                s.push_str(&b.value());
                s
            }
        }
    }
}

/// `s` as an HCL quoted string: escapes for quotes, backslashes and
/// control characters, and template introducers doubled so the text is
/// taken literally.
pub fn hcl_quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '$' | '%' if chars.peek() == Some(&'{') => {
                out.push(c);
                out.push(c);
            }
            c if (c as u32) < 0x20 || c == '\u{7f}' => {
                out.push_str(&format!("\\u{:04x}", c as u32));
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}
