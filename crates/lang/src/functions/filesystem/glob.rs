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
    do_match_from(pattern, name, -1, -1, -1, -1, 0, 0, 0)
}

#[allow(clippy::too_many_arguments)]
fn do_match_from(
    pattern: &str,
    name: &str,
    mut ds_pat: isize,
    mut ds_name: isize,
    mut star_pat: isize,
    mut star_name: isize,
    mut pi: usize,
    mut ni: usize,
    depth: usize,
) -> Result<bool, &'static str> {
    if depth > 64 {
        return Err(BAD_PATTERN);
    }
    let pb = pattern.as_bytes();
    let (plen, nlen) = (pattern.len(), name.len());
    let mut start_of_segment = true;
    'outer: while ni < nlen {
        if pi < plen {
            match pb[pi] {
                b'*' => {
                    pi += 1;
                    if pi < plen && pb[pi] == b'*' {
                        pi += 1;
                        if start_of_segment {
                            if pi >= plen {
                                return Ok(true);
                            }
                            if pb[pi] == b'/' {
                                pi += 1;
                                ds_pat = pi as isize;
                                ds_name = ni as isize;
                                star_pat = -1;
                                star_name = -1;
                                continue;
                            }
                        }
                    }
                    start_of_segment = false;
                    star_pat = pi as isize;
                    star_name = ni as isize;
                    continue;
                }
                b'?' => {
                    start_of_segment = false;
                    let (nr, nl) = decode(name, ni);
                    if nr != '/' {
                        pi += 1;
                        ni += nl;
                        continue;
                    }
                }
                b'[' => {
                    start_of_segment = false;
                    pi += 1;
                    if pi >= plen {
                        return Err(BAD_PATTERN);
                    }
                    let (nr, nl) = decode(name, ni);
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
                    if matched != negate {
                        let Some(close) = index_unescaped(&pattern[pi.min(plen)..], b']') else {
                            return Err(BAD_PATTERN);
                        };
                        pi += close + 1;
                        ni += nl;
                        continue;
                    }
                    if pi >= plen {
                        return Err(BAD_PATTERN);
                    }
                }
                b'{' => {
                    let before = pi;
                    pi += 1;
                    let Some(close) = index_matched_closing_alt(&pattern[pi..]) else {
                        return Err(BAD_PATTERN);
                    };
                    let close = close + pi;
                    while let Some(comma) = index_next_alt(&pattern[pi..close]) {
                        let comma = comma + pi;
                        let alt = format!(
                            "{}{}{}",
                            &pattern[..before],
                            &pattern[pi..comma],
                            &pattern[close + 1..]
                        );
                        if do_match_from(
                            &alt,
                            name,
                            ds_pat,
                            ds_name,
                            star_pat,
                            star_name,
                            before,
                            ni,
                            depth + 1,
                        )? {
                            return Ok(true);
                        }
                        pi = comma + 1;
                    }
                    let alt = format!(
                        "{}{}{}",
                        &pattern[..before],
                        &pattern[pi..close],
                        &pattern[close + 1..]
                    );
                    return do_match_from(
                        &alt,
                        name,
                        ds_pat,
                        ds_name,
                        star_pat,
                        star_name,
                        before,
                        ni,
                        depth + 1,
                    );
                }
                c => {
                    if c == b'\\' {
                        pi += 1;
                        if pi >= plen {
                            return Err(BAD_PATTERN);
                        }
                    }
                    let (pr, pl) = decode(pattern, pi);
                    let (nr, nl) = decode(name, ni);
                    if pr == nr {
                        pi += pl;
                        ni += nl;
                        start_of_segment = pr == '/';
                        continue;
                    }
                }
            }
        }
        if star_pat >= 0 {
            let (nr, nl) = decode(name, star_name as usize);
            if nr != '/' {
                star_name += nl as isize;
                pi = star_pat as usize;
                ni = star_name as usize;
                start_of_segment = false;
                continue;
            }
        }
        if ds_pat >= 0 {
            ni = ds_name as usize;
            while ni < nlen {
                let (nr, nl) = decode(name, ni);
                ni += nl;
                if nr == '/' {
                    ds_name = ni as isize;
                    pi = ds_pat as usize;
                    start_of_segment = true;
                    continue 'outer;
                }
            }
        }
        return Ok(false);
    }
    if ni < nlen {
        return Ok(false);
    }
    Ok(is_zero_length_pattern(&pattern[pi.min(plen)..], depth))
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
