//! The provider service for protocols 5 and 6. The calls differ only in
//! names between the two; each is a thin shell over [`TestProvider`].

use std::sync::Arc;

use configschema::{Block, Function, ProviderSchema, SchemaKind};
use cty::{Type, Value};
use plugin::proto::{tfplugin5, tfplugin6};
use plugin::{ProviderDiagnostic, Severity};
use tonic::{Request, Response, Status};

use crate::logic::{self, Fill};

/// The served schema and what the calls do with it.
pub struct TestProvider {
    schema: ProviderSchema,
    functions: Vec<(String, Function)>,
}

/// Which block a call is about.
#[derive(Clone, Copy)]
enum Target<'a> {
    Provider,
    Type(SchemaKind, &'a str),
}

fn error(summary: impl Into<String>, detail: impl Into<String>) -> ProviderDiagnostic {
    ProviderDiagnostic {
        severity: Severity::Error,
        summary: summary.into(),
        detail: detail.into(),
        attribute: None,
    }
}

impl TestProvider {
    /// A provider serving `schema`.
    pub fn new(schema: ProviderSchema) -> TestProvider {
        let functions = schema
            .functions
            .iter()
            .filter_map(|(name, json)| Some((name.clone(), Function::from_json(json).ok()?)))
            .collect();
        TestProvider { schema, functions }
    }

    fn block(&self, target: Target<'_>) -> Result<&Block, ProviderDiagnostic> {
        let schema = match target {
            Target::Provider => Some(&self.schema.provider),
            Target::Type(kind, name) => self.schema.schema_for(kind, name),
        };
        match (schema.and_then(|s| s.block.as_ref()), target) {
            (Some(b), _) => Ok(b),
            (None, Target::Provider) => Err(error("No provider schema", "")),
            (None, Target::Type(_, name)) => Err(error(
                "Unknown type",
                format!("The test provider has no type named {name}."),
            )),
        }
    }

    fn functions(&self) -> impl Iterator<Item = (&String, &Function)> {
        self.functions.iter().map(|(n, f)| (n, f))
    }
}

/// The routes for the negotiated protocol version.
pub fn routes(version: u32, provider: Arc<TestProvider>) -> tonic::service::Routes {
    if version == 5 {
        tonic::service::Routes::new(tfplugin5::provider_server::ProviderServer::new(V5(
            provider,
        )))
    } else {
        tonic::service::Routes::new(tfplugin6::provider_server::ProviderServer::new(V6(
            provider,
        )))
    }
}

/// The protocol-independent bodies of the calls, over one protocol's
/// messages.
macro_rules! bodies {
    ($pb:ident, $conv:ident) => {
        use super::*;
        use plugin::convert::$conv as conv;
        use $pb as pb;

        pub(super) fn diags(ds: &[ProviderDiagnostic]) -> Vec<pb::Diagnostic> {
            ds.iter().map(conv::diagnostic_to_proto).collect()
        }

        /// Decodes a value sent for `target`, with its block and type.
        pub(super) fn decode<'p>(
            p: &'p TestProvider,
            target: Target<'_>,
            dv: Option<&pb::DynamicValue>,
        ) -> Result<(&'p Block, Type, Value), ProviderDiagnostic> {
            let block = p.block(target)?;
            let ty = block.implied_type();
            let v = match dv {
                Some(dv) => conv::value_from_dynamic(dv, &ty)
                    .map_err(|e| error("Invalid value encoding", e.to_string()))?,
                None => Value::null(ty.clone()),
            };
            Ok((block, ty, v))
        }

        pub(super) fn encode(v: &Value, ty: &Type) -> Result<pb::DynamicValue, ProviderDiagnostic> {
            conv::dynamic_value(v, ty).map_err(|e| error("Invalid value", e.to_string()))
        }

        pub(super) fn validate(
            p: &TestProvider,
            target: Target<'_>,
            config: Option<&pb::DynamicValue>,
        ) -> Vec<pb::Diagnostic> {
            match decode(p, target, config) {
                Ok((_, _, v)) => diags(&logic::invalid_diagnostics(&v)),
                Err(d) => diags(&[d]),
            }
        }

        pub(super) fn schema(p: &TestProvider) -> pb::get_provider_schema::Response {
            let map = |m: &configschema::SchemaMap| {
                m.iter()
                    .map(|(k, s)| (k.clone(), conv::schema_to_proto(s)))
                    .collect()
            };
            pb::get_provider_schema::Response {
                provider: Some(conv::schema_to_proto(&p.schema.provider)),
                resource_schemas: map(&p.schema.resources),
                data_source_schemas: map(&p.schema.data_sources),
                ephemeral_resource_schemas: map(&p.schema.ephemeral_resources),
                functions: functions(p),
                ..Default::default()
            }
        }

        pub(super) fn functions(
            p: &TestProvider,
        ) -> std::collections::HashMap<String, pb::Function> {
            p.functions()
                .map(|(n, f)| (n.clone(), conv::function_to_proto(f)))
                .collect()
        }

        pub(super) fn metadata(p: &TestProvider) -> pb::get_metadata::Response {
            let names = |m: &configschema::SchemaMap| m.keys().cloned().collect::<Vec<_>>();
            pb::get_metadata::Response {
                resources: names(&p.schema.resources)
                    .into_iter()
                    .map(|type_name| pb::get_metadata::ResourceMetadata { type_name })
                    .collect(),
                data_sources: names(&p.schema.data_sources)
                    .into_iter()
                    .map(|type_name| pb::get_metadata::DataSourceMetadata { type_name })
                    .collect(),
                ephemeral_resources: names(&p.schema.ephemeral_resources)
                    .into_iter()
                    .map(|type_name| pb::get_metadata::EphemeralMetadata { type_name })
                    .collect(),
                functions: p
                    .functions()
                    .map(|(name, _)| pb::get_metadata::FunctionMetadata { name: name.clone() })
                    .collect(),
                ..Default::default()
            }
        }

        /// PlanResourceChange: the proposed new state with null computed
        /// attributes unknown; a destroy (null proposed state) stays null.
        pub(super) fn plan(
            p: &TestProvider,
            r: &pb::plan_resource_change::Request,
        ) -> Result<pb::DynamicValue, ProviderDiagnostic> {
            let target = Target::Type(SchemaKind::Managed, &r.type_name);
            let (block, ty, proposed) = decode(p, target, r.proposed_new_state.as_ref())?;
            let (_, _, config) = decode(p, target, r.config.as_ref())?;
            let planned = if proposed.is_null() {
                proposed
            } else {
                logic::fill_computed(block, &proposed, &config, Fill::Unknown)
            };
            encode(&planned, &ty)
        }

        pub(super) fn apply(
            p: &TestProvider,
            r: &pb::apply_resource_change::Request,
        ) -> Result<pb::DynamicValue, ProviderDiagnostic> {
            let target = Target::Type(SchemaKind::Managed, &r.type_name);
            let (_, ty, planned) = decode(p, target, r.planned_state.as_ref())?;
            encode(&logic::unknowns_to_zero(&planned), &ty)
        }

        pub(super) fn read_data(
            p: &TestProvider,
            r: &pb::read_data_source::Request,
        ) -> Result<pb::DynamicValue, ProviderDiagnostic> {
            let target = Target::Type(SchemaKind::Data, &r.type_name);
            let (block, ty, config) = decode(p, target, r.config.as_ref())?;
            let read = logic::fill_computed(block, &config, &config, Fill::Zero);
            encode(&logic::unknowns_to_zero(&read), &ty)
        }

        pub(super) fn upgrade(
            p: &TestProvider,
            r: &pb::upgrade_resource_state::Request,
        ) -> Result<pb::DynamicValue, ProviderDiagnostic> {
            let block = p.block(Target::Type(SchemaKind::Managed, &r.type_name))?;
            let ty = block.implied_type();
            let json = r
                .raw_state
                .as_ref()
                .map(|s| s.json.as_slice())
                .unwrap_or_default();
            let v = if json.is_empty() {
                Value::null(ty.clone())
            } else {
                cty::json::unmarshal(&String::from_utf8_lossy(json), &ty)
                    .map_err(|e| error("Invalid state", e))?
            };
            encode(&v, &ty)
        }
    };
}

mod v5 {
    bodies!(tfplugin5, v5);
}
mod v6 {
    bodies!(tfplugin6, v6);
}

/// Protocol 5's service.
struct V5(Arc<TestProvider>);
/// Protocol 6's service.
struct V6(Arc<TestProvider>);

type Answer<T> = Result<Response<T>, Status>;

#[tonic::async_trait]
impl tfplugin5::provider_server::Provider for V5 {
    async fn get_metadata(
        &self,
        _: Request<tfplugin5::get_metadata::Request>,
    ) -> Answer<tfplugin5::get_metadata::Response> {
        Ok(Response::new(v5::metadata(&self.0)))
    }

    async fn get_schema(
        &self,
        _: Request<tfplugin5::get_provider_schema::Request>,
    ) -> Answer<tfplugin5::get_provider_schema::Response> {
        Ok(Response::new(v5::schema(&self.0)))
    }

    async fn prepare_provider_config(
        &self,
        r: Request<tfplugin5::prepare_provider_config::Request>,
    ) -> Answer<tfplugin5::prepare_provider_config::Response> {
        let r = r.into_inner();
        Ok(Response::new(
            tfplugin5::prepare_provider_config::Response {
                diagnostics: v5::validate(&self.0, Target::Provider, r.config.as_ref()),
                prepared_config: r.config,
            },
        ))
    }

    async fn validate_resource_type_config(
        &self,
        r: Request<tfplugin5::validate_resource_type_config::Request>,
    ) -> Answer<tfplugin5::validate_resource_type_config::Response> {
        let r = r.into_inner();
        let t = Target::Type(SchemaKind::Managed, &r.type_name);
        Ok(Response::new(
            tfplugin5::validate_resource_type_config::Response {
                diagnostics: v5::validate(&self.0, t, r.config.as_ref()),
            },
        ))
    }

    async fn validate_data_source_config(
        &self,
        r: Request<tfplugin5::validate_data_source_config::Request>,
    ) -> Answer<tfplugin5::validate_data_source_config::Response> {
        let r = r.into_inner();
        let t = Target::Type(SchemaKind::Data, &r.type_name);
        Ok(Response::new(
            tfplugin5::validate_data_source_config::Response {
                diagnostics: v5::validate(&self.0, t, r.config.as_ref()),
            },
        ))
    }

    async fn validate_ephemeral_resource_config(
        &self,
        r: Request<tfplugin5::validate_ephemeral_resource_config::Request>,
    ) -> Answer<tfplugin5::validate_ephemeral_resource_config::Response> {
        let r = r.into_inner();
        let t = Target::Type(SchemaKind::Ephemeral, &r.type_name);
        Ok(Response::new(
            tfplugin5::validate_ephemeral_resource_config::Response {
                diagnostics: v5::validate(&self.0, t, r.config.as_ref()),
            },
        ))
    }

    async fn upgrade_resource_state(
        &self,
        r: Request<tfplugin5::upgrade_resource_state::Request>,
    ) -> Answer<tfplugin5::upgrade_resource_state::Response> {
        let (state, d) = split(v5::upgrade(&self.0, &r.into_inner()));
        Ok(Response::new(tfplugin5::upgrade_resource_state::Response {
            upgraded_state: state,
            diagnostics: v5::diags(&d),
        }))
    }

    async fn configure(
        &self,
        _: Request<tfplugin5::configure::Request>,
    ) -> Answer<tfplugin5::configure::Response> {
        Ok(Response::new(Default::default()))
    }

    async fn read_resource(
        &self,
        r: Request<tfplugin5::read_resource::Request>,
    ) -> Answer<tfplugin5::read_resource::Response> {
        let r = r.into_inner();
        Ok(Response::new(tfplugin5::read_resource::Response {
            new_state: r.current_state,
            private: r.private,
            ..Default::default()
        }))
    }

    async fn plan_resource_change(
        &self,
        r: Request<tfplugin5::plan_resource_change::Request>,
    ) -> Answer<tfplugin5::plan_resource_change::Response> {
        let r = r.into_inner();
        let (state, d) = split(v5::plan(&self.0, &r));
        Ok(Response::new(tfplugin5::plan_resource_change::Response {
            planned_state: state,
            planned_private: r.prior_private,
            diagnostics: v5::diags(&d),
            ..Default::default()
        }))
    }

    async fn apply_resource_change(
        &self,
        r: Request<tfplugin5::apply_resource_change::Request>,
    ) -> Answer<tfplugin5::apply_resource_change::Response> {
        let r = r.into_inner();
        let (state, d) = split(v5::apply(&self.0, &r));
        Ok(Response::new(tfplugin5::apply_resource_change::Response {
            new_state: state,
            private: r.planned_private,
            diagnostics: v5::diags(&d),
            ..Default::default()
        }))
    }

    async fn read_data_source(
        &self,
        r: Request<tfplugin5::read_data_source::Request>,
    ) -> Answer<tfplugin5::read_data_source::Response> {
        let (state, d) = split(v5::read_data(&self.0, &r.into_inner()));
        Ok(Response::new(tfplugin5::read_data_source::Response {
            state,
            diagnostics: v5::diags(&d),
            ..Default::default()
        }))
    }

    async fn get_functions(
        &self,
        _: Request<tfplugin5::get_functions::Request>,
    ) -> Answer<tfplugin5::get_functions::Response> {
        Ok(Response::new(tfplugin5::get_functions::Response {
            functions: v5::functions(&self.0),
            diagnostics: Vec::new(),
        }))
    }

    async fn stop(
        &self,
        _: Request<tfplugin5::stop::Request>,
    ) -> Answer<tfplugin5::stop::Response> {
        Ok(Response::new(Default::default()))
    }
}

#[tonic::async_trait]
impl tfplugin6::provider_server::Provider for V6 {
    async fn get_metadata(
        &self,
        _: Request<tfplugin6::get_metadata::Request>,
    ) -> Answer<tfplugin6::get_metadata::Response> {
        Ok(Response::new(v6::metadata(&self.0)))
    }

    async fn get_provider_schema(
        &self,
        _: Request<tfplugin6::get_provider_schema::Request>,
    ) -> Answer<tfplugin6::get_provider_schema::Response> {
        Ok(Response::new(v6::schema(&self.0)))
    }

    async fn validate_provider_config(
        &self,
        r: Request<tfplugin6::validate_provider_config::Request>,
    ) -> Answer<tfplugin6::validate_provider_config::Response> {
        let r = r.into_inner();
        Ok(Response::new(
            tfplugin6::validate_provider_config::Response {
                diagnostics: v6::validate(&self.0, Target::Provider, r.config.as_ref()),
            },
        ))
    }

    async fn validate_resource_config(
        &self,
        r: Request<tfplugin6::validate_resource_config::Request>,
    ) -> Answer<tfplugin6::validate_resource_config::Response> {
        let r = r.into_inner();
        let t = Target::Type(SchemaKind::Managed, &r.type_name);
        Ok(Response::new(
            tfplugin6::validate_resource_config::Response {
                diagnostics: v6::validate(&self.0, t, r.config.as_ref()),
            },
        ))
    }

    async fn validate_data_resource_config(
        &self,
        r: Request<tfplugin6::validate_data_resource_config::Request>,
    ) -> Answer<tfplugin6::validate_data_resource_config::Response> {
        let r = r.into_inner();
        let t = Target::Type(SchemaKind::Data, &r.type_name);
        Ok(Response::new(
            tfplugin6::validate_data_resource_config::Response {
                diagnostics: v6::validate(&self.0, t, r.config.as_ref()),
            },
        ))
    }

    async fn validate_ephemeral_resource_config(
        &self,
        r: Request<tfplugin6::validate_ephemeral_resource_config::Request>,
    ) -> Answer<tfplugin6::validate_ephemeral_resource_config::Response> {
        let r = r.into_inner();
        let t = Target::Type(SchemaKind::Ephemeral, &r.type_name);
        Ok(Response::new(
            tfplugin6::validate_ephemeral_resource_config::Response {
                diagnostics: v6::validate(&self.0, t, r.config.as_ref()),
            },
        ))
    }

    async fn upgrade_resource_state(
        &self,
        r: Request<tfplugin6::upgrade_resource_state::Request>,
    ) -> Answer<tfplugin6::upgrade_resource_state::Response> {
        let (state, d) = split(v6::upgrade(&self.0, &r.into_inner()));
        Ok(Response::new(tfplugin6::upgrade_resource_state::Response {
            upgraded_state: state,
            diagnostics: v6::diags(&d),
        }))
    }

    async fn configure_provider(
        &self,
        _: Request<tfplugin6::configure_provider::Request>,
    ) -> Answer<tfplugin6::configure_provider::Response> {
        Ok(Response::new(Default::default()))
    }

    async fn read_resource(
        &self,
        r: Request<tfplugin6::read_resource::Request>,
    ) -> Answer<tfplugin6::read_resource::Response> {
        let r = r.into_inner();
        Ok(Response::new(tfplugin6::read_resource::Response {
            new_state: r.current_state,
            private: r.private,
            ..Default::default()
        }))
    }

    async fn plan_resource_change(
        &self,
        r: Request<tfplugin6::plan_resource_change::Request>,
    ) -> Answer<tfplugin6::plan_resource_change::Response> {
        let r = r.into_inner();
        let (state, d) = split(v6::plan(&self.0, &r));
        Ok(Response::new(tfplugin6::plan_resource_change::Response {
            planned_state: state,
            planned_private: r.prior_private,
            diagnostics: v6::diags(&d),
            ..Default::default()
        }))
    }

    async fn apply_resource_change(
        &self,
        r: Request<tfplugin6::apply_resource_change::Request>,
    ) -> Answer<tfplugin6::apply_resource_change::Response> {
        let r = r.into_inner();
        let (state, d) = split(v6::apply(&self.0, &r));
        Ok(Response::new(tfplugin6::apply_resource_change::Response {
            new_state: state,
            private: r.planned_private,
            diagnostics: v6::diags(&d),
            ..Default::default()
        }))
    }

    async fn read_data_source(
        &self,
        r: Request<tfplugin6::read_data_source::Request>,
    ) -> Answer<tfplugin6::read_data_source::Response> {
        let (state, d) = split(v6::read_data(&self.0, &r.into_inner()));
        Ok(Response::new(tfplugin6::read_data_source::Response {
            state,
            diagnostics: v6::diags(&d),
            ..Default::default()
        }))
    }

    async fn get_functions(
        &self,
        _: Request<tfplugin6::get_functions::Request>,
    ) -> Answer<tfplugin6::get_functions::Response> {
        Ok(Response::new(tfplugin6::get_functions::Response {
            functions: v6::functions(&self.0),
            diagnostics: Vec::new(),
        }))
    }

    async fn stop_provider(
        &self,
        _: Request<tfplugin6::stop_provider::Request>,
    ) -> Answer<tfplugin6::stop_provider::Response> {
        Ok(Response::new(Default::default()))
    }
}

/// A result as the protocol carries it: a value or diagnostics.
fn split<T>(r: Result<T, ProviderDiagnostic>) -> (Option<T>, Vec<ProviderDiagnostic>) {
    match r {
        Ok(v) => (Some(v), Vec::new()),
        Err(d) => (None, vec![d]),
    }
}
