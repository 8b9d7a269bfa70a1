//! The crash report (OpenTofu's `logging.PanicHandler`): a panic is always a
//! bug in tofu-rs, so instead of Rust's bare message and backtrace the user
//! gets OpenTofu's banner adapted to tofu-rs, the version and platform to
//! report, the panic's place and message (the "panicked at" line scripts
//! grep for), the backtrace, and exit status 11, OpenTofu's (out of the way
//! of plan's detailed exit codes).

use std::io::Write;
use std::panic::PanicHookInfo;
use std::sync::Mutex;

use crate::commands::version::{platform, VERSION};

/// The exit status of a crash, as OpenTofu's panic handler exits.
pub const CRASH_EXIT_CODE: i32 = 11;

const BANNER: &str = "!!!!!!!!!!!!!!!!!!!!!!!!!!! TOFU-RS CRASH !!!!!!!!!!!!!!!!!!!!!!!!!!!!";

/// Several threads may panic at once (rayon workers): the first one
/// reports, the others wait for the process to end.
static REPORTING: Mutex<()> = Mutex::new(());

/// Replaces the default panic output with the crash report.
pub fn install_hook() {
    std::panic::set_hook(Box::new(|info| {
        let _guard = REPORTING.lock();
        let report = report(
            info,
            &std::backtrace::Backtrace::force_capture().to_string(),
        );
        let mut stderr = std::io::stderr().lock();
        let _ = stderr.write_all(report.as_bytes());
        let _ = stderr.flush();
        plugin::kill_all();
        std::process::exit(CRASH_EXIT_CODE);
    }));
}

/// The text written to standard error for the panic `info`.
fn report(info: &PanicHookInfo<'_>, backtrace: &str) -> String {
    let message = info
        .payload()
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| info.payload().downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "(no message)".to_string());
    let place = info
        .location()
        .map(|l| format!("{}:{}:{}", l.file(), l.line(), l.column()))
        .unwrap_or_else(|| "an unknown place".to_string());
    let thread = std::thread::current();
    let thread = thread.name().unwrap_or("<unnamed>");
    format!(
        "\n{BANNER}\n\n\
         tofu-rs crashed! This is always indicative of a bug within tofu-rs.\n\
         Please report the crash to the tofu-rs developers, so that we can fix\n\
         it, with the configuration or the steps that made it happen.\n\n\
         When reporting bugs, please include the tofu-rs version and the\n\
         report below, and any additional information which may help\n\
         replicate the issue.\n\n\
         {BANNER}\n\n\
         tofu-rs v{VERSION} on {}\n\
         thread '{thread}' panicked at {place}:\n\
         {message}\n\n\
         {backtrace}\n",
        platform()
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Mutex;

    static CAPTURED: Mutex<Option<String>> = Mutex::new(None);

    /// The report names the version, the platform, where it panicked and
    /// why, under OpenTofu's banner (the hook itself exits the process, so
    /// the test captures what it would write).
    #[test]
    fn report_names_version_place_and_message() {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(|info| {
            *CAPTURED.lock().unwrap() = Some(report(info, "<backtrace>"));
        }));
        let result = std::panic::catch_unwind(|| panic!("boom {}", 42));
        std::panic::set_hook(previous);
        assert!(result.is_err());
        let text = CAPTURED.lock().unwrap().take().expect("the hook ran");
        assert!(text.contains("TOFU-RS CRASH"), "{text}");
        assert!(
            text.contains("tofu-rs crashed! This is always indicative of a bug within tofu-rs.")
        );
        assert!(text.contains(&format!("tofu-rs v{VERSION} on {}", platform())));
        assert!(
            text.contains("panicked at crates/command/src/crash.rs:"),
            "{text}"
        );
        assert!(text.contains("boom 42\n"), "{text}");
        assert!(text.ends_with("<backtrace>\n"), "{text}");
    }
}
