//! A running provider and the calls made to it (OpenTofu's
//! `plugin.GRPCProvider` and `plugin6.GRPCProvider`), blocking.

use std::fmt;
use std::sync::Arc;

use configschema::ProviderSchema;
use cty::{Type, Value};
use tonic::transport::Channel;

use crate::conn::runtime;
use crate::convert::{self, ProviderDiagnostic, SchemaError, Severity, ValueError};
use crate::process::PluginProcess;
use crate::proto::{tfplugin5, tfplugin6};
use crate::reattach::AttachedProcess;

/// Large schemas (the AWS provider's is tens of megabytes) exceed gRPC's
/// default 4 MB; OpenTofu allows 64 MB, providers' servers allow more.
const MAX_MESSAGE: usize = 256 << 20;

/// A call that failed before the provider could answer it, or whose
/// answer could not be read. `summary` and `detail` give OpenTofu's texts.
#[derive(Debug)]
pub enum RpcError {
    /// The gRPC call failed (`grpcErr`).
    Status {
        /// The call as Go names the method that made it
        /// (`plugin6.(*GRPCProvider).ValidateResourceConfig`).
        method: String,
        /// The gRPC status.
        status: tonic::Status,
    },
    /// The value could not be encoded for the call.
    Encode(ValueError),
    /// The provider's schema could not be read.
    Schema(SchemaError),
    /// The provider sent no configuration schema and no error.
    MissingProviderSchema,
}

impl RpcError {
    /// OpenTofu's summary line.
    pub fn summary(&self) -> String {
        match self {
            RpcError::Status { status, .. } => match status.code() {
                tonic::Code::Unavailable => "Plugin did not respond",
                tonic::Code::Cancelled => "Request cancelled",
                tonic::Code::Unimplemented => "Unsupported plugin method",
                _ => "Plugin error",
            }
            .to_owned(),
            other => other.to_string(),
        }
    }

    /// OpenTofu's detail text (empty for errors OpenTofu shows as one line).
    pub fn detail(&self) -> String {
        match self {
            RpcError::Status { method, status } => match status.code() {
                tonic::Code::Unavailable => format!(
                    "The plugin encountered an error, and failed to respond to the {method} call. The plugin logs may contain more details."
                ),
                tonic::Code::Cancelled => format!("The {method} request was cancelled."),
                tonic::Code::Unimplemented => {
                    format!("The {method} method is not supported by this plugin.")
                }
                _ => format!(
                    "The plugin returned an unexpected error from {method}: rpc error: code = {} desc = {}",
                    go_code_name(status.code()),
                    status.message()
                ),
            },
            _ => String::new(),
        }
    }
}

/// grpc-go's `codes.Code.String`.
fn go_code_name(c: tonic::Code) -> &'static str {
    use tonic::Code::*;
    match c {
        Ok => "OK",
        Cancelled => "Canceled",
        Unknown => "Unknown",
        InvalidArgument => "InvalidArgument",
        DeadlineExceeded => "DeadlineExceeded",
        NotFound => "NotFound",
        AlreadyExists => "AlreadyExists",
        PermissionDenied => "PermissionDenied",
        ResourceExhausted => "ResourceExhausted",
        FailedPrecondition => "FailedPrecondition",
        Aborted => "Aborted",
        OutOfRange => "OutOfRange",
        Unimplemented => "Unimplemented",
        Internal => "Internal",
        Unavailable => "Unavailable",
        DataLoss => "DataLoss",
        Unauthenticated => "Unauthenticated",
    }
}

impl fmt::Display for RpcError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RpcError::Status { .. } => write!(f, "{}: {}", self.summary(), self.detail()),
            RpcError::Encode(e) => write!(f, "{e}"),
            RpcError::Schema(e) => write!(f, "invalid provider schema: {e}"),
            RpcError::MissingProviderSchema => f.write_str("missing provider schema"),
        }
    }
}

impl std::error::Error for RpcError {}

enum Protocol {
    V5(tfplugin5::provider_client::ProviderClient<Channel>),
    V6(tfplugin6::provider_client::ProviderClient<Channel>),
}

/// A running provider. Dropping it (or [`ProviderClient::close`]) asks the
/// provider to shut down and kills it after a short grace.
pub struct ProviderClient {
    protocol: Protocol,
    channel: Channel,
    owner: Owner,
}

/// The process behind a client: one tofu-rs started, or one it attached to.
pub(crate) enum Owner {
    /// Started by [`crate::launch`]: shut down and killed on close.
    Child(Arc<PluginProcess>),
    /// Attached to by [`crate::attach`]: ended on close unless in test mode.
    Attached(AttachedProcess),
}

impl fmt::Debug for ProviderClient {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ProviderClient")
            .field("protocol_version", &self.protocol_version())
            .field("pid", &self.pid())
            .finish()
    }
}

/// Which of the four Validate* calls.
#[derive(Clone, Copy)]
enum Validate {
    Provider,
    Resource,
    DataResource,
    Ephemeral,
}

impl Validate {
    /// OpenTofu's method name for it (`grpcErr`'s request name).
    fn method(self) -> &'static str {
        match self {
            Validate::Provider => "ValidateProviderConfig",
            Validate::Resource => "ValidateResourceConfig",
            Validate::DataResource => "ValidateDataResourceConfig",
            Validate::Ephemeral => "ValidateEphemeralConfig",
        }
    }
}

impl ProviderClient {
    pub(crate) fn new(version: u32, channel: Channel, owner: Owner) -> ProviderClient {
        let protocol = if version == 5 {
            Protocol::V5(
                tfplugin5::provider_client::ProviderClient::new(channel.clone())
                    .max_decoding_message_size(MAX_MESSAGE)
                    .max_encoding_message_size(MAX_MESSAGE),
            )
        } else {
            Protocol::V6(
                tfplugin6::provider_client::ProviderClient::new(channel.clone())
                    .max_decoding_message_size(MAX_MESSAGE)
                    .max_encoding_message_size(MAX_MESSAGE),
            )
        };
        ProviderClient {
            protocol,
            channel,
            owner,
        }
    }

    /// The negotiated plugin protocol version: 5 or 6.
    pub fn protocol_version(&self) -> u32 {
        match self.protocol {
            Protocol::V5(_) => 5,
            Protocol::V6(_) => 6,
        }
    }

    /// The provider's process id.
    pub fn pid(&self) -> u32 {
        match &self.owner {
            Owner::Child(p) => p.pid(),
            Owner::Attached(p) => p.pid(),
        }
    }

    fn status(&self, method: &str, status: tonic::Status) -> RpcError {
        let package = match self.protocol {
            Protocol::V5(_) => "plugin",
            Protocol::V6(_) => "plugin6",
        };
        RpcError::Status {
            method: format!("{package}.(*GRPCProvider).{method}"),
            status,
        }
    }

    /// `GetProviderSchema` (v5 `GetSchema`): the provider's schemas and
    /// the diagnostics it sent. With error diagnostics the schema is
    /// whatever the provider sent besides (usually nothing). Resource
    /// identity schemas are not fetched.
    pub fn get_provider_schema(
        &self,
    ) -> Result<(ProviderSchema, Vec<ProviderDiagnostic>), RpcError> {
        let method = "getProviderSchema";
        let (schema, diags, has_provider) = match &self.protocol {
            Protocol::V5(c) => {
                let mut c = c.clone();
                let r = runtime()
                    .block_on(c.get_schema(tfplugin5::get_provider_schema::Request {}))
                    .map_err(|s| self.status(method, s))?
                    .into_inner();
                let diags = convert::v5::diagnostics_from_proto(&r.diagnostics);
                let has = r.provider.is_some();
                (convert::v5::provider_schema_from_proto(&r), diags, has)
            }
            Protocol::V6(c) => {
                let mut c = c.clone();
                let r = runtime()
                    .block_on(c.get_provider_schema(tfplugin6::get_provider_schema::Request {}))
                    .map_err(|s| self.status(method, s))?
                    .into_inner();
                let diags = convert::v6::diagnostics_from_proto(&r.diagnostics);
                let has = r.provider.is_some();
                (convert::v6::provider_schema_from_proto(&r), diags, has)
            }
        };
        if diags.iter().any(|d| d.severity == Severity::Error) {
            return Ok((ProviderSchema::default(), diags));
        }
        if !has_provider {
            return Err(RpcError::MissingProviderSchema);
        }
        Ok((schema.map_err(RpcError::Schema)?, diags))
    }

    /// `ValidateProviderConfig` (v5 `PrepareProviderConfig`, whose
    /// prepared configuration OpenTofu no longer uses).
    pub fn validate_provider_config(
        &self,
        config: &Value,
        ty: &Type,
    ) -> Result<Vec<ProviderDiagnostic>, RpcError> {
        self.validate(Validate::Provider, "", config, ty)
    }

    /// `ValidateResourceConfig` (v5 `ValidateResourceTypeConfig`).
    pub fn validate_resource_config(
        &self,
        type_name: &str,
        config: &Value,
        ty: &Type,
    ) -> Result<Vec<ProviderDiagnostic>, RpcError> {
        self.validate(Validate::Resource, type_name, config, ty)
    }

    /// `ValidateDataResourceConfig` (v5 `ValidateDataSourceConfig`).
    pub fn validate_data_resource_config(
        &self,
        type_name: &str,
        config: &Value,
        ty: &Type,
    ) -> Result<Vec<ProviderDiagnostic>, RpcError> {
        self.validate(Validate::DataResource, type_name, config, ty)
    }

    /// `ValidateEphemeralResourceConfig`.
    pub fn validate_ephemeral_resource_config(
        &self,
        type_name: &str,
        config: &Value,
        ty: &Type,
    ) -> Result<Vec<ProviderDiagnostic>, RpcError> {
        self.validate(Validate::Ephemeral, type_name, config, ty)
    }

    fn validate(
        &self,
        which: Validate,
        type_name: &str,
        config: &Value,
        ty: &Type,
    ) -> Result<Vec<ProviderDiagnostic>, RpcError> {
        let name = type_name.to_owned();
        let method = which.method();
        match &self.protocol {
            Protocol::V5(c) => {
                use tfplugin5 as pb;
                let mut c = c.clone();
                let dv = Some(convert::v5::dynamic_value(config, ty).map_err(RpcError::Encode)?);
                let diags = runtime()
                    .block_on(async move {
                        Ok::<_, tonic::Status>(match which {
                            Validate::Provider => {
                                let r = pb::prepare_provider_config::Request { config: dv };
                                c.prepare_provider_config(r).await?.into_inner().diagnostics
                            }
                            Validate::Resource => {
                                let r = pb::validate_resource_type_config::Request {
                                    type_name: name,
                                    config: dv,
                                    client_capabilities: None,
                                };
                                c.validate_resource_type_config(r)
                                    .await?
                                    .into_inner()
                                    .diagnostics
                            }
                            Validate::DataResource => {
                                let r = pb::validate_data_source_config::Request {
                                    type_name: name,
                                    config: dv,
                                };
                                c.validate_data_source_config(r)
                                    .await?
                                    .into_inner()
                                    .diagnostics
                            }
                            Validate::Ephemeral => {
                                let r = pb::validate_ephemeral_resource_config::Request {
                                    type_name: name,
                                    config: dv,
                                };
                                c.validate_ephemeral_resource_config(r)
                                    .await?
                                    .into_inner()
                                    .diagnostics
                            }
                        })
                    })
                    .map_err(|s| self.status(method, s))?;
                Ok(convert::v5::diagnostics_from_proto(&diags))
            }
            Protocol::V6(c) => {
                use tfplugin6 as pb;
                let mut c = c.clone();
                let dv = Some(convert::v6::dynamic_value(config, ty).map_err(RpcError::Encode)?);
                let diags = runtime()
                    .block_on(async move {
                        Ok::<_, tonic::Status>(match which {
                            Validate::Provider => {
                                let r = pb::validate_provider_config::Request { config: dv };
                                c.validate_provider_config(r)
                                    .await?
                                    .into_inner()
                                    .diagnostics
                            }
                            Validate::Resource => {
                                let r = pb::validate_resource_config::Request {
                                    type_name: name,
                                    config: dv,
                                    client_capabilities: None,
                                };
                                c.validate_resource_config(r)
                                    .await?
                                    .into_inner()
                                    .diagnostics
                            }
                            Validate::DataResource => {
                                let r = pb::validate_data_resource_config::Request {
                                    type_name: name,
                                    config: dv,
                                };
                                c.validate_data_resource_config(r)
                                    .await?
                                    .into_inner()
                                    .diagnostics
                            }
                            Validate::Ephemeral => {
                                let r = pb::validate_ephemeral_resource_config::Request {
                                    type_name: name,
                                    config: dv,
                                };
                                c.validate_ephemeral_resource_config(r)
                                    .await?
                                    .into_inner()
                                    .diagnostics
                            }
                        })
                    })
                    .map_err(|s| self.status(method, s))?;
                Ok(convert::v6::diagnostics_from_proto(&diags))
            }
        }
    }

    /// Asks the provider to shut down (go-plugin's `Controller.Shutdown`),
    /// and kills it if it has not exited after two seconds.
    pub fn close(self) {
        // Drop does the work.
    }
}

impl Drop for ProviderClient {
    fn drop(&mut self) {
        crate::launch::shutdown(&self.channel, &self.owner);
    }
}
