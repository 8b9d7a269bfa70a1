//! Writes one row's configuration and runs the tools on it: `validate
//! -json`, `plan-lite -json`, `console` and `graph` of tofu-rs, and
//! `terraform validate -json` where terraform can run offline.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use serde_json::Value;

use super::contexts::Context;
use super::objects::Object;

/// A diagnostic as compared: summary, detail and the range's line/columns
/// (`None` for a diagnostic without a range).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Diag {
    pub summary: String,
    pub detail: String,
    pub range: Option<Span>,
}

/// Start line/column and end line/column, 1-based as HCL counts them.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Span {
    pub line: u64,
    pub column: u64,
    pub end_line: u64,
    pub end_column: u64,
}

/// One generated configuration on disk.
pub struct Row {
    pub object: Object,
    pub context: Context,
    pub dir: tempfile::TempDir,
    /// Where `@REF@` was put: the reference's span as text (an address's
    /// span is the same text).
    pub reference: Span,
    /// The whole `main.tf`, for messages.
    pub source: String,
}

/// The child module every module call uses.
const CHILD: &str =
    "variable \"in\" {\n  default = null\n}\n\noutput \"o\" {\n  value = \"o\"\n}\n";

impl Row {
    pub fn write(object: Object, context: Context) -> Row {
        let text = format!("{}\n{}", context.template, object.declarations());
        let at = text.find("@REF@").expect("every template holds @REF@");
        let line = text[..at].matches('\n').count() as u64 + 1;
        let column = (at - text[..at].rfind('\n').map_or(0, |n| n + 1)) as u64 + 1;
        let source = text.replacen("@REF@", object.text, 1);
        let reference = Span {
            line,
            column,
            end_line: line,
            end_column: column + object.text.chars().count() as u64,
        };
        let dir = tempfile::TempDir::new().unwrap();
        std::fs::write(dir.path().join("main.tf"), &source).unwrap();
        if object.needs_child() || context.needs_child {
            let child = dir.path().join("child");
            std::fs::create_dir(&child).unwrap();
            std::fs::write(child.join("main.tf"), CHILD).unwrap();
            // The manifest `init` would write; both tools read it, and
            // writing it keeps init (and its provider installation) out.
            let modules = dir.path().join(".terraform/modules");
            std::fs::create_dir_all(&modules).unwrap();
            let mut entries = vec![r#"{"Key":"","Source":"","Dir":"."}"#.to_string()];
            for key in ["m", "mc", "mf", "m2"] {
                entries.push(format!(
                    r#"{{"Key":"{key}","Source":"./child","Dir":"child"}}"#
                ));
            }
            std::fs::write(
                modules.join("modules.json"),
                format!(r#"{{"Modules":[{}]}}"#, entries.join(",")),
            )
            .unwrap();
        }
        Row {
            object,
            context,
            dir,
            reference,
            source,
        }
    }

    pub fn name(&self) -> String {
        format!("{} in {}", self.object.text, self.context.name)
    }

    pub fn path(&self) -> &Path {
        self.dir.path()
    }

    /// Whether terraform can validate this row offline.
    pub fn builtin_only(&self) -> bool {
        self.object.builtin_only() && self.context.builtin_only
    }
}

/// Runs `program` in `dir` with a clean environment for the tools.
pub fn run(program: &Path, dir: &Path, args: &[&str], stdin: Option<&str>) -> Output {
    let mut cmd = Command::new(program);
    cmd.args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .env("CHECKPOINT_DISABLE", "1")
        .env("TF_CLI_CONFIG_FILE", "/dev/null")
        // The rows are about references, not schemas: their made-up
        // provider types (`x_thing`) have no plugin.
        .env("TOFU_RS_PROVIDER_SCHEMAS", "off");
    for (k, _) in std::env::vars_os() {
        if k.to_string_lossy().starts_with("TF_") && k != "TF_CLI_CONFIG_FILE" {
            cmd.env_remove(k);
        }
    }
    let Some(input) = stdin else {
        return cmd.stdin(Stdio::null()).output().unwrap();
    };
    let mut child = cmd
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    {
        use std::io::Write;
        let mut pipe = child.stdin.take().unwrap();
        // A console that stops before reading (a configuration that does
        // not load) closes the pipe; its exit status is what is checked.
        let _ = pipe.write_all(input.as_bytes());
    }
    child.wait_with_output().unwrap()
}

/// The error diagnostics of a `validate -json` document.
pub fn errors(doc: &Value) -> Vec<Diag> {
    doc["diagnostics"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|d| d["severity"] == "error")
        .map(|d| Diag {
            summary: d["summary"].as_str().unwrap_or_default().to_string(),
            detail: d["detail"].as_str().unwrap_or_default().to_string(),
            range: d.get("range").map(|r| Span {
                line: r["start"]["line"].as_u64().unwrap_or(0),
                column: r["start"]["column"].as_u64().unwrap_or(0),
                end_line: r["end"]["line"].as_u64().unwrap_or(0),
                end_column: r["end"]["column"].as_u64().unwrap_or(0),
            }),
        })
        .collect()
}

/// Neither panicked nor killed by a signal.
pub fn survived(out: &Output) -> Result<(), String> {
    let stderr = String::from_utf8_lossy(&out.stderr);
    if stderr.contains("panicked at") {
        return Err(format!("panicked:\n{stderr}"));
    }
    if out.status.code().is_none() {
        return Err(format!("died of a signal: {:?}", out.status));
    }
    Ok(())
}

pub fn ours() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_tofu-rs"))
}
