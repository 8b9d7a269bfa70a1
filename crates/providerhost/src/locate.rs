//! Where each provider's plugin is (`Meta.providerFactories` and
//! `providercache.CachedProvider.ExecutableFile`): every provider of the
//! lock file in the working directory's provider cache
//! (`.terraform/providers/HOST/NAMESPACE/TYPE/VERSION/OS_ARCH`, a directory
//! or a link into the plugin cache, as `init` left it), and each
//! development override's directory instead of its lock.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use addrs::Provider;
use depsfile::Locks;

/// A provider whose package was found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LocatedProvider {
    pub provider: Provider,
    /// The locked version; empty for a development override.
    pub version: String,
    /// The package directory.
    pub package_dir: PathBuf,
}

impl LocatedProvider {
    /// The plugin's executable (`ExecutableFile`): the first file, in name
    /// order, named `terraform-provider-TYPE` or that followed by `_` or `.`
    /// and more. The error is OpenTofu's.
    pub fn executable(&self) -> Result<PathBuf, String> {
        let want = format!("terraform-provider-{}", self.provider.type_name);
        let entries = std::fs::read_dir(&self.package_dir).map_err(|e| {
            format!(
                "could not read package directory: open {}: {}",
                self.package_dir.display(),
                go_io_error(&e)
            )
        })?;
        let mut names: Vec<(String, PathBuf)> = entries
            .filter_map(|e| e.ok())
            .filter(|e| !e.path().is_dir())
            .map(|e| (e.file_name().to_string_lossy().into_owned(), e.path()))
            .collect();
        names.sort();
        names
            .into_iter()
            .find(|(name, _)| {
                name.strip_prefix(&want)
                    .is_some_and(|rest| rest.is_empty() || rest.starts_with(['_', '.']))
            })
            .map(|(_, path)| path)
            .ok_or_else(|| format!("could not find executable file starting with {want}"))
    }
}

/// Go's wording of the common I/O errors (`syscall.Errno.Error`).
pub fn go_io_error(e: &std::io::Error) -> String {
    match e.kind() {
        std::io::ErrorKind::NotFound => "no such file or directory".into(),
        std::io::ErrorKind::PermissionDenied => "permission denied".into(),
        _ => {
            let s = e.to_string();
            // "Not a directory (os error 20)" -> "not a directory"
            let s = s.split(" (os error").next().unwrap_or(&s);
            let mut c = s.chars();
            match c.next() {
                Some(f) => f.to_lowercase().chain(c).collect(),
                None => String::new(),
            }
        }
    }
}

/// What [`locate_providers`] found.
#[derive(Debug, Clone, Default)]
pub struct ProviderLocations {
    pub found: BTreeMap<Provider, LocatedProvider>,
    /// Providers of the lock file with no package, with OpenTofu's reason
    /// (`there is no package for … cached in .terraform/providers`).
    pub errors: BTreeMap<Provider, String>,
}

impl ProviderLocations {
    /// OpenTofu's `providerPluginErrors` text, when there are errors.
    pub fn error_text(&self) -> Option<String> {
        match self.errors.len() {
            0 => None,
            1 => self.errors.iter().next().map(|(p, e)| format!("{p}: {e}")),
            _ => {
                let mut s = String::from("missing or corrupted provider plugins:");
                for (p, e) in &self.errors {
                    s.push_str(&format!("\n  - {p}: {e}"));
                }
                Some(s)
            }
        }
    }
}

/// Finds every locked provider's package under `providers_dir` (the data
/// directory's `providers`, named in messages as `shown_dir`) for
/// `platform` (`linux_amd64`), and every development override.
pub fn locate_providers(
    locks: &Locks,
    providers_dir: &Path,
    shown_dir: &str,
    platform: &str,
    dev_overrides: &BTreeMap<Provider, PathBuf>,
) -> ProviderLocations {
    let mut out = ProviderLocations::default();
    for lock in locks.all_providers() {
        if locks.provider_is_overridden(&lock.provider)
            || dev_overrides.contains_key(&lock.provider)
        {
            continue;
        }
        let p = &lock.provider;
        let version = lock.version.to_string();
        let dir = providers_dir
            .join(p.hostname.to_string())
            .join(&p.namespace)
            .join(&p.type_name)
            .join(&version)
            .join(platform);
        if dir.is_dir() {
            out.found.insert(
                p.clone(),
                LocatedProvider {
                    provider: p.clone(),
                    version,
                    package_dir: dir,
                },
            );
        } else {
            out.errors.insert(
                p.clone(),
                format!("there is no package for {p} {version} cached in {shown_dir}"),
            );
        }
    }
    for (p, dir) in dev_overrides {
        out.found.insert(
            p.clone(),
            LocatedProvider {
                provider: p.clone(),
                version: String::new(),
                package_dir: dir.clone(),
            },
        );
    }
    out
}
