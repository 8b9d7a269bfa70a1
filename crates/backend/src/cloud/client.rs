//! The part of the HCP Terraform / Terraform Enterprise API (JSON:API over
//! HTTPS, `go-tfe` in OpenTofu) that initializing a `cloud` block uses:
//! the ping that reports the API version, organization entitlements,
//! workspaces (read, list, create, update, tag), projects, and the
//! current state version. Errors read as `go-tfe`'s (`unauthorized`,
//! `resource not found`, the status line or the JSON:API error titles).

use gocompat::http::{AgentOptions, Timeout};
use std::io::Read;
use std::time::Duration;

use serde_json::{json, Value as Json};

/// Caps a response body; API documents are small.
const MAX_BODY_BYTES: u64 = 16 << 20;
const MEDIA_TYPE: &str = "application/vnd.api+json";

/// Why a request failed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ApiError {
    /// 401 (`tfe.ErrUnauthorized`).
    Unauthorized,
    /// 404 (`tfe.ErrResourceNotFound`).
    NotFound,
    /// No answer: connection refused, reset, timed out.
    Transport(String),
    /// Any other failure, as `go-tfe` words it.
    Other(String),
}

impl std::fmt::Display for ApiError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ApiError::Unauthorized => f.write_str("unauthorized"),
            ApiError::NotFound => f.write_str("resource not found"),
            ApiError::Transport(m) | ApiError::Other(m) => f.write_str(m),
        }
    }
}

/// How the client talks to the service.
#[derive(Debug, Clone)]
pub struct ClientOptions {
    /// Per request. `go-tfe` has none; a service that never answers would
    /// hang `init` forever, so tofu-rs gives up after this long.
    pub timeout: Duration,
    /// Extra attempts for 429 (and, once configured, 5xx and transport
    /// errors), as `go-tfe`'s retryablehttp setup: 30, waits growing from
    /// 100 ms to 400 ms.
    pub retry_max: u32,
    pub retry_wait_min: Duration,
    pub retry_wait_max: Duration,
    /// Sent as `Terraform-Version` (the OpenTofu version tofu-rs stands in
    /// for).
    pub tofu_version: String,
}

impl Default for ClientOptions {
    fn default() -> Self {
        ClientOptions {
            timeout: Duration::from_secs(30),
            retry_max: 30,
            retry_wait_min: Duration::from_millis(100),
            retry_wait_max: Duration::from_millis(400),
            tofu_version: cliconfig::RegistryOptions::default().tofu_version,
        }
    }
}

/// A workspace (`tfe.Workspace`, the fields init needs).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Workspace {
    pub id: String,
    pub name: String,
    pub terraform_version: String,
    pub execution_mode: String,
    pub tag_names: Vec<String>,
}

/// One page of a workspace list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WorkspacePage {
    pub items: Vec<Workspace>,
    pub current_page: u64,
    pub total_pages: u64,
    pub next_page: u64,
}

/// A project (`tfe.Project`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Project {
    pub id: String,
    pub name: String,
}

/// The API client of one run.
pub struct TfeClient {
    agent: ureq::Agent,
    /// The `tfe.v2` service URL, ending in `/`.
    base: url::Url,
    token: String,
    opts: ClientOptions,
    /// `TFP-API-Version` as the ping reported it (empty before 2.3).
    remote_api_version: String,
    /// `RetryServerErrors(true)`: set once the backend is configured.
    retry_server_errors: bool,
}

impl TfeClient {
    /// `tfe.NewClient`: builds the client and pings the service for its
    /// API version. Only a request that gets no answer fails here.
    pub fn connect(
        base: url::Url,
        token: &str,
        opts: ClientOptions,
    ) -> Result<TfeClient, ApiError> {
        let agent = AgentOptions {
            user_agent: format!(
                "OpenTofu/{} tofu-rs/{}",
                opts.tofu_version,
                env!("CARGO_PKG_VERSION")
            ),
            connect_timeout: opts.timeout,
            timeout: Timeout::WholeRequest(opts.timeout),
            redirects: 5,
        }
        .build();
        let mut client = TfeClient {
            agent,
            base,
            token: token.to_string(),
            opts,
            remote_api_version: String::new(),
            retry_server_errors: false,
        };
        let url = client.url(&["ping"], &[]);
        let resp = client.send("GET", &url, None)?;
        client.remote_api_version = resp
            .header("TFP-API-Version")
            .unwrap_or_default()
            .to_string();
        Ok(client)
    }

    /// `Client.RemoteAPIVersion`.
    pub fn remote_api_version(&self) -> &str {
        &self.remote_api_version
    }

    /// `Client.RetryServerErrors(true)`.
    pub fn retry_server_errors(&mut self) {
        self.retry_server_errors = true;
    }

    fn url(&self, segments: &[&str], query: &[(&str, &str)]) -> url::Url {
        let mut u = self.base.clone();
        if let Ok(mut path) = u.path_segments_mut() {
            path.pop_if_empty().extend(segments);
        }
        if !query.is_empty() {
            u.query_pairs_mut().extend_pairs(query);
        }
        u
    }

    /// One request, whatever its status; retried as `go-tfe` retries.
    fn send(
        &self,
        method: &str,
        url: &url::Url,
        body: Option<&Json>,
    ) -> Result<ureq::Response, ApiError> {
        let mut attempt = 0u32;
        loop {
            let mut req = self
                .agent
                .request(method, url.as_str())
                .set("Accept", MEDIA_TYPE)
                .set("Authorization", &format!("Bearer {}", self.token))
                .set("Terraform-Version", &self.opts.tofu_version)
                .set("X-Terraform-Integration", "cloud");
            let result = match body {
                Some(b) => {
                    req = req.set("Content-Type", MEDIA_TYPE);
                    req.send_string(&b.to_string())
                }
                None => req.call(),
            };
            let outcome = match result {
                Ok(r) => Ok(r),
                Err(ureq::Error::Status(_, r)) => Ok(r),
                Err(ureq::Error::Transport(t)) => Err(ApiError::Transport(
                    gocompat::http::request_error(method, url.as_str(), &t),
                )),
            };
            let retry = match &outcome {
                Ok(r) => r.status() == 429 || (self.retry_server_errors && r.status() >= 500),
                Err(_) => self.retry_server_errors,
            };
            if !retry || attempt >= self.opts.retry_max {
                return outcome;
            }
            let wait = self
                .opts
                .retry_wait_min
                .saturating_mul(1u32 << attempt.min(16))
                .min(self.opts.retry_wait_max);
            std::thread::sleep(wait);
            attempt += 1;
        }
    }

    /// A request whose answer must be a success (`checkResponseCode`);
    /// returns the status and the body.
    fn call(
        &self,
        method: &str,
        url: &url::Url,
        body: Option<&Json>,
    ) -> Result<(u16, Vec<u8>), ApiError> {
        let resp = self.send(method, url, body)?;
        let status = resp.status();
        let status_line = format!("{} {}", status, resp.status_text());
        let mut bytes = Vec::new();
        resp.into_reader()
            .take(MAX_BODY_BYTES)
            .read_to_end(&mut bytes)
            .map_err(|e| ApiError::Transport(format!("error reading response body: {e}")))?;
        match status {
            200..=299 => Ok((status, bytes)),
            401 => Err(ApiError::Unauthorized),
            404 => Err(ApiError::NotFound),
            _ => Err(ApiError::Other(
                error_payload(&bytes).unwrap_or(status_line),
            )),
        }
    }

    fn get_json(&self, url: &url::Url) -> Result<Json, ApiError> {
        let (_, body) = self.call("GET", url, None)?;
        decode(&body)
    }

    /// `Organizations.ReadEntitlements`: whether the organization runs
    /// operations (`operations`); `NotFound` for an unknown organization.
    pub fn read_entitlements(&self, org: &str) -> Result<bool, ApiError> {
        let doc = self.get_json(&self.url(&["organizations", org, "entitlement-set"], &[]))?;
        let data = data_object(&doc)?;
        Ok(data
            .pointer("/attributes/operations")
            .and_then(Json::as_bool)
            .unwrap_or(false))
    }

    /// `Workspaces.Read`.
    pub fn read_workspace(&self, org: &str, name: &str) -> Result<Workspace, ApiError> {
        let doc = self.get_json(&self.url(&["organizations", org, "workspaces", name], &[]))?;
        workspace(data_object(&doc)?)
    }

    /// `Workspaces.List` (one page): with tags (comma-separated) and a
    /// project ID as filters.
    pub fn list_workspaces(
        &self,
        org: &str,
        tags: Option<&str>,
        project_id: Option<&str>,
        page: u64,
    ) -> Result<WorkspacePage, ApiError> {
        let page_s = page.to_string();
        let mut query = Vec::new();
        if let Some(t) = tags {
            query.push(("search[tags]", t));
        }
        if let Some(p) = project_id {
            query.push(("filter[project][id]", p));
        }
        if page > 0 {
            query.push(("page[number]", page_s.as_str()));
        }
        let doc = self.get_json(&self.url(&["organizations", org, "workspaces"], &query))?;
        let items = data_array(&doc)?
            .iter()
            .map(workspace)
            .collect::<Result<Vec<_>, _>>()?;
        let pagination = doc.pointer("/meta/pagination");
        let num = |k: &str| {
            pagination
                .and_then(|p| p.get(k))
                .and_then(Json::as_u64)
                .unwrap_or(0)
        };
        Ok(WorkspacePage {
            items,
            current_page: num("current-page"),
            total_pages: num("total-pages"),
            next_page: num("next-page"),
        })
    }

    /// `Workspaces.Create` with a name, tags and a project.
    pub fn create_workspace(
        &self,
        org: &str,
        name: &str,
        tags: &[String],
        project: Option<&Project>,
    ) -> Result<Workspace, ApiError> {
        let mut data = json!({"type": "workspaces", "attributes": {"name": name}});
        let mut relationships = serde_json::Map::new();
        if !tags.is_empty() {
            relationships.insert("tags".into(), json!({"data": tag_nodes(tags)}));
        }
        if let Some(p) = project {
            relationships.insert(
                "project".into(),
                json!({"data": {"type": "projects", "id": p.id}}),
            );
        }
        if !relationships.is_empty() {
            data["relationships"] = Json::Object(relationships);
        }
        let (_, body) = self.call(
            "POST",
            &self.url(&["organizations", org, "workspaces"], &[]),
            Some(&json!({ "data": data })),
        )?;
        workspace(data_object(&decode(&body)?)?)
    }

    /// `Workspaces.UpdateByID` setting the workspace's OpenTofu version.
    pub fn update_workspace_version(&self, id: &str, version: &str) -> Result<Workspace, ApiError> {
        let body =
            json!({"data": {"type": "workspaces", "attributes": {"terraform-version": version}}});
        let (_, got) = self.call("PATCH", &self.url(&["workspaces", id], &[]), Some(&body))?;
        workspace(data_object(&decode(&got)?)?)
    }

    /// `Workspaces.AddTags`.
    pub fn add_tags(&self, id: &str, tags: &[String]) -> Result<(), ApiError> {
        let body = json!({ "data": tag_nodes(tags) });
        self.call(
            "POST",
            &self.url(&["workspaces", id, "relationships", "tags"], &[]),
            Some(&body),
        )?;
        Ok(())
    }

    /// `Projects.List` filtered by name.
    pub fn list_projects(&self, org: &str, name: &str) -> Result<Vec<Project>, ApiError> {
        let doc = self.get_json(&self.url(
            &["organizations", org, "projects"],
            &[("filter[names]", name)],
        ))?;
        data_array(&doc)?.iter().map(project).collect()
    }

    /// `Projects.Create`.
    pub fn create_project(&self, org: &str, name: &str) -> Result<Project, ApiError> {
        let body = json!({"data": {"type": "projects", "attributes": {"name": name}}});
        let (_, got) = self.call(
            "POST",
            &self.url(&["organizations", org, "projects"], &[]),
            Some(&body),
        )?;
        project(data_object(&decode(&got)?)?)
    }

    /// `StateVersions.ReadCurrent`: the ID of the workspace's current state
    /// version, `None` when it has no state yet.
    pub fn read_current_state_version(
        &self,
        workspace_id: &str,
    ) -> Result<Option<String>, ApiError> {
        match self.get_json(&self.url(&["workspaces", workspace_id, "current-state-version"], &[]))
        {
            Ok(doc) => Ok(Some(
                data_object(&doc)?
                    .get("id")
                    .and_then(Json::as_str)
                    .unwrap_or_default()
                    .to_string(),
            )),
            Err(ApiError::NotFound) => Ok(None),
            Err(e) => Err(e),
        }
    }
}

fn tag_nodes(tags: &[String]) -> Json {
    Json::Array(
        tags.iter()
            .map(|t| json!({"type": "tags", "attributes": {"name": t}}))
            .collect(),
    )
}

/// `decodeErrorPayload`: the JSON:API error titles (and details), one a
/// line; `None` when the body is no such document.
fn error_payload(body: &[u8]) -> Option<String> {
    let doc: Json = serde_json::from_slice(body).ok()?;
    let errors = doc.get("errors")?.as_array()?;
    if errors.is_empty() {
        return None;
    }
    let lines: Vec<String> = errors
        .iter()
        .map(|e| {
            let title = e.get("title").and_then(Json::as_str).unwrap_or_default();
            match e.get("detail").and_then(Json::as_str).unwrap_or_default() {
                "" => title.to_string(),
                detail => format!("{title}\n\n{detail}"),
            }
        })
        .collect();
    Some(lines.join("\n"))
}

fn decode(body: &[u8]) -> Result<Json, ApiError> {
    serde_json::from_slice(body)
        .map_err(|e| ApiError::Other(format!("invalid JSON:API response: {e}")))
}

fn data_object(doc: &Json) -> Result<&Json, ApiError> {
    doc.get("data")
        .filter(|d| d.is_object())
        .ok_or_else(|| ApiError::Other("invalid JSON:API response: no \"data\" object".into()))
}

fn data_array(doc: &Json) -> Result<&Vec<Json>, ApiError> {
    doc.get("data")
        .and_then(Json::as_array)
        .ok_or_else(|| ApiError::Other("invalid JSON:API response: no \"data\" array".into()))
}

fn workspace(node: &Json) -> Result<Workspace, ApiError> {
    let attr = |k: &str| {
        node.pointer(&format!("/attributes/{k}"))
            .and_then(Json::as_str)
            .unwrap_or_default()
            .to_string()
    };
    let id = node.get("id").and_then(Json::as_str).unwrap_or_default();
    if id.is_empty() {
        return Err(ApiError::Other(
            "invalid JSON:API response: a workspace without an ID".into(),
        ));
    }
    Ok(Workspace {
        id: id.to_string(),
        name: attr("name"),
        terraform_version: attr("terraform-version"),
        execution_mode: attr("execution-mode"),
        tag_names: node
            .pointer("/attributes/tag-names")
            .and_then(Json::as_array)
            .map(|a| {
                a.iter()
                    .filter_map(|t| t.as_str().map(str::to_string))
                    .collect()
            })
            .unwrap_or_default(),
    })
}

fn project(node: &Json) -> Result<Project, ApiError> {
    Ok(Project {
        id: node
            .get("id")
            .and_then(Json::as_str)
            .unwrap_or_default()
            .to_string(),
        name: node
            .pointer("/attributes/name")
            .and_then(Json::as_str)
            .unwrap_or_default()
            .to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn error_payloads_read_as_go_tfe_reads_them() {
        assert_eq!(
            error_payload(br#"{"errors":[{"status":"422","title":"invalid attribute","detail":"Name has already been taken"},{"title":"second"}]}"#).as_deref(),
            Some("invalid attribute\n\nName has already been taken\nsecond")
        );
        assert_eq!(error_payload(b"<html>oops</html>"), None);
        assert_eq!(error_payload(br#"{"errors":[]}"#), None);
    }

    #[test]
    fn documents_without_data_are_errors_not_panics() {
        for body in [&b"null"[..], b"[]", b"{\"data\":[]}", b"{\"data\":{}}"] {
            let doc = decode(body).unwrap();
            assert!(data_object(&doc).and_then(workspace).is_err(), "{body:?}");
        }
        assert!(decode(b"\xff").is_err());
    }
}
