//! Which remote workspace the working directory uses, as `init` settles
//! it: the backend's workspace list (`Cloud.Workspaces`), the current
//! workspace (`TF_WORKSPACE`, else the data directory's `environment`
//! file, else `default`) checked against it and chosen or asked for
//! (`Meta.selectWorkspace`), then the workspace fetched, created when
//! missing, tagged (`Cloud.StateMgr`), and its current state version read
//! (`RefreshState`).

use std::path::Path;

use super::client::{ApiError, Project, Workspace};
use super::config::Strategy;
use super::connect::Connection;

/// The file naming the selected workspace (`local.DefaultWorkspaceFile`).
pub const ENVIRONMENT_FILE: &str = "environment";

const NO_EXISTING_WORKSPACES: &str = "No existing workspaces.\n\nUse the \"tofu workspace\" command to create and select a new workspace.\nIf the backend already contains existing workspaces, you may need to update\nthe backend configuration.";

/// Asks the user something (`UIInput.Input`); `Err` when no answer came.
pub trait Prompt {
    fn input(&mut self, query: &str, description: &str) -> Result<String, String>;
}

/// `Meta.Workspace`: `TF_WORKSPACE`, else the `environment` file, else
/// `default`.
pub fn current(data_dir: &Path, tf_workspace: Option<&str>) -> String {
    if let Some(w) = tf_workspace.filter(|w| !w.is_empty()) {
        return w.to_string();
    }
    let recorded = std::fs::read_to_string(data_dir.join(ENVIRONMENT_FILE)).unwrap_or_default();
    match recorded.trim() {
        "" => "default".to_string(),
        w => w.to_string(),
    }
}

/// `Meta.SetWorkspace`: the name, without a newline, written atomically.
pub fn set(data_dir: &Path, name: &str) -> std::io::Result<()> {
    std::fs::create_dir_all(data_dir)?;
    initwd::atomic_file::write_atomic(&data_dir.join(ENVIRONMENT_FILE), name.as_bytes())
}

/// `Cloud.Workspaces`: the one named workspace, or the names of those with
/// the configured tags (in the configured project), sorted.
pub fn list(conn: &Connection) -> Result<Vec<String>, String> {
    let m = &conn.settings.mapping;
    let org = &conn.settings.organization;
    if m.strategy() == Strategy::Name {
        return Ok(vec![m.name.clone()]);
    }
    let tags = (m.strategy() == Strategy::Tags).then(|| m.tags.join(","));
    let mut project_id = None;
    if !m.project.is_empty() {
        match conn.client.list_projects(org, &m.project) {
            Ok(projects) => {
                project_id = projects
                    .into_iter()
                    .find(|p| p.name == m.project)
                    .map(|p| p.id)
            }
            Err(ApiError::NotFound) => {}
            Err(e) => return Err(format!("failed to retrieve project {}: {e}", m.project)),
        }
    }
    let mut names = Vec::new();
    let mut page = 0;
    loop {
        let list = conn
            .client
            .list_workspaces(org, tags.as_deref(), project_id.as_deref(), page)
            .map_err(|e| e.to_string())?;
        names.extend(list.items.into_iter().map(|w| w.name));
        if list.current_page >= list.total_pages || list.next_page <= page {
            break;
        }
        page = list.next_page;
    }
    names.sort();
    Ok(names)
}

/// `Meta.selectWorkspace` for the cloud backend; the error is the whole
/// diagnostic summary, as OpenTofu appends a plain error. `prompt` is
/// `None` when input is disabled.
pub fn select(
    conn: &Connection,
    data_dir: &Path,
    prompt: Option<&mut dyn Prompt>,
) -> Result<(), String> {
    let workspaces = list(conn).map_err(|e| format!("Failed to get existing workspaces: {e}"))?;
    if workspaces.is_empty() {
        let Some(prompt) = prompt else {
            return Err(NO_EXISTING_WORKSPACES.to_string());
        };
        let description = format!("\nThere are no workspaces with the configured tags ({})\nin your cloud backend organization. To finish initializing, OpenTofu needs at\nleast one workspace available.\n\nOpenTofu can create a properly tagged workspace for you now. Please enter a\nname to create a new cloud backend workspace.\n", conn.settings.mapping.tags.join(", "));
        let name = prompt
            .input(
                "\n[reset][bold][yellow]No workspaces found.[reset]",
                &description,
            )
            .map_err(|e| format!("Couldn't create initial workspace: {e}"))?;
        let name = name.trim();
        if name.is_empty() {
            return Err("Couldn't create initial workspace: no name provided".to_string());
        }
        return set(data_dir, name).map_err(|e| e.to_string());
    }
    let workspace = current(data_dir, conn.env.workspace.as_deref());
    if workspaces.contains(&workspace) {
        return Ok(());
    }
    if workspaces.len() == 1 {
        return set(data_dir, &workspaces[0]).map_err(|e| e.to_string());
    }
    let Some(prompt) = prompt else {
        return Err(format!(
            "Currently selected workspace {} does not exist",
            cty::format::go_quote(&workspace)
        ));
    };
    let list: String = workspaces
        .iter()
        .enumerate()
        .map(|(i, w)| format!("{}. {w}\n", i + 1))
        .collect();
    let description = format!("This is expected behavior when the selected workspace did not have an\nexisting non-empty state. Please enter a number to select a workspace:\n\n{list}");
    let answer = prompt
        .input(
            &format!("\n[reset][bold][yellow]The currently selected workspace ({workspace}) does not exist.[reset]"),
            description.trim(),
        )
        .map_err(|e| format!("Failed to select workspace: {e}"))?;
    match answer.trim().parse::<usize>() {
        Ok(i) if (1..=workspaces.len()).contains(&i) => {
            set(data_dir, &workspaces[i - 1]).map_err(|e| e.to_string())
        }
        _ => Err("Failed to select workspace: input not a valid number".to_string()),
    }
}

/// What [`state_mgr`] did besides finding the workspace.
#[derive(Debug, Default)]
pub struct Prepared {
    /// Lines for stdout (`UnavailableVersionInBackend`).
    pub messages: Vec<String>,
}

/// `Cloud.StateMgr` for `name` with the version check off (init calls
/// `IgnoreVersionConflict` first): the workspace, created (in the
/// configured project, which is created too when missing) when it does not
/// exist, and given the configured tags it lacks.
pub fn state_mgr(
    conn: &Connection,
    name: &str,
    tofu_version: &str,
) -> Result<(Workspace, Prepared), String> {
    let mut out = Prepared::default();
    let m = &conn.settings.mapping;
    let org = &conn.settings.organization;
    let client = &conn.client;
    if name == "default" {
        return Err("default workspace not supported\nYou can create a new workspace with the \"workspace new\" command.".to_string());
    }
    if m.strategy() == Strategy::Name && name != m.name {
        return Err("workspaces not supported".to_string());
    }
    let found = match client.read_workspace(org, name) {
        Ok(w) => Some(w),
        Err(ApiError::NotFound) => None,
        Err(e) => return Err(format!("Failed to retrieve workspace {name}: {e}")),
    };
    let mut project: Option<Project> = None;
    if !m.project.is_empty() {
        match client.list_projects(org, &m.project) {
            Ok(ps) => project = ps.into_iter().find(|p| p.name == m.project),
            Err(ApiError::NotFound) => {}
            Err(_) => {
                return Err(format!(
                    "Attempted to find configured project {} but was unable to.",
                    m.project
                ))
            }
        }
    }
    let tags: Vec<String> = if m.strategy() == Strategy::Tags {
        m.tags.clone()
    } else {
        Vec::new()
    };
    let mut workspace = match found {
        Some(w) => w,
        None => {
            if project.is_none() && !m.project.is_empty() {
                match client.create_project(org, &m.project) {
                    Ok(p) => project = Some(p),
                    Err(ApiError::NotFound) => {}
                    Err(e) => return Err(format!("failed to create project {}: {e}", m.project)),
                }
            }
            let created = client
                .create_workspace(org, name, &tags, project.as_ref())
                .map_err(|e| format!("error creating workspace {name}: {e}"))?;
            match client.update_workspace_version(&created.id, tofu_version) {
                Ok(w) => w,
                Err(_) => {
                    out.messages.push(format!("\n[reset][yellow]The local OpenTofu version ({tofu_version}) is not available in the cloud backend, or your\norganization does not have access to it. The new workspace will use {}. You can\nchange this later in the workspace settings.[reset]", created.terraform_version));
                    created
                }
            }
        }
    };
    if m.strategy() == Strategy::Tags && tags.iter().any(|t| !workspace.tag_names.contains(t)) {
        client
            .add_tags(&workspace.id, &tags)
            .map_err(|e| format!("Error updating workspace {name}: {e}"))?;
        for t in &tags {
            if !workspace.tag_names.contains(t) {
                workspace.tag_names.push(t.clone());
            }
        }
    }
    Ok((workspace, out))
}

/// `State.RefreshState`'s request: the workspace's current state version
/// (none yet is fine). The snapshot itself is not downloaded.
pub fn refresh_state(conn: &Connection, workspace: &Workspace) -> Result<(), String> {
    conn.client
        .read_current_state_version(&workspace.id)
        .map(|_| ())
        .map_err(|e| e.to_string())
}
