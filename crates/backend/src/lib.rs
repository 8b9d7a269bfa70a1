//! The backend configuration of a working directory (OpenTofu's
//! `internal/backend`, and `internal/cloud` as [`cloud`]): the `backend`
//! and `cloud` blocks decoded against their schemas ([`schema`],
//! [`decode`]), and the record of what `init` configured,
//! `.terraform/terraform.tfstate` ([`state`]). Must not know: flag parsing,
//! encryption, how diagnostics or messages are printed (it returns
//! them; it never prints), state snapshots (it reads and writes none).
//!
//! The backend part of `init` (`InitCommand.initBackend` and
//! `Meta.backendFromConfig` in OpenTofu): the root module's `backend`
//! block evaluated statically against the backend's schema, merged with
//! `-backend-config`, compared with what `.terraform/terraform.tfstate`
//! records, and recorded there.
//!
//! tofu-rs records a backend's configuration; it does not connect to the
//! backend (no remote state is read or written), and it migrates no state:
//! where OpenTofu would have to move state snapshots, it stops and says so.
//! A `cloud` block is the exception: [`cloud`] connects to the service to
//! select and create its workspace, as OpenTofu's init does.

pub mod cloud;
pub mod decode;
pub mod schema;
pub mod state;
#[cfg(feature = "test-support")]
pub mod testing;

use std::path::{Path, PathBuf};
use std::sync::Arc;

use configs::backend::Backend;
use configs::module::Module;
use configs::static_eval::StaticEvaluator;
use cty::Value;
use hclsyntax::{Range, SourceFile};
use tfdiags::{Diagnostic, Diagnostics};

use decode::{decode_body, decode_overrides, refuse_marked, Decoded};
use schema::Schema;
use state::{BackendState, CliState};

/// What the user asked for on the command line.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// `-backend-config` values, in order.
    pub config_extra: Vec<String>,
    pub reconfigure: bool,
    /// `-migrate-state`, or `-force-copy` which implies it.
    pub migrate_state: bool,
    /// `-force-copy` (named in the cloud backend's option errors).
    pub force_copy: bool,
    /// `-input` (and a terminal to ask on).
    pub input: bool,
    /// The data directory (`.terraform` or `TF_DATA_DIR`).
    pub data_dir: PathBuf,
}

/// What the backend step printed and found.
#[derive(Debug, Default)]
pub struct Outcome {
    /// Lines for stdout, with `colorstring` tags.
    pub messages: Vec<String>,
    pub diags: Diagnostics,
    /// Files read for `-backend-config`, for rendering diagnostics.
    pub sources: Vec<Arc<SourceFile>>,
}

const MIGRATE_OR_RECONFIGURE: &str = "A change in the backend configuration has been detected, which may require migrating existing state.\n\nIf you wish to attempt automatic migration of the state, use \"tofu init -migrate-state\".\nIf you wish to store the current configuration with no changes to the state, use \"tofu init -reconfigure\".";

const NO_BACKEND_BLOCK: &str = "-backend-config was used without a \"backend\" block in the configuration.\n\nIf you intended to override the default local backend configuration,\nno action is required, but you may add an explicit backend block to your\nconfiguration to clear this warning:\n\nterraform {\n  backend \"local\" {}\n}\n\nHowever, if you intended to override a defined backend, please verify that\nthe backend configuration is present and valid.\n";

fn backend_set_message(type_name: &str) -> String {
    format!("[reset][green]\nSuccessfully configured the backend {}! OpenTofu will automatically\nuse this backend unless the backend configuration changes.", cty::format::go_quote(type_name))
}

const BACKEND_RECONFIGURED: &str = "[reset][bold]Backend configuration changed![reset]\n\nOpenTofu has detected that the configuration specified for the backend\nhas changed. OpenTofu will now check for existing state in the backends.";

/// The backend step of `init` with `-backend=true`. The caller holds the
/// working-directory lock when a backend is configured or recorded.
pub fn init_backend(root: &Module, opts: &Options) -> Outcome {
    let mut out = Outcome::default();
    out.messages
        .push("\n[reset][bold]Initializing the backend...".to_string());
    let Some(config) = &root.backend else {
        if !opts.config_extra.is_empty() {
            out.diags.push(Diagnostic::warning_sourceless(
                "Missing backend configuration",
                NO_BACKEND_BLOCK,
            ));
        }
        unset_backend(opts, &mut out);
        return out;
    };
    if config.type_name == "cloud" {
        out.diags.push(Diagnostic::error(
            "Unsupported backend type",
            format!("There is no explicit backend type named {}. To configure cloud backend, declare a 'cloud' block instead.", cty::format::go_quote(&config.type_name)),
            config.type_range.clone(),
        ));
        return out;
    }
    let Some(schema) = schema::lookup(&config.type_name) else {
        let detail = schema::removed_message(&config.type_name)
            .map(str::to_string)
            .unwrap_or_else(|| {
                format!(
                    "There is no backend type named {}.",
                    cty::format::go_quote(&config.type_name)
                )
            });
        out.diags.push(Diagnostic::error(
            "Unsupported backend type",
            detail,
            config.type_range.clone(),
        ));
        return out;
    };
    let Some(eval) = root.static_evaluator.clone() else {
        // The root module always gets its static call before init gets
        // here; without one nothing can be evaluated.
        out.diags.push(Diagnostic::error_sourceless(
            "Backend configuration not evaluated",
            "The root module was loaded without its variables, so the backend block cannot be evaluated.",
        ));
        return out;
    };
    configure_backend(&eval, config, &schema, opts, &mut out);
    out
}

/// `backendConfig` + the `c != nil` cases of `backendFromConfig`.
fn configure_backend(
    eval: &StaticEvaluator,
    config: &Backend,
    schema: &Schema,
    opts: &Options,
    out: &mut Outcome,
) {
    let ident = eval.backend_identifier(config);
    let body = configs::merged_body::ConfigBody::Single(config.config.clone());
    let (from_file, diags) = decode_body(eval, &body, schema, &ident);
    let failed = hclsyntax::has_errors(&diags);
    out.diags.append(diags);
    if failed {
        return;
    }
    let file_value = from_file.to_value(schema);
    let marked = refuse_marked(&file_value, &config.decl_range);
    if !marked.is_empty() {
        out.diags.append(marked);
        return;
    }
    let hash = state::config_hash(&config.type_name, &file_value);

    let extra: Vec<&str> = opts.config_extra.iter().map(String::as_str).collect();
    let (overrides, diags) = decode_overrides(eval, &extra, schema, &ident, &mut out.sources);
    let failed = hclsyntax::has_errors(&diags);
    out.diags.append(diags);
    if failed {
        return;
    }
    let mut merged: Decoded = from_file;
    let has_overrides = overrides.is_some();
    if let Some(o) = overrides {
        merged.merge(o);
    }
    let merged_value = merged.to_value(schema);
    let marked = refuse_marked(&merged_value, &config.decl_range);
    if !marked.is_empty() {
        out.diags.append(marked);
        return;
    }

    let path = state::state_path(&opts.data_dir);
    let saved = match read_saved(&path, out) {
        Some(s) => s,
        None => return,
    };
    let saved_backend = if opts.reconfigure {
        None
    } else {
        saved.backend.clone().filter(|b| !b.type_name.is_empty())
    };
    let Some(saved_backend) = saved_backend else {
        // First configuration, or -reconfigure (`backend_C_r_s`).
        if !prepare_config(config, &config.type_name, &merged_value, &mut out.diags) {
            return;
        }
        if config.type_name != "local" && local_state_exists(Path::new("terraform.tfstate")) {
            out.diags.push(migration_unsupported(
                "local",
                &config.type_name,
                "terraform.tfstate",
            ));
            return;
        }
        record(opts, &config.type_name, &merged_value, hash, out);
        out.messages.push(backend_set_message(&config.type_name));
        return;
    };

    if saved_backend.hash == hash && !has_overrides {
        return; // Unchanged.
    }
    let same_type = saved_backend.type_name == config.type_name;
    let cached = if same_type {
        saved_backend.config(&schema.implied_type()).ok()
    } else {
        None
    };
    if cached.as_ref().is_some_and(|c| c.raw_equals(&merged_value)) {
        // The same configuration written differently (values moved to
        // -backend-config, say): only the hash is updated.
        if saved_backend.hash != hash {
            let st = CliState {
                backend: Some(BackendState {
                    hash,
                    ..saved_backend
                }),
            };
            if let Err(e) = state::write(&path, &st) {
                out.diags.push(write_error(&e));
            }
        }
        return;
    }
    let from_cloud = saved_backend.type_name == "cloud";
    if from_cloud && opts.migrate_state {
        // `assertSupportedCloudInitOptions` for `ConfigMigrationOut`.
        out.diags.push(cloud_migration_flag_error(opts));
        return;
    }
    if !opts.migrate_state && !from_cloud {
        out.diags.push(Diagnostic::error_sourceless(
            "Backend configuration changed",
            MIGRATE_OR_RECONFIGURE,
        ));
        return;
    }
    // -migrate-state, or leaving the cloud (`backend_C_r_S_changed`).
    if from_cloud {
        out.messages.push(format!(
            "Migrating from cloud backend to backend {}.",
            cty::format::go_quote(&config.type_name)
        ));
    } else if same_type {
        out.messages.push(BACKEND_RECONFIGURED.to_string());
    } else {
        out.messages.push(format!(
            "[reset]\nOpenTofu detected that the backend type changed from {} to {}.",
            cty::format::go_quote(&saved_backend.type_name),
            cty::format::go_quote(&config.type_name)
        ));
    }
    if !prepare_config(config, &config.type_name, &merged_value, &mut out.diags) {
        return;
    }
    if let Some(d) = state_to_migrate(&saved_backend, &config.type_name) {
        out.diags.push(d);
        return;
    }
    record(opts, &config.type_name, &merged_value, hash, out);
    out.messages.push(backend_set_message(&config.type_name));
}

const ERR_BACKEND_INIT: &str = "The \"backend\" is the interface that OpenTofu uses to store state,\nperform operations, etc. If this message is showing up, it means that the\nOpenTofu configuration you're using is using a custom configuration for\nthe OpenTofu backend.\n\nChanges to backend configurations require reinitialization. This allows\nOpenTofu to set up the new configuration, copy existing state, etc. Please run\n\"tofu init\" with either the \"-reconfigure\" or \"-migrate-state\" flags to\nuse the current configuration.\n\nIf the change reason above is incorrect, please verify your configuration\nhasn't changed and try again. At this point, no changes to your existing\nconfiguration or state have been made.";

fn init_required(summary: &str, reason: &str) -> Diagnostic {
    Diagnostic::error_sourceless(summary, format!("Reason: {reason}\n\n{ERR_BACKEND_INIT}"))
}

/// For commands other than `init` (`backendFromConfig` with `Init` false):
/// the root module's backend block, evaluated with the command's
/// variables, must match what `init` recorded in `data_dir`; otherwise
/// OpenTofu's "Backend initialization required" errors.
pub fn check_initialized(root: &Module, data_dir: &Path) -> Diagnostics {
    let mut diags = Diagnostics::new();
    let mut out = Outcome::default();
    let Some(saved) = read_saved(&state::state_path(data_dir), &mut out) else {
        return out.diags;
    };
    let saved = saved.backend.filter(|b| !b.type_name.is_empty());
    if let Some(cloud) = &root.cloud_config {
        return cloud::check_initialized(root, cloud, saved.as_ref());
    }
    let Some(config) = root.backend.as_ref() else {
        if let Some(b) = saved {
            diags.push(init_required(
                "Backend initialization required, please run \"tofu init\"",
                &format!(
                    "Unsetting the previously set backend {}",
                    cty::format::go_quote(&b.type_name)
                ),
            ));
        }
        return diags;
    };
    let (Some(schema), Some(eval)) = (
        schema::lookup(&config.type_name),
        root.static_evaluator.as_ref(),
    ) else {
        diags.push(Diagnostic::error(
            "Invalid backend type",
            schema::removed_message(&config.type_name)
                .map(str::to_string)
                .unwrap_or_else(|| {
                    format!(
                        "There is no backend type named {}.",
                        cty::format::go_quote(&config.type_name)
                    )
                }),
            config.type_range.clone(),
        ));
        return diags;
    };
    let Some(saved) = saved else {
        diags.push(init_required(
            "Backend initialization required, please run \"tofu init\"",
            &format!(
                "Initial configuration of the requested backend {}",
                cty::format::go_quote(&config.type_name)
            ),
        ));
        return diags;
    };
    let ident = eval.backend_identifier(config);
    let body = configs::merged_body::ConfigBody::Single(config.config.clone());
    let (decoded, more) = decode_body(eval, &body, &schema, &ident);
    if hclsyntax::has_errors(&more) {
        diags.append(more);
        return diags;
    }
    let value = decoded.to_value(&schema);
    if state::config_hash(&config.type_name, &value) == saved.hash {
        return diags;
    }
    let same_type = saved.type_name == config.type_name;
    if same_type
        && saved
            .config(&schema.implied_type())
            .is_ok_and(|c| c.raw_equals(&value))
    {
        return diags;
    }
    let reason = if saved.type_name == "cloud" {
        // `ConfigMigrationOut`: OpenTofu names the recorded type here,
        // so the message says `backend "cloud"`.
        format!(
            "Changed from cloud backend to backend {}",
            cty::format::go_quote(&saved.type_name)
        )
    } else if same_type {
        "Backend configuration block has changed".to_string()
    } else {
        format!(
            "Backend type changed from {} to {}",
            cty::format::go_quote(&saved.type_name),
            cty::format::go_quote(&config.type_name)
        )
    };
    diags.push(init_required(
        "Backend initialization required: please run \"tofu init\"",
        &reason,
    ));
    diags
}

/// The `-migrate-state` (or `-force-copy`) error of
/// `assertSupportedCloudInitOptions` when moving into or out of the cloud.
fn cloud_migration_flag_error(opts: &Options) -> Diagnostic {
    let name = if opts.force_copy {
        "-force-copy"
    } else {
        "-migrate-state"
    };
    Diagnostic::error_sourceless(
        "Invalid command-line option",
        format!("The {name} option is for migration between state backends only, and is not applicable when using cloud backend.\n\nCloud backend migration has additional steps, configured by interactive prompts."),
    )
}

/// The `c == nil` cases of `backendFromConfig`: no backend block.
fn unset_backend(opts: &Options, out: &mut Outcome) {
    if opts.reconfigure {
        return;
    }
    let path = state::state_path(&opts.data_dir);
    let Some(saved) = read_saved(&path, out) else {
        return;
    };
    let Some(b) = saved.backend.filter(|b| !b.type_name.is_empty()) else {
        return;
    };
    if b.type_name != "cloud" && !opts.migrate_state {
        out.diags.push(Diagnostic::error_sourceless(
            "Backend configuration changed",
            MIGRATE_OR_RECONFIGURE,
        ));
        return;
    }
    // `backend_c_r_S`.
    if b.type_name == "cloud" {
        if opts.migrate_state {
            out.diags.push(cloud_migration_flag_error(opts));
            return;
        }
        out.messages
            .push("Migrating from cloud backend to local state.".to_string());
    } else {
        out.messages.push(format!(
            "OpenTofu has detected you're unconfiguring your previously set {} backend.",
            cty::format::go_quote(&b.type_name)
        ));
    }
    if b.type_name == "cloud" {
        out.diags.push(cloud::migration_out_unsupported(None));
        return;
    }
    if let Some(d) = state_to_migrate(&b, "local") {
        out.diags.push(d);
        return;
    }
    if let Err(e) = state::write(&path, &CliState { backend: None }) {
        out.diags.push(Diagnostic::error_sourceless(
            "Error clearing the backend configuration",
            format!("Error clearing the backend configuration: {e}\n\nOpenTofu removes the saved backend configuration when you're removing a\nconfigured backend. This must be done so future OpenTofu runs know to not\nuse the backend configuration. Please look at the error above, resolve it,\nand try again."),
        ));
        return;
    }
    out.messages.push(format!(
        "[reset][green]\n\nSuccessfully unset the backend {}. OpenTofu will now operate locally.",
        cty::format::go_quote(&b.type_name)
    ));
}

/// Reads the recorded backend; `None` (with an error) when it cannot be.
fn read_saved(path: &Path, out: &mut Outcome) -> Option<CliState> {
    match state::read(path) {
        Ok(s) => Some(s.unwrap_or_default()),
        Err(e) => {
            // An error value in OpenTofu: all of it is the summary.
            out.diags.push(Diagnostic::error_sourceless(
                format!(
                    "Failed to load backend configuration from {}: {e}",
                    path.display()
                ),
                "",
            ));
            None
        }
    }
}

fn record(opts: &Options, type_name: &str, config: &Value, hash: u64, out: &mut Outcome) {
    let config_raw = match cty::json::marshal(config) {
        Ok(j) => j,
        Err(e) => {
            out.diags.push(Diagnostic::error_sourceless(
                "Can't serialize backend configuration as JSON",
                format!("Can't serialize backend configuration as JSON: {e}"),
            ));
            return;
        }
    };
    let st = CliState {
        backend: Some(BackendState {
            type_name: type_name.to_string(),
            config_raw,
            hash,
        }),
    };
    if let Err(e) = state::write(&state::state_path(&opts.data_dir), &st) {
        out.diags.push(write_error(&e));
    }
}

fn write_error(e: &std::io::Error) -> Diagnostic {
    Diagnostic::error_sourceless(
        "Error saving the backend configuration",
        format!("Error saving the backend configuration: {e}\n\nOpenTofu saves the complete backend configuration in a local file for\nconfiguring the backend on future operations. This cannot be disabled. Errors\nare usually due to simple file permission errors. Please look at the error\nabove, resolve it, and try again."),
    )
}

/// Whether a local state file holds something worth migrating.
fn local_state_exists(path: &Path) -> bool {
    std::fs::metadata(path).is_ok_and(|m| m.len() > 0)
}

fn migration_unsupported(from: &str, to: &str, what: &str) -> Diagnostic {
    Diagnostic::error_sourceless(
        "State migration is not supported",
        format!(
            "Moving from the {} backend to the {} backend requires migrating the existing state ({what}). tofu-rs records the backend configuration only and never reads or writes state, so it cannot migrate it. Run \"tofu init -migrate-state\" to migrate the state, or \"tofu-rs init -reconfigure\" to record the new configuration and leave the state where it is.",
            cty::format::go_quote(from),
            cty::format::go_quote(to)
        ),
    )
}

/// `-migrate-state` away from `old`: fine when the old backend is local
/// and has no state to move; otherwise tofu-rs cannot do it.
fn state_to_migrate(old: &BackendState, new_type: &str) -> Option<Diagnostic> {
    let what = what_to_migrate(old)?;
    Some(if new_type == "cloud" {
        cloud::migration_in_unsupported(&old.type_name, &what)
    } else if old.type_name == "cloud" {
        cloud::migration_out_unsupported(Some(new_type))
    } else {
        migration_unsupported(&old.type_name, new_type, &what)
    })
}

/// The state the recorded backend `old` may hold: where, or `None` when
/// it is a local backend with nothing in it.
fn what_to_migrate(old: &BackendState) -> Option<String> {
    if old.type_name != "local" {
        return Some("in the remote backend".to_string());
    }
    let cfg = old.config(&schema::LOCAL.implied_type()).ok();
    let attr = |name: &str| {
        cfg.as_ref()
            .and_then(|c| c.get_attr(name))
            .and_then(|v| v.as_str().map(str::to_string))
    };
    let path = attr("path").unwrap_or_else(|| "terraform.tfstate".to_string());
    let ws = attr("workspace_dir").unwrap_or_else(|| "terraform.tfstate.d".to_string());
    if local_state_exists(Path::new(&path)) {
        return Some(path);
    }
    if std::fs::read_dir(&ws).is_ok_and(|mut d| d.next().is_some()) {
        return Some(ws);
    }
    None
}

/// The parts of the builtin backends' `PrepareConfig` that need nothing
/// but the configuration; false when the configuration is invalid.
fn prepare_config(
    config: &Backend,
    type_name: &str,
    value: &Value,
    diags: &mut Diagnostics,
) -> bool {
    let s = |name: &str| value.get_attr(name).filter(|v| !v.is_null());
    let empty = |name: &str| s(name).is_none_or(|v| v.as_str() == Some(""));
    let mut found = Diagnostics::new();
    let mut warnings = Diagnostics::new();
    let mut err = |summary: &str, detail: &str, attr: &str| {
        found.push(attribute_diag(config, summary, detail, attr));
    };
    match type_name {
        "local" => {
            for (attr, summary) in [
                ("path", "Invalid local state file path"),
                ("workspace_dir", "Invalid local workspace directory path"),
            ] {
                if s(attr).is_some_and(|v| v.as_str() == Some("")) {
                    err(
                        summary,
                        &format!(
                            "The {} attribute value must not be empty.",
                            cty::format::go_quote(attr)
                        ),
                        attr,
                    );
                }
            }
        }
        "s3" => {
            if empty("bucket") {
                err(
                    "Invalid bucket value",
                    "The \"bucket\" attribute value must not be empty.",
                    "bucket",
                );
            }
            match s("key").and_then(|v| v.as_str().map(str::to_string)) {
                None => err(
                    "Invalid key value",
                    "The \"key\" attribute value must not be empty.",
                    "key",
                ),
                Some(k) if k.is_empty() => err(
                    "Invalid key value",
                    "The \"key\" attribute value must not be empty.",
                    "key",
                ),
                Some(k) if k.starts_with('/') || k.ends_with('/') => err(
                    "Invalid key value",
                    "The \"key\" attribute value must not start or end with with \"/\".",
                    "key",
                ),
                Some(_) => {}
            }
            if let Some(mode) = s("retry_mode").and_then(|v| v.as_str().map(str::to_string)) {
                if mode != "standard" && mode != "adaptive" {
                    err(
                        "Invalid retry mode",
                        "Valid values are \"standard\" and \"adaptive\".",
                        "retry_mode",
                    );
                }
            }
            for (old, new) in [
                ("shared_credentials_file", "shared_credentials_files"),
                ("force_path_style", "use_path_style"),
            ] {
                if s(old).is_some() {
                    warnings.push(attribute_warning(
                        config,
                        "Deprecated Parameter",
                        &format!("Parameter \"{old}\" is deprecated. Use \"{new}\" instead."),
                        old,
                    ));
                }
            }
            let env_region = ["AWS_REGION", "AWS_DEFAULT_REGION"]
                .iter()
                .any(|k| std::env::var(k).is_ok_and(|v| !v.is_empty()));
            if empty("region") && !env_region {
                err("Missing region value", "The \"region\" attribute or the \"AWS_REGION\" or \"AWS_DEFAULT_REGION\" environment variables must be set.", "region");
            }
        }
        "remote" => {
            if empty("organization") {
                err(
                    "Invalid organization value",
                    "The \"organization\" attribute value must not be empty.",
                    "organization",
                );
            }
            let ws = value.get_attr("workspaces").filter(|v| !v.is_null());
            let field = |n: &str| {
                ws.as_ref()
                    .and_then(|w| w.get_attr(n))
                    .and_then(|v| v.as_str().map(str::to_string))
                    .unwrap_or_default()
            };
            let (name, prefix) = (field("name"), field("prefix"));
            if name.is_empty() && prefix.is_empty() {
                err(
                    "Invalid workspaces configuration",
                    "Either workspace \"name\" or \"prefix\" is required.",
                    "workspaces",
                );
            }
            if !name.is_empty() && !prefix.is_empty() {
                err(
                    "Invalid workspaces configuration",
                    "Only one of workspace \"name\" or \"prefix\" is allowed.",
                    "workspaces",
                );
            }
        }
        "azurerm" | "consul" | "cos" | "gcs" | "http" | "kubernetes" | "oss" | "pg" => {
            // helper/schema's `schemaMap.Validate`: a required attribute
            // without a value (or an environment default) is an error.
            let mut missing: Vec<&str> = schema::lookup(type_name)
                .map(|sc| {
                    sc.attrs
                        .iter()
                        .filter(|a| a.required)
                        .map(|a| a.name)
                        .collect()
                })
                .unwrap_or_default();
            missing.sort_unstable();
            for name in missing {
                let env_default = schema::env_default(type_name, name)
                    .is_some_and(|k| std::env::var(k).is_ok_and(|v| !v.is_empty()));
                if s(name).is_none() && !env_default {
                    found.push(Diagnostic::error_sourceless(
                        format!("{}: required field is not set", cty::format::go_quote(name)),
                        "",
                    ));
                }
            }
        }
        _ => {}
    }
    let ok = !found.has_errors();
    diags.append(found);
    diags.append(warnings);
    ok
}

/// [`attribute_diag`] as a warning.
fn attribute_warning(config: &Backend, summary: &str, detail: &str, attr: &str) -> Diagnostic {
    let mut d = attribute_diag(config, summary, detail, attr);
    d.severity = tfdiags::Severity::Warning;
    d
}

/// `tfdiags.AttributeValue(...).InConfigBody(body)`: at the argument's
/// expression when the block sets it, else where it is missing.
fn attribute_diag(config: &Backend, summary: &str, detail: &str, attr: &str) -> Diagnostic {
    let (attrs, _) = config.config.just_attributes();
    let subject: Range = attrs
        .iter()
        .find(|a| a.name == attr)
        .map(|a| a.expr.range.clone())
        .unwrap_or_else(|| config.config.missing_item_range.clone());
    Diagnostic::error(summary, detail, subject)
}

#[cfg(test)]
mod tests {
    use super::*;
    use configs::static_eval::{RootVariables, StaticModuleCall};

    fn root(dir: &Path, src: &str, vars: &[(&str, &str)]) -> Module {
        std::fs::write(dir.join("main.tf"), src).unwrap();
        let (m, _) = configs::module::load_module_dir(dir);
        let mut m = m.unwrap();
        let values = vars
            .iter()
            .map(|(k, v)| (k.to_string(), Value::string(*v)))
            .collect();
        m.with_static_call(StaticModuleCall::root(
            RootVariables::new(values),
            ".",
            "default",
        ));
        m
    }

    const SRC: &str = "variable \"p\" {\n  type = string\n}\nterraform {\n  backend \"local\" {\n    path = var.p\n  }\n}\n";

    #[test]
    fn other_commands_see_a_changed_backend() {
        let d = tempfile::tempdir().unwrap();
        let data = d.path().join(".terraform");
        let m = root(d.path(), SRC, &[("p", "a.tfstate")]);
        let diags = check_initialized(&m, &data);
        assert_eq!(
            diags[0].summary,
            "Backend initialization required, please run \"tofu init\""
        );
        assert!(diags[0]
            .detail
            .starts_with("Reason: Initial configuration of the requested backend \"local\"\n\nThe \"backend\" is"));

        let opts = Options {
            data_dir: data.clone(),
            ..Options::default()
        };
        let out = init_backend(&m, &opts);
        assert!(!out.diags.has_errors(), "{:?}", out.diags);
        assert!(check_initialized(&m, &data).is_empty());

        let m = root(d.path(), SRC, &[("p", "b.tfstate")]);
        let diags = check_initialized(&m, &data);
        assert_eq!(
            diags[0].summary,
            "Backend initialization required: please run \"tofu init\""
        );
        assert!(diags[0]
            .detail
            .starts_with("Reason: Backend configuration block has changed\n"));

        let m = root(d.path(), "variable \"p\" {}\n", &[]);
        let diags = check_initialized(&m, &data);
        assert!(diags[0]
            .detail
            .starts_with("Reason: Unsetting the previously set backend \"local\""));
    }

    /// A working directory whose last init recorded a cloud block.
    fn record_cloud_block(data: &Path) {
        let st = CliState {
            backend: Some(BackendState {
                type_name: "cloud".into(),
                config_raw: "{}".into(),
                hash: 7,
            }),
        };
        state::write(&state::state_path(data), &st).unwrap();
    }

    #[test]
    fn a_backend_block_after_a_cloud_block() {
        let d = tempfile::tempdir().unwrap();
        let data = d.path().join(".terraform");
        record_cloud_block(&data);
        let m = root(d.path(), SRC, &[("p", "a.tfstate")]);
        // OpenTofu names the recorded type in this reason.
        let diags = check_initialized(&m, &data);
        assert!(diags[0].detail.starts_with(
            "Reason: Changed from cloud backend to backend \"cloud\"\n\nThe \"backend\" is"
        ));
        let mut opts = Options {
            data_dir: data.clone(),
            ..Options::default()
        };
        let out = init_backend(&m, &opts);
        assert_eq!(
            out.messages[1],
            "Migrating from cloud backend to backend \"local\"."
        );
        assert_eq!(out.diags[0].summary, "State migration is not supported");
        assert!(out.diags[0].detail.contains("-reconfigure"));
        opts.migrate_state = true;
        let out = init_backend(&m, &opts);
        assert!(out.diags[0].detail.starts_with("The -migrate-state option is for migration between state backends only, and is not applicable when using cloud backend.\n\nCloud backend migration has additional steps"));
        // -reconfigure records the backend and leaves the cloud alone.
        opts.migrate_state = false;
        opts.reconfigure = true;
        let out = init_backend(&m, &opts);
        assert!(!out.diags.has_errors(), "{:?}", out.diags);
        let saved = state::read(&state::state_path(&data)).unwrap().unwrap();
        assert_eq!(saved.backend.unwrap().type_name, "local");
    }

    #[test]
    fn removing_a_cloud_block() {
        let d = tempfile::tempdir().unwrap();
        let data = d.path().join(".terraform");
        record_cloud_block(&data);
        let m = root(d.path(), "variable \"p\" {}\n", &[]);
        let opts = Options {
            data_dir: data.clone(),
            ..Options::default()
        };
        let out = init_backend(&m, &opts);
        assert_eq!(
            out.messages[1],
            "Migrating from cloud backend to local state."
        );
        assert!(out.diags[0]
            .detail
            .starts_with("Moving from cloud backend to local state requires migrating"));
        // Still recorded: nothing was migrated.
        assert!(state::read(&state::state_path(&data))
            .unwrap()
            .unwrap()
            .backend
            .is_some());
    }
}
