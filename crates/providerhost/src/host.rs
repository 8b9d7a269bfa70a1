//! The providers of one command run: their schemas, read from the cache
//! or from a plugin started for them (all the needed ones at once), and
//! their answers to the `Validate*` calls, likewise. A plugin is started at
//! most once per run, only when something is not cached, and ends when
//! the host is dropped.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

use addrs::{Provider, ResourceMode};
use configschema::{ProviderSchema, SchemaKind};
use cty::{Type, Value};
use gocompat::quote::quote as go_quote;
use tofu::schemas::{ProviderDiagnostic, ProviderSeverity, ProviderValidator};

use crate::answer_cache::AnswerCache;
use crate::executable_hash::executable_sha256;
use crate::launch::{Launcher, RunningProvider, ValidateKind};
use crate::locate::LocatedProvider;
use crate::schema_cache::{SchemaCache, SchemaKey};

/// Why a provider's schema could not be had: OpenTofu's text, which the
/// caller puts after `failed to read schema for ADDR in PROVIDER: `.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SchemaLoadError {
    pub provider: Provider,
    pub message: String,
}

/// Where a provider's plugin comes from.
enum Source {
    /// A package `init` installed (or a development override): started
    /// by the host, its answers cached by the executable's hash.
    Package(LocatedProvider),
    /// A provider someone else runs (`TF_REATTACH_PROVIDERS`): attached
    /// to, never cached (there is no executable to hash, and whoever runs
    /// it may rebuild it between commands).
    Unmanaged,
}

/// One provider of the run.
struct Slot {
    source: Source,
    /// The executable and its SHA-256, found once.
    executable: OnceLock<Result<(PathBuf, Option<String>), String>>,
    /// The plugin, once started (or why it could not be).
    running: Mutex<Option<Result<Arc<dyn RunningProvider>, String>>>,
    /// The schema, once known.
    schema: OnceLock<Arc<ProviderSchema>>,
}

/// The providers of one command run.
pub struct ProviderHost {
    launcher: Arc<dyn Launcher>,
    cache_dir: Option<PathBuf>,
    slots: BTreeMap<Provider, Slot>,
    starts: AtomicUsize,
    share: Option<Arc<SchemaShare>>,
}

impl ProviderHost {
    /// A host for the `located` providers, caching under `cache_dir` (none:
    /// every run asks the plugins).
    pub fn new(
        launcher: Arc<dyn Launcher>,
        cache_dir: Option<PathBuf>,
        located: impl IntoIterator<Item = LocatedProvider>,
    ) -> ProviderHost {
        let slots = located
            .into_iter()
            .map(|l| (l.provider.clone(), Slot::new(Source::Package(l))))
            .collect();
        ProviderHost {
            launcher,
            cache_dir,
            slots,
            starts: AtomicUsize::new(0),
            share: None,
        }
    }

    /// The host with `providers` served by processes already running,
    /// which the launcher attaches to; they take the place of any
    /// installed package of the same address, as in OpenTofu.
    pub fn with_unmanaged(mut self, providers: impl IntoIterator<Item = Provider>) -> ProviderHost {
        for p in providers {
            self.slots.insert(p, Slot::new(Source::Unmanaged));
        }
        self
    }

    /// The host, sharing schemas with the other hosts of `share` (only
    /// entries with a cache key are shared).
    pub fn sharing(mut self, share: Arc<SchemaShare>) -> ProviderHost {
        self.share = Some(share);
        self
    }

    /// Whether the host has a plugin for `provider`.
    pub fn has_provider(&self, provider: &Provider) -> bool {
        self.slots.contains_key(provider)
    }

    /// How many plugins this host started.
    pub fn starts(&self) -> usize {
        self.starts.load(Ordering::Relaxed)
    }

    /// The schemas of `providers`, each from the cache or from its plugin;
    /// the plugins needed are started in parallel.
    pub fn load_schemas(
        &self,
        providers: &[Provider],
    ) -> (
        BTreeMap<Provider, Arc<ProviderSchema>>,
        Vec<SchemaLoadError>,
    ) {
        let results: Vec<(Provider, Result<Arc<ProviderSchema>, String>)> =
            std::thread::scope(|scope| {
                let handles: Vec<_> = providers
                    .iter()
                    .map(|p| (p.clone(), scope.spawn(move || self.schema(p))))
                    .collect();
                handles
                    .into_iter()
                    .map(|(p, h)| {
                        let r = h
                            .join()
                            .unwrap_or_else(|_| Err("the schema reader panicked".into()));
                        (p, r)
                    })
                    .collect()
            });
        let mut schemas = BTreeMap::new();
        let mut errors = Vec::new();
        for (provider, r) in results {
            match r {
                Ok(s) => {
                    schemas.insert(provider, s);
                }
                Err(message) => errors.push(SchemaLoadError { provider, message }),
            }
        }
        (schemas, errors)
    }

    /// One provider's schema.
    pub fn schema(&self, provider: &Provider) -> Result<Arc<ProviderSchema>, String> {
        let slot = self
            .slots
            .get(provider)
            .ok_or_else(|| {
                let addr = go_quote(&provider.to_string());
                format!("failed to instantiate provider {addr} to obtain schema: unavailable provider {addr}")
            })?;
        if let Some(s) = slot.schema.get() {
            return Ok(s.clone());
        }
        let key = self.schema_key(slot);
        // Hosts sharing schemas (the roots of `-recursive`) read each
        // executable's schema once.
        let shared = match (&self.share, &key) {
            (Some(share), Some(k)) => Some(share.entry(&k.digest())),
            _ => None,
        };
        let mut shared = shared
            .as_ref()
            .map(|m| m.lock().unwrap_or_else(|e| e.into_inner()));
        if let Some(Some(s)) = shared.as_deref() {
            return Ok(slot.schema.get_or_init(|| s.clone()).clone());
        }
        let schema = self.read_schema(slot, provider, key.as_ref())?;
        if let Some(shared) = shared.as_deref_mut() {
            *shared = Some(schema.clone());
        }
        Ok(slot.schema.get_or_init(|| schema).clone())
    }

    /// The schema from the disk cache, else from the plugin (then stored).
    fn read_schema(
        &self,
        slot: &Slot,
        provider: &Provider,
        key: Option<&SchemaKey>,
    ) -> Result<Arc<ProviderSchema>, String> {
        let cache = self.cache_dir.as_deref().map(SchemaCache::new);
        if let (Some(cache), Some(key)) = (&cache, key) {
            if let Ok(schema) = cache.get(key) {
                // A cached schema passed these checks when it was stored.
                return Ok(Arc::new(schema));
            }
        }
        let running = self.running(provider, slot).map_err(|e| {
            format!(
                "failed to instantiate provider {} to obtain schema: {e}",
                go_quote(&provider.to_string())
            )
        })?;
        let (schema, diags) = running.schema()?;
        let errors: Vec<&ProviderDiagnostic> = diags
            .iter()
            .filter(|d| d.severity == ProviderSeverity::Error)
            .collect();
        if !errors.is_empty() {
            return Err(diagnostics_error_text(&errors));
        }
        schema
            .validate(&provider.to_string())
            .map_err(|e| e.to_string())?;
        if let (Some(cache), Some(key)) = (&cache, key) {
            // Best effort: a schema that cannot be stored is fetched again
            // next time.
            let _ = cache.put(key, &schema);
        }
        Ok(Arc::new(schema))
    }

    fn schema_key(&self, slot: &Slot) -> Option<SchemaKey> {
        let Source::Package(located) = &slot.source else {
            return None;
        };
        let (_, sum) = self.executable(slot).ok()?;
        Some(SchemaKey {
            provider: located.provider.to_string(),
            version: located.version.clone(),
            executable_sha256: sum.clone()?,
        })
    }

    /// A package's executable and its hash (an unmanaged provider has
    /// neither and is never asked).
    fn executable<'s>(&self, slot: &'s Slot) -> Result<&'s (PathBuf, Option<String>), &'s String> {
        slot.executable
            .get_or_init(|| {
                let Source::Package(located) = &slot.source else {
                    return Err("an unmanaged provider has no executable".into());
                };
                let exe = located.executable()?;
                let sum = match &self.cache_dir {
                    Some(dir) => executable_sha256(&exe, Some(dir)).ok(),
                    None => None,
                };
                Ok((exe, sum))
            })
            .as_ref()
    }

    /// The provider's plugin, started (or attached to) on first use.
    fn running(
        &self,
        provider: &Provider,
        slot: &Slot,
    ) -> Result<Arc<dyn RunningProvider>, String> {
        let mut running = slot.running.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(r) = running.as_ref() {
            return r.clone();
        }
        let started = match &slot.source {
            Source::Unmanaged => self.launcher.attach(provider).map(Arc::from),
            Source::Package(_) => match self.executable(slot) {
                Err(e) => Err(e.clone()),
                Ok((exe, _)) => {
                    self.starts.fetch_add(1, Ordering::Relaxed);
                    self.launcher.launch(exe).map(Arc::from)
                }
            },
        };
        *running = Some(started.clone());
        started
    }

    /// Ends every plugin this host started.
    pub fn close(&self) {
        for slot in self.slots.values() {
            let mut running = slot.running.lock().unwrap_or_else(|e| e.into_inner());
            *running = None;
        }
    }

    fn validate(
        &self,
        provider: &Provider,
        kind: ValidateKind,
        type_name: &str,
        config: &Value,
    ) -> Vec<ProviderDiagnostic> {
        let Some(slot) = self.slots.get(provider) else {
            return Vec::new();
        };
        // The value goes to the plugin as the schema's type, as OpenTofu
        // sends it (dynamic attributes carry their own type).
        let Some(schema) = slot.schema.get() else {
            return Vec::new();
        };
        let block = match kind {
            ValidateKind::Provider => schema.provider.block.as_ref(),
            ValidateKind::Managed => schema
                .schema_for(SchemaKind::Managed, type_name)
                .and_then(|s| s.block.as_ref()),
            ValidateKind::Data => schema
                .schema_for(SchemaKind::Data, type_name)
                .and_then(|s| s.block.as_ref()),
            ValidateKind::Ephemeral => schema
                .schema_for(SchemaKind::Ephemeral, type_name)
                .and_then(|s| s.block.as_ref()),
        };
        let ty: Type = match block {
            Some(b) => b.implied_type(),
            None => Type::empty_object(),
        };
        let answers = self.cache_dir.as_deref().map(AnswerCache::new);
        let key = match (&answers, self.executable(slot)) {
            (Some(_), Ok((_, Some(sum)))) => AnswerCache::key(sum, kind, type_name, config, &ty),
            _ => None,
        };
        if let (Some(answers), Some(key)) = (&answers, &key) {
            if let Some(diags) = answers.get(key) {
                return diags;
            }
        }
        let running = match self.running(provider, slot) {
            Ok(r) => r,
            Err(e) => {
                return vec![error(format!(
                    "failed to instantiate provider {} to validate configuration: {e}",
                    go_quote(&provider.to_string())
                ))]
            }
        };
        match running.validate(kind, type_name, config, &ty) {
            Ok(diags) => {
                if let (Some(answers), Some(key)) = (&answers, &key) {
                    answers.put(key, &diags);
                }
                diags
            }
            Err(e) => vec![error(e)],
        }
    }
}

impl ProviderValidator for ProviderHost {
    fn validate_provider_config(
        &self,
        provider: &Provider,
        config: &Value,
    ) -> Vec<ProviderDiagnostic> {
        self.validate(provider, ValidateKind::Provider, "", config)
    }

    fn validate_resource_config(
        &self,
        provider: &Provider,
        mode: ResourceMode,
        type_name: &str,
        config: &Value,
    ) -> Vec<ProviderDiagnostic> {
        let kind = match mode {
            ResourceMode::Managed => ValidateKind::Managed,
            ResourceMode::Data => ValidateKind::Data,
            ResourceMode::Ephemeral => ValidateKind::Ephemeral,
        };
        self.validate(provider, kind, type_name, config)
    }
}

impl Slot {
    fn new(source: Source) -> Slot {
        Slot {
            source,
            executable: OnceLock::new(),
            running: Mutex::new(None),
            schema: OnceLock::new(),
        }
    }
}

type SharedSchema = Arc<Mutex<Option<Arc<ProviderSchema>>>>;

/// Schemas shared by the hosts of one command (the roots of
/// `-recursive`): each executable's schema is read once, by the first host
/// that needs it, while the others wait, and all of them share it.
#[derive(Default)]
pub struct SchemaShare {
    entries: Mutex<std::collections::HashMap<String, SharedSchema>>,
}

impl SchemaShare {
    fn entry(&self, digest: &str) -> SharedSchema {
        let mut map = self.entries.lock().unwrap_or_else(|e| e.into_inner());
        map.entry(digest.to_string()).or_default().clone()
    }
}

fn error(summary: String) -> ProviderDiagnostic {
    ProviderDiagnostic {
        severity: ProviderSeverity::Error,
        summary,
        detail: String::new(),
        attribute: None,
    }
}

/// `tfdiags.Diagnostics.Err().Error()` of error diagnostics.
fn diagnostics_error_text(errors: &[&ProviderDiagnostic]) -> String {
    let one = |d: &ProviderDiagnostic| {
        if d.detail.is_empty() {
            d.summary.clone()
        } else {
            format!("{}: {}", d.summary, d.detail)
        }
    };
    if errors.len() == 1 {
        return one(errors[0]);
    }
    let mut s = format!("{} problems:\n", errors.len());
    for d in errors {
        s.push_str(&format!("\n- {}", one(d)));
    }
    s
}
