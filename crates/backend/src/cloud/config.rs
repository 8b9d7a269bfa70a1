//! The `cloud` block's settings (`internal/cloud/backend.go`):
//! `ConfigSchema`, `PrepareConfig` (what can be checked without the
//! network) and `setConfigurationFields` (the settings `Configure` works
//! with, environment variables applied), with OpenTofu's messages.

use cty::Value;

use super::diag::CloudDiag;
use crate::schema::{Attr, AttrType, BlockType, Nesting, Schema};

const fn opt(name: &'static str, ty: AttrType) -> Attr {
    Attr {
        name,
        ty,
        required: false,
    }
}

/// `Cloud.ConfigSchema`: every argument optional, one `workspaces` block.
pub const CLOUD: Schema = Schema {
    attrs: &[
        opt("hostname", AttrType::String),
        opt("organization", AttrType::String),
        opt("token", AttrType::String),
    ],
    blocks: &[BlockType {
        name: "workspaces",
        nesting: Nesting::Single,
        max_items: 0,
        attrs: &[
            opt("name", AttrType::String),
            opt("project", AttrType::String),
            opt("tags", AttrType::SetOfString),
        ],
    }],
};

const SCHEMA_DESCRIPTION_TAGS: &str = "A set of tags used to select remote cloud backend workspaces to be used for this single\nconfiguration. New workspaces will automatically be tagged with these tag values. Generally, this\nis the primary and recommended strategy to use. This option conflicts with \"name\".";

const SCHEMA_DESCRIPTION_NAME: &str = "The name of a single cloud backend workspace to be used with this configuration.\nWhen configured, only the specified workspace can be used. This option conflicts with \"tags\".";

/// `workspaceConfigurationHelp`. OpenTofu puts colour tags in it that the
/// diagnostic renderer does not interpret, so they show as written.
fn workspace_configuration_help() -> String {
    format!("The 'workspaces' block configures how OpenTofu CLI maps its workspaces for this single\nconfiguration to workspaces within a cloud backend organization. Two strategies are available:\n\n[bold]tags[reset] - {SCHEMA_DESCRIPTION_TAGS}\n\n[bold]name[reset] - {SCHEMA_DESCRIPTION_NAME}")
}

/// The environment variables the cloud block falls back on, read once.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CloudEnv {
    pub hostname: String,
    pub organization: String,
    pub project: String,
    /// `TF_WORKSPACE`: `None` when unset (`os.LookupEnv`), which differs
    /// from set to empty in one place.
    pub workspace: Option<String>,
    /// `TF_IN_AUTOMATION` is set.
    pub in_automation: bool,
}

impl CloudEnv {
    pub fn from_process() -> CloudEnv {
        let var = |k: &str| std::env::var(k).unwrap_or_default();
        CloudEnv {
            hostname: var("TF_CLOUD_HOSTNAME"),
            organization: var("TF_CLOUD_ORGANIZATION"),
            project: var("TF_CLOUD_PROJECT"),
            workspace: std::env::var("TF_WORKSPACE").ok(),
            in_automation: std::env::var_os("TF_IN_AUTOMATION").is_some_and(|v| !v.is_empty()),
        }
    }

    fn workspace_nonempty(&self) -> Option<&str> {
        self.workspace.as_deref().filter(|w| !w.is_empty())
    }
}

/// `WorkspaceMapping`: how CLI workspaces map to remote ones.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct WorkspaceMapping {
    pub name: String,
    pub project: String,
    /// In the set's order (sorted, as cty orders a set of strings).
    pub tags: Vec<String>,
}

/// `workspaceStrategy`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Strategy {
    Tags,
    Name,
    None,
    Invalid,
}

impl WorkspaceMapping {
    /// `newWorkspacesMappingFromFields`.
    pub fn from_fields(obj: &Value) -> WorkspaceMapping {
        let mut m = WorkspaceMapping::default();
        let Some(ws) = obj.get_attr("workspaces").filter(|v| !v.is_null()) else {
            return m;
        };
        let string = |name: &str| {
            ws.get_attr(name)
                .filter(|v| !v.is_null())
                .and_then(|v| v.as_str().map(str::to_string))
        };
        if let Some(name) = string("name") {
            m.name = name;
        }
        if let Some(tags) = ws.get_attr("tags").filter(|v| !v.is_null()) {
            m.tags = tags
                .as_elements()
                .unwrap_or_default()
                .iter()
                .filter_map(|t| t.as_str().map(str::to_string))
                .collect();
        }
        if let Some(project) = string("project").filter(|p| !p.is_empty()) {
            m.project = project;
        }
        m
    }

    /// `WorkspaceMapping.Strategy`.
    pub fn strategy(&self) -> Strategy {
        match (self.tags.is_empty(), self.name.is_empty()) {
            (false, true) => Strategy::Tags,
            (true, false) => Strategy::Name,
            (true, true) => Strategy::None,
            (false, false) => Strategy::Invalid,
        }
    }

    /// `reconcileWorkspaceMappingEnvVars`: `TF_WORKSPACE` names the
    /// workspace when the block names none, and must agree with it when it
    /// does; `TF_CLOUD_PROJECT` fills in a missing project.
    pub fn reconcile_env(&mut self, env: &CloudEnv) -> Option<CloudDiag> {
        if let Some(v) = env.workspace_nonempty() {
            if !self.name.is_empty() && self.name != v {
                return Some(CloudDiag::attr(
                    "workspaces",
                    "Invalid workspaces configuration",
                    format!("The workspace defined using the environment variable \"TF_WORKSPACE\" is not consistent with the workspace \"name\" in the configuration.\n\n{}", workspace_configuration_help()),
                ));
            }
            if self.strategy() == Strategy::None {
                self.name = v.to_string();
            }
        }
        if !env.project.is_empty() && self.project.is_empty() {
            self.project = env.project.clone();
        }
        None
    }
}

fn nonempty_string(obj: &Value, name: &str) -> Option<String> {
    obj.get_attr(name)
        .filter(|v| !v.is_null())
        .and_then(|v| v.as_str().map(str::to_string))
        .filter(|s| !s.is_empty())
}

/// `Cloud.PrepareConfig`: the organization and the workspace mapping
/// strategy, all problems at once.
pub fn prepare_config(obj: &Value, env: &CloudEnv) -> Vec<CloudDiag> {
    let mut diags = Vec::new();
    if obj.is_null() {
        return diags;
    }
    if nonempty_string(obj, "organization").is_none() && env.organization.is_empty() {
        diags.push(CloudDiag::attr(
            "organization",
            "Invalid or missing required argument",
            "\"organization\" must be set in the cloud configuration or as an environment variable: TF_CLOUD_ORGANIZATION.",
        ));
    }
    let mut mapping = WorkspaceMapping::from_fields(obj);
    if let Some(d) = mapping.reconcile_env(env) {
        diags.push(d);
    }
    match mapping.strategy() {
        Strategy::None => diags.push(CloudDiag::attr(
            "workspaces",
            "Invalid workspaces configuration",
            format!("Missing workspace mapping strategy. Either workspace \"tags\" or \"name\" is required.\n\n{}", workspace_configuration_help()),
        )),
        Strategy::Invalid => diags.push(CloudDiag::attr(
            "workspaces",
            "Invalid workspaces configuration",
            format!(
                "Only one of workspace \"tags\" or \"name\" is allowed.\n\n{}",
                workspace_configuration_help()
            ),
        )),
        Strategy::Tags | Strategy::Name => {}
    }
    diags
}

/// The settings `Configure` works with (`setConfigurationFields`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Settings {
    pub hostname: String,
    pub organization: String,
    /// The block's `token`, when set and not empty.
    pub token: Option<String>,
    pub mapping: WorkspaceMapping,
}

/// `setConfigurationFields`: the hostname (the block's, else
/// `TF_CLOUD_HOSTNAME`; OpenTofu has no default), the organization (the
/// block's, else `TF_CLOUD_ORGANIZATION`) and the workspace mapping.
pub fn settings(obj: &Value, env: &CloudEnv) -> Result<Settings, CloudDiag> {
    let hostname = match nonempty_string(obj, "hostname") {
        Some(h) => h,
        None if !env.hostname.is_empty() => env.hostname.clone(),
        None => {
            return Err(CloudDiag::sourceless(
                "Hostname is required for the cloud backend",
                "OpenTofu does not provide a default \"hostname\" attribute, so it must be set to the hostname of the cloud backend.",
            ))
        }
    };
    let organization =
        nonempty_string(obj, "organization").unwrap_or_else(|| env.organization.clone());
    let mut mapping = WorkspaceMapping::from_fields(obj);
    if let Some(d) = mapping.reconcile_env(env) {
        return Err(d);
    }
    Ok(Settings {
        hostname,
        organization,
        token: nonempty_string(obj, "token"),
        mapping,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use cty::Type;

    fn s(v: &str) -> Value {
        Value::string(v)
    }
    fn null() -> Value {
        Value::null(Type::String)
    }

    fn config(org: Value, name: Value, tags: Option<&[&str]>, project: Value) -> Value {
        let tags = match tags {
            Some(t) => Value::set(Type::String, t.iter().map(|t| s(t)).collect()).unwrap(),
            None => Value::null(Type::set(Type::String)),
        };
        Value::object_from([
            ("hostname", s("example.com")),
            ("organization", org),
            ("token", null()),
            (
                "workspaces",
                Value::object_from([("name", name), ("project", project), ("tags", tags)]),
            ),
        ])
    }

    fn summaries(diags: &[CloudDiag]) -> Vec<(String, Option<&'static str>)> {
        diags.iter().map(|d| (d.summary.clone(), d.attr)).collect()
    }

    #[test]
    fn prepare_config_cases_from_opentofu() {
        let env = CloudEnv::default();
        // Ported from TestCloud_PrepareConfig.
        let d = prepare_config(&config(null(), s("prod"), None, null()), &env);
        assert_eq!(d.len(), 1);
        assert_eq!(d[0].summary, "Invalid or missing required argument");
        assert_eq!(d[0].detail, "\"organization\" must be set in the cloud configuration or as an environment variable: TF_CLOUD_ORGANIZATION.");
        assert_eq!(d[0].attr, Some("organization"));

        let d = prepare_config(&config(s("org"), null(), None, null()), &env);
        assert_eq!(
            summaries(&d),
            vec![(
                "Invalid workspaces configuration".into(),
                Some("workspaces")
            )]
        );
        assert!(d[0].detail.starts_with("Missing workspace mapping strategy. Either workspace \"tags\" or \"name\" is required.\n\nThe 'workspaces' block configures"));

        let d = prepare_config(
            &config(s("org"), s("prod"), Some(&["billing"]), null()),
            &env,
        );
        assert!(d[0]
            .detail
            .starts_with("Only one of workspace \"tags\" or \"name\" is allowed.\n\n"));
        assert!(d[0]
            .detail
            .contains("\n\n[bold]tags[reset] - A set of tags"));

        assert!(prepare_config(&config(s("org"), s("prod"), None, null()), &env).is_empty());
        assert!(prepare_config(&config(s("org"), null(), Some(&["a"]), null()), &env).is_empty());
        // An empty tag set and no name: no strategy.
        let d = prepare_config(&config(s("org"), null(), Some(&[]), null()), &env);
        assert!(d[0]
            .detail
            .starts_with("Missing workspace mapping strategy."));
        // Both problems at once.
        let d = prepare_config(&config(s(""), null(), None, null()), &env);
        assert_eq!(d.len(), 2);
    }

    #[test]
    fn environment_fills_in_and_must_agree() {
        let env = CloudEnv {
            organization: "envorg".into(),
            workspace: Some("from-env".into()),
            project: "envproj".into(),
            ..CloudEnv::default()
        };
        // TF_WORKSPACE names the workspace when the block does not.
        assert!(prepare_config(&config(null(), null(), None, null()), &env).is_empty());
        let st = settings(&config(null(), null(), None, null()), &env).unwrap();
        assert_eq!(st.organization, "envorg");
        assert_eq!(st.mapping.name, "from-env");
        assert_eq!(st.mapping.project, "envproj");
        assert_eq!(st.mapping.strategy(), Strategy::Name);
        // With tags, TF_WORKSPACE does not become the name.
        let st = settings(&config(null(), null(), Some(&["a"]), s("p")), &env).unwrap();
        assert_eq!(st.mapping.strategy(), Strategy::Tags);
        assert_eq!(st.mapping.project, "p");
        // A different name in the block is refused.
        let e = settings(&config(null(), s("other"), None, null()), &env).unwrap_err();
        assert!(e.detail.starts_with("The workspace defined using the environment variable \"TF_WORKSPACE\" is not consistent with the workspace \"name\" in the configuration."));
        let d = prepare_config(&config(s("o"), s("other"), None, null()), &env);
        assert_eq!(d.len(), 1);
    }

    #[test]
    fn hostname_comes_from_the_block_or_the_environment() {
        let mut obj = config(s("o"), s("w"), None, null());
        let st = settings(&obj, &CloudEnv::default()).unwrap();
        assert_eq!(st.hostname, "example.com");
        obj = Value::object_from([
            ("hostname", s("")),
            ("organization", s("o")),
            ("token", s("tok")),
            ("workspaces", Value::null(CLOUD.blocks[0].object_type())),
        ]);
        let e = settings(&obj, &CloudEnv::default()).unwrap_err();
        assert_eq!(e.summary, "Hostname is required for the cloud backend");
        assert_eq!(e.attr, None);
        let env = CloudEnv {
            hostname: "tfe.example".into(),
            ..CloudEnv::default()
        };
        let st = settings(&obj, &env).unwrap();
        assert_eq!(st.hostname, "tfe.example");
        assert_eq!(st.token.as_deref(), Some("tok"));
    }
}
