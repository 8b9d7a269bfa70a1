//! Module source addresses (`internal/addrs/module_source.go`): the three
//! kinds a `module` block's `source` can be — a local path inside the
//! caller's package, a module registry address, or a remote package address
//! as normalized by go-getter's detectors.

use std::fmt;

use crate::getter::{self, clean_path, split_package_subdir, DetectError};
use crate::gourl::go_quote;
use crate::hostname::Hostname;

/// The registry host implied when a registry address names none.
pub const DEFAULT_MODULE_REGISTRY_HOST: &str = "registry.opentofu.org";

/// A module package in a module registry: `host/namespace/name/system`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ModuleRegistryPackage {
    pub host: Hostname,
    pub namespace: String,
    pub name: String,
    pub target_system: String,
}

impl ModuleRegistryPackage {
    /// `namespace/name/system`, as sent to the registry's API.
    pub fn for_registry_protocol(&self) -> String {
        format!("{}/{}/{}", self.namespace, self.name, self.target_system)
    }

    /// The address as written in configuration: the default host omitted.
    pub fn for_display(&self) -> String {
        if self.host.as_str() == DEFAULT_MODULE_REGISTRY_HOST {
            self.for_registry_protocol()
        } else {
            self.to_string()
        }
    }
}

/// The full form, host always included (in Unicode).
impl fmt::Display for ModuleRegistryPackage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}/{}",
            self.host.for_display(),
            self.for_registry_protocol()
        )
    }
}

/// Where a module call's code comes from.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum ModuleSource {
    /// A path within the caller's package, normalized with forward slashes
    /// and always starting `./` or `../`.
    Local(String),
    /// A registry module; the registry resolves it (with a version) to a
    /// remote package. `subdir` is a cleaned path, never starting `../`.
    Registry {
        package: ModuleRegistryPackage,
        subdir: String,
    },
    /// A go-getter package address after detection (always with a scheme
    /// or forced getter, e.g. `git::https://github.com/o/r.git?ref=v1`),
    /// and the subdirectory of the package to use.
    Remote { package: String, subdir: String },
}

/// Why a module source address could not be parsed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ModuleSourceError {
    /// The address matched no source type; it may be a relative path
    /// missing its `./` prefix. [`ModuleSourceError::module_call_diagnostic`]
    /// gives OpenTofu's hint.
    MaybeRelativePath { addr: String },
    /// Any other problem, with OpenTofu's message.
    Invalid(String),
}

impl ModuleSourceError {
    /// The summary and detail OpenTofu's configuration loader reports for
    /// a `module` block whose source failed to parse; `has_version` is
    /// whether the block also sets `version` (which implies a registry
    /// address was intended).
    pub fn module_call_diagnostic(&self, has_version: bool) -> (&'static str, String) {
        match self {
            ModuleSourceError::MaybeRelativePath { addr } => (
                "Invalid module source address",
                format!(
                    "OpenTofu failed to determine your intended installation method for remote module package {}.\n\nIf you intended this as a path relative to the current module, use \"./{}\" instead. The \"./\" prefix indicates that the address is a relative filesystem path.",
                    go_quote(addr),
                    addr
                ),
            ),
            ModuleSourceError::Invalid(msg) if has_version => (
                "Invalid registry module source address",
                format!(
                    "Failed to parse module registry address: {msg}.\n\nOpenTofu assumed that you intended a module registry source address because you also set the argument \"version\", which applies only to registry modules."
                ),
            ),
            ModuleSourceError::Invalid(msg) => (
                "Invalid module source address",
                format!("Failed to parse module source address: {msg}."),
            ),
        }
    }
}

impl fmt::Display for ModuleSourceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ModuleSourceError::MaybeRelativePath { addr } => write!(
                f,
                "OpenTofu cannot detect a supported external module source type for {addr}"
            ),
            ModuleSourceError::Invalid(msg) => f.write_str(msg),
        }
    }
}

impl std::error::Error for ModuleSourceError {}

impl From<DetectError> for ModuleSourceError {
    fn from(e: DetectError) -> Self {
        match e {
            DetectError::MaybeRelativePath { addr } => {
                ModuleSourceError::MaybeRelativePath { addr }
            }
            DetectError::Other(msg) => ModuleSourceError::Invalid(msg),
        }
    }
}

const LOCAL_PREFIXES: [&str; 4] = ["./", "../", ".\\", "..\\"];

/// Whether `raw` is written as a local path (`./`, `../`, or the Windows
/// forms).
pub fn is_module_source_local(raw: &str) -> bool {
    LOCAL_PREFIXES.iter().any(|p| raw.starts_with(p))
}

/// `ParseModuleSource`: local if it has a local prefix, else a registry
/// address if it parses as one, else a go-getter address.
pub fn parse_module_source(raw: &str) -> Result<ModuleSource, ModuleSourceError> {
    if is_module_source_local(raw) {
        return Ok(parse_local(raw));
    }
    if let Ok(reg) = parse_module_source_registry(raw) {
        return Ok(reg);
    }
    parse_module_source_remote(raw)
}

fn parse_local(raw: &str) -> ModuleSource {
    let raw = raw.replace('\\', "/");
    let clean = clean_path(&raw);
    if clean.starts_with("../") {
        ModuleSource::Local(clean)
    } else {
        ModuleSource::Local(format!("./{clean}"))
    }
}

/// `ParseModuleSourceRegistry`: accepts only registry addresses, with
/// errors specific to them (used when a `version` is given).
pub fn parse_module_source_registry(raw: &str) -> Result<ModuleSource, ModuleSourceError> {
    if is_module_source_local(raw) {
        return Err(ModuleSourceError::Invalid(format!(
            "can't use local directory {} as a module registry address",
            go_quote(raw)
        )));
    }
    let invalid = |s: String| Err(ModuleSourceError::Invalid(s));
    let (raw, subdir) = split_package_subdir(raw);
    if subdir.starts_with("../") {
        return invalid(format!(
            "subdirectory path {} leads outside of the module package",
            go_quote(&subdir)
        ));
    }
    let mut parts: Vec<&str> = raw.split('/').collect();
    if parts.len() != 3 && parts.len() != 4 {
        return invalid(
            "a module registry source address must have either three or four slash-separated components"
                .to_string(),
        );
    }
    let mut host = Hostname::from_normalized(DEFAULT_MODULE_REGISTRY_HOST);
    if parts.len() == 4 {
        host = match Hostname::for_comparison(parts[0]) {
            Ok(h) => h,
            Err(_) if parts[0].contains("--") => {
                return invalid(format!(
                    "invalid module registry hostname {}; internationalized domain names must be given as direct unicode characters, not in punycode",
                    go_quote(parts[0])
                ))
            }
            Err(_) => {
                return invalid(format!(
                    "invalid module registry hostname {}",
                    go_quote(parts[0])
                ))
            }
        };
        if !host.as_str().contains('.') {
            return invalid(
                "invalid module registry hostname: must contain at least one dot".to_string(),
            );
        }
        parts.remove(0);
    }
    if host.as_str() == "github.com" || host.as_str() == "bitbucket.org" {
        return invalid(format!(
            "can't use {} as a module registry host, because it's reserved for installing directly from version control repositories",
            go_quote(host.as_str())
        ));
    }
    const NAME_RULE: &str = "must be between one and 64 characters, including ASCII letters, digits, dashes, and underscores, where dashes and underscores may not be the prefix or suffix";
    if !valid_registry_name(parts[0]) {
        if parts[0].contains('.') {
            return invalid("source address must have three more components after the hostname: the namespace, the name, and the target system".to_string());
        }
        return invalid(format!(
            "invalid namespace {}: {NAME_RULE}",
            go_quote(parts[0])
        ));
    }
    if !valid_registry_name(parts[1]) {
        return invalid(format!(
            "invalid module name {}: {NAME_RULE}",
            go_quote(parts[1])
        ));
    }
    let system = parts[2];
    if system.is_empty()
        || system.len() > 64
        || !system
            .bytes()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit())
    {
        if system.contains('?') {
            return invalid(
                "module registry addresses may not include a query string portion".to_string(),
            );
        }
        return invalid(format!(
            "invalid target system {}: must be between one and 64 ASCII letters or digits",
            go_quote(system)
        ));
    }
    Ok(ModuleSource::Registry {
        package: ModuleRegistryPackage {
            host,
            namespace: parts[0].to_string(),
            name: parts[1].to_string(),
            target_system: system.to_string(),
        },
        subdir,
    })
}

/// `^[0-9A-Za-z](?:[0-9A-Za-z-_]{0,62}[0-9A-Za-z])?$`
fn valid_registry_name(s: &str) -> bool {
    let b = s.as_bytes();
    if b.is_empty() || b.len() > 64 {
        return false;
    }
    let edge_ok = |c: u8| c.is_ascii_alphanumeric();
    let mid_ok = |c: u8| c.is_ascii_alphanumeric() || c == b'-' || c == b'_';
    edge_ok(b[0]) && edge_ok(b[b.len() - 1]) && b.iter().all(|c| mid_ok(*c))
}

/// `parseModuleSourceRemote`: a go-getter address, detected and split into
/// package and subdirectory.
pub fn parse_module_source_remote(raw: &str) -> Result<ModuleSource, ModuleSourceError> {
    let (raw, mut subdir) = split_package_subdir(raw);
    if subdir.starts_with("../") {
        return Err(ModuleSourceError::Invalid(format!(
            "subdirectory path {} leads outside of the module package",
            go_quote(&subdir)
        )));
    }
    let (norm, more_subdir) = getter::normalize_package_address(&raw)?;
    if !more_subdir.is_empty() {
        subdir = if subdir.is_empty() {
            clean_path(&more_subdir)
        } else {
            clean_path(&format!("{more_subdir}/{subdir}"))
        };
        if subdir.starts_with("../") {
            return Err(ModuleSourceError::Invalid(format!(
                "detected subdirectory path {} of {} leads outside of the module package",
                go_quote(&subdir),
                go_quote(&norm)
            )));
        }
    }
    Ok(ModuleSource::Remote {
        package: norm,
        subdir,
    })
}

impl ModuleSource {
    /// Whether this is a local path within the caller's package.
    pub fn is_local(&self) -> bool {
        matches!(self, ModuleSource::Local(_))
    }

    /// Whether following this source leaves the caller's module package
    /// (any non-local source starts a new package).
    pub fn enters_new_package(&self) -> bool {
        !self.is_local()
    }

    /// The idiomatic written form: the default registry host omitted.
    pub fn for_display(&self) -> String {
        match self {
            ModuleSource::Registry { package, subdir } if !subdir.is_empty() => {
                format!("{}//{}", package.for_display(), subdir)
            }
            ModuleSource::Registry { package, .. } => package.for_display(),
            other => other.to_string(),
        }
    }

    /// The subdirectory within the package, if any (empty for local paths).
    pub fn subdir(&self) -> &str {
        match self {
            ModuleSource::Local(_) => "",
            ModuleSource::Registry { subdir, .. } | ModuleSource::Remote { subdir, .. } => subdir,
        }
    }

    /// `ModuleSourceRemote.FromRegistry`: the remote address a registry
    /// returned for `given`, with the user's subdirectory appended to the
    /// registry's. `self` must be a remote source; other kinds are
    /// returned unchanged.
    pub fn from_registry(&self, given_subdir: &str) -> ModuleSource {
        match self {
            ModuleSource::Remote { package, subdir } => {
                let subdir = match (subdir.is_empty(), given_subdir.is_empty()) {
                    (false, false) => clean_path(&format!("{subdir}/{given_subdir}")),
                    (true, false) => given_subdir.to_string(),
                    _ => subdir.clone(),
                };
                ModuleSource::Remote {
                    package: package.clone(),
                    subdir,
                }
            }
            other => other.clone(),
        }
    }
}

/// OpenTofu's `String()`: the full form, registry host included and a
/// remote subdirectory placed before any `?query`.
impl fmt::Display for ModuleSource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ModuleSource::Local(p) => f.write_str(p),
            ModuleSource::Registry { package, subdir } if subdir.is_empty() => {
                write!(f, "{package}")
            }
            ModuleSource::Registry { package, subdir } => write!(f, "{package}//{subdir}"),
            ModuleSource::Remote { package, subdir } if subdir.is_empty() => f.write_str(package),
            ModuleSource::Remote { package, subdir } => match package.split_once('?') {
                Some((base, query)) => write!(f, "{base}//{subdir}?{query}"),
                None => write!(f, "{package}//{subdir}"),
            },
        }
    }
}

#[cfg(test)]
#[path = "module_source_tests.rs"]
mod tests;
