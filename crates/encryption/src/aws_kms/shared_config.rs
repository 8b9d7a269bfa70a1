//! The AWS shared configuration and credentials files (`~/.aws/config`,
//! `~/.aws/credentials`) as the Go SDK v2 reads a profile from them:
//! INI sections, `[profile NAME]` (or `[default]`) in the config files,
//! `[NAME]` in the credentials files, credentials files over config files
//! and later files over earlier ones, key by key.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// One profile's settings, merged over every file that names it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Profile {
    pub name: String,
    /// Lowercased keys (`aws_access_key_id`) to their values.
    pub values: BTreeMap<String, String>,
    /// The file the access key came from: the SDK names it in the
    /// credentials' source (`SharedConfigCredentials: PATH`).
    pub access_key_file: Option<PathBuf>,
}

impl Profile {
    /// A setting, if present and not empty.
    pub fn get(&self, key: &str) -> Option<&str> {
        self.values
            .get(key)
            .map(String::as_str)
            .filter(|v| !v.is_empty())
    }
}

/// Which kind of file a path is: section names differ between them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum FileKind {
    Config,
    Credentials,
}

/// Reads `profile` from the config files, then the credentials files.
/// `Ok(None)` when no file has a section for it. A file that does not
/// exist is skipped, as the SDK skips it.
pub fn load_profile(
    profile: &str,
    config_files: &[PathBuf],
    credentials_files: &[PathBuf],
) -> Result<Option<Profile>, String> {
    let mut found = false;
    let mut out = Profile {
        name: profile.to_string(),
        ..Profile::default()
    };
    let files = config_files
        .iter()
        .map(|p| (p, FileKind::Config))
        .chain(credentials_files.iter().map(|p| (p, FileKind::Credentials)));
    for (path, kind) in files {
        let text = match std::fs::read_to_string(path) {
            Ok(t) => t,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => continue,
            Err(e) => {
                return Err(format!(
                    "failed to load shared config file, {}, {e}",
                    path.display()
                ))
            }
        };
        for (section, values) in parse_ini(&text) {
            if profile_of_section(&section, kind).as_deref() != Some(profile) {
                continue;
            }
            found = true;
            if values.contains_key("aws_access_key_id") {
                out.access_key_file = Some(path.clone());
            }
            out.values.extend(values);
        }
    }
    Ok(found.then_some(out))
}

/// The profile a section header names in a file of `kind`, if any.
fn profile_of_section(section: &str, kind: FileKind) -> Option<String> {
    match kind {
        FileKind::Credentials => Some(section.to_string()),
        FileKind::Config => {
            if section == "default" {
                return Some(section.to_string());
            }
            // `[profile NAME]`; other sections (`[sso-session X]`,
            // `[services X]`, a bare `[NAME]`) hold no profile.
            let rest = section.strip_prefix("profile")?;
            rest.starts_with(char::is_whitespace)
                .then(|| rest.trim().to_string())
        }
    }
}

/// The sections of an INI file, in order, each with its lowercased keys.
/// `#` and `;` start comment lines; an indented line continues the value
/// above it (nested settings such as `s3 =` followed by indented keys).
fn parse_ini(text: &str) -> Vec<(String, BTreeMap<String, String>)> {
    let mut sections: Vec<(String, BTreeMap<String, String>)> = Vec::new();
    let mut last_key: Option<String> = None;
    for raw in text.lines() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') || line.starts_with(';') {
            continue;
        }
        if let Some(inner) = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
            sections.push((inner.trim().to_string(), BTreeMap::new()));
            last_key = None;
            continue;
        }
        let Some((_, values)) = sections.last_mut() else {
            continue;
        };
        if raw.starts_with(char::is_whitespace) {
            if let Some(v) = last_key.as_ref().and_then(|k| values.get_mut(k)) {
                if !v.is_empty() {
                    v.push('\n');
                }
                v.push_str(line);
                continue;
            }
        }
        if let Some((k, v)) = line.split_once('=') {
            let key = k.trim().to_ascii_lowercase();
            values.insert(key.clone(), v.trim().to_string());
            last_key = Some(key);
        }
    }
    sections
}

/// `~/...` against the home directory, as aws-sdk-go-base expands the
/// `shared_*_files` paths.
pub fn expand_home(path: &str, home: Option<&str>) -> PathBuf {
    match (path.strip_prefix("~/"), home) {
        (Some(rest), Some(h)) => Path::new(h).join(rest),
        _ => PathBuf::from(path),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ini_sections_keys_comments_and_continuations() {
        let got = parse_ini(
            "# comment\n[default]\nAWS_Access_Key_ID = AK\n; another\naws_secret_access_key=SK\n\n[profile dev]\ns3 =\n  addressing_style = path\nregion = eu-west-1\n",
        );
        assert_eq!(got.len(), 2);
        assert_eq!(got[0].0, "default");
        assert_eq!(got[0].1["aws_access_key_id"], "AK");
        assert_eq!(got[0].1["aws_secret_access_key"], "SK");
        assert_eq!(got[1].0, "profile dev");
        assert_eq!(got[1].1["s3"], "addressing_style = path");
        assert_eq!(got[1].1["region"], "eu-west-1");
    }

    #[test]
    fn section_names_by_file_kind() {
        let cases: &[(&str, FileKind, Option<&str>)] = &[
            ("default", FileKind::Config, Some("default")),
            ("profile dev", FileKind::Config, Some("dev")),
            ("profile   dev ", FileKind::Config, Some("dev")),
            ("dev", FileKind::Config, None),
            ("profiledev", FileKind::Config, None),
            ("sso-session corp", FileKind::Config, None),
            ("dev", FileKind::Credentials, Some("dev")),
            ("default", FileKind::Credentials, Some("default")),
        ];
        for (section, kind, want) in cases {
            assert_eq!(
                profile_of_section(section, *kind).as_deref(),
                *want,
                "{section:?} in {kind:?}"
            );
        }
    }

    #[test]
    fn credentials_files_override_config_files() {
        let dir = tempfile::tempdir().unwrap();
        let config = dir.path().join("config");
        let creds = dir.path().join("credentials");
        std::fs::write(
            &config,
            "[profile dev]\naws_access_key_id = FROM_CONFIG\nregion = eu-west-1\n",
        )
        .unwrap();
        std::fs::write(&creds, "[dev]\naws_access_key_id = FROM_CREDS\n").unwrap();
        let p = load_profile(
            "dev",
            std::slice::from_ref(&config),
            std::slice::from_ref(&creds),
        )
        .unwrap()
        .unwrap();
        assert_eq!(p.get("aws_access_key_id"), Some("FROM_CREDS"));
        assert_eq!(p.get("region"), Some("eu-west-1"));
        assert_eq!(p.access_key_file.as_deref(), Some(creds.as_path()));
        assert_eq!(load_profile("prod", &[config], &[creds]).unwrap(), None);
    }

    #[test]
    fn missing_files_are_skipped() {
        let dir = tempfile::tempdir().unwrap();
        let none = [dir.path().join("nope")];
        assert_eq!(load_profile("default", &none, &none).unwrap(), None);
    }

    #[test]
    fn home_expansion() {
        assert_eq!(
            expand_home("~/.aws/creds", Some("/home/u")),
            PathBuf::from("/home/u/.aws/creds")
        );
        assert_eq!(
            expand_home("/etc/creds", Some("/home/u")),
            PathBuf::from("/etc/creds")
        );
        assert_eq!(expand_home("~/x", None), PathBuf::from("~/x"));
    }
}
