//! Command-line flags as Go's `flag` package reads them, which is what
//! OpenTofu users type: one or two dashes, `-name=value` or `-name value`,
//! bool flags as `-name` or `-name=false`, parsing stops at the first
//! non-flag argument or `--`.
//!
//! (clap models GNU-style `--long` options; matching Go's rules exactly,
//! e.g. `-var 'k=v'` and `-backend=false`, is simpler with this small
//! reader than with clap's escape hatches.)

/// How a flag takes its value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FlagKind {
    /// `-name` (true) or `-name=true|false`.
    Bool,
    /// `-name=value` or `-name value`; may repeat, every value is kept.
    Value,
}

/// A flag a command accepts.
#[derive(Debug, Clone, Copy)]
pub struct FlagSpec {
    pub name: &'static str,
    pub kind: FlagKind,
}

pub const fn bool_flag(name: &'static str) -> FlagSpec {
    FlagSpec {
        name,
        kind: FlagKind::Bool,
    }
}

pub const fn value_flag(name: &'static str) -> FlagSpec {
    FlagSpec {
        name,
        kind: FlagKind::Value,
    }
}

/// The flags given, in command-line order, and the arguments after them.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Parsed {
    pub flags: Vec<(&'static str, String)>,
    pub args: Vec<String>,
}

impl Parsed {
    /// The last value of a flag.
    pub fn last(&self, name: &str) -> Option<&str> {
        self.flags
            .iter()
            .rev()
            .find(|(n, _)| *n == name)
            .map(|(_, v)| v.as_str())
    }

    /// Every value of a flag, in order.
    pub fn all(&self, name: &str) -> Vec<&str> {
        self.flags
            .iter()
            .filter(|(n, _)| *n == name)
            .map(|(_, v)| v.as_str())
            .collect()
    }

    /// A bool flag's value (`default` when absent).
    pub fn bool(&self, name: &str, default: bool) -> bool {
        match self.last(name) {
            Some(v) => v == "true",
            None => default,
        }
    }
}

/// Parses `args` against `specs`. Errors are Go's messages (`flag provided
/// but not defined: -x`).
pub fn parse(args: &[String], specs: &[FlagSpec]) -> Result<Parsed, String> {
    let mut parsed = Parsed::default();
    let mut i = 0;
    while i < args.len() {
        let arg = &args[i];
        if arg == "--" {
            parsed.args.extend(args[i + 1..].iter().cloned());
            return Ok(parsed);
        }
        let Some(body) = arg
            .strip_prefix("--")
            .or_else(|| arg.strip_prefix('-'))
            .filter(|b| !b.is_empty() && arg.len() > 1)
        else {
            parsed.args.extend(args[i..].iter().cloned());
            return Ok(parsed);
        };
        if body.starts_with('-') || body.starts_with('=') {
            return Err(format!("bad flag syntax: {arg}"));
        }
        let (name, inline_value) = match body.split_once('=') {
            Some((n, v)) => (n, Some(v.to_string())),
            None => (body, None),
        };
        let Some(spec) = specs.iter().find(|s| s.name == name) else {
            return Err(format!("flag provided but not defined: -{name}"));
        };
        let value = match (spec.kind, inline_value) {
            (FlagKind::Bool, None) => "true".to_string(),
            (FlagKind::Bool, Some(v)) => match parse_go_bool(&v) {
                Some(b) => b.to_string(),
                None => {
                    return Err(format!(
                        "invalid boolean value {v:?} for -{name}: parse error"
                    ))
                }
            },
            (FlagKind::Value, Some(v)) => v,
            (FlagKind::Value, None) => {
                i += 1;
                match args.get(i) {
                    Some(v) => v.clone(),
                    None => return Err(format!("flag needs an argument: -{name}")),
                }
            }
        };
        parsed.flags.push((spec.name, value));
        i += 1;
    }
    Ok(parsed)
}

/// Go's `strconv.ParseBool`.
fn parse_go_bool(s: &str) -> Option<bool> {
    match s {
        "1" | "t" | "T" | "TRUE" | "true" | "True" => Some(true),
        "0" | "f" | "F" | "FALSE" | "false" | "False" => Some(false),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn argv(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    const SPECS: &[FlagSpec] = &[
        bool_flag("json"),
        bool_flag("backend"),
        value_flag("var"),
        value_flag("var-file"),
    ];

    #[test]
    fn go_flag_forms() {
        let p = parse(
            &argv(&[
                "-json",
                "--var",
                "a=1",
                "-var-file=x.tfvars",
                "-backend=false",
                "-var=b=2",
                "dir",
                "-json",
            ]),
            SPECS,
        )
        .unwrap();
        assert!(p.bool("json", false));
        assert!(!p.bool("backend", true));
        assert_eq!(p.all("var"), vec!["a=1", "b=2"]);
        assert_eq!(
            p.flags.iter().map(|(n, _)| *n).collect::<Vec<_>>(),
            vec!["json", "var", "var-file", "backend", "var"]
        );
        // Parsing stops at the first argument.
        assert_eq!(p.args, argv(&["dir", "-json"]));
    }

    #[test]
    fn errors_as_go_prints_them() {
        assert_eq!(
            parse(&argv(&["-nope"]), SPECS).unwrap_err(),
            "flag provided but not defined: -nope"
        );
        assert_eq!(
            parse(&argv(&["-var"]), SPECS).unwrap_err(),
            "flag needs an argument: -var"
        );
        assert!(parse(&argv(&["-backend=maybe"]), SPECS).is_err());
    }
}
