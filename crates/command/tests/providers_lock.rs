//! `tofu-rs providers lock` end to end through the binary: a filesystem
//! mirror (`-fs-mirror`) with packages for several platforms, a signed
//! registry on loopback (the default source, named through a CLI
//! configuration `host` block), re-runs that find nothing new, a package
//! that does not match the lock file, the plugin cache, and the option
//! errors. Where `terraform` is on PATH its `providers lock -fs-mirror`
//! on the same mirror must write the same entries. No network beyond
//! loopback.

use std::path::{Path, PathBuf};
use std::process::Command;

use getproviders::testing::{h1_of_zip, sha256_hex, zip_of, Route, TestRegistry, ZipEntry};
use getproviders::Platform;

const BIN: &str = env!("CARGO_BIN_EXE_tofu-rs");

const UPDATED: &str = "\nSuccess! OpenTofu has updated the lock file.\n\nReview the changes in .terraform.lock.hcl and then commit to your\nversion control system to retain the new checksums.\n\n";
const UNCHANGED: &str =
    "\nSuccess! OpenTofu has validated the lock file and found no need for changes.\n";

const NULL_TF: &str = "terraform {\n  required_providers {\n    null = {\n      source  = \"registry.opentofu.org/hashicorp/null\"\n      version = \"~> 3.0\"\n    }\n  }\n}\n";

mod provider_work;

use provider_work::{Run, Work};

/// `BIN providers lock ARGS` in the work directory, with NO_COLOR=1.
trait LockRun {
    fn lock_command(&self, bin: &Path, args: &[&str]) -> Command;
    fn run(&self, args: &[&str]) -> Run;
}

impl LockRun for Work {
    fn lock_command(&self, bin: &Path, args: &[&str]) -> Command {
        let mut lock_args = vec!["providers", "lock"];
        lock_args.extend_from_slice(args);
        let mut cmd = self.command(bin, &lock_args);
        cmd.env("NO_COLOR", "1");
        cmd
    }

    fn run(&self, args: &[&str]) -> Run {
        self.lock_command(Path::new(BIN), args)
            .output()
            .unwrap()
            .into()
    }
}

/// A package whose executable differs per platform, so each platform
/// has its own `h1:` hash.
fn platform_zip(type_name: &str, version: &str, platform: &str) -> Vec<u8> {
    zip_of(&[ZipEntry::file(
        &format!("terraform-provider-{type_name}_v{version}"),
        format!("#!/bin/sh\necho {type_name} {version} {platform}\n").as_bytes(),
        0o755,
    )])
}

/// Writes `terraform-provider-null_VERSION_PLATFORM.zip` into a packed
/// mirror layout and returns the zip.
fn mirror_null(mirror: &Path, version: &str, platform: &str) -> Vec<u8> {
    let dir = mirror.join("registry.opentofu.org/hashicorp/null");
    std::fs::create_dir_all(&dir).unwrap();
    let zip = platform_zip("null", version, platform);
    std::fs::write(
        dir.join(format!("terraform-provider-null_{version}_{platform}.zip")),
        &zip,
    )
    .unwrap();
    zip
}

fn lock_text(version: &str, constraints: &str, hashes: &[String]) -> String {
    let mut hashes = hashes.to_vec();
    hashes.sort();
    let lines: String = hashes.iter().map(|h| format!("    \"{h}\",\n")).collect();
    format!("# This file is maintained automatically by \"tofu init\".\n# Manual edits may be lost in future updates.\n\nprovider \"registry.opentofu.org/hashicorp/null\" {{\n  version     = \"{version}\"\n  constraints = \"{constraints}\"\n  hashes = [\n{lines}  ]\n}}\n")
}

#[test]
fn fs_mirror_platforms_new_then_unchanged_then_additional() {
    let mirror = tempfile::tempdir().unwrap();
    let linux = mirror_null(mirror.path(), "3.2.1", "linux_amd64");
    let darwin = mirror_null(mirror.path(), "3.2.1", "darwin_arm64");
    let windows = mirror_null(mirror.path(), "3.2.1", "windows_amd64");
    // An older version the constraints also allow: the newest is taken.
    mirror_null(mirror.path(), "3.1.0", "linux_amd64");
    let w = Work::new(NULL_TF);
    let fs = format!("-fs-mirror={}", mirror.path().display());

    let r = w.run(&[&fs, "-platform=linux_amd64", "-platform=darwin_arm64"]);
    assert_eq!(r.code, 0, "{}\n{}", r.stdout, r.stderr);
    assert_eq!(
        r.stdout,
        format!("- Fetching hashicorp/null 3.2.1 for linux_amd64...\n- Retrieved hashicorp/null 3.2.1 for linux_amd64 (unauthenticated)\n- Fetching hashicorp/null 3.2.1 for darwin_arm64...\n- Retrieved hashicorp/null 3.2.1 for darwin_arm64 (unauthenticated)\n- Obtained hashicorp/null checksums for linux_amd64; This was a new provider and the checksums for this platform are now tracked in the lock file\n- Obtained hashicorp/null checksums for darwin_arm64; This was a new provider and the checksums for this platform are now tracked in the lock file\n{UPDATED}")
    );
    assert_eq!(r.stderr, "");
    let two = lock_text("3.2.1", "~> 3.0", &[h1_of_zip(&linux), h1_of_zip(&darwin)]);
    assert_eq!(w.lock_file(), two);
    // Nothing is left behind in the working directory.
    assert!(!w.path().join(".terraform").exists());

    // Again: nothing new.
    let r = w.run(&[&fs, "-platform=darwin_arm64"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(
        r.stdout,
        format!("- Fetching hashicorp/null 3.2.1 for darwin_arm64...\n- Retrieved hashicorp/null 3.2.1 for darwin_arm64 (unauthenticated)\n- Obtained hashicorp/null checksums for darwin_arm64; All checksums for this platform were already tracked in the lock file\n{UNCHANGED}")
    );
    assert_eq!(w.lock_file(), two);

    // A third platform adds its hash, although the lock has no hash it
    // could be checked against (the source is trusted, as OpenTofu's
    // forced install trusts it). A newer 3.3.0 does not move the lock.
    mirror_null(mirror.path(), "3.3.0", "windows_amd64");
    let r = w.run(&[&fs, "-platform=windows_amd64"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        r.stdout.contains("- Fetching hashicorp/null 3.2.1 for windows_amd64...\n")
            && r.stdout.contains("- Obtained hashicorp/null checksums for windows_amd64; Additional checksums for this platform are now tracked in the lock file\n"),
        "{}",
        r.stdout
    );
    assert!(r.stdout.ends_with(UPDATED));
    assert_eq!(
        w.lock_file(),
        lock_text(
            "3.2.1",
            "~> 3.0",
            &[h1_of_zip(&linux), h1_of_zip(&darwin), h1_of_zip(&windows)]
        )
    );
}

#[test]
fn lock_that_cannot_be_honoured_changes_nothing() {
    let mirror = tempfile::tempdir().unwrap();
    mirror_null(mirror.path(), "3.2.1", "linux_amd64");
    let w = Work::new(NULL_TF);
    let fs = format!("-fs-mirror={}", mirror.path().display());
    let r = w.run(&[&fs, "-platform=linux_amd64"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let before = w.lock_file();

    // A constraint the locked version no longer meets.
    std::fs::write(w.path().join("main.tf"), NULL_TF.replace("~> 3.0", "< 3.2")).unwrap();
    let r = w.run(&[&fs, "-no-color"]);
    assert_eq!(r.code, 1);
    assert_eq!(r.stdout, "");
    assert_eq!(
        r.stderr,
        "\nError: Could not retrieve providers for locking\n\nOpenTofu failed to fetch the requested providers for linux_amd64 in order to\ncalculate their checksums: some providers could not be installed:\n- registry.opentofu.org/hashicorp/null: locked provider\nregistry.opentofu.org/hashicorp/null 3.2.1 does not match configured version\nconstraint < 3.2.0; must use tofu init -upgrade to allow selection of new\nversions.\n\n"
    );
    assert_eq!(w.lock_file(), before);

    // The locked version is gone from the mirror.
    std::fs::write(w.path().join("main.tf"), NULL_TF).unwrap();
    mirror_null(mirror.path(), "3.3.0", "linux_amd64");
    std::fs::remove_file(mirror.path().join(
        "registry.opentofu.org/hashicorp/null/terraform-provider-null_3.2.1_linux_amd64.zip",
    ))
    .unwrap();
    let r = w.run(&[&fs, "-no-color"]);
    assert_eq!(r.code, 1);
    assert!(
        r.stderr.contains("- registry.opentofu.org/hashicorp/null: the previously-selected version 3.2.1\nis no longer available.\n"),
        "{}",
        r.stderr
    );
    assert_eq!(w.lock_file(), before);
}

#[test]
fn option_and_argument_errors() {
    let w = Work::new(&format!(
        "{NULL_TF}\ndata \"terraform_remote_state\" \"x\" {{\n  backend = \"local\"\n}}\n"
    ));
    let r = w.run(&["-no-color", "-fs-mirror=a", "-net-mirror=https://b/"]);
    assert_eq!(r.code, 1);
    assert_eq!(r.stderr, "\nError: Invalid installation method options\n\nThe -fs-mirror and -net-mirror command line options are mutually-exclusive.\n\n");

    let r = w.run(&["-no-color", "-net-mirror=http://mirror.example.com/"]);
    assert_eq!(r.code, 1);
    assert_eq!(r.stderr, "\nError: Invalid network mirror URL\n\nThe -net-mirror option requires a valid https: URL as the mirror base URL.\n\n");

    let r = w.run(&["-no-color", "-fs-mirror=x", "-platform=linux"]);
    assert_eq!(r.code, 1);
    assert_eq!(r.stderr, "\nError: Invalid target platform\n\nThe string \"linux\" given in the -platform option is not a valid target\nplatform: must be two words separated by an underscore.\n\n");

    let r = w.run(&["-no-color", "-fs-mirror=x", "hashicorp/random"]);
    assert_eq!(r.code, 1);
    assert_eq!(r.stderr, "\nError: Invalid provider argument\n\nThe provider registry.opentofu.org/hashicorp/random is not required by the\ncurrent configuration.\n\n");

    // The built-in provider is not locked; naming only it does nothing.
    let r = w.run(&[
        "-no-color",
        "-fs-mirror=x",
        "terraform.io/builtin/terraform",
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(r.stdout, format!("{UNCHANGED}"));
    assert!(!w.lock_file().contains("builtin"));

    // A lock file edited into nonsense is reported and left as it is.
    std::fs::write(
        w.path().join(".terraform.lock.hcl"),
        "provider \"hashicorp/null\" {\n  version = 3\n}\n",
    )
    .unwrap();
    let r = w.run(&["-no-color", "-fs-mirror=x"]);
    assert_eq!(r.code, 1);
    assert!(
        r.stderr.contains(".terraform.lock.hcl line"),
        "{}",
        r.stderr
    );
    assert_eq!(
        w.lock_file(),
        "provider \"hashicorp/null\" {\n  version = 3\n}\n"
    );
}

fn registry_cli_config(reg: &TestRegistry) -> String {
    format!(
        "host \"registry.opentofu.org\" {{\n  services = {{\n    \"providers.v1\" = \"{}\"\n  }}\n}}\n",
        reg.server.url("/v1/providers/")
    )
}

#[test]
fn registry_signed_hashes_for_every_platform() {
    let reg = TestRegistry::start();
    let linux = platform_zip("null", "3.2.1", "linux_amd64");
    let darwin = platform_zip("null", "3.2.1", "darwin_arm64");
    reg.publish(
        "hashicorp",
        "null",
        "3.2.1",
        &[
            (Platform::new("linux", "amd64"), linux.clone()),
            (Platform::new("darwin", "arm64"), darwin.clone()),
        ],
    );
    let w = Work::new(NULL_TF);
    // The installation methods of the CLI configuration do not apply.
    std::fs::write(
        &w.cli_config,
        format!(
            "{}provider_installation {{\n  filesystem_mirror {{\n    path = \"/nonexistent\"\n  }}\n}}\n",
            registry_cli_config(&reg)
        ),
    )
    .unwrap();
    let r = w.run(&["-platform=linux_amd64", "-platform=darwin_arm64"]);
    assert_eq!(r.code, 0, "{}\n{}", r.stdout, r.stderr);
    let key = &reg.key.key_id;
    assert!(
        r.stdout.starts_with(&format!("- Fetching hashicorp/null 3.2.1 for linux_amd64...\n- Retrieved hashicorp/null 3.2.1 for linux_amd64 (signed, key ID {key})\n- Fetching hashicorp/null 3.2.1 for darwin_arm64...\n- Retrieved hashicorp/null 3.2.1 for darwin_arm64 (signed, key ID {key})\n")),
        "{}",
        r.stdout
    );
    // Both platforms' own h1: hashes and the signed zh: hashes of all.
    assert_eq!(
        w.lock_file(),
        lock_text(
            "3.2.1",
            "~> 3.0",
            &[
                h1_of_zip(&linux),
                h1_of_zip(&darwin),
                format!("zh:{}", sha256_hex(&linux)),
                format!("zh:{}", sha256_hex(&darwin)),
            ]
        )
    );

    // A platform the release lacks: nothing is written.
    let before = w.lock_file();
    let r = w.run(&["-no-color", "-platform=freebsd_arm"]);
    assert_eq!(r.code, 1, "{}", r.stdout);
    assert!(
        r.stderr.contains("- registry.opentofu.org/hashicorp/null: provider\nregistry.opentofu.org/hashicorp/null 3.2.1 is not available for freebsd_arm."),
        "{}",
        r.stderr
    );
    assert_eq!(w.lock_file(), before);

    // A download that is not what SHA256SUMS names.
    reg.replace_archive(
        "hashicorp",
        "null",
        "3.2.1",
        &Platform::new("darwin", "arm64"),
        Route::bytes(platform_zip("null", "3.2.1", "evil")),
    );
    std::fs::remove_file(w.path().join(".terraform.lock.hcl")).unwrap();
    let r = w.run(&["-no-color", "-platform=darwin_arm64"]);
    assert_eq!(r.code, 1, "{}", r.stdout);
    assert!(
        r.stderr
            .contains("Error: Could not retrieve providers for locking"),
        "{}",
        r.stderr
    );
    assert!(!w.path().join(".terraform.lock.hcl").exists());
}

#[test]
fn plugin_cache_is_used_only_when_enabled() {
    let mirror = tempfile::tempdir().unwrap();
    mirror_null(mirror.path(), "3.2.1", "linux_amd64");
    let cache = tempfile::tempdir().unwrap();
    let mut w = Work::new(NULL_TF);
    w.envs.push((
        "TF_PLUGIN_CACHE_DIR".into(),
        cache.path().display().to_string(),
    ));
    let fs = format!("-fs-mirror={}", mirror.path().display());
    let cached = cache
        .path()
        .join("registry.opentofu.org/hashicorp/null/3.2.1/linux_amd64");

    let r = w.run(&[&fs, "-platform=linux_amd64"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(!cached.exists());

    let r = w.run(&[&fs, "-platform=linux_amd64", "-enable-plugin-cache"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(cached.join("terraform-provider-null_v3.2.1").is_file());
    // With the lock file's hash matching, the cached copy is used and
    // nothing is fetched (the mirror's package is now another one).
    mirror_null(mirror.path(), "3.2.1", "linux_amd64_changed");
    std::fs::rename(
        mirror.path().join("registry.opentofu.org/hashicorp/null/terraform-provider-null_3.2.1_linux_amd64_changed.zip"),
        mirror.path().join("registry.opentofu.org/hashicorp/null/terraform-provider-null_3.2.1_linux_amd64.zip"),
    )
    .unwrap();
    let r = w.run(&[&fs, "-platform=linux_amd64", "-enable-plugin-cache"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(
        r.stdout,
        format!("- Obtained hashicorp/null checksums for linux_amd64; All checksums for this platform were already tracked in the lock file\n{UNCHANGED}")
    );
}

/// `terraform providers lock -fs-mirror` on the same mirror writes the
/// same entries (with the host written out, both tools agree offline).
#[test]
#[allow(clippy::print_stdout)] // the printed reason for skipping
fn same_entries_as_terraform() {
    let Some(terraform) = which("terraform") else {
        println!("skipped: terraform is not on PATH");
        return;
    };
    let mirror = tempfile::tempdir().unwrap();
    for p in ["linux_amd64", "darwin_arm64", "windows_386"] {
        mirror_null(mirror.path(), "3.2.1", p);
        mirror_null(mirror.path(), "3.1.0", p);
    }
    let widget = mirror
        .path()
        .join("registry.opentofu.org/acme/widget/0.1.0/linux_amd64");
    std::fs::create_dir_all(&widget).unwrap();
    std::fs::write(widget.join("terraform-provider-widget"), "#!/bin/sh\n").unwrap();
    let tf = NULL_TF.replace(
        "  }\n}\n",
        "    widget = {\n      source = \"registry.opentofu.org/acme/widget\"\n    }\n  }\n}\n",
    );
    let fs = format!("-fs-mirror={}", mirror.path().display());
    let args = [
        fs.as_str(),
        "-platform=linux_amd64",
        "-platform=darwin_arm64",
    ];
    let ours = Work::new(&tf);
    let theirs = Work::new(&tf);
    // widget has only linux_amd64: both must fail the same way.
    let r = ours.run(&args);
    let t = theirs.lock_command(&terraform, &args).output().unwrap();
    assert_eq!(r.code, t.status.code().unwrap_or(-1), "{}", r.stderr);
    assert_eq!(r.code, 1);
    assert_eq!(ours.lock_file(), theirs.lock_file());

    let args = [
        fs.as_str(),
        "-platform=linux_amd64",
        "-platform=darwin_arm64",
        "registry.opentofu.org/hashicorp/null",
    ];
    let r = ours.run(&args);
    let t = theirs.lock_command(&terraform, &args).output().unwrap();
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(t.status.success(), "{}", String::from_utf8_lossy(&t.stderr));
    let body = |s: String| s.split_once("\n\n").map(|(_, b)| b.to_string()).unwrap();
    assert_eq!(body(ours.lock_file()), body(theirs.lock_file()));
    // The progress lines, tool names and the default host aside, sorted:
    // terraform prints the "Obtained" lines in Go map order of platforms.
    let lines = |s: &str| -> Vec<String> {
        let mut v: Vec<String> = s
            .lines()
            .filter(|l| l.starts_with("- "))
            .map(|l| l.replace("registry.opentofu.org/", ""))
            .collect();
        v.sort();
        v
    };
    assert_eq!(lines(&r.stdout), lines(&String::from_utf8_lossy(&t.stdout)));

    // Adding a platform to an existing lock file.
    let args = [
        fs.as_str(),
        "-platform=windows_386",
        "registry.opentofu.org/hashicorp/null",
    ];
    let r = ours.run(&args);
    let t = theirs.lock_command(&terraform, &args).output().unwrap();
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(t.status.success());
    assert_eq!(body(ours.lock_file()), body(theirs.lock_file()));
    assert_eq!(lines(&r.stdout), lines(&String::from_utf8_lossy(&t.stdout)));
}

fn which(name: &str) -> Option<PathBuf> {
    std::env::var_os("PATH").and_then(|p| {
        std::env::split_paths(&p)
            .map(|d| d.join(name))
            .find(|f| f.is_file())
    })
}
