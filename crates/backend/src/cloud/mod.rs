//! The `cloud` block in `init` (`InitCommand.initCloud` and the cloud
//! cases of `Meta.backendFromConfig`): the block evaluated statically like
//! a backend block, checked (`PrepareConfig`), connected to HCP Terraform
//! or Terraform Enterprise (`Configure`), the working directory's
//! workspace selected and the remote workspace fetched or created, and the
//! block recorded in `.terraform/terraform.tfstate` as type `cloud`.
//!
//! Like the backend step, tofu-rs moves no state: where OpenTofu would
//! migrate local or backend state into the cloud (or out of it), it stops
//! and says so. It does not download the remote state either.

pub mod client;
pub mod config;
pub mod connect;
pub mod credentials;
pub mod diag;
pub mod workspace;

#[cfg(test)]
mod tests;

use configs::backend::Backend;
use configs::cloud::CloudConfig;
use configs::merged_body::ConfigBody;
use configs::module::Module;
use cty::Value;
use tfdiags::{Diagnostic, Diagnostics};

use super::decode::{decode_body, refuse_marked};
use super::state::{self, BackendState, CliState};
use super::{read_saved, state_to_migrate, write_error, Options, Outcome};
use config::{prepare_config, CloudEnv, CLOUD};
use connect::{configure, ConnectOptions, Connection};
use diag::CloudDiag;
use workspace::Prompt;

/// What the cloud step needs besides the configuration and the flags.
pub struct CloudOptions<'a> {
    pub connect: ConnectOptions,
    pub env: CloudEnv,
    /// `None` with `-input=false` or no terminal.
    pub prompt: Option<&'a mut dyn Prompt>,
}

/// `cloud.ConfigChangeMode`, the cases init meets with a `cloud` block.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mode {
    /// The working directory is (or becomes, with nothing to move) cloud.
    InPlace,
    /// From a backend (or local state) into the cloud.
    MigrationIn,
}

/// The cloud step of `init` with `-backend=true` (or `-cloud=true`).
pub fn init_cloud(
    root: &Module,
    cloud: &CloudConfig,
    opts: &Options,
    mut copts: CloudOptions<'_>,
) -> Outcome {
    let mut out = Outcome::default();
    if !opts.config_extra.is_empty() {
        out.diags.push(Diagnostic::error_sourceless(
            "Invalid command-line option",
            "The -backend-config=... command line option is only for state backends, and is not applicable to cloud backend-based configurations.\n\nTo change the set of workspaces associated with this configuration, edit the Cloud configuration block in the root module.",
        ));
        return out;
    }
    let backend = cloud.to_backend_config();
    let Some(value) = evaluate(root, &backend, &mut out.diags) else {
        return out;
    };
    let hash = state::config_hash("cloud", &value);
    let path = state::state_path(&opts.data_dir);
    let Some(saved) = read_saved(&path, &mut out) else {
        return out;
    };
    let saved = if opts.reconfigure {
        None
    } else {
        saved.backend.filter(|b| !b.type_name.is_empty())
    };
    let body = Some(&backend.config);

    let conn = match saved {
        None => {
            // `backend_C_r_s`: first initialization (or -reconfigure).
            let local = local_state();
            let mode = if local.is_some() {
                Mode::MigrationIn
            } else {
                Mode::InPlace
            };
            if !assert_supported_options(mode, opts, &mut out.diags) {
                return out;
            }
            let Some(conn) = from_config(&value, body, &copts, &mut out.diags) else {
                return out;
            };
            if let Some(what) = local {
                out.diags.push(migration_in_unsupported("local", &what));
                return out;
            }
            if !select_and_record(&conn, opts, &mut copts, hash, &value, &mut out) {
                return out;
            }
            conn
        }
        Some(saved) if saved.hash == hash => {
            let Some(conn) = from_saved(&saved, &copts, &mut out.diags) else {
                return out;
            };
            if let Err(e) = workspace::select(&conn, &opts.data_dir, copts.prompt.take()) {
                out.diags.push(Diagnostic::error_sourceless(e, ""));
                return out;
            }
            conn
        }
        Some(saved)
            if saved.type_name == "cloud"
                && saved
                    .config(&CLOUD.implied_type())
                    .is_ok_and(|c| c.raw_equals(&value)) =>
        {
            // The same settings written differently: only the hash moves.
            let Some(conn) = from_saved(&saved, &copts, &mut out.diags) else {
                return out;
            };
            let st = CliState {
                backend: Some(BackendState { hash, ..saved }),
            };
            if let Err(e) = state::write(&path, &st) {
                out.diags.push(write_error(&e));
                return out;
            }
            if let Err(e) = workspace::select(&conn, &opts.data_dir, copts.prompt.take()) {
                out.diags.push(Diagnostic::error_sourceless(e, ""));
                return out;
            }
            conn
        }
        Some(saved) => {
            // `backend_C_r_S_changed`.
            let mode = if saved.type_name == "cloud" {
                Mode::InPlace
            } else {
                Mode::MigrationIn
            };
            if !assert_supported_options(mode, opts, &mut out.diags) {
                return out;
            }
            out.messages.push(match mode {
                Mode::InPlace => "Cloud backend configuration has changed.".to_string(),
                Mode::MigrationIn => format!(
                    "Migrating from backend {} to cloud backend.",
                    cty::format::go_quote(&saved.type_name)
                ),
            });
            let Some(conn) = from_config(&value, body, &copts, &mut out.diags) else {
                return out;
            };
            if mode == Mode::MigrationIn {
                if let Some(d) = state_to_migrate(&saved, "cloud") {
                    out.diags.push(d);
                    return out;
                }
            }
            if !select_and_record(&conn, opts, &mut copts, hash, &value, &mut out) {
                return out;
            }
            conn
        }
    };
    prepare_workspace(&conn, opts, &mut out);
    out
}

/// Where OpenTofu would move state into the cloud. It asks how local
/// workspaces map to remote ones (and refuses -migrate-state and
/// -reconfigure for it), so `tofu init` is the way.
pub(super) fn migration_in_unsupported(from: &str, what: &str) -> Diagnostic {
    Diagnostic::error_sourceless(
        "State migration is not supported",
        format!(
            "Moving from the {} backend to cloud backend requires migrating the existing state ({what}). tofu-rs records the backend configuration only and never reads or writes state, so it cannot migrate it. Run \"tofu init\" to migrate the state: OpenTofu asks how the existing workspaces map to the cloud backend's.",
            cty::format::go_quote(from)
        ),
    )
}

/// Where OpenTofu would move the cloud workspaces' state elsewhere: to a
/// `backend` block's backend, or (`to` `None`, the block removed) to local
/// state, where -reconfigure would record nothing.
pub(super) fn migration_out_unsupported(to: Option<&str>) -> Diagnostic {
    let (target, alternative) = match to {
        Some(t) => (
            format!("the {} backend", cty::format::go_quote(t)),
            ", or \"tofu-rs init -reconfigure\" to record the new configuration and leave the state in the cloud",
        ),
        None => ("local state".to_string(), ""),
    };
    Diagnostic::error_sourceless(
        "State migration is not supported",
        format!("Moving from cloud backend to {target} requires migrating the state of the cloud workspaces. tofu-rs records the backend configuration only and never reads or writes state, so it cannot migrate it. Run \"tofu init\" to migrate the state (OpenTofu asks how){alternative}."),
    )
}

/// The block's body decoded statically against the cloud schema; `None`
/// (with the errors) when it cannot be, or holds sensitive values.
fn evaluate(root: &Module, backend: &Backend, diags: &mut Diagnostics) -> Option<Value> {
    let Some(eval) = root.static_evaluator.as_ref() else {
        diags.push(Diagnostic::error_sourceless(
            "Backend configuration not evaluated",
            "The root module was loaded without its variables, so the cloud block cannot be evaluated.",
        ));
        return None;
    };
    let ident = eval.backend_identifier(backend);
    let body = ConfigBody::Single(backend.config.clone());
    let (decoded, more) = decode_body(eval, &body, &CLOUD, &ident);
    let failed = hclsyntax::has_errors(&more);
    diags.extend(more);
    if failed {
        return None;
    }
    let value = decoded.to_value(&CLOUD);
    let marked = refuse_marked(&value, &backend.decl_range);
    if !marked.is_empty() {
        diags.extend(marked);
        return None;
    }
    Some(value)
}

/// What a first cloud initialization would have to migrate: the default
/// local state file or workspaces under `terraform.tfstate.d`.
fn local_state() -> Option<String> {
    if std::fs::metadata("terraform.tfstate").is_ok_and(|m| m.len() > 0) {
        return Some("terraform.tfstate".to_string());
    }
    if std::fs::read_dir("terraform.tfstate.d").is_ok_and(|mut d| d.next().is_some()) {
        return Some("terraform.tfstate.d".to_string());
    }
    None
}

/// `Meta.assertSupportedCloudInitOptions`.
fn assert_supported_options(mode: Mode, opts: &Options, diags: &mut Diagnostics) -> bool {
    let migration = mode == Mode::MigrationIn;
    let mut ok = true;
    if opts.reconfigure {
        ok = false;
        diags.push(Diagnostic::error_sourceless(
            "Invalid command-line option",
            if migration {
                "The -reconfigure option is unsupported when migrating to cloud backend, because activating cloud backend involves some additional steps."
            } else {
                "The -reconfigure option is for in-place reconfiguration of state backends only, and is not needed when changing cloud backend settings.\n\nWhen using cloud backend, initialization automatically activates any new Cloud configuration settings."
            },
        ));
    }
    if opts.migrate_state {
        ok = false;
        let name = if opts.force_copy {
            "-force-copy"
        } else {
            "-migrate-state"
        };
        diags.push(Diagnostic::error_sourceless(
            "Invalid command-line option",
            format!(
                "The {name} option is for migration between state backends only, and is not applicable when using cloud backend.\n\n{}",
                if migration {
                    "Cloud backend migration has additional steps, configured by interactive prompts."
                } else {
                    "State storage is handled automatically by cloud backend and so the state storage location is not configurable."
                }
            ),
        ));
    }
    ok
}

fn push_all(
    diags: &mut Diagnostics,
    found: Vec<CloudDiag>,
    body: Option<&hclsyntax::Body>,
) -> bool {
    let failed = !found.is_empty();
    for d in found {
        diags.push(d.into_diagnostic(body));
    }
    !failed
}

/// `backendInitFromConfig` for the block (its diagnostics placed in
/// `body`) or, with `body` `None`, for the recorded configuration.
fn from_config(
    value: &Value,
    body: Option<&hclsyntax::Body>,
    copts: &CloudOptions<'_>,
    diags: &mut Diagnostics,
) -> Option<Connection> {
    if !push_all(diags, prepare_config(value, &copts.env), body) {
        return None;
    }
    match configure(value, &copts.env, &copts.connect) {
        Ok(c) => Some(c),
        Err(found) => {
            push_all(diags, found, body);
            None
        }
    }
}

/// `Meta.savedBackend`: the recorded configuration, checked and connected.
fn from_saved(
    saved: &BackendState,
    copts: &CloudOptions<'_>,
    diags: &mut Diagnostics,
) -> Option<Connection> {
    match saved.config(&CLOUD.implied_type()) {
        Ok(v) => from_config(&v, None, copts, diags),
        Err(e) => {
            diags.push(Diagnostic::error_sourceless(
                "Failed to decode current backend config",
                format!("The backend configuration created by the most recent run of \"tofu init\" could not be decoded: {e}. The configuration may have been initialized by an earlier version that used an incompatible configuration structure. Run \"tofu init -reconfigure\" to force re-initialization of the backend."),
            ));
            None
        }
    }
}

/// The end of `backend_C_r_s` / `backend_C_r_S_changed`: the workspace
/// selected, then the block recorded (nothing is recorded when no
/// workspace could be selected).
fn select_and_record(
    conn: &Connection,
    opts: &Options,
    copts: &mut CloudOptions<'_>,
    hash: u64,
    value: &Value,
    out: &mut Outcome,
) -> bool {
    if let Err(e) = workspace::select(conn, &opts.data_dir, copts.prompt.take()) {
        out.diags.push(Diagnostic::error_sourceless(e, ""));
        return false;
    }
    let config_raw = match cty::json::marshal(value) {
        Ok(j) => j,
        Err(e) => {
            out.diags.push(Diagnostic::error_sourceless(
                "Can't serialize backend configuration as JSON",
                format!("Can't serialize backend configuration as JSON: {e}"),
            ));
            return false;
        }
    };
    let st = CliState {
        backend: Some(BackendState {
            type_name: "cloud".to_string(),
            config_raw,
            hash,
        }),
    };
    if let Err(e) = state::write(&state::state_path(&opts.data_dir), &st) {
        out.diags.push(write_error(&e));
        return false;
    }
    true
}

/// What init does with the backend it got (`InitCommand.Run`): the
/// selected workspace's state manager (the remote workspace created when
/// missing) and its current state.
fn prepare_workspace(conn: &Connection, opts: &Options, out: &mut Outcome) {
    let name = workspace::current(&opts.data_dir, conn.env.workspace.as_deref());
    match workspace::state_mgr(conn, &name, &conn.tofu_version) {
        Ok((ws, prepared)) => {
            out.messages.extend(prepared.messages);
            if let Err(e) = workspace::refresh_state(conn, &ws) {
                out.diags
                    .push(Diagnostic::error_sourceless("Error refreshing state", e));
            }
        }
        Err(e) => out
            .diags
            .push(Diagnostic::error_sourceless("Error loading state", e)),
    }
}

/// `backendFromConfig` with `Init` false for a `cloud` block: what the
/// other commands say when init has not recorded this block.
pub fn check_initialized(
    root: &Module,
    cloud: &CloudConfig,
    saved: Option<&BackendState>,
) -> Diagnostics {
    let mut diags = Diagnostics::new();
    let init_required = |reason: &str| {
        Diagnostic::error_sourceless(
            "Cloud backend initialization required: please run \"tofu init\"",
            format!("Reason: {reason}.\n\nChanges to the cloud backend configuration block require reinitialization, to discover any changes to the available workspaces.\n\nTo re-initialize, run:\n  tofu init\n\nOpenTofu has not yet made changes to your existing configuration or state."),
        )
    };
    let Some(saved) = saved else {
        diags.push(init_required("Initial configuration of cloud backend"));
        return diags;
    };
    let backend = cloud.to_backend_config();
    let Some(value) = evaluate(root, &backend, &mut diags) else {
        return diags;
    };
    if state::config_hash("cloud", &value) == saved.hash {
        return diags;
    }
    if saved.type_name == "cloud" {
        if saved
            .config(&CLOUD.implied_type())
            .is_ok_and(|c| c.raw_equals(&value))
        {
            return diags;
        }
        diags.push(init_required(
            "Cloud backend configuration block has changed",
        ));
    } else {
        diags.push(init_required(&format!(
            "Changed from backend {} to cloud backend",
            cty::format::go_quote(&saved.type_name)
        )));
    }
    diags
}
