//! The credentials the `aws_kms` key provider signs with, found the way
//! aws-sdk-go-base and the Go SDK's default chain find them, as far as
//! that works offline: the provider's `access_key` / `secret_key` /
//! `token`; a configured `profile`; `AWS_ACCESS_KEY_ID` /
//! `AWS_SECRET_ACCESS_KEY` / `AWS_SESSION_TOKEN`; then the profile named
//! by `AWS_PROFILE` (or `default`) in the shared credentials and config
//! files.
//!
//! Sources that need another service (assume-role profiles, SSO,
//! `credential_process`, web identity, container and EC2 instance
//! credentials) are reported as not supported rather than skipped, so a
//! configuration that relies on one fails here instead of signing with
//! other credentials than OpenTofu would.

use std::path::PathBuf;

use super::config::{AwsBase, ImdsState, CALLER_DOCUMENTATION_URL};
use super::shared_config::{expand_home, load_profile, Profile};
use super::{AwsDiag, Env};

/// An access key pair and its session token.
#[derive(Clone, PartialEq, Eq)]
pub struct Credentials {
    pub access_key_id: String,
    pub secret_access_key: String,
    pub session_token: Option<String>,
    /// Where they came from, in the SDK's words (`EnvConfigCredentials`).
    pub source: String,
}

impl std::fmt::Debug for Credentials {
    // The secret stays out of test failure output and logs.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Credentials")
            .field("access_key_id", &self.access_key_id)
            .field("session_token", &self.session_token.as_ref().map(|_| "***"))
            .field("source", &self.source)
            .finish_non_exhaustive()
    }
}

/// `GetAwsConfig`'s credential resolution: the credentials, or the
/// diagnostics aws-sdk-go-base reports.
pub fn resolve(base: &AwsBase, env: Env<'_>) -> Result<Credentials, AwsDiag> {
    if !base.access_key.is_empty() || !base.secret_key.is_empty() || !base.token.is_empty() {
        // A static provider with a missing half fails on Retrieve.
        if base.access_key.is_empty() || base.secret_key.is_empty() {
            return Err(AwsDiag::simple(
                "retrieving credentials: static credentials are empty",
            ));
        }
        return Ok(Credentials {
            access_key_id: base.access_key.clone(),
            secret_access_key: base.secret_key.clone(),
            session_token: non_empty(&base.token),
            source: "StaticCredentials".into(),
        });
    }
    let var = |name: &str| env(name).filter(|v| !v.is_empty());
    let files = SharedFiles::new(base, env);
    if !base.profile.is_empty() {
        // A configured profile comes before the environment's keys.
        let profile = files.load(&base.profile, true)?;
        return from_profile(&profile, base, env);
    }
    let env_id = var("AWS_ACCESS_KEY_ID").or_else(|| var("AWS_ACCESS_KEY"));
    let env_secret = var("AWS_SECRET_ACCESS_KEY").or_else(|| var("AWS_SECRET_KEY"));
    if let (Some(id), Some(secret)) = (env_id, env_secret) {
        return Ok(Credentials {
            access_key_id: id,
            secret_access_key: secret,
            session_token: var("AWS_SESSION_TOKEN"),
            source: "EnvConfigCredentials".into(),
        });
    }
    if var("AWS_WEB_IDENTITY_TOKEN_FILE").is_some() {
        return Err(unsupported(
            "web identity credentials (AWS_WEB_IDENTITY_TOKEN_FILE)",
        ));
    }
    let (name, named) = match var("AWS_PROFILE").or_else(|| var("AWS_DEFAULT_PROFILE")) {
        Some(p) => (p, true),
        None => ("default".to_string(), false),
    };
    let profile = files.load(&name, named)?;
    from_profile(&profile, base, env)
}

/// The credentials a profile holds, or why it holds none tofu-rs can use.
fn from_profile(profile: &Profile, base: &AwsBase, env: Env<'_>) -> Result<Credentials, AwsDiag> {
    let var = |name: &str| env(name).filter(|v| !v.is_empty());
    let quoted = cty::format::go_quote(&profile.name);
    if profile.get("role_arn").is_some() {
        return Err(unsupported(&format!(
            "assuming a role from a shared config profile (profile {quoted} sets role_arn)"
        )));
    }
    if let (Some(id), Some(secret)) = (
        profile.get("aws_access_key_id"),
        profile.get("aws_secret_access_key"),
    ) {
        let file = profile
            .access_key_file
            .as_ref()
            .map(|p| p.display().to_string())
            .unwrap_or_default();
        return Ok(Credentials {
            access_key_id: id.to_string(),
            secret_access_key: secret.to_string(),
            session_token: profile.get("aws_session_token").map(str::to_string),
            source: format!("SharedConfigCredentials: {file}"),
        });
    }
    for (key, what) in [
        ("credential_source", "credential_source"),
        ("web_identity_token_file", "web identity credentials"),
        ("sso_session", "SSO credentials"),
        ("sso_start_url", "SSO credentials"),
        ("credential_process", "credential_process"),
    ] {
        if profile.get(key).is_some() {
            return Err(unsupported(&format!(
                "{what} (profile {quoted} sets {key})"
            )));
        }
    }
    if var("AWS_CONTAINER_CREDENTIALS_RELATIVE_URI").is_some()
        || var("AWS_CONTAINER_CREDENTIALS_FULL_URI").is_some()
    {
        return Err(unsupported(
            "container credentials (AWS_CONTAINER_CREDENTIALS_*)",
        ));
    }
    // The chain's last source, the EC2 instance role, is where the SDK's
    // error comes from when nothing else held credentials.
    let imds_disabled = match base.imds {
        ImdsState::Disabled => true,
        ImdsState::Enabled => false,
        ImdsState::Default => {
            var("AWS_EC2_METADATA_DISABLED").is_some_and(|v| v.eq_ignore_ascii_case("true"))
        }
    };
    let reason = if imds_disabled {
        "access disabled to EC2 IMDS via client option, or \"AWS_EC2_METADATA_DISABLED\" environment variable"
    } else {
        "tofu-rs does not query the EC2 instance metadata service"
    };
    Err(no_valid_credential_sources(&format!(
        "failed to refresh cached credentials, no EC2 IMDS role found, operation error ec2imds: GetMetadata, {reason}"
    )))
}

/// The shared files a lookup reads: the configured ones, else the SDK's
/// (`AWS_SHARED_CREDENTIALS_FILE` / `AWS_CONFIG_FILE`, else under `~/.aws`).
struct SharedFiles {
    config: Vec<PathBuf>,
    credentials: Vec<PathBuf>,
}

impl SharedFiles {
    fn new(base: &AwsBase, env: Env<'_>) -> SharedFiles {
        let home = env("HOME").filter(|h| !h.is_empty());
        let pick = |configured: &[String], env_name: &str, default: &str| -> Vec<PathBuf> {
            if !configured.is_empty() {
                return configured
                    .iter()
                    .map(|p| expand_home(p, home.as_deref()))
                    .collect();
            }
            if let Some(p) = env(env_name).filter(|p| !p.is_empty()) {
                return vec![PathBuf::from(p)];
            }
            home.iter()
                .map(|h| PathBuf::from(h).join(".aws").join(default))
                .collect()
        };
        SharedFiles {
            config: pick(&base.shared_config_files, "AWS_CONFIG_FILE", "config"),
            credentials: pick(
                &base.shared_credentials_files,
                "AWS_SHARED_CREDENTIALS_FILE",
                "credentials",
            ),
        }
    }

    /// The profile; a profile that was asked for by name must exist, the
    /// implied `default` need not.
    fn load(&self, name: &str, named: bool) -> Result<Profile, AwsDiag> {
        match load_profile(name, &self.config, &self.credentials) {
            Ok(Some(p)) => Ok(p),
            Ok(None) if named => Err(AwsDiag::simple(&format!(
                "failed to get shared config profile, {name}"
            ))),
            Ok(None) => Ok(Profile {
                name: name.to_string(),
                ..Profile::default()
            }),
            Err(e) => Err(AwsDiag::simple(&e)),
        }
    }
}

/// aws-sdk-go-base's `NoValidCredentialSourcesError`.
fn no_valid_credential_sources(err: &str) -> AwsDiag {
    AwsDiag {
        summary: "No valid credential sources found".into(),
        detail: format!(
            "Please see {CALLER_DOCUMENTATION_URL}\nfor more information about providing credentials.\n\nError: {err}\n"
        ),
    }
}

fn unsupported(what: &str) -> AwsDiag {
    AwsDiag::simple(&format!(
        "tofu-rs does not support {what} for the aws_kms key provider"
    ))
}

fn non_empty(s: &str) -> Option<String> {
    (!s.is_empty()).then(|| s.to_string())
}

#[cfg(test)]
mod tests {
    use super::super::config::Config;
    use super::*;
    use std::collections::BTreeMap;

    /// An environment made of the given pairs, nothing else.
    fn env_of(pairs: &[(&str, &str)]) -> impl Fn(&str) -> Option<String> {
        let map: BTreeMap<String, String> = pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        move |k| map.get(k).cloned()
    }

    fn base(c: Config) -> AwsBase {
        Config {
            kms_key_id: "k".into(),
            key_spec: "AES_256".into(),
            region: "eu-central-1".into(),
            ..c
        }
        .aws_base(&|_| None)
        .unwrap()
    }

    /// A home directory holding `.aws/credentials` and `.aws/config`.
    fn home(credentials: &str, config: &str) -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join(".aws")).unwrap();
        std::fs::write(dir.path().join(".aws/credentials"), credentials).unwrap();
        std::fs::write(dir.path().join(".aws/config"), config).unwrap();
        dir
    }

    fn ok(r: Result<Credentials, AwsDiag>) -> Credentials {
        r.unwrap_or_else(|d| panic!("no credentials: {} : {}", d.summary, d.detail))
    }

    #[test]
    fn explicit_keys_come_first() {
        let c = base(Config {
            access_key: "AKCFG".into(),
            secret_key: "SKCFG".into(),
            token: "TOK".into(),
            ..Config::default()
        });
        let env = env_of(&[
            ("AWS_ACCESS_KEY_ID", "AKENV"),
            ("AWS_SECRET_ACCESS_KEY", "SKENV"),
        ]);
        let got = ok(resolve(&c, &env));
        assert_eq!(got.access_key_id, "AKCFG");
        assert_eq!(got.secret_access_key, "SKCFG");
        assert_eq!(got.session_token.as_deref(), Some("TOK"));
        assert_eq!(got.source, "StaticCredentials");
    }

    #[test]
    fn half_explicit_keys_are_empty_static_credentials() {
        let c = base(Config {
            access_key: "AKCFG".into(),
            ..Config::default()
        });
        let err = resolve(&c, &env_of(&[])).unwrap_err();
        assert_eq!(
            err.summary,
            "retrieving credentials: static credentials are empty"
        );
        assert_eq!(err.detail, "");
    }

    #[test]
    fn environment_keys() {
        let env = env_of(&[
            ("AWS_ACCESS_KEY_ID", "AKENV"),
            ("AWS_SECRET_ACCESS_KEY", "SKENV"),
            ("AWS_SESSION_TOKEN", "TOKENV"),
        ]);
        let got = ok(resolve(&base(Config::default()), &env));
        assert_eq!(
            (got.access_key_id.as_str(), got.secret_access_key.as_str()),
            ("AKENV", "SKENV")
        );
        assert_eq!(got.session_token.as_deref(), Some("TOKENV"));
        assert_eq!(got.source, "EnvConfigCredentials");
        // The older names are read too.
        let env = env_of(&[("AWS_ACCESS_KEY", "AKOLD"), ("AWS_SECRET_KEY", "SKOLD")]);
        assert_eq!(
            ok(resolve(&base(Config::default()), &env)).access_key_id,
            "AKOLD"
        );
    }

    #[test]
    fn default_profile_in_home() {
        let h = home(
            "[default]\naws_access_key_id = AKDEF\naws_secret_access_key = SKDEF\n",
            "",
        );
        let env = env_of(&[("HOME", h.path().to_str().unwrap())]);
        let got = ok(resolve(&base(Config::default()), &env));
        assert_eq!(got.access_key_id, "AKDEF");
        assert_eq!(
            got.source,
            format!(
                "SharedConfigCredentials: {}",
                h.path().join(".aws/credentials").display()
            )
        );
    }

    #[test]
    fn aws_profile_and_config_file_profiles() {
        let h = home(
            "[default]\naws_access_key_id = AKDEF\naws_secret_access_key = SKDEF\n",
            "[profile dev]\naws_access_key_id = AKDEV\naws_secret_access_key = SKDEV\naws_session_token = TDEV\n",
        );
        let home_str = h.path().to_str().unwrap();
        let env = env_of(&[("HOME", home_str), ("AWS_PROFILE", "dev")]);
        let got = ok(resolve(&base(Config::default()), &env));
        assert_eq!(got.access_key_id, "AKDEV");
        assert_eq!(got.session_token.as_deref(), Some("TDEV"));
        // Environment keys win over AWS_PROFILE ...
        let env = env_of(&[
            ("HOME", home_str),
            ("AWS_PROFILE", "dev"),
            ("AWS_ACCESS_KEY_ID", "AKENV"),
            ("AWS_SECRET_ACCESS_KEY", "SKENV"),
        ]);
        assert_eq!(
            ok(resolve(&base(Config::default()), &env)).access_key_id,
            "AKENV"
        );
        // ... but not over a configured profile.
        let c = base(Config {
            profile: "dev".into(),
            ..Config::default()
        });
        assert_eq!(ok(resolve(&c, &env)).access_key_id, "AKDEV");
    }

    #[test]
    fn configured_and_environment_files() {
        let dir = tempfile::tempdir().unwrap();
        let creds = dir.path().join("creds");
        std::fs::write(
            &creds,
            "[ci]\naws_access_key_id = AKCI\naws_secret_access_key = SKCI\n",
        )
        .unwrap();
        let c = base(Config {
            profile: "ci".into(),
            shared_credentials_files: vec![creds.display().to_string()],
            ..Config::default()
        });
        assert_eq!(ok(resolve(&c, &env_of(&[]))).access_key_id, "AKCI");
        let env = env_of(&[
            ("AWS_SHARED_CREDENTIALS_FILE", creds.to_str().unwrap()),
            ("AWS_PROFILE", "ci"),
        ]);
        assert_eq!(
            ok(resolve(&base(Config::default()), &env)).access_key_id,
            "AKCI"
        );
        // `~/` in a configured path is the home directory.
        let c = base(Config {
            profile: "ci".into(),
            shared_credentials_files: vec!["~/creds".into()],
            ..Config::default()
        });
        let env = env_of(&[("HOME", dir.path().to_str().unwrap())]);
        assert_eq!(ok(resolve(&c, &env)).access_key_id, "AKCI");
        // AWS_CONFIG_FILE names the config file.
        let config = dir.path().join("cfg");
        std::fs::write(
            &config,
            "[profile other]\naws_access_key_id = AKO\naws_secret_access_key = SKO\n",
        )
        .unwrap();
        let env = env_of(&[
            ("AWS_CONFIG_FILE", config.to_str().unwrap()),
            ("AWS_PROFILE", "other"),
        ]);
        assert_eq!(
            ok(resolve(&base(Config::default()), &env)).access_key_id,
            "AKO"
        );
    }

    #[test]
    fn a_named_profile_must_exist() {
        let h = home("", "");
        let home_str = h.path().to_str().unwrap();
        let c = base(Config {
            profile: "missing".into(),
            ..Config::default()
        });
        let err = resolve(&c, &env_of(&[("HOME", home_str)])).unwrap_err();
        assert_eq!(err.summary, "failed to get shared config profile, missing");
        let env = env_of(&[("HOME", home_str), ("AWS_PROFILE", "gone")]);
        let err = resolve(&base(Config::default()), &env).unwrap_err();
        assert_eq!(err.summary, "failed to get shared config profile, gone");
    }

    #[test]
    fn nothing_found_is_no_valid_credential_sources() {
        let h = home("", "");
        let env = env_of(&[("HOME", h.path().to_str().unwrap())]);
        let err = resolve(&base(Config::default()), &env).unwrap_err();
        assert_eq!(err.summary, "No valid credential sources found");
        assert_eq!(
            err.detail,
            "Please see https://opentofu.org/docs/language/settings/backends/s3\nfor more information about providing credentials.\n\nError: failed to refresh cached credentials, no EC2 IMDS role found, operation error ec2imds: GetMetadata, tofu-rs does not query the EC2 instance metadata service\n"
        );
        let env = env_of(&[
            ("HOME", h.path().to_str().unwrap()),
            ("AWS_EC2_METADATA_DISABLED", "TRUE"),
        ]);
        let err = resolve(&base(Config::default()), &env).unwrap_err();
        assert!(err.detail.contains("GetMetadata, access disabled to EC2 IMDS via client option, or \"AWS_EC2_METADATA_DISABLED\" environment variable\n"), "{}", err.detail);
    }

    #[test]
    fn sources_that_need_a_service_are_refused() {
        let h = home(
            "",
            "[profile role]\nrole_arn = arn:aws:iam::1:role/r\nsource_profile = default\n[profile proc]\ncredential_process = /bin/creds\n[profile sso]\nsso_session = corp\n",
        );
        let home_str = h.path().to_str().unwrap();
        for (profile, want) in [
            ("role", "tofu-rs does not support assuming a role from a shared config profile (profile \"role\" sets role_arn) for the aws_kms key provider"),
            ("proc", "tofu-rs does not support credential_process (profile \"proc\" sets credential_process) for the aws_kms key provider"),
            ("sso", "tofu-rs does not support SSO credentials (profile \"sso\" sets sso_session) for the aws_kms key provider"),
        ] {
            let env = env_of(&[("HOME", home_str), ("AWS_PROFILE", profile)]);
            assert_eq!(resolve(&base(Config::default()), &env).unwrap_err().summary, want);
        }
        let env = env_of(&[
            ("HOME", home_str),
            ("AWS_CONTAINER_CREDENTIALS_RELATIVE_URI", "/v2/creds"),
        ]);
        assert!(resolve(&base(Config::default()), &env)
            .unwrap_err()
            .summary
            .contains("container credentials"));
    }
}
