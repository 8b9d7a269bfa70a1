//! `fileset`'s globbing: bmatcuk/doublestar v4's `FilepathGlob` (Unix
//! separators), as a bounded directory walk plus doublestar's `Match`.

use std::fs;
use std::path::Path;

use super::paths::clean;

/// doublestar's `ErrBadPattern` text.
pub(super) const BAD_PATTERN: &str = "syntax error in pattern";

/// Deepest directory level the walk descends to (symlink loops end here).
const MAX_DEPTH: usize = 64;
/// Most directory entries the walk looks at.
const MAX_ENTRIES: usize = 1_000_000;

/// doublestar `FilepathGlob`: the paths (joined with the pattern's base
/// directory) of files and directories matching `pattern`.
pub(super) fn filepath_glob(pattern: &str) -> Result<Vec<String>, &'static str> {
    if pattern.is_empty() {
        return Ok(Vec::new());
    }
    let pattern = clean(pattern);
    let (base, f) = split_pattern(&pattern);
    if f.is_empty() || f == "." || f == ".." {
        if !validate(&pattern) {
            return Err(BAD_PATTERN);
        }
        let p = unescape_meta(&pattern);
        if fs::symlink_metadata(&p).is_err() {
            return Ok(Vec::new());
        }
        return Ok(vec![p]);
    }
    if !validate(f) {
        return Err(BAD_PATTERN);
    }
    if index_meta(f).is_none() {
        // No meta characters: the path itself, if it exists.
        let rel = unescape_meta(f);
        let full = join(base, &rel);
        return Ok(if fs::metadata(&full).is_ok() {
            vec![full]
        } else {
            Vec::new()
        });
    }
    let mut out = Vec::new();
    let mut budget = MAX_ENTRIES;
    walk(base, "", 0, f, &mut out, &mut budget)?;
    out.sort();
    out.dedup();
    Ok(out)
}

fn join(base: &str, rel: &str) -> String {
    if base == "." {
        rel.to_string()
    } else if base.ends_with('/') {
        format!("{base}{rel}")
    } else {
        format!("{base}/{rel}")
    }
}

fn walk(
    base: &str,
    rel: &str,
    depth: usize,
    pattern: &str,
    out: &mut Vec<String>,
    budget: &mut usize,
) -> Result<(), &'static str> {
    if depth >= MAX_DEPTH {
        return Ok(());
    }
    let dir = if rel.is_empty() {
        base.to_string()
    } else {
        join(base, rel)
    };
    let Ok(entries) = fs::read_dir(Path::new(&dir)) else {
        return Ok(());
    };
    let mut names: Vec<String> = entries
        .filter_map(Result::ok)
        .filter_map(|e| e.file_name().into_string().ok())
        .collect();
    names.sort();
    for name in names {
        if *budget == 0 {
            return Ok(());
        }
        *budget -= 1;
        let child = if rel.is_empty() {
            name.clone()
        } else {
            format!("{rel}/{name}")
        };
        if do_match(pattern, &child)? {
            out.push(join(base, &child));
        }
        let full = join(base, &child);
        if fs::metadata(&full).is_ok_and(|m| m.is_dir()) {
            walk(base, &child, depth + 1, pattern, out, budget)?;
        }
    }
    Ok(())
}

/// doublestar `SplitPattern`: the directory before the first meta
/// character's segment, and the rest.
fn split_pattern(p: &str) -> (&str, &str) {
    let Some(meta) = index_meta(p) else {
        // No meta: split at the last slash.
        return match last_index_slash(p) {
            None => (".", p),
            Some(0) => ("/", &p[1..]),
            Some(i) => (&p[..i], &p[i + 1..]),
        };
    };
    match last_index_slash(&p[..meta]) {
        None => (".", p),
        Some(0) => ("/", &p[1..]),
        Some(i) => (&p[..i], &p[i + 1..]),
    }
}

fn index_meta(s: &str) -> Option<usize> {
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'*' | b'?' | b'[' | b'{' => return Some(i),
            b'\\' => i += 1,
            _ => {}
        }
        i += 1;
    }
    None
}

fn last_index_slash(s: &str) -> Option<usize> {
    let b = s.as_bytes();
    (0..b.len())
        .rev()
        .find(|&i| b[i] == b'/' && (i == 0 || b[i - 1] != b'\\'))
}

fn unescape_meta(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\\' {
            if let Some(&n) = chars.peek() {
                if matches!(n, '*' | '?' | '[' | '{' | '}') {
                    out.push(n);
                    chars.next();
                    continue;
                }
            }
        }
        out.push(c);
    }
    out
}

/// doublestar `ValidatePattern` (with `/` separators).
pub(super) fn validate(p: &str) -> bool {
    let b = p.as_bytes();
    let mut i = 0;
    let mut alt_depth = 0usize;
    while i < b.len() {
        match b[i] {
            b'\\' => {
                i += 1;
                if i >= b.len() {
                    return false;
                }
            }
            b'[' => {
                i += 1;
                if i < b.len() && (b[i] == b'^' || b[i] == b'!') {
                    i += 1;
                }
                if i >= b.len() || b[i] == b']' {
                    return false;
                }
                let mut closed = false;
                while i < b.len() {
                    if b[i] == b'\\' {
                        i += 1;
                    } else if b[i] == b']' {
                        closed = true;
                        break;
                    }
                    i += 1;
                }
                if !closed {
                    return false;
                }
            }
            b'{' => alt_depth += 1,
            b'}' if alt_depth > 0 => alt_depth -= 1,
            _ => {}
        }
        i += 1;
    }
    alt_depth == 0
}

fn decode(s: &str, i: usize) -> (char, usize) {
    s.get(i..)
        .and_then(|r| r.chars().next())
        .map_or(('\u{FFFD}', 1), |c| (c, c.len_utf8()))
}

/// doublestar `matchWithSeparator(pattern, name, '/', false)`.
pub(super) fn do_match(pattern: &str, name: &str) -> Result<bool, &'static str> {
    do_match_from(pattern, name, Backtrack::default(), 0, 0, 0)
}

/// Where a failed step of the match resumes (doublestar's backtracking
/// indexes, `-1` there for none).
#[derive(Debug, Clone, Copy, Default)]
struct Backtrack {
    /// After a `**/`: the pattern index after it and the name index its
    /// current attempt starts at (the next attempt starts after the next
    /// `/`).
    double_star: Option<(usize, usize)>,
    /// After a `*`: the pattern index after it and the name index its
    /// current attempt starts at (the next attempt takes one more rune).
    star: Option<(usize, usize)>,
}

/// What one step of the match did.
enum Step {
    /// The pattern matched the next part of the name; go on.
    Advanced,
    /// The pattern did not match here: backtrack.
    Mismatch,
    /// The match is decided.
    Decided(bool),
}

/// doublestar `doMatchWithSeparator` from pattern index `pi` and name index
/// `ni`, with the backtracking points of the match so far; `depth` counts
/// alternations, which recurse.
fn do_match_from(
    pattern: &str,
    name: &str,
    back: Backtrack,
    pi: usize,
    ni: usize,
    depth: usize,
) -> Result<bool, &'static str> {
    if depth > 64 {
        return Err(BAD_PATTERN);
    }
    Matcher {
        pattern,
        name,
        back,
        pi,
        ni,
        start_of_segment: true,
        depth,
    }
    .run()
}

/// One call of doublestar's `doMatchWithSeparator`.
struct Matcher<'a> {
    pattern: &'a str,
    name: &'a str,
    back: Backtrack,
    /// The index in the pattern.
    pi: usize,
    /// The index in the name.
    ni: usize,
    /// The pattern index is at the start of a path segment (where `**`
    /// means any number of segments).
    start_of_segment: bool,
    depth: usize,
}

impl Matcher<'_> {
    fn run(mut self) -> Result<bool, &'static str> {
        let (plen, nlen) = (self.pattern.len(), self.name.len());
        while self.ni < nlen {
            if self.pi < plen {
                match self.step()? {
                    Step::Advanced => continue,
                    Step::Decided(matched) => return Ok(matched),
                    Step::Mismatch => {}
                }
            }
            if !self.backtrack() {
                return Ok(false);
            }
        }
        Ok(is_zero_length_pattern(
            &self.pattern[self.pi.min(plen)..],
            self.depth,
        ))
    }

    /// Matches the pattern's next element against the name.
    fn step(&mut self) -> Result<Step, &'static str> {
        let pb = self.pattern.as_bytes();
        match pb[self.pi] {
            b'*' => Ok(self.star()),
            b'?' => {
                self.start_of_segment = false;
                let (nr, nl) = decode(self.name, self.ni);
                if nr == '/' {
                    return Ok(Step::Mismatch);
                }
                self.pi += 1;
                self.ni += nl;
                Ok(Step::Advanced)
            }
            b'[' => self.class(),
            b'{' => self.alternation().map(Step::Decided),
            c => {
                if c == b'\\' {
                    self.pi += 1;
                    if self.pi >= pb.len() {
                        return Err(BAD_PATTERN);
                    }
                }
                let (pr, pl) = decode(self.pattern, self.pi);
                let (nr, nl) = decode(self.name, self.ni);
                if pr != nr {
                    return Ok(Step::Mismatch);
                }
                self.pi += pl;
                self.ni += nl;
                self.start_of_segment = pr == '/';
                Ok(Step::Advanced)
            }
        }
    }

    /// `*`, or `**` at the start of a segment: a `**` ending the pattern
    /// matches everything left, and `**/` sets the double-star
    /// backtracking point.
    fn star(&mut self) -> Step {
        let pb = self.pattern.as_bytes();
        let plen = pb.len();
        self.pi += 1;
        if self.pi < plen && pb[self.pi] == b'*' {
            self.pi += 1;
            if self.start_of_segment {
                if self.pi >= plen {
                    return Step::Decided(true);
                }
                if pb[self.pi] == b'/' {
                    self.pi += 1;
                    self.back.double_star = Some((self.pi, self.ni));
                    self.back.star = None;
                    return Step::Advanced;
                }
            }
        }
        self.start_of_segment = false;
        self.back.star = Some((self.pi, self.ni));
        Step::Advanced
    }

    /// A character class `[...]` (negated by `!` or `^`, with ranges and
    /// escapes) against the name's next rune.
    fn class(&mut self) -> Result<Step, &'static str> {
        let (pattern, pb, plen) = (self.pattern, self.pattern.as_bytes(), self.pattern.len());
        self.start_of_segment = false;
        let mut pi = self.pi + 1;
        if pi >= plen {
            return Err(BAD_PATTERN);
        }
        let (nr, nl) = decode(self.name, self.ni);
        let mut matched = false;
        let negate = pb[pi] == b'!' || pb[pi] == b'^';
        if negate {
            pi += 1;
        }
        if pi >= plen || pb[pi] == b']' {
            return Err(BAD_PATTERN);
        }
        let mut last: Option<char> = None;
        while pi < plen && pb[pi] != b']' {
            let (mut pr, mut pl) = decode(pattern, pi);
            pi += pl;
            if let Some(lo) = last {
                if pr == '-' && pi < plen && pb[pi] != b']' {
                    if pb[pi] == b'\\' {
                        pi += 1;
                    }
                    (pr, pl) = decode(pattern, pi);
                    pi += pl;
                    if lo <= nr && nr <= pr {
                        matched = true;
                        break;
                    }
                    last = None;
                    continue;
                }
            }
            if pr == '\\' {
                (pr, pl) = decode(pattern, pi);
                pi += pl;
            }
            if pr == nr {
                matched = true;
                break;
            }
            last = Some(pr);
        }
        self.pi = pi;
        if matched != negate {
            let Some(close) = index_unescaped(&pattern[pi.min(plen)..], b']') else {
                return Err(BAD_PATTERN);
            };
            self.pi += close + 1;
            self.ni += nl;
            return Ok(Step::Advanced);
        }
        if pi >= plen {
            return Err(BAD_PATTERN);
        }
        Ok(Step::Mismatch)
    }

    /// An alternation `{a,b}`: the rest of the match with each alternative
    /// in its place, the first that matches deciding.
    fn alternation(&self) -> Result<bool, &'static str> {
        let pattern = self.pattern;
        let before = self.pi;
        let mut pi = before + 1;
        let Some(close) = index_matched_closing_alt(&pattern[pi..]) else {
            return Err(BAD_PATTERN);
        };
        let close = close + pi;
        let with = |alt: &str| {
            let alt = format!("{}{alt}{}", &pattern[..before], &pattern[close + 1..]);
            do_match_from(&alt, self.name, self.back, before, self.ni, self.depth + 1)
        };
        while let Some(comma) = index_next_alt(&pattern[pi..close]) {
            let comma = comma + pi;
            if with(&pattern[pi..comma])? {
                return Ok(true);
            }
            pi = comma + 1;
        }
        with(&pattern[pi..close])
    }

    /// After a mismatch: the last `*` takes one more rune (not a `/`), or
    /// else the last `**/` one more segment; false when neither can.
    fn backtrack(&mut self) -> bool {
        if let Some((star_pat, star_name)) = self.back.star {
            let (nr, nl) = decode(self.name, star_name);
            if nr != '/' {
                self.back.star = Some((star_pat, star_name + nl));
                self.pi = star_pat;
                self.ni = star_name + nl;
                self.start_of_segment = false;
                return true;
            }
        }
        if let Some((ds_pat, ds_name)) = self.back.double_star {
            let mut ni = ds_name;
            while ni < self.name.len() {
                let (nr, nl) = decode(self.name, ni);
                ni += nl;
                if nr == '/' {
                    self.back.double_star = Some((ds_pat, ni));
                    self.pi = ds_pat;
                    self.ni = ni;
                    self.start_of_segment = true;
                    return true;
                }
            }
        }
        false
    }
}

fn is_zero_length_pattern(p: &str, depth: usize) -> bool {
    if matches!(p, "" | "*" | "**" | "/**" | "**/" | "/**/") {
        return true;
    }
    if depth > 64 || !p.starts_with('{') {
        return false;
    }
    let Some(close) = index_matched_closing_alt(&p[1..]) else {
        return false;
    };
    let close = close + 1;
    let mut pi = 1;
    while let Some(comma) = index_next_alt(&p[pi..close]) {
        let comma = comma + pi;
        if is_zero_length_pattern(&format!("{}{}", &p[pi..comma], &p[close + 1..]), depth + 1) {
            return true;
        }
        pi = comma + 1;
    }
    is_zero_length_pattern(&format!("{}{}", &p[pi..close], &p[close + 1..]), depth + 1)
}

fn index_unescaped(s: &str, c: u8) -> Option<usize> {
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'\\' {
            i += 1;
        } else if b[i] == c {
            return Some(i);
        }
        i += 1;
    }
    None
}

fn index_matched_closing_alt(s: &str) -> Option<usize> {
    let b = s.as_bytes();
    let mut alts = 1;
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'\\' => i += 1,
            b'{' => alts += 1,
            b'}' => {
                alts -= 1;
                if alts == 0 {
                    return Some(i);
                }
            }
            _ => {}
        }
        i += 1;
    }
    None
}

/// The index of the next top-level `,` in an alternation body.
fn index_next_alt(s: &str) -> Option<usize> {
    let b = s.as_bytes();
    let mut depth = 0;
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'\\' => i += 1,
            b'{' => depth += 1,
            b'}' => depth -= 1,
            b',' if depth == 0 => return Some(i),
            _ => {}
        }
        i += 1;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matching() {
        let cases: &[(&str, &str, bool)] = &[
            ("*", "abc", true),
            ("*", "a/b", false),
            ("*.txt", ".hidden.txt", true),
            ("a?c", "abc", true),
            ("a?c", "a/c", false),
            ("**", "a/b/c", true),
            ("**/*.txt", "a.txt", true),
            ("**/*.txt", "x/y/a.txt", true),
            ("x/**/a.txt", "x/a.txt", true),
            ("x/**", "x", true),
            ("**.txt", "a/b.txt", false),
            ("*.{txt,md}", "a.md", true),
            ("*.{txt,md}", "a.go", false),
            ("{a,b}/*", "b/c", true),
            ("[abc]", "b", true),
            ("[!abc]", "b", false),
            ("[^abc]", "d", true),
            ("[a-c]x", "bx", true),
            ("[a-c]x", "dx", false),
            ("\\*", "*", true),
            ("\\*", "a", false),
            ("a/*/c", "a/b/c", true),
            ("a/*/c", "a/b/d/c", false),
            ("{a,{b,c}}", "c", true),
        ];
        for (p, n, want) in cases {
            assert_eq!(do_match(p, n), Ok(*want), "match({p:?}, {n:?})");
        }
        assert_eq!(do_match("[", "a"), Err(BAD_PATTERN));
        assert!(!validate("["));
        assert!(!validate("[]"));
        assert!(!validate("{a,b"));
        assert!(!validate("a\\"));
        assert!(validate("a}"));
        assert!(validate("*.{txt,md}"));
    }

    #[test]
    fn splitting() {
        assert_eq!(split_pattern("a/b/*.txt"), ("a/b", "*.txt"));
        assert_eq!(split_pattern("*.txt"), (".", "*.txt"));
        assert_eq!(split_pattern("/x/*"), ("/x", "*"));
        assert_eq!(split_pattern("/*"), ("/", "*"));
        assert_eq!(split_pattern("a/**/b"), ("a", "**/b"));
    }
}
