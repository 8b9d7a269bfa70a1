//! Links the `tofu-rs` executable without position independence on Linux,
//! as Go links `tofu` and `terraform`: a position-independent executable has
//! ~20,000 relative relocations for the dynamic loader to apply at every
//! start (0.4 ms), which a CLI run hundreds of times a day pays each time.
//! Only the binaries get the flag (proc-macros and tests are untouched).

fn main() {
    let os = std::env::var("CARGO_CFG_TARGET_OS").unwrap_or_default();
    let env = std::env::var("CARGO_CFG_TARGET_ENV").unwrap_or_default();
    if os == "linux" && env == "gnu" {
        println!("cargo:rustc-link-arg-bins=-no-pie");
    }
    println!("cargo:rerun-if-changed=build.rs");
}
