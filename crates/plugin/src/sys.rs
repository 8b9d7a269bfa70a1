//! The few libc calls the plugin client needs, in one place.
//!
//! Linux kills a process whose parent dies only when asked to
//! (`PR_SET_PDEATHSIG`), and the request must be made in the child between
//! fork and exec. The signal fires when the *thread* that forked exits, so
//! plugins are spawned from one long-lived thread (see `process.rs`).

#![allow(unsafe_code)]

use std::process::Command;

/// Makes the child get SIGKILL when the spawning thread (and so tofu-rs) dies.
#[cfg(target_os = "linux")]
pub(crate) fn kill_with_parent(cmd: &mut Command) {
    use std::os::unix::process::CommandExt;
    let parent = std::process::id() as libc::pid_t;
    // SAFETY: the closure runs in the forked child before exec and calls
    // only async-signal-safe functions (prctl, getppid), allocating nothing.
    unsafe {
        cmd.pre_exec(move || {
            if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL, 0, 0, 0) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            // The parent may have died before prctl took effect.
            if libc::getppid() != parent {
                libc::_exit(1);
            }
            Ok(())
        });
    }
}

#[cfg(not(target_os = "linux"))]
pub(crate) fn kill_with_parent(_cmd: &mut Command) {}

/// The real user and group ids of this process (`os.Getuid`, `os.Getgid`).
pub(crate) fn ids() -> (u32, u32) {
    // SAFETY: getuid and getgid cannot fail and touch no memory.
    unsafe { (libc::getuid(), libc::getgid()) }
}

/// Whether `pid` names one process that is not tofu-rs itself nor init:
/// `kill` treats 0 and negative ids as process groups (-1: every process).
pub(crate) fn is_other_process(pid: i64) -> bool {
    pid > 1 && pid != i64::from(std::process::id()) && libc::pid_t::try_from(pid).is_ok()
}

/// Whether a process with this id runs (`kill(pid, 0)`; a process we may
/// not signal runs too). On Linux an exited process that its parent has
/// not reaped yet (a zombie) does not count.
pub(crate) fn process_exists(pid: i64) -> bool {
    let Ok(pid) = libc::pid_t::try_from(pid) else {
        return false;
    };
    // SAFETY: signal 0 only checks for the process; no memory is touched.
    let r = unsafe { libc::kill(pid, 0) };
    let exists = r == 0 || std::io::Error::last_os_error().raw_os_error() == Some(libc::EPERM);
    exists && !is_zombie(pid)
}

/// `/proc/PID/stat`'s state is `Z` (the field after the parenthesized
/// command name, which may itself hold spaces or parentheses).
fn is_zombie(pid: libc::pid_t) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat"))
        .ok()
        .and_then(|s| {
            s.rfind(')')
                .map(|i| s[i + 1..].trim_start().starts_with('Z'))
        })
        .unwrap_or(false)
}

/// Sends SIGKILL to one process (`os.Process.Kill`); the caller has
/// checked [`is_other_process`].
pub(crate) fn kill_process(pid: i64) {
    if !is_other_process(pid) {
        return;
    }
    if let Ok(pid) = libc::pid_t::try_from(pid) {
        // SAFETY: kill touches no memory; pid names one other process.
        unsafe {
            libc::kill(pid, libc::SIGKILL);
        }
    }
}
