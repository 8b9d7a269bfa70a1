//! The files `init` reads from the working directory and the user's
//! home: `.terraform.lock.hcl`, `.terraform/modules/modules.json` and the
//! CLI configuration (native or JSON; registry hosts, credentials and
//! provider installation). The first byte picks which. A lock file or
//! manifest that reads cleanly must also read cleanly after being written
//! back (`init` rewrites both). Any panic is a bug: a damaged file must
//! end in a diagnostic or an error.
#![no_main]

use std::sync::Arc;

use libfuzzer_sys::fuzz_target;
use tfdiags::{Diagnostics, SourceMap};

fuzz_target!(|data: &[u8]| {
    let Some((&kind, bytes)) = data.split_first() else {
        return;
    };
    match kind % 4 {
        0 => lock_file(bytes),
        1 => manifest(bytes),
        2 => cli_config("terraform.rc", bytes),
        _ => cli_config("terraform.rc.json", bytes),
    }
});

fn sources(name: &str, bytes: &[u8]) -> SourceMap {
    let text = String::from_utf8_lossy(bytes);
    [Arc::new(hclsyntax::SourceFile::new(name, text.as_ref()))]
        .into_iter()
        .collect()
}

fn lock_file(bytes: &[u8]) {
    const NAME: &str = ".terraform.lock.hcl";
    let (locks, diags) = depsfile::load_locks_from_bytes(bytes, NAME);
    let failed = hclsyntax::has_errors(&diags);
    tofu_rs_fuzz::render_diagnostics(&Diagnostics::from(diags), &sources(NAME, bytes));
    if failed {
        return;
    }
    let written = depsfile::save_locks_to_bytes(&locks);
    let (_, again) = depsfile::load_locks_from_bytes(&written, NAME);
    assert!(
        !hclsyntax::has_errors(&again),
        "a lock file that read cleanly was written back unreadable:\n{}\n{again:?}",
        String::from_utf8_lossy(&written)
    );
}

fn manifest(bytes: &[u8]) {
    let Ok(m) = initwd::Manifest::parse(bytes) else {
        return;
    };
    let written = m.to_bytes();
    if let Err(e) = initwd::Manifest::parse(&written) {
        panic!(
            "a manifest that read cleanly was written back unreadable: {e}\n{}",
            String::from_utf8_lossy(&written)
        );
    }
}

fn cli_config(name: &str, bytes: &[u8]) {
    let mut hosts = cliconfig::RegistryHosts::default();
    let mut diags = Diagnostics::from(cliconfig::parse_registry_hosts(
        name, bytes, &mut hosts,
    ));
    let (_, more) = getproviders::parse_provider_cli_config(name, bytes);
    diags.append(Diagnostics::from(more));
    tofu_rs_fuzz::render_diagnostics(&diags, &sources(name, bytes));
}
