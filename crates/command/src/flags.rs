//! Command-line flags as Go's `flag` package reads them, which is what
//! OpenTofu users type: one or two dashes, `-name=value` or `-name value`,
//! bool flags as `-name` or `-name=false`, parsing stops at the first
//! non-flag argument or `--`.
//!
//! (clap models GNU-style `--long` options; matching Go's rules exactly,
//! e.g. `-var 'k=v'` and `-backend=false`, is simpler with this small
//! reader than with clap's escape hatches.)
//!
//! A command declares its flags once, as a struct, with [`options!`]
//! (OpenTofu's per-command structs in `internal/command/arguments`): each
//! field names the flags that set it, and its type says how (a bool flag,
//! the last value, every value, `-var` and `-var-file` in order). The
//! reader's table of flags is generated from the same declaration, so the
//! flags accepted and the fields read cannot drift, and a misspelled
//! option is a field that does not exist: a compile error, not a silent
//! default.

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

/// A command's options: the flags it accepts and the struct they fill.
/// Implemented by [`options!`], which generates both from one
/// declaration.
pub trait Options: Default {
    /// Every flag the command accepts.
    const FLAGS: &'static [FlagSpec];
    /// Records one occurrence of the flag `name` (one of [`Self::FLAGS`]).
    fn set(&mut self, name: &'static str, value: String);
    /// Records the arguments after the flags.
    fn set_args(&mut self, args: Vec<String>);
}

/// How a field of an [`Options`] struct takes its flags' values: its
/// flags' kind, and what a later occurrence does to an earlier one.
pub trait FlagField {
    const KIND: FlagKind;
    /// Records one occurrence of `flag`. A bool flag's value is `"true"`
    /// or `"false"` (the reader has checked it).
    fn set(&mut self, flag: &'static str, value: String);
}

/// A bool flag; the last occurrence wins.
impl FlagField for bool {
    const KIND: FlagKind = FlagKind::Bool;
    fn set(&mut self, _flag: &'static str, value: String) {
        *self = value == "true";
    }
}

/// A bool flag whose absence matters (`None`); the last occurrence wins.
impl FlagField for Option<bool> {
    const KIND: FlagKind = FlagKind::Bool;
    fn set(&mut self, _flag: &'static str, value: String) {
        *self = Some(value == "true");
    }
}

/// A value flag with a default; the last occurrence wins.
impl FlagField for String {
    const KIND: FlagKind = FlagKind::Value;
    fn set(&mut self, _flag: &'static str, value: String) {
        *self = value;
    }
}

/// A value flag whose absence matters (`None`); the last occurrence wins.
impl FlagField for Option<String> {
    const KIND: FlagKind = FlagKind::Value;
    fn set(&mut self, _flag: &'static str, value: String) {
        *self = Some(value);
    }
}

/// A repeated value flag: every value, in order.
impl FlagField for Vec<String> {
    const KIND: FlagKind = FlagKind::Value;
    fn set(&mut self, _flag: &'static str, value: String) {
        self.push(value);
    }
}

/// `-var` and `-var-file` in command-line order, as
/// [`crate::variables::collect`] takes them: `("var", "k=v")` and
/// `("var-file", "F")`. Their order matters: a later value of a variable
/// overrides an earlier one, whichever flag gave it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct VarFlags(Vec<(&'static str, String)>);

impl VarFlags {
    /// The flags, in order.
    pub fn as_slice(&self) -> &[(&'static str, String)] {
        &self.0
    }
}

/// A field set by several flags keeps each value with its flag's name.
impl FlagField for VarFlags {
    const KIND: FlagKind = FlagKind::Value;
    fn set(&mut self, flag: &'static str, value: String) {
        self.0.push((flag, value));
    }
}

/// Declares a command's options struct and the flags that fill it:
///
/// ```ignore
/// options! {
///     /// `tofu-rs example`'s flags.
///     pub struct ExampleOptions {
///         /// `-input` (true when absent).
///         input: bool = true => ["input"],
///         /// `-var` and `-var-file`, in order.
///         vars: VarFlags => ["var", "var-file"],
///     }
/// }
/// let opts = ExampleOptions::parse(&args)?; // opts.input, opts.vars, opts.args
/// ```
///
/// Each field is public, with its default (`Default::default()` unless
/// `= expr` is given) and the names of the flags that set it; its type's
/// [`FlagField`] gives the flags' kind. The struct gets `args` (what
/// follows the flags) and `parse`.
macro_rules! options {
    (
        $(#[$meta:meta])*
        $vis:vis struct $name:ident {
            $(
                $(#[$field_meta:meta])*
                $field:ident : $ty:ty $(= $default:expr)? => [$($flag:literal),+ $(,)?]
            ),* $(,)?
        }
    ) => {
        $(#[$meta])*
        #[derive(Debug, Clone, PartialEq, Eq)]
        $vis struct $name {
            $( $(#[$field_meta])* pub $field: $ty, )*
            /// The arguments after the flags.
            pub args: Vec<String>,
        }

        impl Default for $name {
            fn default() -> Self {
                Self {
                    $( $field: $crate::flags::options!(@default $($default)?), )*
                    args: Vec::new(),
                }
            }
        }

        impl $crate::flags::Options for $name {
            const FLAGS: &'static [$crate::flags::FlagSpec] = &[
                $($(
                    $crate::flags::FlagSpec {
                        name: $flag,
                        kind: <$ty as $crate::flags::FlagField>::KIND,
                    },
                )+)*
            ];

            fn set(&mut self, name: &'static str, value: String) {
                match name {
                    $( $($flag)|+ => $crate::flags::FlagField::set(&mut self.$field, name, value), )*
                    _ => unreachable!(
                        "the flag reader yields only the flags of {}::FLAGS, not -{name}",
                        stringify!($name)
                    ),
                }
            }

            fn set_args(&mut self, args: Vec<String>) {
                self.args = args;
            }
        }

        impl $name {
            /// Reads a command line (after the command's name). Errors are
            /// Go's messages (`flag provided but not defined: -x`).
            pub fn parse(args: &[String]) -> Result<Self, String> {
                $crate::flags::parse_options(args)
            }
        }
    };
    (@default) => { Default::default() };
    (@default $default:expr) => { $default };
}
pub(crate) use options;

/// Reads `args` into `T`: the flags in command-line order, then the
/// arguments after them.
pub fn parse_options<T: Options>(args: &[String]) -> Result<T, String> {
    let parsed = parse(args, T::FLAGS)?;
    let mut options = T::default();
    for (name, value) in parsed.flags {
        options.set(name, value);
    }
    options.set_args(parsed.args);
    Ok(options)
}

/// The flags given, in command-line order, and the arguments after them.
#[derive(Debug, Default)]
struct Parsed {
    flags: Vec<(&'static str, String)>,
    args: Vec<String>,
}

/// Parses `args` against `specs`. Errors are Go's messages (`flag provided
/// but not defined: -x`).
fn parse(args: &[String], specs: &[FlagSpec]) -> Result<Parsed, String> {
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

    options! {
        /// Options of every field type.
        struct TestOptions {
            json: bool => ["json"],
            backend: bool = true => ["backend"],
            cloud: Option<bool> => ["cloud"],
            lockfile: Option<String> => ["lockfile"],
            test_directory: String = "tests".to_string() => ["test-directory"],
            plugin_dirs: Vec<String> => ["plugin-dir"],
            vars: VarFlags => ["var", "var-file"],
        }
    }

    #[test]
    fn defaults_when_absent() {
        let o = TestOptions::parse(&[]).unwrap();
        assert!(!o.json);
        assert!(o.backend);
        assert_eq!(o.cloud, None);
        assert_eq!(o.lockfile, None);
        assert_eq!(o.test_directory, "tests");
        assert!(o.plugin_dirs.is_empty());
        assert!(o.vars.as_slice().is_empty());
        assert!(o.args.is_empty());
        assert_eq!(o, TestOptions::default());
    }

    #[test]
    fn the_table_is_the_struct() {
        let flags: Vec<(&str, FlagKind)> = TestOptions::FLAGS
            .iter()
            .map(|f| (f.name, f.kind))
            .collect();
        assert_eq!(
            flags,
            vec![
                ("json", FlagKind::Bool),
                ("backend", FlagKind::Bool),
                ("cloud", FlagKind::Bool),
                ("lockfile", FlagKind::Value),
                ("test-directory", FlagKind::Value),
                ("plugin-dir", FlagKind::Value),
                ("var", FlagKind::Value),
                ("var-file", FlagKind::Value),
            ]
        );
    }

    #[test]
    fn go_flag_forms() {
        let o = TestOptions::parse(&argv(&[
            "-json",
            "--var",
            "a=1",
            "-var-file=x.tfvars",
            "-backend=false",
            "-cloud=T",
            "-plugin-dir",
            "p1",
            "--plugin-dir=p2",
            "-lockfile=readonly",
            "-test-directory=",
            "-var=b=2",
            "dir",
            "-json",
        ]))
        .unwrap();
        assert!(o.json);
        assert!(!o.backend);
        assert_eq!(o.cloud, Some(true));
        assert_eq!(o.lockfile.as_deref(), Some("readonly"));
        assert_eq!(o.test_directory, "");
        // A repeated flag keeps every value in order.
        assert_eq!(o.plugin_dirs, argv(&["p1", "p2"]));
        // -var and -var-file keep their interleaving.
        assert_eq!(
            o.vars.as_slice(),
            &[
                ("var", "a=1".to_string()),
                ("var-file", "x.tfvars".to_string()),
                ("var", "b=2".to_string()),
            ]
        );
        // Parsing stops at the first argument.
        assert_eq!(o.args, argv(&["dir", "-json"]));
    }

    #[test]
    fn last_bool_wins_and_double_dash_ends_flags() {
        let o = TestOptions::parse(&argv(&["-json", "-json=0", "--", "-backend=false"])).unwrap();
        assert!(!o.json);
        assert!(o.backend);
        assert_eq!(o.args, argv(&["-backend=false"]));
        // A lone dash is an argument.
        let o = TestOptions::parse(&argv(&["-", "-json"])).unwrap();
        assert!(!o.json);
        assert_eq!(o.args, argv(&["-", "-json"]));
    }

    #[test]
    fn errors_as_go_prints_them() {
        let err = |list: &[&str]| TestOptions::parse(&argv(list)).unwrap_err();
        assert_eq!(err(&["-nope"]), "flag provided but not defined: -nope");
        assert_eq!(err(&["--nope=1"]), "flag provided but not defined: -nope");
        assert_eq!(err(&["-var"]), "flag needs an argument: -var");
        assert_eq!(
            err(&["-backend=maybe"]),
            "invalid boolean value \"maybe\" for -backend: parse error"
        );
        assert_eq!(err(&["---json"]), "bad flag syntax: ---json");
        assert_eq!(err(&["-=x"]), "bad flag syntax: -=x");
    }
}
