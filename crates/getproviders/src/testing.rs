//! Test fixtures for provider installation (feature `test-support`):
//! provider zips of a small executable script, an OpenPGP key made on the
//! spot to sign SHA256SUMS documents, and a loopback HTTP server that
//! plays a provider registry and a network mirror — including the ways
//! they misbehave (garbage, hangs, truncated bodies).
//!
//! The server itself is `testserver`'s, re-exported here.

use std::collections::BTreeMap;
use std::io::{Cursor, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;
use std::time::Duration;

use addrs::{Hostname, Provider};
use pgp::composed::{
    ArmorOptions, DetachedSignature, EncryptionCaps, KeyType, SecretKeyParamsBuilder,
    SignedPublicKey, SignedSecretKey,
};
use pgp::crypto::hash::HashAlgorithm;
use pgp::ser::Serialize;
use pgp::types::{KeyDetails, Password};
use sha2::{Digest, Sha256};

use crate::hash::{hash_v1_zip_reader, hex_lower};
use crate::platform::Platform;

/// One file (or link) to put in a test zip.
#[derive(Debug, Clone)]
pub struct ZipEntry {
    pub name: String,
    pub data: Vec<u8>,
    pub mode: u32,
    /// Makes the entry a symbolic link to this target.
    pub symlink: Option<String>,
}

impl ZipEntry {
    pub fn file(name: &str, data: &[u8], mode: u32) -> ZipEntry {
        ZipEntry {
            name: name.to_string(),
            data: data.to_vec(),
            mode,
            symlink: None,
        }
    }

    pub fn link(name: &str, target: &str) -> ZipEntry {
        ZipEntry {
            name: name.to_string(),
            data: Vec::new(),
            mode: 0o777,
            symlink: Some(target.to_string()),
        }
    }
}

/// A zip of exactly these entries, names written as given.
pub fn zip_of(entries: &[ZipEntry]) -> Vec<u8> {
    let mut w = zip::ZipWriter::new(Cursor::new(Vec::new()));
    for e in entries {
        let opts = zip::write::SimpleFileOptions::default().unix_permissions(e.mode);
        match &e.symlink {
            Some(t) => w
                .add_symlink(e.name.as_str(), t.as_str(), opts)
                .expect("in-memory zip accepts links"),
            None => {
                w.start_file(e.name.as_str(), opts)
                    .expect("in-memory zip accepts files");
                w.write_all(&e.data).expect("in-memory zip write");
            }
        }
    }
    w.finish().expect("in-memory zip finishes").into_inner()
}

/// A provider package: the executable `terraform-provider-TYPE_vVERSION`
/// (a shell script that says which provider it is) and a README.
pub fn provider_zip(type_name: &str, version: &str) -> Vec<u8> {
    let script = format!("#!/bin/sh\necho \"terraform-provider-{type_name} {version}\"\n");
    zip_of(&[
        ZipEntry::file(
            &format!("terraform-provider-{type_name}_v{version}"),
            script.as_bytes(),
            0o755,
        ),
        ZipEntry::file("README.md", b"A provider built by a test.\n", 0o644),
    ])
}

/// Lowercase hex SHA-256.
pub fn sha256_hex(data: &[u8]) -> String {
    hex_lower(&Sha256::digest(data))
}

/// The `h1:` hash of a zip in memory.
pub fn h1_of_zip(data: &[u8]) -> String {
    hash_v1_zip_reader(Cursor::new(data))
        .expect("test zip hashes")
        .to_string()
}

/// A signing key generated for one test.
pub struct TestKey {
    secret: SignedSecretKey,
    /// The public key, ASCII-armored, as registries list it.
    pub public_armored: String,
    /// Its key ID as OpenTofu prints it (uppercase hex).
    pub key_id: String,
}

impl TestKey {
    /// A fresh Ed25519 key that can sign.
    pub fn generate(user_id: &str) -> TestKey {
        let mut params = SecretKeyParamsBuilder::default();
        params
            .key_type(KeyType::Ed25519Legacy)
            .can_certify(true)
            .can_sign(true)
            .can_encrypt(EncryptionCaps::None)
            .primary_user_id(user_id.into());
        let secret = params
            .build()
            .expect("key params are complete")
            .generate(rand::thread_rng())
            .expect("key generation");
        let public = SignedPublicKey::from(secret.clone());
        let public_armored = public
            .to_armored_string(ArmorOptions::default())
            .expect("armoring a public key");
        let key_id = hex_lower(public.primary_key.legacy_key_id().as_ref()).to_uppercase();
        TestKey {
            secret,
            public_armored,
            key_id,
        }
    }

    /// A binary detached signature over `data`.
    pub fn sign(&self, data: &[u8]) -> Vec<u8> {
        DetachedSignature::sign_binary_data(
            rand::thread_rng(),
            &self.secret.primary_key,
            &Password::empty(),
            HashAlgorithm::Sha256,
            data,
        )
        .expect("signing")
        .to_bytes()
        .expect("serializing a signature")
    }
}

// The loopback server lives in `testserver`, shared with the tests of
// other crates; its names stay reachable here.
pub use testserver::{
    Handler, HttpRequest, HttpResponse, LoopbackServer, Pace, Route, SeenRequest,
};

/// `(namespace, type)` → version → platforms published.
type Published = BTreeMap<(String, String), BTreeMap<String, Vec<String>>>;

/// A provider registry (and network mirror) on loopback. Its hostname is
/// `127.0.0.1:PORT`, found through real service discovery over `http`.
pub struct TestRegistry {
    pub server: LoopbackServer,
    pub key: TestKey,
    versions: Mutex<Published>,
    package_data: AtomicBool,
}

impl TestRegistry {
    pub fn start() -> TestRegistry {
        TestRegistry::start_on(LoopbackServer::start())
    }

    /// The registry over HTTPS ([`LoopbackServer::start_tls`]).
    pub fn start_tls(cert_chain_pem: &[u8], key_pem: &[u8]) -> TestRegistry {
        TestRegistry::start_on(LoopbackServer::start_tls(cert_chain_pem, key_pem))
    }

    fn start_on(server: LoopbackServer) -> TestRegistry {
        server.route(
            "/.well-known/terraform.json",
            Route::json(&serde_json::json!({"providers.v1": "/v1/providers/"})),
        );
        TestRegistry {
            server,
            key: TestKey::generate("Test Registry <test@example.com>"),
            versions: Mutex::default(),
            package_data: AtomicBool::new(false),
        }
    }

    /// Whether later publications send the `packages` extension (every
    /// platform's `h1:`/`zh:` hashes and size) in download responses.
    pub fn send_package_data(&self, on: bool) {
        self.package_data.store(on, Ordering::SeqCst);
    }

    /// A registry that plays `registry.opentofu.org` through a CLI
    /// configuration `host` block, so no name is ever resolved.
    pub fn default_registry_options(&self) -> cliconfig::RegistryOptions {
        let mut o = self.registry_options();
        o.hosts.force_services(
            addrs::DEFAULT_PROVIDER_REGISTRY_HOST,
            &[("providers.v1", &self.server.url("/v1/providers/"))],
        );
        o
    }

    /// `127.0.0.1:PORT`.
    pub fn host(&self) -> &str {
        self.server.addr()
    }

    /// `127.0.0.1:PORT/<namespace>/<type>`.
    pub fn provider(&self, namespace: &str, type_name: &str) -> Provider {
        Provider::new(
            Hostname::for_comparison(self.host()).expect("loopback host parses"),
            namespace,
            type_name,
        )
    }

    /// Discovery over `http`, short timeouts, no retry pauses.
    pub fn registry_options(&self) -> cliconfig::RegistryOptions {
        cliconfig::RegistryOptions {
            discovery_scheme: "http",
            request_timeout: Duration::from_secs(5),
            discovery_timeout: Duration::from_secs(5),
            retries: 0,
            retry_wait: Duration::from_millis(10),
            ..cliconfig::RegistryOptions::default()
        }
    }

    fn files_path(ns: &str, ty: &str, version: &str, file: &str) -> String {
        format!("/files/{ns}/{ty}/{version}/{file}")
    }

    /// Publishes `version` with one zip per platform, signed by `self.key`.
    pub fn publish(&self, ns: &str, ty: &str, version: &str, packages: &[(Platform, Vec<u8>)]) {
        let mut sums = String::new();
        for (platform, zip) in packages {
            sums.push_str(&format!(
                "{}  terraform-provider-{ty}_{version}_{platform}.zip\n",
                sha256_hex(zip)
            ));
        }
        let sums = sums.into_bytes();
        let sig = self.key.sign(&sums);
        self.publish_with(
            ns,
            ty,
            version,
            packages,
            &sums,
            &sig,
            &[&self.key.public_armored],
        );
    }

    /// Like [`TestRegistry::publish`] with the SHA256SUMS document, its
    /// signature and the listed keys given, to serve broken ones.
    #[allow(clippy::too_many_arguments)]
    pub fn publish_with(
        &self,
        ns: &str,
        ty: &str,
        version: &str,
        packages: &[(Platform, Vec<u8>)],
        sums: &[u8],
        sig: &[u8],
        keys: &[&str],
    ) {
        let s = &self.server;
        s.route(
            &Self::files_path(ns, ty, version, "SHA256SUMS"),
            Route::bytes(sums.to_vec()),
        );
        s.route(
            &Self::files_path(ns, ty, version, "SHA256SUMS.sig"),
            Route::bytes(sig.to_vec()),
        );
        let keys: Vec<serde_json::Value> = keys
            .iter()
            .map(|k| serde_json::json!({"ascii_armor": k}))
            .collect();
        let mut package_data = serde_json::Map::new();
        if self.package_data.load(Ordering::SeqCst) {
            for (platform, zip) in packages {
                package_data.insert(
                    platform.to_string(),
                    serde_json::json!({
                        "hashes": [h1_of_zip(zip), format!("zh:{}", sha256_hex(zip))],
                        "package_size": zip.len(),
                    }),
                );
            }
        }
        for (platform, zip) in packages {
            let filename = format!("terraform-provider-{ty}_{version}_{platform}.zip");
            s.route(
                &Self::files_path(ns, ty, version, &filename),
                Route::bytes(zip.clone()),
            );
            s.route(
                &format!(
                    "/v1/providers/{ns}/{ty}/{version}/download/{}/{}",
                    platform.os, platform.arch
                ),
                Route::json(&serde_json::json!({
                    "protocols": ["5.0"],
                    "os": platform.os,
                    "arch": platform.arch,
                    "filename": filename,
                    "download_url": Self::files_path(ns, ty, version, &filename),
                    "shasums_url": Self::files_path(ns, ty, version, "SHA256SUMS"),
                    "shasums_signature_url": Self::files_path(ns, ty, version, "SHA256SUMS.sig"),
                    "shasum": sha256_hex(zip),
                    "signing_keys": {"gpg_public_keys": keys},
                    "packages": package_data,
                })),
            );
        }
        let mut all = self.versions.lock().expect("versions lock");
        let entry = all.entry((ns.to_string(), ty.to_string())).or_default();
        entry.insert(
            version.to_string(),
            packages.iter().map(|(p, _)| p.to_string()).collect(),
        );
        let list: Vec<serde_json::Value> = entry
            .iter()
            .map(|(v, plats)| {
                let platforms: Vec<serde_json::Value> = plats
                    .iter()
                    .map(|p| {
                        let (os, arch) = p.split_once('_').unwrap_or((p, ""));
                        serde_json::json!({"os": os, "arch": arch})
                    })
                    .collect();
                serde_json::json!({"version": v, "protocols": ["5.0"], "platforms": platforms})
            })
            .collect();
        s.route(
            &format!("/v1/providers/{ns}/{ty}/versions"),
            Route::json(&serde_json::json!({ "versions": list })),
        );
    }

    /// Replaces the archive a download URL serves (to tamper with it).
    pub fn replace_archive(
        &self,
        ns: &str,
        ty: &str,
        version: &str,
        platform: &Platform,
        route: Route,
    ) {
        let filename = format!("terraform-provider-{ty}_{version}_{platform}.zip");
        self.server
            .route(&Self::files_path(ns, ty, version, &filename), route);
    }

    /// Serves `zip` through the network mirror protocol under `/mirror/`
    /// for `provider` (its hostname as the first path segment), listing
    /// its `h1:` hash.
    pub fn mirror(&self, provider: &Provider, version: &str, platform: &Platform, zip: &[u8]) {
        let base = format!(
            "/mirror/{}/{}/{}",
            provider.hostname.as_str(),
            provider.namespace,
            provider.type_name
        );
        let filename = format!(
            "terraform-provider-{}_{version}_{platform}.zip",
            provider.type_name
        );
        self.server.route(
            &format!("{base}/index.json"),
            Route::json(&serde_json::json!({"versions": {version: {}}})),
        );
        self.server.route(
            &format!("{base}/{version}.json"),
            Route::json(&serde_json::json!({"archives": {
                platform.to_string(): {"url": filename, "hashes": [h1_of_zip(zip)]}
            }})),
        );
        self.server
            .route(&format!("{base}/{filename}"), Route::bytes(zip.to_vec()));
    }
}
