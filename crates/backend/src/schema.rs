//! The configuration schemas of OpenTofu's builtin backends
//! (`internal/backend/init`): each backend's `ConfigSchema()` (or, for the
//! backends built on the legacy `helper/schema`, what `CoreConfigSchema`
//! derives from their `schema.Schema` maps), reduced to what `init` needs
//! to decode a `backend` block and to write its configuration: attribute
//! names, types, nested blocks and which attributes are required.

use std::collections::{BTreeMap, BTreeSet};

use cty::Type;

/// An attribute's type, as the schemas spell it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AttrType {
    String,
    Bool,
    Number,
    ListOfString,
    SetOfString,
    MapOfString,
    /// A nested-type attribute (`NestedType` with `NestingSingle`): an
    /// object whose attributes are listed.
    Object(&'static [Attr]),
}

/// One attribute of a schema.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Attr {
    pub name: &'static str,
    pub ty: AttrType,
    pub required: bool,
}

/// How a nested block type nests (`configschema.NestingMode`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Nesting {
    Single,
    List,
    Set,
}

/// A nested block type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BlockType {
    pub name: &'static str,
    pub nesting: Nesting,
    /// 0 = no limit.
    pub max_items: usize,
    pub attrs: &'static [Attr],
}

/// A backend's configuration schema.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Schema {
    pub attrs: &'static [Attr],
    pub blocks: &'static [BlockType],
}

const fn opt(name: &'static str, ty: AttrType) -> Attr {
    Attr {
        name,
        ty,
        required: false,
    }
}

const fn req(name: &'static str, ty: AttrType) -> Attr {
    Attr {
        name,
        ty,
        required: true,
    }
}

use AttrType::{
    Bool as B, ListOfString as LS, MapOfString as MS, Number as N, SetOfString as SS, String as S,
};

impl AttrType {
    /// The attribute's cty type (`ImpliedType`: nested objects without
    /// optional markers).
    pub fn implied_type(&self) -> Type {
        match self {
            AttrType::String => Type::String,
            AttrType::Bool => Type::Bool,
            AttrType::Number => Type::Number,
            AttrType::ListOfString => Type::list(Type::String),
            AttrType::SetOfString => Type::set(Type::String),
            AttrType::MapOfString => Type::map(Type::String),
            AttrType::Object(attrs) => Type::object(
                attrs
                    .iter()
                    .map(|a| (a.name.to_string(), a.ty.implied_type()))
                    .collect(),
            ),
        }
    }

    /// The type a value is converted to when decoded (`specType`): nested
    /// objects with their optional attributes marked, so that omitted ones
    /// become null.
    pub fn spec_type(&self) -> Type {
        match self {
            AttrType::Object(attrs) => {
                let types: BTreeMap<String, Type> = attrs
                    .iter()
                    .map(|a| (a.name.to_string(), a.ty.spec_type()))
                    .collect();
                let optional: BTreeSet<String> = attrs
                    .iter()
                    .filter(|a| !a.required)
                    .map(|a| a.name.to_string())
                    .collect();
                Type::object_with_optional(types, optional)
            }
            other => other.implied_type(),
        }
    }
}

fn attrs_object_type(attrs: &[Attr]) -> BTreeMap<String, Type> {
    attrs
        .iter()
        .map(|a| (a.name.to_string(), a.ty.implied_type()))
        .collect()
}

impl BlockType {
    /// The object type of one block.
    pub fn object_type(&self) -> Type {
        Type::object(attrs_object_type(self.attrs))
    }

    /// The block type's value type within the whole configuration.
    pub fn implied_type(&self) -> Type {
        match self.nesting {
            Nesting::Single => self.object_type(),
            Nesting::List => Type::list(self.object_type()),
            Nesting::Set => Type::set(self.object_type()),
        }
    }
}

impl Schema {
    /// The type of the whole configuration object (`ImpliedType`).
    pub fn implied_type(&self) -> Type {
        let mut attrs = attrs_object_type(self.attrs);
        for b in self.blocks {
            attrs.insert(b.name.to_string(), b.implied_type());
        }
        Type::object(attrs)
    }

    pub fn attr(&self, name: &str) -> Option<&'static Attr> {
        self.attrs.iter().find(|a| a.name == name)
    }
}

/// The schema of the builtin backend `name` (`backendInit.Backend`).
pub fn lookup(name: &str) -> Option<Schema> {
    let s = match name {
        "local" => LOCAL,
        "remote" => REMOTE,
        "azurerm" => AZURERM,
        "consul" => CONSUL,
        "cos" => COS,
        "gcs" => GCS,
        "http" => HTTP,
        "inmem" => INMEM,
        "kubernetes" => KUBERNETES,
        "oras" => ORAS,
        "oss" => OSS,
        "pg" => PG,
        "s3" => S3,
        _ => return None,
    };
    Some(s)
}

/// Backends that OpenTofu no longer has, with what it says instead of
/// "There is no backend type named ..." (`RemovedBackends`).
pub fn removed_message(name: &str) -> Option<&'static str> {
    Some(match name {
        "artifactory" => "The \"artifactory\" backend is not supported in OpenTofu v1.3 or later.",
        "azure" => "The \"azure\" backend name has been removed, please use \"azurerm\".",
        "etcd" => "The \"etcd\" backend is not supported in OpenTofu v1.3 or later.",
        "etcdv3" => "The \"etcdv3\" backend is not supported in OpenTofu v1.3 or later.",
        "manta" => "The \"manta\" backend is not supported in OpenTofu v1.3 or later.",
        "swift" => "The \"swift\" backend is not supported in OpenTofu v1.3 or later.",
        _ => return None,
    })
}

/// The environment variable whose value a required attribute of a
/// `helper/schema` backend takes when the block does not set it
/// (`DefaultFunc: schema.EnvDefaultFunc(...)` with no fallback).
pub fn env_default(backend: &str, attr: &str) -> Option<&'static str> {
    Some(match (backend, attr) {
        ("http", "address") => "TF_HTTP_ADDRESS",
        ("cos", "region") => "TENCENTCLOUD_REGION",
        _ => return None,
    })
}

/// `internal/backend/local`.
pub const LOCAL: Schema = Schema {
    attrs: &[opt("path", S), opt("workspace_dir", S)],
    blocks: &[],
};

/// `internal/backend/remote-state/inmem`.
pub const INMEM: Schema = Schema {
    attrs: &[opt("lock_id", S)],
    blocks: &[],
};

/// `internal/backend/remote`.
pub const REMOTE: Schema = Schema {
    attrs: &[opt("hostname", S), req("organization", S), opt("token", S)],
    blocks: &[BlockType {
        name: "workspaces",
        nesting: Nesting::Single,
        max_items: 0,
        attrs: &[opt("name", S), opt("prefix", S)],
    }],
};

/// `internal/backend/remote-state/azure` (type `azurerm`).
pub const AZURERM: Schema = Schema {
    attrs: &[
        req("storage_account_name", S),
        req("container_name", S),
        req("key", S),
        opt("metadata_host", S),
        opt("environment", S),
        opt("access_key", S),
        opt("sas_token", S),
        opt("snapshot", B),
        opt("resource_group_name", S),
        opt("client_id", S),
        opt("client_id_file_path", S),
        opt("endpoint", S),
        opt("timeout_seconds", N),
        opt("subscription_id", S),
        opt("tenant_id", S),
        opt("client_certificate", S),
        opt("client_certificate_password", S),
        opt("client_certificate_path", S),
        opt("client_secret", S),
        opt("client_secret_file_path", S),
        opt("use_msi", B),
        opt("msi_endpoint", S),
        opt("use_oidc", B),
        opt("oidc_token", S),
        opt("oidc_token_file_path", S),
        opt("oidc_request_url", S),
        opt("oidc_request_token", S),
        opt("ado_service_connection_id", S),
        opt("use_aks_workload_identity", B),
        opt("use_azuread_auth", B),
        opt("use_cli", B),
        opt("customer_provided_key", S),
        opt("encryption_scope", S),
    ],
    blocks: &[],
};

/// `internal/backend/remote-state/consul`.
pub const CONSUL: Schema = Schema {
    attrs: &[
        req("path", S),
        opt("access_token", S),
        opt("address", S),
        opt("scheme", S),
        opt("datacenter", S),
        opt("http_auth", S),
        opt("gzip", B),
        opt("lock", B),
        opt("ca_file", S),
        opt("cert_file", S),
        opt("key_file", S),
    ],
    blocks: &[],
};

/// `internal/backend/remote-state/cos`.
pub const COS: Schema = Schema {
    attrs: &[
        opt("secret_id", S),
        opt("secret_key", S),
        opt("security_token", S),
        // Required, with an environment default (see `env_default`).
        req("region", S),
        req("bucket", S),
        opt("prefix", S),
        opt("key", S),
        opt("encrypt", B),
        opt("acl", S),
        opt("accelerate", B),
    ],
    blocks: &[BlockType {
        name: "assume_role",
        nesting: Nesting::Set,
        max_items: 1,
        attrs: &[
            opt("role_arn", S),
            opt("session_name", S),
            opt("session_duration", N),
            opt("policy", S),
        ],
    }],
};

/// `internal/backend/remote-state/gcs`.
pub const GCS: Schema = Schema {
    attrs: &[
        req("bucket", S),
        opt("prefix", S),
        opt("credentials", S),
        opt("access_token", S),
        opt("impersonate_service_account", S),
        opt("impersonate_service_account_delegates", LS),
        opt("encryption_key", S),
        opt("kms_encryption_key", S),
        opt("storage_custom_endpoint", S),
    ],
    blocks: &[],
};

/// `internal/backend/remote-state/http`.
pub const HTTP: Schema = Schema {
    attrs: &[
        // Required, with an environment default (see `env_default`).
        req("address", S),
        opt("update_method", S),
        opt("lock_address", S),
        opt("unlock_address", S),
        opt("lock_method", S),
        opt("unlock_method", S),
        opt("username", S),
        opt("password", S),
        opt("skip_cert_verification", B),
        opt("retry_max", N),
        opt("retry_wait_min", N),
        opt("retry_wait_max", N),
        opt("client_ca_certificate_pem", S),
        opt("client_certificate_pem", S),
        opt("client_private_key_pem", S),
        opt("headers", MS),
    ],
    blocks: &[],
};

/// `internal/backend/remote-state/kubernetes`.
pub const KUBERNETES: Schema = Schema {
    attrs: &[
        req("secret_suffix", S),
        opt("labels", MS),
        opt("namespace", S),
        opt("in_cluster_config", B),
        opt("load_config_file", B),
        opt("host", S),
        opt("username", S),
        opt("password", S),
        opt("insecure", B),
        opt("client_certificate", S),
        opt("client_key", S),
        opt("cluster_ca_certificate", S),
        opt("config_paths", LS),
        opt("config_path", S),
        opt("config_context", S),
        opt("config_context_auth_info", S),
        opt("config_context_cluster", S),
        opt("token", S),
    ],
    blocks: &[BlockType {
        name: "exec",
        nesting: Nesting::List,
        max_items: 1,
        attrs: &[
            req("api_version", S),
            req("command", S),
            opt("env", MS),
            opt("args", LS),
        ],
    }],
};

/// `internal/backend/remote-state/oss`.
pub const OSS: Schema = Schema {
    attrs: &[
        opt("access_key", S),
        opt("secret_key", S),
        opt("security_token", S),
        opt("ecs_role_name", S),
        opt("region", S),
        opt("sts_endpoint", S),
        opt("tablestore_endpoint", S),
        opt("endpoint", S),
        req("bucket", S),
        opt("prefix", S),
        opt("key", S),
        opt("tablestore_table", S),
        opt("encrypt", B),
        opt("acl", S),
        opt("shared_credentials_file", S),
        opt("profile", S),
        opt("assume_role_role_arn", S),
        opt("assume_role_session_name", S),
        opt("assume_role_policy", S),
        opt("assume_role_session_expiration", N),
    ],
    blocks: &[BlockType {
        name: "assume_role",
        nesting: Nesting::Set,
        max_items: 1,
        attrs: &[
            req("role_arn", S),
            opt("session_name", S),
            opt("policy", S),
            opt("session_expiration", N),
        ],
    }],
};

/// `internal/backend/remote-state/oras` (OCI registries).
pub const ORAS: Schema = Schema {
    attrs: &[
        opt("repository", S),
        opt("insecure", B),
        opt("ca_file", S),
        opt("retry_max", N),
        opt("retry_wait_min", N),
        opt("retry_wait_max", N),
        opt("compression", S),
        opt("lock_ttl", N),
        opt("rate_limit", N),
        opt("rate_limit_burst", N),
        opt("max_versions", N),
    ],
    blocks: &[],
};

/// `internal/backend/remote-state/pg`.
pub const PG: Schema = Schema {
    attrs: &[
        opt("conn_str", S),
        opt("schema_name", S),
        opt("skip_schema_creation", B),
        opt("skip_table_creation", B),
        opt("skip_index_creation", B),
    ],
    blocks: &[],
};

const S3_ENDPOINTS: &[Attr] = &[
    opt("s3", S),
    opt("iam", S),
    opt("sts", S),
    opt("dynamodb", S),
];

const S3_ASSUME_ROLE: &[Attr] = &[
    req("role_arn", S),
    opt("duration", S),
    opt("external_id", S),
    opt("policy", S),
    opt("policy_arns", SS),
    opt("session_name", S),
    opt("tags", MS),
    opt("transitive_tag_keys", SS),
];

const S3_WEB_IDENTITY: &[Attr] = &[
    opt("role_arn", S),
    opt("web_identity_token", S),
    opt("web_identity_token_file", S),
    opt("session_name", S),
    opt("policy", S),
    opt("policy_arns", SS),
    opt("duration", S),
];

/// `internal/backend/remote-state/s3`.
pub const S3: Schema = Schema {
    attrs: &[
        req("bucket", S),
        req("key", S),
        opt("region", S),
        opt("endpoints", AttrType::Object(S3_ENDPOINTS)),
        opt("dynamodb_endpoint", S),
        opt("endpoint", S),
        opt("iam_endpoint", S),
        opt("sts_endpoint", S),
        opt("sts_region", S),
        opt("encrypt", B),
        opt("acl", S),
        opt("state_tags", MS),
        opt("lock_tags", MS),
        opt("access_key", S),
        opt("secret_key", S),
        opt("kms_key_id", S),
        opt("dynamodb_table", S),
        opt("profile", S),
        opt("shared_credentials_file", S),
        opt("shared_credentials_files", SS),
        opt("shared_config_files", SS),
        opt("token", S),
        opt("skip_credentials_validation", B),
        opt("skip_metadata_api_check", B),
        opt("skip_region_validation", B),
        opt("skip_requesting_account_id", B),
        opt("sse_customer_key", S),
        opt("role_arn", S),
        opt("session_name", S),
        opt("external_id", S),
        opt("assume_role_duration_seconds", N),
        opt("assume_role_policy", S),
        opt("assume_role_policy_arns", SS),
        opt("assume_role_tags", MS),
        opt("assume_role_transitive_tag_keys", SS),
        opt("workspace_key_prefix", S),
        opt("force_path_style", B),
        opt("use_path_style", B),
        opt("retry_mode", S),
        opt("max_retries", N),
        opt("custom_ca_bundle", S),
        opt("ec2_metadata_service_endpoint", S),
        opt("ec2_metadata_service_endpoint_mode", S),
        opt("assume_role", AttrType::Object(S3_ASSUME_ROLE)),
        opt(
            "assume_role_with_web_identity",
            AttrType::Object(S3_WEB_IDENTITY),
        ),
        opt("forbidden_account_ids", SS),
        opt("allowed_account_ids", SS),
        opt("http_proxy", S),
        opt("https_proxy", S),
        opt("no_proxy", S),
        opt("insecure", B),
        opt("use_dualstack_endpoint", B),
        opt("use_fips_endpoint", B),
        opt("skip_s3_checksum", B),
        opt("use_lockfile", B),
    ],
    blocks: &[],
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn local_implied_type() {
        assert_eq!(
            LOCAL.implied_type(),
            Type::object_from([("path", Type::String), ("workspace_dir", Type::String)])
        );
    }

    #[test]
    fn every_builtin_has_unique_names() {
        for name in [
            "local",
            "remote",
            "azurerm",
            "consul",
            "cos",
            "gcs",
            "http",
            "inmem",
            "kubernetes",
            "oras",
            "oss",
            "pg",
            "s3",
        ] {
            let s = lookup(name).unwrap();
            let mut seen = BTreeSet::new();
            for a in s.attrs {
                assert!(seen.insert(a.name), "{name}: {} twice", a.name);
            }
            for b in s.blocks {
                assert!(seen.insert(b.name), "{name}: {} twice", b.name);
            }
        }
        assert!(lookup("cloud").is_none());
        assert!(removed_message("azure").is_some());
    }
}
