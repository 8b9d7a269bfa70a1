//! The "UI-flavoured" form of a diagnostic both renderers start from
//! (`jsonentities.NewDiagnostic`): the highlight range, and a snippet of the
//! source lines around it.

use serde::Serialize;

use hclsyntax::{Pos, Range};

use crate::context::context_string;
use crate::diagnostic::{Diagnostic, ExpressionValue, FunctionParam, Severity};
use crate::sources::SourceMap;

/// A diagnostic as `validate -json` and the other JSON views show it. Field
/// order is the JSON field order.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct DiagnosticEntity {
    /// `error` or `warning`.
    pub severity: &'static str,
    pub summary: String,
    pub detail: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub address: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub range: Option<RangeEntity>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub snippet: Option<SnippetEntity>,
}

/// A source range; an empty subject is widened to one byte.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RangeEntity {
    pub filename: String,
    pub start: PosEntity,
    pub end: PosEntity,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct PosEntity {
    pub line: usize,
    pub column: usize,
    pub byte: usize,
}

/// The source lines a diagnostic is about.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SnippetEntity {
    /// The header of the enclosing top-level block, if any.
    pub context: Option<String>,
    /// Every source line overlapping the snippet range, joined by `\n`.
    pub code: String,
    pub start_line: usize,
    /// Byte offset into `code` where the highlight starts.
    pub highlight_start_offset: usize,
    /// Byte offset into `code` where the highlight ends.
    pub highlight_end_offset: usize,
    /// Sorted by traversal.
    pub values: Vec<ValueEntity>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub function_call: Option<FunctionCallEntity>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ValueEntity {
    pub traversal: String,
    pub statement: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FunctionCallEntity {
    pub called_as: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub signature: Option<FunctionEntity>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FunctionEntity {
    pub name: String,
    pub params: Vec<FunctionParamEntity>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub variadic_param: Option<FunctionParamEntity>,
    pub return_type: serde_json::Value,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FunctionParamEntity {
    pub name: String,
    #[serde(rename = "type")]
    pub type_json: serde_json::Value,
}

impl From<&FunctionParam> for FunctionParamEntity {
    fn from(p: &FunctionParam) -> Self {
        FunctionParamEntity {
            name: p.name.clone(),
            type_json: p.type_json.clone(),
        }
    }
}

impl From<Pos> for PosEntity {
    fn from(p: Pos) -> Self {
        PosEntity {
            line: p.line as usize,
            column: p.column as usize,
            byte: p.offset(),
        }
    }
}

impl DiagnosticEntity {
    /// Builds the entity, quoting code from `sources` when the subject's file
    /// is there.
    pub fn new(diag: &Diagnostic, sources: &SourceMap) -> DiagnosticEntity {
        let ranges = prepare_ranges(diag.subject.as_ref(), diag.context.as_ref());
        let snippet = ranges
            .as_ref()
            .and_then(|(highlight, snippet)| build_snippet(snippet, highlight, sources))
            .map(|mut s| {
                s.values = sorted_values(&diag.extra.values);
                s.function_call = diag
                    .extra
                    .function_call
                    .as_ref()
                    .map(|c| FunctionCallEntity {
                        called_as: c.called_as.clone(),
                        signature: c.signature.as_ref().map(|sig| FunctionEntity {
                            name: sig.name.clone(),
                            params: sig.params.iter().map(Into::into).collect(),
                            variadic_param: sig.variadic_param.as_ref().map(Into::into),
                            return_type: sig.return_type.clone(),
                        }),
                    });
                s
            });
        DiagnosticEntity {
            severity: match diag.severity {
                Severity::Error => "error",
                Severity::Warning => "warning",
            },
            summary: diag.summary.clone(),
            detail: diag.detail.clone(),
            address: diag.address.clone().filter(|a| !a.is_empty()),
            range: ranges.map(|(h, _)| RangeEntity {
                filename: h.filename.to_string(),
                start: h.start.into(),
                end: h.end.into(),
            }),
            snippet,
        }
    }
}

fn sorted_values(values: &[ExpressionValue]) -> Vec<ValueEntity> {
    let mut v: Vec<ValueEntity> = values
        .iter()
        .map(|v| ValueEntity {
            traversal: v.traversal.clone(),
            statement: v.statement.clone(),
        })
        .collect();
    v.sort_by(|a, b| a.traversal.cmp(&b.traversal));
    v
}

/// `prepareDiagnosticRanges`: the highlight range (the subject, widened to
/// one byte when empty) and the snippet range (the context, or the subject,
/// stretched over the highlight).
pub fn prepare_ranges(subject: Option<&Range>, context: Option<&Range>) -> Option<(Range, Range)> {
    let mut highlight = subject?.clone();
    if highlight.end == Pos::default() {
        highlight.end = highlight.start;
    }
    let snippet = context.cloned().unwrap_or_else(|| highlight.clone());
    let mut snippet = range_over(&snippet, &highlight);
    widen_if_empty(&mut highlight);
    widen_if_empty(&mut snippet);
    Some((highlight, snippet))
}

fn widen_if_empty(r: &mut Range) {
    if r.is_empty() {
        r.end.byte += 1;
        r.end.column += 1;
    }
}

/// `hcl.RangeOver`: the smallest range covering both (an empty one yields
/// the other).
fn range_over(a: &Range, b: &Range) -> Range {
    if a.is_empty() {
        return b.clone();
    }
    if b.is_empty() {
        return a.clone();
    }
    let start = if a.start.byte < b.start.byte {
        a.start
    } else {
        b.start
    };
    let end = if a.end.byte > b.end.byte {
        a.end
    } else {
        b.end
    };
    Range::new(a.filename.clone(), start, end)
}

/// Half-open byte span helpers with `hcl.Range` semantics.
#[derive(Clone, Copy)]
struct Span {
    start: usize,
    end: usize,
}

impl Span {
    fn is_empty(self) -> bool {
        self.start == self.end
    }

    fn contains_offset(self, offset: usize) -> bool {
        offset >= self.start && offset < self.end
    }

    /// `hcl.Range.Overlaps`: an empty range overlaps nothing (so blank
    /// lines never make it into a snippet), and touching counts when the
    /// other's end offset falls inside.
    fn overlaps(self, other: Span) -> bool {
        if self.is_empty() || other.is_empty() {
            return false;
        }
        self.contains_offset(other.start)
            || self.contains_offset(other.end)
            || other.contains_offset(self.start)
            || other.contains_offset(self.end)
    }
}

/// The lines of `src` as `bufio.ScanLines` yields them: spans without the
/// line terminator (`\n`, and a `\r` before it).
fn scan_lines(src: &[u8]) -> Vec<Span> {
    let mut lines = Vec::new();
    let mut start = 0;
    while start < src.len() {
        let (end, next) = match src[start..].iter().position(|&b| b == b'\n') {
            Some(i) => (start + i, start + i + 1),
            None => (src.len(), src.len()),
        };
        let end = if end > start && src[end - 1] == b'\r' {
            end - 1
        } else {
            end
        };
        lines.push(Span { start, end });
        start = next;
    }
    lines
}

/// `newDiagnosticSnippet`.
fn build_snippet(snippet: &Range, highlight: &Range, sources: &SourceMap) -> Option<SnippetEntity> {
    let file = sources.get(&snippet.filename)?;
    let text = file.text();
    let src = text.as_bytes();
    let context = context_string(&snippet.filename, text, highlight.start.byte as isize - 1);

    let want = Span {
        start: snippet.start.offset(),
        end: snippet.end.offset(),
    };
    let mut code: Vec<u8> = Vec::new();
    let mut code_start: Option<usize> = None;
    for line in scan_lines(src) {
        if line.overlaps(want) {
            code_start.get_or_insert(line.start);
            code.extend_from_slice(&src[line.start..line.end]);
            code.push(b'\n');
        }
    }
    if code.last() == Some(&b'\n') {
        code.pop();
    }
    let code_start = code_start.unwrap_or(0) as isize;
    let start = highlight.start.byte as isize - code_start;
    let end = start + (highlight.end.byte as isize - highlight.start.byte as isize);
    let clamp = |v: isize| v.clamp(0, code.len() as isize) as usize;
    Some(SnippetEntity {
        context,
        code: String::from_utf8_lossy(&code).into_owned(),
        start_line: snippet.start.line as usize,
        highlight_start_offset: clamp(start),
        highlight_end_offset: clamp(end),
        values: Vec::new(),
        function_call: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entity(text: &str, start: usize, end: usize) -> DiagnosticEntity {
        let mut sources = SourceMap::new();
        let f = sources.add("main.tf", text);
        let d = Diagnostic::error("S", "D", f.range(start, end));
        DiagnosticEntity::new(&d, &sources)
    }

    #[test]
    fn empty_subject_is_widened() {
        let e = entity("a = 1\nb = 2\n", 6, 6);
        let r = e.range.unwrap();
        assert_eq!((r.start.byte, r.end.byte), (6, 7));
        assert_eq!((r.start.column, r.end.column), (1, 2));
        let s = e.snippet.unwrap();
        assert_eq!(s.code, "b = 2");
        assert_eq!((s.highlight_start_offset, s.highlight_end_offset), (0, 1));
    }

    #[test]
    fn empty_subject_at_end_of_file_shows_last_line() {
        let e = entity("a = 1\nb = 2", 11, 11);
        let s = e.snippet.unwrap();
        assert_eq!(s.code, "b = 2");
        assert_eq!(s.start_line, 2);
        assert_eq!((s.highlight_start_offset, s.highlight_end_offset), (5, 5));
    }

    #[test]
    fn multi_line_subject_takes_every_line() {
        let text = "x = [\n  1,\n  2,\n]\ny = 1\n";
        let e = entity(text, 4, 17);
        let s = e.snippet.unwrap();
        assert_eq!(s.code, "x = [\n  1,\n  2,\n]");
        assert_eq!((s.highlight_start_offset, s.highlight_end_offset), (4, 17));
        assert_eq!(s.context, None);
    }

    #[test]
    fn blank_lines_are_left_out_of_multi_line_code() {
        let e = entity("x = [\n\n  1,\n]\n", 4, 13);
        assert_eq!(e.snippet.unwrap().code, "x = [\n  1,\n]");
    }

    #[test]
    fn range_ending_on_a_newline_takes_the_next_line_too() {
        // As in HCL: the next line contains the snippet's end offset.
        let e = entity("a = 1\n}\n", 5, 5);
        assert_eq!(e.snippet.unwrap().code, "a = 1\n}");
    }

    #[test]
    fn crlf_lines_drop_the_carriage_return() {
        let e = entity("a = 1\r\nb = 2\r\n", 7, 8);
        assert_eq!(e.snippet.unwrap().code, "b = 2");
    }

    #[test]
    fn context_range_widens_the_snippet() {
        let mut sources = SourceMap::new();
        let f = sources.add("main.tf", "locals {\n  a = (1 +\n    x)\n}\n");
        let d = Diagnostic::error("S", "D", f.range(24, 25)).with_context(f.range(15, 26));
        let e = DiagnosticEntity::new(&d, &sources);
        let s = e.snippet.unwrap();
        assert_eq!(s.code, "  a = (1 +\n    x)");
        assert_eq!(s.start_line, 2);
        assert_eq!(s.context.as_deref(), Some("locals"));
        assert_eq!(
            &s.code[s.highlight_start_offset..s.highlight_end_offset],
            "x"
        );
        assert_eq!(e.range.unwrap().start.line, 3);
    }

    #[test]
    fn unknown_file_has_range_but_no_snippet() {
        let f = hclsyntax::SourceFile::new("gone.tf", "abc");
        let d = Diagnostic::error("S", "D", f.range(0, 1));
        let e = DiagnosticEntity::new(&d, &SourceMap::new());
        assert!(e.range.is_some());
        assert!(e.snippet.is_none());
    }
}
