//! The CLI configuration's `module_cache_dir` (a tofu-rs addition, read
//! as OpenTofu reads `plugin_cache_dir`): where `init` keeps fetched
//! module packages for other roots and later runs. `TF_MODULE_CACHE_DIR`
//! wins over the files, as `TF_PLUGIN_CACHE_DIR` does for providers.

use std::path::PathBuf;

use hclsyntax::{BodySchema, Diagnostic, Diagnostics};

use crate::config::{cli_config_files, static_string};

/// The environment variable that sets the module cache directory.
pub const MODULE_CACHE_DIR_ENV: &str = "TF_MODULE_CACHE_DIR";

/// The CLI configuration's settings for module installation.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ModuleSettings {
    /// Where fetched module packages are cached; `None`: no cache.
    pub module_cache_dir: Option<PathBuf>,
}

/// Reads `module_cache_dir` from one CLI configuration file's source.
/// An empty string is no setting, as for `plugin_cache_dir`.
pub fn parse_module_settings(name: &str, src: &[u8]) -> (ModuleSettings, Diagnostics) {
    let mut settings = ModuleSettings::default();
    let (file, mut diags) = hclsyntax::parse_file(name, src);
    let (content, _, d) = file
        .body
        .partial_content(&BodySchema::new(&["module_cache_dir"], &[]));
    diags.extend(d);
    if let Some(a) = content.attribute("module_cache_dir") {
        match static_string(&a.expr) {
            Some(s) if !s.is_empty() => settings.module_cache_dir = Some(PathBuf::from(s)),
            Some(_) => {}
            None => diags.push(Diagnostic::error(
                "Invalid module_cache_dir",
                "The module_cache_dir setting must be a string.",
                a.expr.range.clone(),
            )),
        }
    }
    (settings, diags)
}

/// The settings for this process: the first CLI configuration file that
/// sets `module_cache_dir` (in [`cli_config_files`] order, the rule
/// OpenTofu's `Config.Merge` applies to `plugin_cache_dir`), replaced by
/// a non-empty `TF_MODULE_CACHE_DIR`.
pub fn load_module_settings() -> (ModuleSettings, Diagnostics) {
    let mut settings = ModuleSettings::default();
    let mut diags = Diagnostics::new();
    for path in cli_config_files() {
        let Ok(src) = std::fs::read(&path) else {
            continue;
        };
        let (file, d) = parse_module_settings(&path.to_string_lossy(), &src);
        diags.extend(d);
        if settings.module_cache_dir.is_none() {
            settings.module_cache_dir = file.module_cache_dir;
        }
    }
    if let Some(v) = std::env::var_os(MODULE_CACHE_DIR_ENV).filter(|v| !v.is_empty()) {
        settings.module_cache_dir = Some(PathBuf::from(v));
    }
    (settings, diags)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_module_cache_dir_beside_other_settings() {
        let src = br#"
plugin_cache_dir = "/p"
module_cache_dir = "/var/cache/tofu-modules"
host "example.com" {
  services = {}
}
"#;
        let (s, diags) = parse_module_settings("a.tfrc", src);
        assert!(diags.is_empty(), "{diags:?}");
        assert_eq!(
            s.module_cache_dir,
            Some(PathBuf::from("/var/cache/tofu-modules"))
        );
        let (s, diags) = parse_module_settings("b.tfrc", b"module_cache_dir = \"\"\n");
        assert!(diags.is_empty(), "{diags:?}");
        assert_eq!(s.module_cache_dir, None);
        let (_, diags) = parse_module_settings("c.tfrc", b"module_cache_dir = 3\n");
        assert_eq!(diags[0].summary, "Invalid module_cache_dir");
        let (s, diags) = parse_module_settings("d.tfrc.json", br#"{"module_cache_dir": "/j"}"#);
        assert!(diags.is_empty(), "{diags:?}");
        assert_eq!(s.module_cache_dir, Some(PathBuf::from("/j")));
    }

    /// The variable wins over the file, as `TF_PLUGIN_CACHE_DIR` does.
    /// The only test in this crate that sets either variable, so it
    /// cannot race another.
    #[test]
    fn the_environment_wins_over_the_file() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("cli.tfrc");
        std::fs::write(&file, "module_cache_dir = \"/from-file\"\n").unwrap();
        std::env::set_var("TF_CLI_CONFIG_FILE", &file);
        std::env::remove_var(MODULE_CACHE_DIR_ENV);
        let (s, _) = load_module_settings();
        assert_eq!(s.module_cache_dir, Some(PathBuf::from("/from-file")));
        std::env::set_var(MODULE_CACHE_DIR_ENV, "/from-env");
        let (s, _) = load_module_settings();
        assert_eq!(s.module_cache_dir, Some(PathBuf::from("/from-env")));
        std::env::set_var(MODULE_CACHE_DIR_ENV, "");
        let (s, _) = load_module_settings();
        assert_eq!(s.module_cache_dir, Some(PathBuf::from("/from-file")));
        std::env::remove_var(MODULE_CACHE_DIR_ENV);
        std::env::remove_var("TF_CLI_CONFIG_FILE");
    }
}
