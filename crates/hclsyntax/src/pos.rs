//! Positions and ranges in source files, as HCL reports them.

use std::fmt;
use std::sync::Arc;

/// A position in a source file: 1-based line and column, 0-based byte offset.
///
/// Columns count characters (Unicode scalar values), as HCL counts them for
/// the text most configurations contain.
///
/// The fields are 32-bit: every expression and traversal step carries two
/// positions, and a large configuration holds millions of them (64-bit
/// fields made a range 64 bytes instead of 40). The native scanner reads at
/// most 4 GiB of a file ("File too large"), so offsets fit; beyond that,
/// positions saturate rather than wrap.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Pos {
    pub line: u32,
    pub column: u32,
    pub byte: u32,
}

impl Pos {
    /// The start of a file.
    pub const START: Pos = Pos {
        line: 1,
        column: 1,
        byte: 0,
    };

    /// A position from word-sized counts, as scanners keep them (counts
    /// beyond `u32::MAX` saturate).
    pub fn at(line: usize, column: usize, byte: usize) -> Pos {
        Pos {
            line: narrow(line),
            column: narrow(column),
            byte: narrow(byte),
        }
    }

    /// The byte offset, for slicing the file's text.
    pub fn offset(&self) -> usize {
        self.byte as usize
    }
}

fn narrow(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// A span of one source file. `filename` is the name the file was loaded
/// under (relative to the working directory when it was loaded that way).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Range {
    pub filename: Arc<str>,
    pub start: Pos,
    pub end: Pos,
}

impl Range {
    /// A range covering `start` to `end` of the given file.
    pub fn new(filename: Arc<str>, start: Pos, end: Pos) -> Range {
        Range {
            filename,
            start,
            end,
        }
    }

    /// The range from the start of `self` to the end of `other`.
    pub fn to(&self, other: &Range) -> Range {
        Range {
            filename: self.filename.clone(),
            start: self.start,
            end: other.end,
        }
    }

    /// An empty range at the start of this one.
    pub fn start_range(&self) -> Range {
        Range {
            filename: self.filename.clone(),
            start: self.start,
            end: self.start,
        }
    }

    /// An empty range at the end of this one.
    pub fn end_range(&self) -> Range {
        Range {
            filename: self.filename.clone(),
            start: self.end,
            end: self.end,
        }
    }

    /// Whether the range covers no bytes.
    pub fn is_empty(&self) -> bool {
        self.start.byte == self.end.byte
    }

    /// Whether `self` fully contains `other` (same file).
    pub fn contains(&self, other: &Range) -> bool {
        self.filename == other.filename
            && self.start.byte <= other.start.byte
            && other.end.byte <= self.end.byte
    }
}

/// HCL's compact rendering: `file:line,col-[line,]col`.
impl fmt::Display for Range {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.start.line == self.end.line {
            write!(
                f,
                "{}:{},{}-{}",
                self.filename, self.start.line, self.start.column, self.end.column
            )
        } else {
            write!(
                f,
                "{}:{},{}-{},{}",
                self.filename, self.start.line, self.start.column, self.end.line, self.end.column
            )
        }
    }
}

/// A loaded source file: its name, its text and an index of its lines, used
/// to turn byte offsets into positions and to quote source lines in
/// diagnostics.
#[derive(Debug)]
pub struct SourceFile {
    name: Arc<str>,
    text: Arc<str>,
    line_starts: Vec<usize>,
}

impl SourceFile {
    /// Index `text` (already decoded as UTF-8) under `name`.
    pub fn new(name: impl Into<Arc<str>>, text: impl Into<Arc<str>>) -> SourceFile {
        let text: Arc<str> = text.into();
        let mut line_starts = vec![0];
        line_starts.extend(
            text.bytes()
                .enumerate()
                .filter(|(_, b)| *b == b'\n')
                .map(|(i, _)| i + 1),
        );
        SourceFile {
            name: name.into(),
            text,
            line_starts,
        }
    }

    pub fn name(&self) -> &Arc<str> {
        &self.name
    }

    pub fn text(&self) -> &str {
        &self.text
    }

    /// Byte offsets where the lines start (the first is 0).
    pub(crate) fn line_starts(&self) -> &[usize] {
        &self.line_starts
    }

    /// The position of a byte offset (clamped to the file, snapped back to
    /// a character boundary).
    pub fn pos(&self, byte: usize) -> Pos {
        let mut byte = byte.min(self.text.len());
        while !self.text.is_char_boundary(byte) {
            byte -= 1;
        }
        let line_idx = match self.line_starts.binary_search(&byte) {
            Ok(i) => i,
            Err(i) => i - 1,
        };
        let line_start = self.line_starts[line_idx];
        let column = self.text[line_start..byte].chars().count() + 1;
        Pos::at(line_idx + 1, column, byte)
    }

    /// The range between two byte offsets.
    pub fn range(&self, start: usize, end: usize) -> Range {
        Range::new(self.name.clone(), self.pos(start), self.pos(end.max(start)))
    }

    /// The text of 1-based line `line`, without its line terminator.
    pub fn line(&self, line: usize) -> Option<&str> {
        let start = *self.line_starts.get(line.checked_sub(1)?)?;
        let end = self
            .line_starts
            .get(line)
            .copied()
            .unwrap_or(self.text.len());
        let s = &self.text[start..end];
        let s = s.strip_suffix('\n').unwrap_or(s);
        Some(s.strip_suffix('\r').unwrap_or(s))
    }

    /// Byte offset where 1-based line `line` starts.
    pub fn line_start(&self, line: usize) -> Option<usize> {
        self.line_starts.get(line.checked_sub(1)?).copied()
    }

    pub fn line_count(&self) -> usize {
        self.line_starts.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_count_lines_and_characters() {
        let f = SourceFile::new("main.tf", "a = 1\nbé = \"x\"\n");
        assert_eq!(f.pos(0), Pos::START);
        assert_eq!(
            f.pos(6),
            Pos {
                line: 2,
                column: 1,
                byte: 6
            }
        );
        // 'é' is two bytes but one column.
        assert_eq!(f.pos(9).column, 3);
        assert_eq!(f.line(2), Some("bé = \"x\""));
        assert_eq!(f.range(0, 5).to_string(), "main.tf:1,1-6");
    }
}
