//! `getmodules.PackageFetcher`: fetches remote packages into install
//! directories, each distinct package address at most once per run. A
//! later request for a package already fetched copies the first install
//! (dot files skipped, as OpenTofu's copy does); a request that arrives
//! while the same package is being fetched on another thread waits for
//! that fetch instead of starting its own.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex};

use crate::fetch::{self, HttpSettings};
use crate::pathutil::go_io_error_text;

enum SlotState {
    Fetching,
    Done(PathBuf),
    Failed,
}

struct Slot {
    state: Mutex<SlotState>,
    ready: Condvar,
}

/// Fetches whole module packages, deduplicated by package address.
/// Shareable between threads (`&PackageFetcher` is `Sync`).
pub struct PackageFetcher {
    settings: HttpSettings,
    slots: Mutex<HashMap<String, Arc<Slot>>>,
    downloads: AtomicUsize,
}

impl Default for PackageFetcher {
    fn default() -> Self {
        PackageFetcher::new(HttpSettings::default())
    }
}

impl PackageFetcher {
    pub fn new(settings: HttpSettings) -> PackageFetcher {
        PackageFetcher {
            settings,
            slots: Mutex::new(HashMap::new()),
            downloads: AtomicUsize::new(0),
        }
    }

    /// How many packages were actually downloaded (not copied) so far.
    pub fn download_count(&self) -> usize {
        self.downloads.load(Ordering::SeqCst)
    }

    /// `FetchPackage`: the package at `package` (normalized, no subdir)
    /// into `inst_dir`, which must not exist yet.
    pub fn fetch_package(&self, inst_dir: &Path, package: &str) -> Result<(), String> {
        loop {
            let (slot, owner) = {
                let mut slots = self.slots.lock().expect("package fetcher lock poisoned");
                match slots.get(package) {
                    Some(s) => (s.clone(), false),
                    None => {
                        let s = Arc::new(Slot {
                            state: Mutex::new(SlotState::Fetching),
                            ready: Condvar::new(),
                        });
                        slots.insert(package.to_string(), s.clone());
                        (s, true)
                    }
                }
            };
            if owner {
                self.downloads.fetch_add(1, Ordering::SeqCst);
                let result = fetch::fetch_package(package, inst_dir, &self.settings);
                let mut state = slot.state.lock().expect("package slot lock poisoned");
                match &result {
                    Ok(()) => *state = SlotState::Done(inst_dir.to_path_buf()),
                    Err(_) => {
                        // Forget failures: a later request tries again,
                        // as OpenTofu only remembers successful fetches.
                        *state = SlotState::Failed;
                        self.slots
                            .lock()
                            .expect("package fetcher lock poisoned")
                            .remove(package);
                    }
                }
                slot.ready.notify_all();
                return result;
            }
            let mut state = slot.state.lock().expect("package slot lock poisoned");
            while matches!(*state, SlotState::Fetching) {
                state = slot.ready.wait(state).expect("package slot lock poisoned");
            }
            match &*state {
                SlotState::Done(prev) => return copy_previous(prev, inst_dir),
                SlotState::Failed => continue,
                SlotState::Fetching => unreachable!("waited until the fetch finished"),
            }
        }
    }
}

fn copy_previous(prev: &Path, inst_dir: &Path) -> Result<(), String> {
    std::fs::create_dir_all(inst_dir).map_err(|e| {
        format!(
            "failed to create directory {}: {}",
            inst_dir.display(),
            go_io_error_text(&e)
        )
    })?;
    fetch::copy_dir(prev, inst_dir).map_err(|e| {
        format!(
            "failed to copy from {} to {}: {e}",
            prev.display(),
            inst_dir.display()
        )
    })
}
