//! Text helpers the human renderer needs to match OpenTofu byte for byte:
//! `mitchellh/colorstring`, `mitchellh/go-wordwrap` and
//! `format.ReplaceControlChars`.

/// `colorstring.Colorize` with OpenTofu's settings (default colours,
/// `Reset: true`), enabled or disabled.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Colorize {
    pub enabled: bool,
}

fn color_code(name: &str) -> Option<&'static str> {
    Some(match name {
        "default" => "39",
        "_default_" => "49",
        "black" => "30",
        "red" => "31",
        "green" => "32",
        "yellow" => "33",
        "blue" => "34",
        "magenta" => "35",
        "cyan" => "36",
        "light_gray" => "37",
        "dark_gray" => "90",
        "light_red" => "91",
        "light_green" => "92",
        "light_yellow" => "93",
        "light_blue" => "94",
        "light_magenta" => "95",
        "light_cyan" => "96",
        "white" => "97",
        "bold" => "1",
        "dim" => "2",
        "underline" => "4",
        "blink_slow" => "5",
        "blink_fast" => "6",
        "invert" => "7",
        "hidden" => "8",
        "reset" => "0",
        "reset_bold" => "21",
        "purple" => "38;5;57",
        _ => return None,
    })
}

impl Colorize {
    /// `Colorize.Color`: replaces `[name]` tags by escape codes (or by
    /// nothing when disabled) and, when enabled and a tag was seen, appends a
    /// reset.
    pub fn color(&self, v: &str) -> String {
        let mut out = String::with_capacity(v.len() + 16);
        let mut colored = false;
        let mut rest = v;
        while let Some(open) = rest.find('[') {
            out.push_str(&rest[..open]);
            let after = &rest[open + 1..];
            let tag_len = after
                .bytes()
                .take_while(|b| b.is_ascii_alphanumeric() || *b == b'_' || *b == b'-')
                .count();
            if tag_len > 0 && after.as_bytes().get(tag_len) == Some(&b']') {
                let name = &after[..tag_len];
                // The tag pattern is case-insensitive, the colour lookup is not.
                match color_code(name) {
                    Some(code) => {
                        colored = true;
                        if self.enabled {
                            out.push_str("\x1b[");
                            out.push_str(code);
                            out.push('m');
                        }
                    }
                    None => {
                        out.push('[');
                        out.push_str(name);
                        out.push(']');
                    }
                }
                rest = &after[tag_len + 1..];
            } else {
                out.push('[');
                rest = after;
            }
        }
        out.push_str(rest);
        if colored && self.enabled {
            out.push_str("\x1b[0m");
        }
        out
    }

    /// `fmt.Sprintf(c.Color(template), args...)` for templates using only
    /// `%s` verbs.
    pub fn colorf(&self, template: &str, args: &[&str]) -> String {
        sprintf(&self.color(template), args)
    }
}

/// Go's `Sprintf` for `%s`-only templates.
fn sprintf(template: &str, args: &[&str]) -> String {
    let mut out = String::with_capacity(template.len());
    let mut parts = template.split("%s");
    if let Some(first) = parts.next() {
        out.push_str(first);
    }
    for (i, part) in parts.enumerate() {
        out.push_str(args.get(i).copied().unwrap_or("%!s(MISSING)"));
        out.push_str(part);
    }
    out
}

/// Removes ANSI SGR escape sequences (`ESC [ … m`).
pub fn strip_ansi(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\x1b' && chars.peek() == Some(&'[') {
            chars.next();
            for c in chars.by_ref() {
                if c.is_ascii_alphabetic() {
                    break;
                }
            }
            continue;
        }
        out.push(c);
    }
    out
}

/// `format.ReplaceControlChars`: C0 controls other than tab, newline and
/// carriage return (and DEL) become their Unicode control pictures.
pub fn replace_control_chars(input: &str) -> String {
    input
        .chars()
        .map(|c| match c {
            '\t' | '\n' | '\r' => c,
            c if (c as u32) < 0x20 => char::from_u32(0x2400 + c as u32).unwrap_or(c),
            '\x7f' => '\u{2421}',
            c => c,
        })
        .collect()
}

/// `wordwrap.WrapString`: wraps at white space so lines stay within `lim`
/// characters where possible; words longer than `lim` are not broken.
pub fn wrap_string(s: &str, lim: usize) -> String {
    const NBSP: char = '\u{a0}';
    let mut buf = String::with_capacity(s.len());
    let mut current = 0usize;
    let mut word = String::new();
    let mut space = String::new();
    let (mut word_len, mut space_len) = (0usize, 0usize);

    for c in s.chars() {
        if c == '\n' {
            // Trailing spaces survive only if they still fit on the line.
            if !word.is_empty() || current + space_len <= lim {
                buf.push_str(&space);
            }
            buf.push_str(&word);
            space.clear();
            word.clear();
            space_len = 0;
            word_len = 0;
            buf.push(c);
            current = 0;
        } else if c.is_whitespace() && c != NBSP {
            if space.is_empty() || !word.is_empty() {
                current += space_len + word_len;
                buf.push_str(&space);
                space.clear();
                space_len = 0;
                buf.push_str(&word);
                word.clear();
                word_len = 0;
            }
            space.push(c);
            space_len += 1;
        } else {
            word.push(c);
            word_len += 1;
            if current + space_len + word_len > lim && word_len < lim {
                buf.push('\n');
                current = 0;
                space.clear();
                space_len = 0;
            }
        }
    }

    if word.is_empty() {
        if current + space_len <= lim {
            buf.push_str(&space);
        }
    } else {
        buf.push_str(&space);
        buf.push_str(&word);
    }
    buf
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colorize_like_colorstring() {
        let on = Colorize { enabled: true };
        let off = Colorize { enabled: false };
        assert_eq!(on.color("[red]│[reset] "), "\x1b[31m│\x1b[0m \x1b[0m");
        assert_eq!(off.color("[red]│[reset] "), "│ ");
        assert_eq!(on.color("no tags"), "no tags");
        assert_eq!(on.color("[unknown] x"), "[unknown] x");
        assert_eq!(
            on.colorf("[bold]%s[reset]\n\n", &["S%s"]),
            "\x1b[1mS%s\x1b[0m\n\n\x1b[0m"
        );
    }

    #[test]
    fn wraps_like_go_wordwrap() {
        let text = "It has no source references but it does have a pretty long detail that should wrap over multiple lines.";
        assert_eq!(
            wrap_string(text, 37),
            "It has no source references but it\ndoes have a pretty long detail that\nshould wrap over multiple lines."
        );
        assert_eq!(wrap_string("a verylongword b", 4), "a\nverylongword\nb");
        assert_eq!(wrap_string("  lead", 10), "  lead");
        assert_eq!(wrap_string("x   \ny", 2), "x\ny");
    }

    #[test]
    fn control_chars_become_pictures() {
        assert_eq!(
            replace_control_chars("a\x1b[0m\tb\x7f"),
            "a\u{241b}[0m\tb\u{2421}"
        );
        assert_eq!(strip_ansi("\x1b[1mX\x1b[0m"), "X");
    }
}
