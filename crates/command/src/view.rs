//! Where output goes and how diagnostics look: OpenTofu's views. Errors go
//! to stderr and warnings to stdout, in the box format; `-no-color` turns
//! colour off and prints the plain form, `NO_COLOR` only turns colour off.

use std::io::Write;

use tfdiags::{Diagnostics, SourceMap};

/// stdout and stderr, or buffers in tests.
pub enum Streams {
    System,
    Captured { stdout: Vec<u8>, stderr: Vec<u8> },
}

impl Streams {
    pub fn system() -> Streams {
        Streams::System
    }

    pub fn captured() -> Streams {
        Streams::Captured {
            stdout: Vec::new(),
            stderr: Vec::new(),
        }
    }

    /// What was written to captured streams: (stdout, stderr); nothing for
    /// the process's own.
    pub fn into_text(self) -> (String, String) {
        match self {
            Streams::Captured { stdout, stderr } => (
                String::from_utf8_lossy(&stdout).into_owned(),
                String::from_utf8_lossy(&stderr).into_owned(),
            ),
            Streams::System => (String::new(), String::new()),
        }
    }

    /// Disposes of what a command built once it is done with it. In the
    /// process itself the memory is left to the exit: freeing a large
    /// configuration's millions of nodes one by one (many allocated on
    /// other threads, which mimalloc frees the slow way) is work nobody
    /// waits for. Captured (a caller in the same process, as the tests),
    /// it is dropped.
    pub fn dispose<T>(&self, value: T) {
        match self {
            Streams::System => std::mem::forget(value),
            Streams::Captured { .. } => drop(value),
        }
    }

    /// Writes to stdout. A closed pipe is not an error worth a panic.
    pub fn print(&mut self, s: &str) {
        match self {
            Streams::System => {
                let mut out = std::io::stdout().lock();
                let _ = out.write_all(s.as_bytes());
                let _ = out.flush();
            }
            Streams::Captured { stdout, .. } => stdout.extend_from_slice(s.as_bytes()),
        }
    }

    /// Writes to stderr.
    pub fn eprint(&mut self, s: &str) {
        match self {
            Streams::System => {
                let mut err = std::io::stderr().lock();
                let _ = err.write_all(s.as_bytes());
                let _ = err.flush();
            }
            Streams::Captured { stderr, .. } => stderr.extend_from_slice(s.as_bytes()),
        }
    }
}

/// How a command shows diagnostics.
pub struct View {
    pub options: tfdiags::ViewOptions,
}

impl View {
    /// The view for a command: colour unless `-no-color` was given or
    /// `NO_COLOR` is set; the plain form only with `-no-color`.
    pub fn new(no_color_flag: bool) -> View {
        let no_color_env = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
        View {
            options: tfdiags::ViewOptions {
                color: !(no_color_flag || no_color_env),
                plain: no_color_flag,
                ..tfdiags::ViewOptions::default()
            },
        }
    }

    /// Renders diagnostics as OpenTofu's views do: sorted, de-duplicated,
    /// filtered and consolidated; errors to stderr, warnings to stdout.
    /// For diagnostics that come before any configuration is loaded; once
    /// there is one, [`View::diagnostics_in`] knows which modules are local.
    pub fn diagnostics(&self, streams: &mut Streams, diags: &Diagnostics, sources: &SourceMap) {
        self.diagnostics_in(streams, diags, sources, None);
    }

    /// The same with the configuration the diagnostics are about, so that
    /// `-deprecation=module:local` hides the warnings of modules reached
    /// through any non-local source ([`View::messages`]).
    pub fn diagnostics_in(
        &self,
        streams: &mut Streams,
        diags: &Diagnostics,
        sources: &SourceMap,
        config: Option<&configs::config::Config>,
    ) {
        for msg in self.messages(diags, sources, config) {
            match msg.stream {
                tfdiags::Stream::Stderr => streams.eprint(&msg.text),
                tfdiags::Stream::Stdout => streams.print(&msg.text),
            }
        }
    }

    /// The rendered diagnostics, each with the stream it belongs on. A
    /// module is local when every call from the root to it has a `./` or
    /// `../` source; without a configuration no source is known, and every
    /// module counts as local so that nothing is hidden by mistake.
    pub fn messages(
        &self,
        diags: &Diagnostics,
        sources: &SourceMap,
        config: Option<&configs::config::Config>,
    ) -> Vec<tfdiags::Message> {
        let is_local = |cause: &tfdiags::DeprecationCause| {
            config.is_none_or(|root| tofu::deprecation::is_local_module(root, cause))
        };
        tfdiags::render_diagnostics(diags, sources, &self.options, &is_local)
    }

    /// A green "Success!" line as OpenTofu prints it (`Println` of a message
    /// that already ends in a newline, so a blank line follows).
    pub fn success_line(&self, message: &str) -> String {
        let rest = message.strip_prefix("Success!").unwrap_or(message);
        if self.options.color {
            format!("\x1b[32m\x1b[1mSuccess!\x1b[0m{rest}\n\x1b[0m\n")
        } else {
            format!("Success!{rest}\n\n")
        }
    }
}
