//! The top level: global flags (`-chdir`, `-version`, `-help`) and the
//! choice of command.

use crate::commands;
use crate::flags::options;
use crate::view::Streams;

const USAGE: &str = "Usage: tofu-rs [global options] <subcommand> [args]

The available commands for execution are listed below.

Main commands:
  init          Prepare your working directory for other commands
  validate      Check whether the configuration is valid
  plan-lite     Show the changes a plan would create, without providers
  console       Try OpenTofu expressions at an interactive command prompt

Other commands:
  affected      List the root modules a set of changed files touches
  graph         Generate a Graphviz graph of the steps in an operation
  inspect       Show a module's variables, outputs, resources and calls
  providers     Show the providers required for this configuration
  version       Show the current tofu-rs version

Global options (use these before the subcommand, if any):
  -chdir=DIR    Switch to a different working directory before executing the
                given subcommand.
  -help         Show this help output, or the help for a specified subcommand.
  -version      An alias for the \"version\" subcommand.
";

options! {
    /// The global options, before the subcommand.
    pub struct GlobalOptions {
        /// `-chdir=DIR`: the working directory for the subcommand.
        chdir: Option<String> => ["chdir"],
        /// `-version`: an alias of the `version` subcommand.
        version: bool => ["version"],
        /// `-v`: the same.
        v: bool => ["v"],
        /// `-help`: the usage, for the subcommand too.
        help: bool => ["help"],
        /// `-h`: the same.
        h: bool => ["h"],
    }
}

/// Runs a command line (without the program name) and returns the exit
/// status.
pub fn run(args: &[String]) -> i32 {
    let mut streams = Streams::system();
    run_with(args, &mut streams)
}

/// Runs a command line with the given output streams.
pub fn run_with(args: &[String], streams: &mut Streams) -> i32 {
    // OpenTofu reads the unmanaged providers before anything else, for
    // every command, and stops on a bad value.
    if let Err(e) = crate::unmanaged_providers::from_env() {
        streams.eprint(&format!("{e}\n"));
        return 1;
    }
    let global = match GlobalOptions::parse(args) {
        Ok(o) => o,
        Err(e) => {
            streams.eprint(&format!("{e}\n\n{USAGE}"));
            return 1;
        }
    };
    if let Some(dir) = &global.chdir {
        if let Err(e) = std::env::set_current_dir(dir) {
            streams.eprint(&format!(
                "Error handling -chdir option: chdir {dir}: {}\n",
                io_error_text(&e)
            ));
            return 1;
        }
    }
    if global.version || global.v {
        return commands::version::run(&[], streams);
    }
    let help = global.help || global.h;
    let Some((name, rest)) = global.args.split_first() else {
        streams.print(USAGE);
        return if help { 0 } else { 1 };
    };
    if help {
        streams.print(USAGE);
        return 0;
    }
    match name.as_str() {
        "version" => commands::version::run(rest, streams),
        "init" => commands::init::run(rest, streams),
        "validate" => commands::validate::run(rest, streams),
        "console" => commands::console::run(rest, streams),
        "inspect" => commands::inspect::run(rest, streams),
        "graph" => commands::graph::run(rest, streams),
        "plan-lite" => commands::plan_lite::run(rest, streams),
        "providers" => commands::providers::run(rest, streams),
        "affected" => commands::affected::run(rest, streams),
        other => {
            streams.eprint(&format!(
                "tofu-rs has no command named \"{other}\".\n\nTo see all of tofu-rs's top-level commands, run:\n  tofu-rs -help\n\n"
            ));
            1
        }
    }
}

/// An I/O error as Go prints it (`no such file or directory`).
pub fn io_error_text(e: &std::io::Error) -> String {
    match e.kind() {
        std::io::ErrorKind::NotFound => "no such file or directory".into(),
        std::io::ErrorKind::PermissionDenied => "permission denied".into(),
        _ => {
            let s = e.to_string();
            // Rust appends " (os error N)"; Go does not.
            match s.find(" (os error") {
                Some(i) => s[..i].to_lowercase(),
                None => s,
            }
        }
    }
}
