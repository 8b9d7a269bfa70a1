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
