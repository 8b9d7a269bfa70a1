//! Plugin processes: spawning them so that none outlives tofu-rs, draining
//! their output, and killing them (`kill_all`).
//!
//! Every child is spawned by one long-lived thread, because Linux's
//! parent-death signal fires when the thread that forked exits, not the
//! process: a child spawned from a rayon or scoped thread would be killed
//! when that thread ends.

use std::collections::HashMap;
use std::ffi::OsString;
use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

/// Where a plugin's stderr (always) and stdout (after the handshake) go.
pub type LogSink = Arc<dyn Fn(&str) + Send + Sync>;

type Job = Box<dyn FnOnce() + Send>;

fn spawner() -> &'static Mutex<mpsc::Sender<Job>> {
    static SPAWNER: OnceLock<Mutex<mpsc::Sender<Job>>> = OnceLock::new();
    SPAWNER.get_or_init(|| {
        let (tx, rx) = mpsc::channel::<Job>();
        std::thread::Builder::new()
            .name("tofu-plugin-spawner".into())
            .spawn(move || {
                for job in rx {
                    job();
                }
            })
            .expect("the plugin spawner thread starts");
        Mutex::new(tx)
    })
}

/// Runs `f` on the spawner thread and returns its result.
fn on_spawner<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    let (tx, rx) = mpsc::channel();
    spawner()
        .lock()
        .expect("the spawner channel's lock is never poisoned")
        .send(Box::new(move || {
            let _ = tx.send(f());
        }))
        .expect("the spawner thread lives as long as the process");
    rx.recv().expect("the spawner thread answers every job")
}

/// A running plugin process.
pub(crate) struct PluginProcess {
    id: u64,
    pid: u32,
    child: Mutex<Option<Child>>,
}

fn live() -> &'static Mutex<HashMap<u64, Arc<PluginProcess>>> {
    static LIVE: OnceLock<Mutex<HashMap<u64, Arc<PluginProcess>>>> = OnceLock::new();
    LIVE.get_or_init(Mutex::default)
}

/// Kills every plugin process this process started and has not yet
/// closed. For the CLI to call before exiting on an interrupt or an error.
pub fn kill_all() {
    let all: Vec<_> = live()
        .lock()
        .map(|mut m| m.drain().map(|(_, p)| p).collect())
        .unwrap_or_default();
    for p in all {
        p.kill_now();
    }
}

/// The first line of stdout, or why there is none.
pub(crate) enum FirstLine {
    /// The line.
    Line(String),
    /// Stdout closed before a line came.
    NoLines,
    /// The time limit passed.
    Timeout,
}

impl PluginProcess {
    /// Spawns `executable` with `env` added to ours, and starts draining
    /// its output. Returns the process and a receiver of stdout's first line.
    pub(crate) fn spawn(
        executable: &Path,
        args: &[OsString],
        env: Vec<(OsString, OsString)>,
        log: Option<LogSink>,
    ) -> Result<(Arc<PluginProcess>, mpsc::Receiver<Option<String>>), std::io::Error> {
        let executable: PathBuf = executable.to_owned();
        let args = args.to_vec();
        let mut child = on_spawner(move || {
            let mut cmd = Command::new(&executable);
            cmd.args(&args)
                .envs(env)
                .stdin(Stdio::null())
                .stdout(Stdio::piped())
                .stderr(Stdio::piped());
            crate::sys::kill_with_parent(&mut cmd);
            cmd.spawn()
        })?;
        static NEXT: AtomicU64 = AtomicU64::new(0);
        let stdout = child.stdout.take().expect("stdout is piped");
        let stderr = child.stderr.take().expect("stderr is piped");
        let process = Arc::new(PluginProcess {
            id: NEXT.fetch_add(1, Ordering::Relaxed),
            pid: child.id(),
            child: Mutex::new(Some(child)),
        });
        live()
            .lock()
            .expect("the live plugin table's lock is never poisoned")
            .insert(process.id, process.clone());

        let (tx, rx) = mpsc::sync_channel(1);
        let out_log = log.clone();
        std::thread::Builder::new()
            .name("tofu-plugin-stdout".into())
            .spawn(move || {
                let mut first = Some(tx);
                drain_lines(stdout, |line| match first.take() {
                    Some(tx) => {
                        let _ = tx.send(Some(line.to_owned()));
                    }
                    None => {
                        if let Some(log) = &out_log {
                            log(line);
                        }
                    }
                });
                if let Some(tx) = first {
                    let _ = tx.send(None);
                }
            })?;
        std::thread::Builder::new()
            .name("tofu-plugin-stderr".into())
            .spawn(move || {
                drain_lines(stderr, |line| {
                    if let Some(log) = &log {
                        log(line);
                    }
                })
            })?;
        Ok((process, rx))
    }

    /// The process id.
    pub(crate) fn pid(&self) -> u32 {
        self.pid
    }

    /// Waits up to `limit` for the process to exit; true if it did.
    pub(crate) fn wait_exit(&self, limit: Duration) -> bool {
        let deadline = Instant::now() + limit;
        loop {
            {
                let mut guard = self.child.lock().expect("a child's lock is never poisoned");
                match guard.as_mut() {
                    None => return true,
                    Some(c) => {
                        if let Ok(Some(_)) = c.try_wait() {
                            *guard = None;
                            self.forget();
                            return true;
                        }
                    }
                }
            }
            if Instant::now() >= deadline {
                return false;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
    }

    /// Kills the process (if it still runs) and reaps it.
    pub(crate) fn kill_now(&self) {
        let mut guard = self.child.lock().expect("a child's lock is never poisoned");
        if let Some(mut c) = guard.take() {
            let _ = c.kill();
            let _ = c.wait();
        }
        drop(guard);
        self.forget();
    }

    fn forget(&self) {
        if let Ok(mut m) = live().lock() {
            m.remove(&self.id);
        }
    }
}

/// Reads lines (lossily decoded, without their newline) until EOF.
fn drain_lines(r: impl Read, mut f: impl FnMut(&str)) {
    let mut r = BufReader::new(r);
    let mut buf = Vec::new();
    loop {
        buf.clear();
        match r.read_until(b'\n', &mut buf) {
            Ok(0) | Err(_) => return,
            Ok(_) => {
                let line = String::from_utf8_lossy(&buf);
                f(line.trim_end_matches(['\n', '\r']));
            }
        }
    }
}

/// Waits for the first line of stdout, up to `limit`.
pub(crate) fn first_line(rx: &mpsc::Receiver<Option<String>>, limit: Duration) -> FirstLine {
    match rx.recv_timeout(limit) {
        Ok(Some(line)) => FirstLine::Line(line),
        Ok(None) | Err(mpsc::RecvTimeoutError::Disconnected) => FirstLine::NoLines,
        Err(mpsc::RecvTimeoutError::Timeout) => FirstLine::Timeout,
    }
}
