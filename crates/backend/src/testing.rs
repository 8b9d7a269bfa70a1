//! A fake HCP Terraform / Terraform Enterprise API on loopback, for the
//! cloud backend's unit tests and the command's `tests/init_cloud.rs`
//! (through the `test-support` feature): service discovery, the ping,
//! organizations, workspaces (kept in memory, created and tagged by
//! requests), projects and state versions, plus injected failures and a
//! log of every request.

use std::sync::{Arc, Mutex};

use serde_json::{json, Value as Json};
use testserver::{HttpRequest, HttpResponse, LoopbackServer};

/// A workspace the fake knows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FakeWorkspace {
    pub id: String,
    pub name: String,
    pub tags: Vec<String>,
    pub project_id: Option<String>,
    pub terraform_version: String,
    pub has_state: bool,
}

/// Everything the fake holds; tests change it through [`FakeTfe::with`].
#[derive(Debug)]
pub struct FakeState {
    /// `TFP-API-Version` on the ping (`None`: no header, an old TFE).
    pub api_version: Option<String>,
    pub orgs: Vec<String>,
    /// Tokens accepted as `Bearer …`; others get 401.
    pub tokens: Vec<String>,
    pub workspaces: Vec<FakeWorkspace>,
    pub projects: Vec<(String, String)>,
    /// Versions a workspace may be set to (others: 422).
    pub available_versions: Vec<String>,
    /// (method, path) answered with the response instead, every time.
    pub failures: Vec<(String, String, HttpResponse)>,
    pub log: Vec<HttpRequest>,
    /// Workspaces per page of a list.
    pub page_size: usize,
    next_id: u32,
}

impl FakeState {
    pub fn add_workspace(&mut self, name: &str, tags: &[&str]) -> String {
        self.next_id += 1;
        let id = format!("ws-{:04}", self.next_id);
        self.workspaces.push(FakeWorkspace {
            id: id.clone(),
            name: name.to_string(),
            tags: tags.iter().map(|t| t.to_string()).collect(),
            project_id: None,
            terraform_version: "1.10.0".to_string(),
            has_state: false,
        });
        id
    }
}

/// The fake service.
pub struct FakeTfe {
    pub server: LoopbackServer,
    state: Arc<Mutex<FakeState>>,
}

fn reply(status: u16, body: Json) -> HttpResponse {
    HttpResponse::Reply {
        status,
        headers: vec![("Content-Type".into(), "application/vnd.api+json".into())],
        body: body.to_string().into_bytes(),
    }
}

fn error(status: u16, title: &str) -> HttpResponse {
    reply(
        status,
        json!({"errors": [{"status": status.to_string(), "title": title}]}),
    )
}

fn decode_segment(s: &str) -> String {
    url::form_urlencoded::parse(format!("x={s}").as_bytes())
        .next()
        .map(|(_, v)| v.into_owned())
        .unwrap_or_default()
}

fn workspace_doc(w: &FakeWorkspace) -> Json {
    json!({
        "id": w.id,
        "type": "workspaces",
        "attributes": {
            "name": w.name,
            "terraform-version": w.terraform_version,
            "execution-mode": "remote",
            "tag-names": w.tags,
        },
    })
}

impl FakeTfe {
    /// Starts the fake (over HTTPS with the PEM chain and key given), with
    /// organization `acme`, token `good-token` and API version 2.6.
    pub fn start(tls: Option<(&[u8], &[u8])>) -> FakeTfe {
        let state = Arc::new(Mutex::new(FakeState {
            api_version: Some("2.6".to_string()),
            orgs: vec!["acme".to_string()],
            tokens: vec!["good-token".to_string()],
            workspaces: Vec::new(),
            projects: Vec::new(),
            available_versions: vec!["1.10.0".to_string()],
            failures: Vec::new(),
            log: Vec::new(),
            page_size: 2,
            next_id: 0,
        }));
        let st = state.clone();
        let server = LoopbackServer::start_handler(
            tls,
            Arc::new(move |req: &HttpRequest| {
                let mut s = st.lock().expect("fake TFE lock");
                s.log.push(req.clone());
                handle(&mut s, req)
            }),
        );
        FakeTfe { server, state }
    }

    /// `127.0.0.1:PORT`, the hostname to configure.
    pub fn host(&self) -> String {
        self.server.addr().to_string()
    }

    /// The `tfe.v2` service URL.
    pub fn base_url(&self) -> String {
        self.server.url("/api/v2/")
    }

    pub fn with<R>(&self, f: impl FnOnce(&mut FakeState) -> R) -> R {
        f(&mut self.state.lock().expect("fake TFE lock"))
    }

    /// Answers `method path` with `response` from now on.
    pub fn fail(&self, method: &str, path: &str, response: HttpResponse) {
        self.with(|s| {
            s.failures
                .push((method.to_string(), path.to_string(), response))
        });
    }

    /// Every request as `METHOD path[?query]`.
    pub fn requests(&self) -> Vec<String> {
        self.with(|s| {
            s.log
                .iter()
                .map(|r| {
                    let q = if r.query.is_empty() {
                        String::new()
                    } else {
                        format!("?{}", decode_segment(&r.query))
                    };
                    format!("{} {}{q}", r.method, r.path)
                })
                .collect()
        })
    }

    /// The requests that change something (not GET).
    pub fn writes(&self) -> Vec<String> {
        self.requests()
            .into_iter()
            .filter(|r| !r.starts_with("GET "))
            .collect()
    }

    pub fn workspaces(&self) -> Vec<FakeWorkspace> {
        self.with(|s| s.workspaces.clone())
    }
}

fn handle(s: &mut FakeState, req: &HttpRequest) -> HttpResponse {
    if let Some((_, _, r)) = s
        .failures
        .iter()
        .find(|(m, p, _)| *m == req.method && *p == req.path)
    {
        return r.clone();
    }
    if req.path == "/.well-known/terraform.json" {
        return HttpResponse::Reply {
            status: 200,
            headers: vec![("Content-Type".into(), "application/json".into())],
            body: br#"{"tfe.v2":"/api/v2/","modules.v1":"/api/registry/v1/modules/"}"#.to_vec(),
        };
    }
    let Some(rest) = req.path.strip_prefix("/api/v2/") else {
        return error(404, "not found");
    };
    let authorized = req
        .header("authorization")
        .and_then(|a| a.strip_prefix("Bearer "))
        .is_some_and(|t| s.tokens.iter().any(|k| k == t));
    if rest == "ping" {
        let mut headers = vec![(
            "Content-Type".to_string(),
            "application/vnd.api+json".to_string(),
        )];
        if let Some(v) = &s.api_version {
            headers.push(("TFP-API-Version".into(), v.clone()));
        }
        return HttpResponse::Reply {
            status: 204,
            headers,
            body: Vec::new(),
        };
    }
    if !authorized {
        return error(401, "unauthorized");
    }
    let seg: Vec<String> = rest.split('/').map(decode_segment).collect();
    let seg: Vec<&str> = seg.iter().map(String::as_str).collect();
    let query: Vec<(String, String)> = url::form_urlencoded::parse(req.query.as_bytes())
        .into_owned()
        .collect();
    let q = |k: &str| query.iter().find(|(n, _)| n == k).map(|(_, v)| v.as_str());
    let body: Json = serde_json::from_slice(&req.body).unwrap_or(Json::Null);
    match (req.method.as_str(), seg.as_slice()) {
        ("GET", ["organizations", org, "entitlement-set"]) => {
            if !s.orgs.iter().any(|o| o == org) {
                return error(404, "not found");
            }
            reply(
                200,
                json!({"data": {"id": format!("org-{org}"), "type": "entitlement-sets",
                    "attributes": {"operations": true, "state-storage": true}}}),
            )
        }
        ("GET", ["organizations", _org, "workspaces", name]) => {
            match s.workspaces.iter().find(|w| w.name == *name) {
                Some(w) => reply(200, json!({ "data": workspace_doc(w) })),
                None => error(404, "not found"),
            }
        }
        ("GET", ["organizations", _org, "workspaces"]) => {
            let tags: Vec<&str> = q("search[tags]")
                .map(|t| t.split(',').collect())
                .unwrap_or_default();
            let project = q("filter[project][id]");
            let matching: Vec<&FakeWorkspace> = s
                .workspaces
                .iter()
                .filter(|w| tags.iter().all(|t| w.tags.iter().any(|x| x == t)))
                .filter(|w| project.is_none() || w.project_id.as_deref() == project)
                .collect();
            let page: usize = q("page[number]")
                .and_then(|p| p.parse().ok())
                .unwrap_or(1)
                .max(1);
            let total = matching.len().div_ceil(s.page_size).max(1);
            let items: Vec<Json> = matching
                .iter()
                .skip((page - 1) * s.page_size)
                .take(s.page_size)
                .map(|w| workspace_doc(w))
                .collect();
            let next = if page < total {
                json!(page + 1)
            } else {
                Json::Null
            };
            reply(
                200,
                json!({"data": items, "meta": {"pagination": {
                    "current-page": page, "total-pages": total, "next-page": next}}}),
            )
        }
        ("POST", ["organizations", org, "workspaces"]) => {
            let name = body
                .pointer("/data/attributes/name")
                .and_then(Json::as_str)
                .unwrap_or_default()
                .to_string();
            if name.is_empty() || s.workspaces.iter().any(|w| w.name == name) {
                return reply(
                    422,
                    json!({"errors": [{"status": "422", "title": "invalid attribute",
                        "detail": "Name has already been taken"}]}),
                );
            }
            if !s.orgs.iter().any(|o| o == org) {
                return error(404, "not found");
            }
            let tags = tag_names(body.pointer("/data/relationships/tags/data"));
            let tag_refs: Vec<&str> = tags.iter().map(String::as_str).collect();
            let id = s.add_workspace(&name, &tag_refs);
            let project = body
                .pointer("/data/relationships/project/data/id")
                .and_then(Json::as_str)
                .map(str::to_string);
            let w = s
                .workspaces
                .iter_mut()
                .find(|w| w.id == id)
                .expect("just added");
            w.project_id = project;
            w.terraform_version = "1.6.0".to_string();
            reply(201, json!({ "data": workspace_doc(w) }))
        }
        ("PATCH", ["workspaces", id]) => {
            let version = body
                .pointer("/data/attributes/terraform-version")
                .and_then(Json::as_str)
                .unwrap_or_default()
                .to_string();
            if !s.available_versions.contains(&version) {
                return reply(
                    422,
                    json!({"errors": [{"status": "422", "title": "invalid attribute",
                        "detail": "Terraform version not found"}]}),
                );
            }
            match s.workspaces.iter_mut().find(|w| w.id == *id) {
                Some(w) => {
                    w.terraform_version = version;
                    reply(200, json!({ "data": workspace_doc(w) }))
                }
                None => error(404, "not found"),
            }
        }
        ("POST", ["workspaces", id, "relationships", "tags"]) => {
            let tags = tag_names(body.get("data"));
            match s.workspaces.iter_mut().find(|w| w.id == *id) {
                Some(w) => {
                    for t in tags {
                        if !w.tags.contains(&t) {
                            w.tags.push(t);
                        }
                    }
                    HttpResponse::Reply {
                        status: 204,
                        headers: Vec::new(),
                        body: Vec::new(),
                    }
                }
                None => error(404, "not found"),
            }
        }
        ("GET", ["organizations", _org, "projects"]) => {
            let name = q("filter[names]").unwrap_or_default();
            let items: Vec<Json> = s
                .projects
                .iter()
                .filter(|(_, n)| name.is_empty() || n == name)
                .map(|(id, n)| json!({"id": id, "type": "projects", "attributes": {"name": n}}))
                .collect();
            reply(200, json!({ "data": items }))
        }
        ("POST", ["organizations", _org, "projects"]) => {
            let name = body
                .pointer("/data/attributes/name")
                .and_then(Json::as_str)
                .unwrap_or_default()
                .to_string();
            let id = format!("prj-{:04}", s.projects.len() + 1);
            s.projects.push((id.clone(), name.clone()));
            reply(
                201,
                json!({"data": {"id": id, "type": "projects", "attributes": {"name": name}}}),
            )
        }
        ("GET", ["workspaces", id, "current-state-version"]) => {
            match s.workspaces.iter().find(|w| w.id == *id) {
                Some(w) if w.has_state => reply(
                    200,
                    json!({"data": {"id": "sv-0001", "type": "state-versions", "attributes": {}}}),
                ),
                _ => error(404, "not found"),
            }
        }
        _ => error(404, "not found"),
    }
}

/// The names in a JSON:API list of tag resources.
fn tag_names(list: Option<&Json>) -> Vec<String> {
    list.and_then(Json::as_array)
        .map(|a| {
            a.iter()
                .filter_map(|t| t.pointer("/attributes/name").and_then(Json::as_str))
                .map(str::to_string)
                .collect()
        })
        .unwrap_or_default()
}
