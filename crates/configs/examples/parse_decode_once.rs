//! Parses and decodes one generated ~5 MB file (the `parse_decode` bench's
//! input) a given number of times and prints the time of each pass: a
//! driver for profilers (`valgrind --tool=callgrind`), which cannot run
//! criterion's many iterations.
//!
//! Usage: `cargo run --release -p tofu-configs --example parse_decode_once -- [PASSES]`

#[path = "gen_config.rs"]
#[allow(dead_code)]
mod gen_config;

// A command-line tool: printing is its output.
#[allow(clippy::print_stdout)]
fn main() {
    let passes: usize = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(1);
    let per_resource = gen_config::generate_file(100, 1).len();
    let text = gen_config::generate_file(0, 5_000_000 / per_resource);
    let bytes = text.as_bytes();
    for _ in 0..passes {
        let t = std::time::Instant::now();
        let (file, diags) = hclsyntax::parse_file("main.tf", bytes);
        let parsed = t.elapsed();
        let (config, more) = configs::config_file::decode_file(&file.body, false, false);
        let total = t.elapsed();
        assert!(diags.is_empty() && more.is_empty());
        let mb = bytes.len() as f64 / 1e6;
        println!(
            "{mb:.2} MB: parse {:.1} ms, decode {:.1} ms, {:.1} MB/s ({} resources)",
            parsed.as_secs_f64() * 1e3,
            (total - parsed).as_secs_f64() * 1e3,
            mb / total.as_secs_f64(),
            config.managed_resources.len()
        );
    }
}
