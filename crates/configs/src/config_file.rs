//! One configuration file decoded: the blocks it declares, before they are
//! combined with the other files of the module (OpenTofu's `configs.File`).

use hclsyntax::{Block, Body, BodySchema, Diagnostic, Diagnostics};

use crate::backend::{decode_backend_block, Backend};
use crate::checks::{decode_check_block, Check};
use crate::cloud::{decode_cloud_block, CloudConfig};
use crate::encryption::{decode_encryption_block, EncryptionConfig};
use crate::import::{decode_import_block, Import};
use crate::module_call::{decode_module_block, ModuleCall};
use crate::moved::{decode_moved_block, Moved};
use crate::named_values::{
    decode_locals_block, decode_output_block, decode_variable_block, Local, Output, Variable,
};
use crate::provider::{decode_provider_block, decode_provider_meta_block, Provider, ProviderMeta};
use crate::removed::{decode_removed_block, Removed};
use crate::required_providers::{decode_required_providers_block, RequiredProviders};
use crate::resource::{decode_data_block, decode_ephemeral_block, decode_resource_block, Resource};
use crate::version_constraint::VersionConstraint;

/// The contents of one file.
#[derive(Debug, Default)]
pub struct ConfigFile {
    /// `required_version` constraints, honoured only in `.tofu` files.
    pub core_version_constraints: Vec<VersionConstraint>,
    pub backends: Vec<Backend>,
    pub cloud_configs: Vec<CloudConfig>,
    pub provider_configs: Vec<Provider>,
    pub provider_metas: Vec<ProviderMeta>,
    pub required_providers: Vec<RequiredProviders>,
    pub encryptions: Vec<EncryptionConfig>,
    pub variables: Vec<Variable>,
    pub locals: Vec<Local>,
    pub outputs: Vec<Output>,
    pub module_calls: Vec<ModuleCall>,
    pub managed_resources: Vec<Resource>,
    pub data_resources: Vec<Resource>,
    pub ephemeral_resources: Vec<Resource>,
    pub moved: Vec<Moved>,
    pub imports: Vec<Import>,
    pub removed: Vec<Removed>,
    pub checks: Vec<Check>,
}

impl ConfigFile {
    /// Takes the file's resource blocks of every mode: managed, then data,
    /// then ephemeral.
    pub fn take_resources(&mut self) -> impl Iterator<Item = Resource> {
        std::mem::take(&mut self.managed_resources)
            .into_iter()
            .chain(std::mem::take(&mut self.data_resources))
            .chain(std::mem::take(&mut self.ephemeral_resources))
    }
}

fn file_schema() -> BodySchema {
    BodySchema::new(
        &[],
        &[
            ("terraform", &[]),
            // Not valid here, but decoded to hint at nesting it in `terraform`.
            ("required_providers", &[]),
            ("provider", &["name"]),
            ("variable", &["name"]),
            ("locals", &[]),
            ("output", &["name"]),
            ("module", &["name"]),
            ("resource", &["type", "name"]),
            ("data", &["type", "name"]),
            ("ephemeral", &["type", "name"]),
            ("moved", &[]),
            ("import", &[]),
            ("check", &["name"]),
            ("removed", &[]),
            ("language", &[]),
        ],
    )
}

fn terraform_block_schema() -> BodySchema {
    BodySchema::new(
        &["required_version", "experiments", "language"],
        &[
            ("backend", &["type"]),
            ("cloud", &[]),
            ("required_providers", &[]),
            ("provider_meta", &["provider"]),
            ("encryption", &[]),
        ],
    )
}

/// Decodes a parsed file body into its declarations.
pub fn decode_file(
    body: &Body,
    override_file: bool,
    is_tofu_file: bool,
) -> (ConfigFile, Diagnostics) {
    let mut file = ConfigFile::default();
    let mut diags = Diagnostics::new();

    let (constraints, more) = crate::language::sniff_core_version_requirements(body);
    diags.extend(more);
    if is_tofu_file {
        file.core_version_constraints = constraints;
    }

    let (content, more) = body.content(&file_schema());
    diags.extend(more);

    for block in &content.blocks {
        decode_top_level_block(block, override_file, &mut file, &mut diags);
    }
    (file, diags)
}

fn decode_top_level_block(
    block: &Block,
    override_file: bool,
    file: &mut ConfigFile,
    diags: &mut Diagnostics,
) {
    match block.type_name.as_str() {
        "terraform" => decode_terraform_block(block, file, diags),
        "required_providers" => diags.push(Diagnostic::error(
            "Invalid required_providers block",
            "A \"required_providers\" block must be nested inside a \"terraform\" block.",
            block.type_range.clone(),
        )),
        "language" => diags.extend(crate::language::decode_language_block(block, override_file)),
        "provider" => push(
            decode_provider_block(block),
            &mut file.provider_configs,
            diags,
        ),
        "variable" => push(
            decode_variable_block(block, override_file),
            &mut file.variables,
            diags,
        ),
        "locals" => {
            let (locals, more) = decode_locals_block(block);
            diags.extend(more);
            file.locals.extend(locals);
        }
        "output" => push(
            decode_output_block(block, override_file),
            &mut file.outputs,
            diags,
        ),
        "module" => push(
            decode_module_block(block, override_file),
            &mut file.module_calls,
            diags,
        ),
        "resource" => push(
            decode_resource_block(block, override_file),
            &mut file.managed_resources,
            diags,
        ),
        "data" => push(
            decode_data_block(block, override_file, false),
            &mut file.data_resources,
            diags,
        ),
        "ephemeral" => push(
            decode_ephemeral_block(block, override_file),
            &mut file.ephemeral_resources,
            diags,
        ),
        "moved" => push(decode_moved_block(block), &mut file.moved, diags),
        "import" => push(decode_import_block(block), &mut file.imports, diags),
        "check" => push(
            decode_check_block(block, override_file),
            &mut file.checks,
            diags,
        ),
        "removed" => push(decode_removed_block(block), &mut file.removed, diags),
        _ => {}
    }
}

fn decode_terraform_block(block: &Block, file: &mut ConfigFile, diags: &mut Diagnostics) {
    let (content, more) = block.body.content(&terraform_block_schema());
    diags.extend(more);
    // required_version, experiments and language were sniffed already.
    for inner in &content.blocks {
        match inner.type_name.as_str() {
            "backend" => push(decode_backend_block(inner), &mut file.backends, diags),
            "cloud" => push(decode_cloud_block(inner), &mut file.cloud_configs, diags),
            "required_providers" => push(
                decode_required_providers_block(inner),
                &mut file.required_providers,
                diags,
            ),
            "provider_meta" => push(
                decode_provider_meta_block(inner),
                &mut file.provider_metas,
                diags,
            ),
            "encryption" => push(decode_encryption_block(inner), &mut file.encryptions, diags),
            _ => {}
        }
    }
}

/// Appends a decoded item (if any) and its diagnostics.
fn push<T, O: Into<Option<T>>>(
    (item, more): (O, Diagnostics),
    into: &mut Vec<T>,
    diags: &mut Diagnostics,
) {
    diags.extend(more);
    if let Some(item) = item.into() {
        into.push(item);
    }
}
