//! Generates a synthetic configuration for benchmarks: many `terraform_data`
//! resources with nested blocks, templates, heredocs and `for` expressions,
//! valid for both tofu-rs and `terraform validate` (no providers needed).
//!
//! Usage: `cargo run --release -p tofu-configs --example gen_config -- OUT_DIR [MB] [FILES]`

use std::fmt::Write;

/// Returns the text of one file holding resources `first..first+count`.
pub fn generate_file(first: usize, count: usize) -> String {
    let mut s = String::new();
    for i in first..first + count {
        let _ = write!(
            s,
            r#"locals {{
  names_{i} = [for n in range(3) : "item-{i}-${{n}}" if n != 1]
  by_key_{i} = {{ for k, v in {{ a = 1, b = 2 }} : k => v * {i} }}
  grouped_{i} = {{ for n in ["x", "y", "x"] : n => n... }}
}}

resource "terraform_data" "r{i}" {{
  count = {i} % 3 == 0 ? 2 : 1
  input = {{
    name    = "res-{i}-${{count.index}}"
    tags    = {{ env = "bench", index = "{i}", part = upper("p{i}") }}
    list    = local.names_{i}
    nums    = [for k, v in local.by_key_{i} : v + count.index]
    nested  = {{ a = {{ b = {{ c = [1, 2, 3][count.index % 3] }} }} }}
    cond    = {i} > 100 && {i} < 200 ? "mid" : "edge"
    script  = <<-EOT
      #!/bin/sh
      echo "resource {i}"
      %{{ for n in local.names_{i} ~}}
      echo "${{n}}"
      %{{ endfor ~}}
    EOT
  }}
  triggers_replace = [local.grouped_{i}]

  lifecycle {{
    create_before_destroy = true
    precondition {{
      condition     = length(local.names_{i}) > 0
      error_message = "Resource {i} needs names."
    }}
  }}
}}

"#
        );
    }
    s
}

/// Writes about `mb` megabytes of configuration into `dir`, over `files`
/// files, plus the variables and outputs that tie them together.
pub fn generate_dir(dir: &std::path::Path, mb: f64, files: usize) -> std::io::Result<usize> {
    std::fs::create_dir_all(dir)?;
    let per_resource = generate_file(100, 1).len();
    let total = ((mb * 1_000_000.0) / per_resource as f64).ceil() as usize;
    let per_file = total.div_ceil(files.max(1));
    let mut written = 0;
    for f in 0..files.max(1) {
        let first = f * per_file;
        let count = per_file.min(total.saturating_sub(first));
        if count == 0 {
            break;
        }
        std::fs::write(
            dir.join(format!("res_{f:03}.tf")),
            generate_file(first, count),
        )?;
        written += count;
    }
    std::fs::write(
        dir.join("outputs.tf"),
        "variable \"env\" {\n  type    = string\n  default = \"bench\"\n}\n\noutput \"first\" {\n  value = terraform_data.r0[0].output\n}\n",
    )?;
    Ok(written)
}

// A command-line tool: printing is its output.
#[allow(dead_code, clippy::print_stdout, clippy::print_stderr)]
fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(out) = args.first() else {
        eprintln!("usage: gen_config OUT_DIR [MB] [FILES]");
        std::process::exit(2);
    };
    let mb: f64 = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(5.0);
    let files: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(20);
    match generate_dir(std::path::Path::new(out), mb, files) {
        Ok(n) => println!("{n} resources written to {out}"),
        Err(e) => {
            eprintln!("gen_config: {e}");
            std::process::exit(1);
        }
    }
}
