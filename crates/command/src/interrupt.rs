//! Interrupting module installation (OpenTofu's `InterruptibleContext`):
//! while an [`InterruptScope`] is alive, the first SIGINT cancels the
//! installation's [`Cancel`] instead of killing the process, so init can
//! abandon what is in flight, keep what is installed, and say so; a
//! second SIGINT, or one outside a scope, kills the process as usual.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};

use initwd::Cancel;

/// The handlers are registered once per process; scopes only switch them.
struct Handlers {
    /// True when SIGINT must do what it does by default (terminate).
    default_action: Arc<AtomicBool>,
    /// Set by SIGINT; a scope hands it to the installer.
    cancel: Cancel,
}

fn handlers() -> Option<&'static Handlers> {
    static HANDLERS: OnceLock<Option<Handlers>> = OnceLock::new();
    HANDLERS
        .get_or_init(|| {
            use signal_hook::consts::SIGINT;
            let default_action = Arc::new(AtomicBool::new(true));
            let cancel = Cancel::new();
            // Actions run in registration order: terminate if a scope is
            // not active (or was interrupted already), else cancel and
            // make the next SIGINT terminate.
            let registered =
                signal_hook::flag::register_conditional_default(SIGINT, default_action.clone())
                    .and_then(|_| signal_hook::flag::register(SIGINT, cancel.flag()))
                    .and_then(|_| signal_hook::flag::register(SIGINT, default_action.clone()));
            registered.ok().map(|_| Handlers {
                default_action,
                cancel,
            })
        })
        .as_ref()
}

/// While alive, SIGINT cancels [`InterruptScope::cancel`] once.
pub struct InterruptScope {
    cancel: Cancel,
    active: bool,
}

impl InterruptScope {
    /// Starts catching SIGINT. Where no handler can be installed, the
    /// scope's token is never cancelled and SIGINT keeps killing.
    pub fn start() -> InterruptScope {
        match handlers() {
            Some(h) => {
                h.default_action
                    .store(h.cancel.is_canceled(), Ordering::SeqCst);
                InterruptScope {
                    cancel: h.cancel.clone(),
                    active: true,
                }
            }
            None => InterruptScope {
                cancel: Cancel::new(),
                active: false,
            },
        }
    }

    /// The token SIGINT cancels.
    pub fn cancel(&self) -> &Cancel {
        &self.cancel
    }
}

impl Drop for InterruptScope {
    fn drop(&mut self) {
        if let (true, Some(h)) = (self.active, handlers()) {
            h.default_action.store(true, Ordering::SeqCst);
        }
    }
}
