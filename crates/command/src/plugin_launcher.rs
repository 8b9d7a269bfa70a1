//! The launcher [`providerhost`] starts plugins with: the plugin protocol
//! of [`plugin`], with the plugin's output sent to the log (`TF_LOG`), not
//! to the user, as OpenTofu does; unmanaged providers
//! (`TF_REATTACH_PROVIDERS`) are attached to instead.

use std::path::Path;
use std::sync::Arc;

use addrs::Provider;
use configschema::ProviderSchema;
use cty::{Type, Value};
use providerhost::{Launcher, RunningProvider, ValidateKind};
use tofu::schemas::{ProviderDiagnostic, ProviderSeverity};

use crate::unmanaged_providers::UnmanagedProviders;

/// The CLI's launcher, which attaches to the `unmanaged` providers.
pub fn launcher(unmanaged: UnmanagedProviders) -> Arc<dyn Launcher> {
    Arc::new(PluginLauncher { unmanaged })
}

struct PluginLauncher {
    unmanaged: UnmanagedProviders,
}

impl Launcher for PluginLauncher {
    fn launch(&self, executable: &Path) -> Result<Box<dyn RunningProvider>, String> {
        let mut opts = plugin::LaunchOptions::new(executable);
        opts.log = log_sink(executable);
        let client = plugin::launch(&opts).map_err(|e| e.to_string())?;
        Ok(Box::new(Running(client)))
    }

    fn attach(&self, provider: &Provider) -> Result<Box<dyn RunningProvider>, String> {
        let config = self
            .unmanaged
            .get(provider)
            .ok_or_else(|| format!("no running plugin is known for {provider}"))?;
        let client = plugin::attach(config).map_err(|e| e.to_string())?;
        Ok(Box::new(Running(client)))
    }
}

/// With `TF_LOG` set, the plugin's lines go to stderr (or `TF_LOG_PATH`)
/// prefixed with the executable's name, as OpenTofu's plugin log does.
fn log_sink(executable: &Path) -> Option<plugin::LogSink> {
    std::env::var_os("TF_LOG").filter(|v| !v.is_empty())?;
    let name = executable
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let path = std::env::var_os("TF_LOG_PATH").filter(|v| !v.is_empty());
    Some(Arc::new(move |line: &str| {
        use std::io::Write;
        let text = format!("[DEBUG] provider.{name}: {line}\n");
        match &path {
            Some(p) => {
                if let Ok(mut f) = std::fs::OpenOptions::new()
                    .create(true)
                    .append(true)
                    .open(p)
                {
                    let _ = f.write_all(text.as_bytes());
                }
            }
            None => {
                let _ = std::io::stderr().write_all(text.as_bytes());
            }
        }
    }))
}

struct Running(plugin::ProviderClient);

impl RunningProvider for Running {
    fn schema(&self) -> Result<(ProviderSchema, Vec<ProviderDiagnostic>), String> {
        let (schema, diags) = self.0.get_provider_schema().map_err(|e| one_line(&e))?;
        Ok((schema, diags.into_iter().map(convert).collect()))
    }

    fn validate(
        &self,
        kind: ValidateKind,
        type_name: &str,
        config: &Value,
        ty: &Type,
    ) -> Result<Vec<ProviderDiagnostic>, String> {
        let c = &self.0;
        let answer = match kind {
            ValidateKind::Provider => c.validate_provider_config(config, ty),
            ValidateKind::Managed => c.validate_resource_config(type_name, config, ty),
            ValidateKind::Data => c.validate_data_resource_config(type_name, config, ty),
            ValidateKind::Ephemeral => c.validate_ephemeral_resource_config(type_name, config, ty),
        };
        Ok(match answer {
            Ok(diags) => diags.into_iter().map(convert).collect(),
            // OpenTofu turns a failed call into the response's diagnostic.
            Err(e) => vec![ProviderDiagnostic {
                severity: ProviderSeverity::Error,
                summary: e.summary(),
                detail: e.detail(),
                attribute: None,
            }],
        })
    }
}

/// `Diagnostics.Err()` of one RPC failure.
fn one_line(e: &plugin::RpcError) -> String {
    let detail = e.detail();
    if detail.is_empty() {
        e.summary()
    } else {
        format!("{}: {detail}", e.summary())
    }
}

fn convert(d: plugin::ProviderDiagnostic) -> ProviderDiagnostic {
    ProviderDiagnostic {
        severity: match d.severity {
            plugin::Severity::Error => ProviderSeverity::Error,
            plugin::Severity::Warning => ProviderSeverity::Warning,
        },
        summary: d.summary,
        detail: d.detail,
        attribute: d.attribute,
    }
}
