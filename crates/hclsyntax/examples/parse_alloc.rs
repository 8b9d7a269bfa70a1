// A counting allocator must implement the unsafe `GlobalAlloc` trait.
#![allow(unsafe_code)]

//! Parses one file and reports the time, the bytes allocated and the peak
//! of live heap bytes, to keep an eye on the parser's allocation volume.
//!
//! Usage: `cargo run --release -p tofu-hclsyntax --example parse_alloc -- FILE`

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};

struct Counting;

static TOTAL: AtomicUsize = AtomicUsize::new(0);
static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);
static COUNT: AtomicUsize = AtomicUsize::new(0);

fn grew(n: usize) {
    TOTAL.fetch_add(n, Relaxed);
    COUNT.fetch_add(1, Relaxed);
    let live = LIVE.fetch_add(n, Relaxed) + n;
    PEAK.fetch_max(live, Relaxed);
}

// SAFETY: delegates to the system allocator, only counting.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, l: Layout) -> *mut u8 {
        grew(l.size());
        unsafe { System.alloc(l) }
    }
    unsafe fn dealloc(&self, p: *mut u8, l: Layout) {
        LIVE.fetch_sub(l.size(), Relaxed);
        unsafe { System.dealloc(p, l) }
    }
    unsafe fn realloc(&self, p: *mut u8, l: Layout, new: usize) -> *mut u8 {
        LIVE.fetch_sub(l.size(), Relaxed);
        grew(new);
        unsafe { System.realloc(p, l, new) }
    }
}

#[global_allocator]
static A: Counting = Counting;

// A command-line tool: printing is its output.
#[allow(clippy::print_stdout, clippy::print_stderr)]
fn main() {
    let Some(path) = std::env::args().nth(1) else {
        eprintln!("usage: parse_alloc FILE");
        std::process::exit(2);
    };
    let bytes = std::fs::read(&path).expect("readable file");
    let mb = bytes.len() as f64 / 1e6;
    let (base_total, base_count) = (TOTAL.load(Relaxed), COUNT.load(Relaxed));
    PEAK.store(LIVE.load(Relaxed), Relaxed);
    let base_live = LIVE.load(Relaxed);
    let t = std::time::Instant::now();
    let (file, diags) = hclsyntax::parse_file(&path, &bytes);
    let secs = t.elapsed().as_secs_f64();
    let kept = LIVE.load(Relaxed) - base_live;
    let (total, count) = (
        TOTAL.load(Relaxed) - base_total,
        COUNT.load(Relaxed) - base_count,
    );
    let peak = PEAK.load(Relaxed) - base_live;
    println!(
        "{mb:.1} MB in {:.0} ms ({:.1} MB/s), {} diagnostics",
        secs * 1e3,
        mb / secs,
        diags.len()
    );
    println!(
        "allocated {:.1} MB in {count} allocations; peak live {:.1} MB; tree {:.1} MB",
        total as f64 / 1e6,
        peak as f64 / 1e6,
        kept as f64 / 1e6
    );
    drop(file);
}
