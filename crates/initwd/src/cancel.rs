//! Cancelling an installation (OpenTofu's interruptible `context.Context`):
//! a flag the command sets when the user interrupts, which the installer
//! checks before each step and while waiting for network or git work.
//! Work in flight is abandoned rather than stopped: it runs on a thread
//! of its own, into a staging directory, and the waiting side returns as
//! soon as the flag is set, so a hanging server cannot hold up the exit
//! and nothing half-fetched ever lands in an install directory.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc, Mutex};
use std::time::Duration;

/// How the error of cancelled work reads (Go's `context.Canceled`).
pub const CANCELED_TEXT: &str = "context canceled";

/// How often waiting work looks at the flag.
const POLL: Duration = Duration::from_millis(20);

/// A shared cancellation flag; clones share it. The default one is never
/// cancelled unless someone calls [`Cancel::cancel`].
#[derive(Debug, Clone, Default)]
pub struct Cancel(Arc<AtomicBool>);

/// The work was abandoned because the run was cancelled.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Canceled;

impl std::fmt::Display for Canceled {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(CANCELED_TEXT)
    }
}

impl Cancel {
    pub fn new() -> Cancel {
        Cancel::default()
    }

    /// The flag itself, for a signal handler to set (setting an atomic is
    /// async-signal-safe; nothing else here is).
    pub fn flag(&self) -> Arc<AtomicBool> {
        self.0.clone()
    }

    pub fn cancel(&self) {
        self.0.store(true, Ordering::SeqCst);
    }

    pub fn is_canceled(&self) -> bool {
        self.0.load(Ordering::SeqCst)
    }

    /// `Err(Canceled)` once cancelled.
    pub fn check(&self) -> Result<(), Canceled> {
        if self.is_canceled() {
            Err(Canceled)
        } else {
            Ok(())
        }
    }

    /// Runs `work` on a thread of its own and waits for its result, giving
    /// up as soon as the run is cancelled. Abandoned work keeps running
    /// until it finishes or the process exits; its result is dropped, so
    /// it must only write where nobody looks until it succeeds.
    pub fn run<T: Send + 'static>(
        &self,
        work: impl FnOnce() -> T + Send + 'static,
    ) -> Result<T, Canceled> {
        self.check()?;
        // Shared so that, if no thread can be started, the work is still
        // done here (without the possibility of abandoning it).
        let slot = Arc::new(Mutex::new(Some(work)));
        let theirs = slot.clone();
        let (tx, rx) = mpsc::channel();
        let spawned = std::thread::Builder::new()
            .name("tofu-rs-fetch".into())
            .spawn(move || {
                let work = theirs.lock().ok().and_then(|mut w| w.take());
                if let Some(work) = work {
                    let _ = tx.send(work());
                }
            });
        if spawned.is_err() {
            let work = slot.lock().ok().and_then(|mut w| w.take());
            return match work {
                Some(work) => Ok(work()),
                None => Err(Canceled),
            };
        }
        loop {
            match rx.recv_timeout(POLL) {
                Ok(v) => return Ok(v),
                Err(mpsc::RecvTimeoutError::Timeout) => self.check()?,
                Err(mpsc::RecvTimeoutError::Disconnected) => {
                    panic!("module installation work panicked (a tofu-rs bug)")
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Instant;

    #[test]
    fn finished_work_returns_its_value() {
        let c = Cancel::new();
        assert_eq!(c.run(|| 41 + 1), Ok(42));
    }

    #[test]
    fn cancelled_before_start_runs_nothing() {
        let c = Cancel::new();
        c.cancel();
        let ran = Arc::new(AtomicBool::new(false));
        let r = ran.clone();
        assert_eq!(
            c.run(move || r.store(true, Ordering::SeqCst)),
            Err(Canceled)
        );
        std::thread::sleep(Duration::from_millis(50));
        assert!(!ran.load(Ordering::SeqCst));
    }

    #[test]
    fn hanging_work_is_abandoned_when_cancelled() {
        let c = Cancel::new();
        let canceller = c.clone();
        std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(100));
            canceller.cancel();
        });
        let start = Instant::now();
        let r = c.run(|| std::thread::sleep(Duration::from_secs(30)));
        assert_eq!(r, Err(Canceled));
        assert!(start.elapsed() < Duration::from_secs(5));
        assert_eq!(Canceled.to_string(), "context canceled");
    }
}
