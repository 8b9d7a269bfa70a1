//! `tofu-rs console`: evaluates expressions read from stdin in the root
//! module's scope and prints each result as `tofu console` does
//! (`internal/command/console.go`, `internal/repl/session.go`).
//!
//! Input is read as OpenTofu reads a pipe: line by line, a line ending in
//! `\` or leaving brackets open continues on the next one, and the first
//! error ends the run with status 1. One difference: a command still open
//! at the end of the input is evaluated (OpenTofu drops it silently), so
//! that `[1,` fails as it does in Terraform.

use std::io::BufRead;
use std::path::Path;

use cty::{Mark, Type, Value};
use lang::functions::typeconv::TYPE_TYPE_MARK;
use tfdiags::{Diagnostic, Diagnostics, SourceMap};

use crate::flags::{options, VarFlags};
use crate::loader::{load_config_from_root, load_root_module, root_static_call_from};
use crate::root_eval::function_table;
use crate::variables::{self, Unset};
use crate::view::{Streams, View};

const HELP: &str = "The OpenTofu console allows you to experiment with OpenTofu interpolations.
You may access resources in the state (if you have one) just as you would
from a configuration. For example: \"aws_instance.foo.id\" would evaluate
to the ID of \"aws_instance.foo\" if it exists in your state.

Type in the interpolation to test and hit <enter> to see the result.

To exit the console, type \"exit\" and hit <enter>, or use Control-C or
Control-D.";

options! {
    /// `tofu-rs console`'s flags.
    pub struct ConsoleOptions {
        /// `-var` and `-var-file`, in order.
        vars: VarFlags => ["var", "var-file"],
        /// `-state`: accepted for drop-in use; there is no state.
        state: Option<String> => ["state"],
        /// `-scope`: accepted for drop-in use.
        scope: Option<String> => ["scope"],
        /// `-no-color`.
        no_color: bool => ["no-color"],
        /// `-compact-warnings`: accepted for drop-in use.
        compact_warnings: bool => ["compact-warnings"],
        /// `-consolidate-warnings`: accepted for drop-in use.
        consolidate_warnings: bool => ["consolidate-warnings"],
        /// `-consolidate-errors`: accepted for drop-in use.
        consolidate_errors: bool => ["consolidate-errors"],
    }
}

/// Runs the console on the process's stdin.
pub fn run(args: &[String], streams: &mut Streams) -> i32 {
    let stdin = std::io::stdin();
    run_with_input(args, &mut stdin.lock(), streams)
}

/// Runs the console reading expressions from `input`.
pub fn run_with_input(args: &[String], input: &mut dyn BufRead, streams: &mut Streams) -> i32 {
    let opts = match ConsoleOptions::parse(args) {
        Ok(o) => o,
        Err(e) => {
            streams.eprint(&format!("Error parsing command line flags: {e}\n\n"));
            return 1;
        }
    };
    let view = View::new(opts.no_color);
    let dir = opts.args.first().map(String::as_str).unwrap_or(".");

    let (module, mut diags, mut sources) = load_root_module(Path::new(dir));
    let Some(module) = module.filter(|_| !diags.has_errors()) else {
        show(&view, streams, &diags, &sources);
        return 1;
    };

    let (vars, var_diags) = variables::collect(
        &module,
        opts.vars.as_slice(),
        Path::new("."),
        Unset::Unknown,
    );
    for f in &vars.files {
        sources.insert(f.clone());
    }
    diags.append(var_diags);
    if diags.has_errors() {
        show(&view, streams, &diags, &sources);
        return 1;
    }

    // The whole tree (installed modules included), evaluated as a plan
    // would be: module outputs and resource arguments known before apply
    // are known here; what cannot be known stays unknown.
    let root_call = root_static_call_from(&vars, false);
    let loaded = load_config_from_root(module, &root_call);
    diags.append(loaded.diags);
    for f in loaded.sources.iter() {
        sources.insert(f.clone());
    }
    let Some(config) = loaded.config.filter(|_| !diags.has_errors()) else {
        show(&view, streams, &diags, &sources);
        return 1;
    };
    let evaluation = tofu::Evaluation::new(&config, vars.values, function_table(true));
    diags.append(evaluation.diags.clone());
    show(&view, streams, &diags, &sources);
    if diags.has_errors() {
        return 1;
    }
    let data = evaluation.root_data();
    let scope = data.scope();

    let mut state = BracketState::default();
    let mut line = String::new();
    loop {
        line.clear();
        match input.read_line(&mut line) {
            Ok(0) => break,
            Ok(_) => {}
            Err(_) => break,
        }
        let (command, open) = state.update(line.trim());
        if open > 0 {
            continue;
        }
        match handle(&scope, &command, streams) {
            Outcome::Continue => {}
            Outcome::Exit => return 0,
            Outcome::Failed(d) => {
                show(&view, streams, &d, &sources);
                return 1;
            }
        }
    }
    let pending = state.take();
    if !pending.is_empty() {
        if let Outcome::Failed(d) = handle(&scope, &pending, streams) {
            show(&view, streams, &d, &sources);
            return 1;
        }
    }
    0
}

/// The console shows every diagnostic on stderr (OpenTofu's `Ui.Error` and
/// `Ui.Warn` both write there).
fn show(view: &View, streams: &mut Streams, diags: &Diagnostics, sources: &SourceMap) {
    for msg in view.messages(diags, sources, None) {
        streams.eprint(&msg.text);
    }
}

enum Outcome {
    Continue,
    Exit,
    Failed(Diagnostics),
}

/// `Session.Handle`: one command.
fn handle(scope: &lang::Scope<'_>, line: &str, streams: &mut Streams) -> Outcome {
    match line.trim() {
        "" => {
            streams.print("\n");
            Outcome::Continue
        }
        "exit" => Outcome::Exit,
        "help" => {
            streams.print(&format!("{HELP}\n"));
            Outcome::Continue
        }
        text => match evaluate(scope, text) {
            Ok(out) => {
                streams.print(&format!("{out}\n"));
                Outcome::Continue
            }
            Err(d) => Outcome::Failed(d),
        },
    }
}

/// `Session.handleEval`: the console rendering of one expression's value.
pub fn evaluate(scope: &lang::Scope<'_>, text: &str) -> Result<String, Diagnostics> {
    let (expr, parse_diags) =
        hclsyntax::native::parse_expression(text, "<console-input>", hclsyntax::Pos::START);
    if hclsyntax::has_errors(&parse_diags) {
        return Err(parse_diags.into());
    }
    let (val, diags) = scope.eval_expr(&expr, &Type::Dynamic);
    if hclsyntax::has_errors(&diags) {
        return Err(diags.into());
    }
    let type_mark = Mark::Custom(TYPE_TYPE_MARK.into());
    if contains_mark(&val, &type_mark) {
        let (plain, _) = val.unmark_deep();
        return match (val.has_mark(&type_mark), plain.as_str()) {
            (true, Some(s)) => Ok(s.to_string()),
            _ => Err(Diagnostic::error_sourceless(
                "Invalid use of type function",
                "The console-only \"type\" function cannot be used as part of an expression.",
            )
            .into()),
        };
    }
    Ok(cty::format::console_format(&val))
}

/// Whether `m` marks `v` or anything inside it.
fn contains_mark(v: &Value, m: &Mark) -> bool {
    if v.has_mark(m) {
        return true;
    }
    if !v.contains_marked() {
        return false;
    }
    let (_, paths) = v.unmark_deep_with_paths();
    paths.iter().any(|p| p.marks.contains(m))
}

/// `consoleBracketState`: whether the lines so far leave brackets open or
/// end in a line continuation.
#[derive(Default)]
struct BracketState {
    open_new_line: i64,
    brace: i64,
    bracket: i64,
    paren: i64,
    buffer: Vec<String>,
}

impl BracketState {
    fn open_state(&self) -> i64 {
        if self.brace < 0 || self.bracket < 0 || self.paren < 0 {
            return -1;
        }
        self.open_new_line + self.brace + self.bracket + self.paren
    }

    /// Adds a (trimmed) line; returns the command so far and how open it
    /// is (`<= 0`: ready to run, and the buffer is cleared).
    fn update(&mut self, line: &str) -> (String, i64) {
        self.open_new_line = 0;
        if line.ends_with('\\') && !line.ends_with("\\\\") {
            self.open_new_line = 1;
        }
        let line = line.strip_suffix('\\').unwrap_or(line);
        if !line.is_empty() {
            self.buffer.push(line.to_string());
            let (brace, bracket, paren) = count_brackets(line);
            self.brace += brace;
            self.bracket += bracket;
            self.paren += paren;
        }
        let command = self.buffer.join("\n");
        let open = self.open_state();
        if open <= 0 {
            *self = BracketState::default();
        }
        (command, open)
    }

    /// The unfinished command, if any.
    fn take(&mut self) -> String {
        std::mem::take(self).buffer.join("\n")
    }
}

/// The net count of `{`, `[` and `(` tokens on one line, as HCL's lexer
/// sees them: not inside string literals or comments, and not counting the
/// braces that open and close template interpolations.
fn count_brackets(line: &str) -> (i64, i64, i64) {
    #[derive(Clone, Copy)]
    enum Mode {
        Str,
        Interp(i64),
    }
    let (mut brace, mut bracket, mut paren) = (0, 0, 0);
    let mut stack: Vec<Mode> = Vec::new();
    let chars: Vec<char> = line.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        if let Some(Mode::Str) = stack.last() {
            match (c, next) {
                ('\\', _) => i += 1,
                ('"', _) => {
                    stack.pop();
                }
                ('$' | '%', Some(n)) if n == c && chars.get(i + 2) == Some(&'{') => i += 2,
                ('$' | '%', Some('{')) => {
                    stack.push(Mode::Interp(0));
                    i += 1;
                }
                _ => {}
            }
            i += 1;
            continue;
        }
        match (c, next) {
            ('"', _) => stack.push(Mode::Str),
            ('#', _) | ('/', Some('/')) => break,
            ('/', Some('*')) => {
                i += 2;
                while i < chars.len() && !(chars[i] == '*' && chars.get(i + 1) == Some(&'/')) {
                    i += 1;
                }
                i += 1;
            }
            ('{', _) => {
                brace += 1;
                if let Some(Mode::Interp(d)) = stack.last_mut() {
                    *d += 1;
                }
            }
            ('}', _) => match stack.last_mut() {
                Some(Mode::Interp(0)) => {
                    stack.pop();
                }
                Some(Mode::Interp(d)) => {
                    *d -= 1;
                    brace -= 1;
                }
                _ => brace -= 1,
            },
            ('[', _) => bracket += 1,
            (']', _) => bracket -= 1,
            ('(', _) => paren += 1,
            (')', _) => paren -= 1,
            _ => {}
        }
        i += 1;
    }
    (brace, bracket, paren)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn brackets_outside_strings_and_interpolations() {
        assert_eq!(count_brackets("[1, 2]"), (0, 0, 0));
        assert_eq!(count_brackets("{a = [1,"), (1, 1, 0));
        assert_eq!(count_brackets("\"${[1][0]} {[(\""), (0, 0, 0));
        assert_eq!(count_brackets("\"${ {a=1}.a }\" ("), (0, 0, 1));
        assert_eq!(count_brackets("\"$${\" ["), (0, 1, 0));
        assert_eq!(count_brackets("f( # )"), (0, 0, 1));
    }

    #[test]
    fn commands_continue_while_open() {
        let mut s = BracketState::default();
        assert_eq!(s.update("merge({a = 1},"), ("merge({a = 1},".into(), 1));
        assert_eq!(s.update("{b = 2})"), ("merge({a = 1},\n{b = 2})".into(), 0));
        assert_eq!(s.update("1 + \\"), ("1 + ".into(), 1));
        assert_eq!(s.update("2"), ("1 + \n2".into(), 0));
        assert_eq!(s.update(")"), (")".into(), -1));
        assert!(s.take().is_empty());
    }
}
