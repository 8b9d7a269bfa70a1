//! `tofu test` files (`*.tftest.hcl`, `*.tofutest.hcl` and their JSON
//! forms) as OpenTofu's `test_file.go` decodes them: `run` blocks,
//! test-only `provider` and `mock_provider` blocks, `variables`, and the
//! `override_*` blocks; and where they are found (`loadTestFiles`): the
//! module directory and its test directory (`tests` by default).

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;

use hclsyntax::static_expr::abs_traversal;
use hclsyntax::{
    has_errors, Attribute, Block, Body, BodySchema, Diagnostic, Diagnostics, Range, SourceFile,
    Traversal,
};

use crate::check_rule::{decode_check_rule_block, CheckRule};
use crate::config::Config;
use crate::decode_value::{decode_bool, decode_string};
use crate::depends_on::decode_depends_on;
use crate::file_names::classify;
use crate::module_call::{
    decode_passed_provider_configs, parse_source_string, PassedProviderConfig,
};
use crate::named_values::BAD_IDENTIFIER_DETAIL;
use crate::parser::{display_path, read_and_parse};
use crate::provider::{decode_provider_block, Provider};
use crate::version_constraint::{decode_version_constraint, VersionConstraint};

use crate::test_file_mocks::{
    decode_mock_provider_block, decode_override_module_block, decode_override_resource_block,
    duplicated_override_modules, duplicated_override_resources,
};
pub use crate::test_file_mocks::{MockProvider, MockResource, OverrideModule, OverrideResource};

/// The test directory used when none is given.
pub const DEFAULT_TEST_DIRECTORY: &str = "tests";

/// One test file.
#[derive(Debug, Default, Clone)]
pub struct TestFile {
    /// The file-wide `variables` block, if any.
    pub variables: Option<Vec<Arc<Attribute>>>,
    pub variables_decl_range: Option<Range>,
    /// Test-only provider configurations, keyed `name` or `name.alias`.
    pub providers: BTreeMap<addrs::LocalProviderConfig, Provider>,
    /// `mock_provider` blocks, keyed `name` or `name.alias`.
    pub mock_providers: BTreeMap<addrs::LocalProviderConfig, MockProvider>,
    pub runs: Vec<TestRun>,
    pub override_resources: Vec<OverrideResource>,
    pub override_modules: Vec<OverrideModule>,
}

/// What a run block executes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum TestCommand {
    #[default]
    Apply,
    Plan,
}

/// The planning mode of a run block.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum TestMode {
    #[default]
    Normal,
    RefreshOnly,
}

/// A `run` block.
#[derive(Debug, Clone)]
pub struct TestRun {
    pub name: String,
    pub name_range: Range,
    pub decl_range: Range,
    pub command: TestCommand,
    pub options: TestRunOptions,
    pub variables: Vec<Arc<Attribute>>,
    pub variables_decl_range: Option<Range>,
    /// The `providers` map: which test-file providers the run uses.
    pub providers: Vec<PassedProviderConfig>,
    pub check_rules: Vec<CheckRule>,
    /// Another module to run instead of the one under test.
    pub module: Option<TestRunModuleCall>,
    /// The module of `module`, once the configuration is built; it acts
    /// as a root module (its path and its children's start from it).
    pub config_under_test: Option<Box<Config>>,
    pub expect_failures: Vec<Traversal>,
    pub override_resources: Vec<OverrideResource>,
    pub override_modules: Vec<OverrideModule>,
}

/// The `module` block of a run.
#[derive(Debug, Clone)]
pub struct TestRunModuleCall {
    pub source: Option<addrs::ModuleSource>,
    pub version: Option<VersionConstraint>,
    pub decl_range: Range,
    pub source_decl_range: Option<Range>,
}

/// The `plan_options` block of a run.
#[derive(Debug, Clone)]
pub struct TestRunOptions {
    pub mode: TestMode,
    pub refresh: bool,
    pub replace: Vec<Traversal>,
    pub target: Vec<Traversal>,
    pub decl_range: Option<Range>,
}

impl Default for TestRunOptions {
    fn default() -> Self {
        TestRunOptions {
            mode: TestMode::Normal,
            refresh: true,
            replace: Vec::new(),
            target: Vec::new(),
            decl_range: None,
        }
    }
}

fn test_file_schema() -> BodySchema {
    BodySchema::new(
        &[],
        &[
            ("run", &["name"]),
            ("provider", &["name"]),
            ("variables", &[]),
            ("override_resource", &[]),
            ("override_data", &[]),
            ("override_module", &[]),
            ("mock_provider", &["name"]),
        ],
    )
}

fn run_schema() -> BodySchema {
    BodySchema::new(
        &["command", "providers", "expect_failures"],
        &[
            ("plan_options", &[]),
            ("assert", &[]),
            ("variables", &[]),
            ("module", &[]),
            ("override_resource", &[]),
            ("override_data", &[]),
            ("override_module", &[]),
        ],
    )
}

/// `loadTestFile`: decodes the body of one test file.
pub fn decode_test_file(body: &Body) -> (TestFile, Diagnostics) {
    let (content, mut diags) = body.content(&test_file_schema());
    let mut tf = TestFile::default();
    for block in &content.blocks {
        match block.type_name.as_str() {
            "run" => {
                let (run, more) = decode_run_block(block);
                let failed = has_errors(&more);
                diags.extend(more);
                if !failed {
                    tf.runs.push(run);
                }
            }
            "variables" => {
                if let Some(prev) = &tf.variables_decl_range {
                    diags.push(Diagnostic::error(
                        "Multiple \"variables\" blocks",
                        format!("This test file already has a variables block defined at {prev}."),
                        block.def_range(),
                    ));
                    continue;
                }
                tf.variables_decl_range = Some(block.def_range());
                let (attrs, more) = block.body.just_attributes();
                diags.extend(more);
                tf.variables = Some(attrs);
            }
            "provider" => {
                let (provider, more) = decode_provider_block(block);
                diags.extend(more);
                if let Some(p) = provider {
                    tf.providers.insert(p.addr(), p);
                }
            }
            "override_resource" | "override_data" => {
                let (o, more) = decode_override_resource_block(block);
                let failed = has_errors(&more);
                diags.extend(more);
                if !failed {
                    tf.override_resources.push(o);
                }
            }
            "override_module" => {
                let (o, more) = decode_override_module_block(block);
                let failed = has_errors(&more);
                diags.extend(more);
                if !failed {
                    tf.override_modules.push(o);
                }
            }
            "mock_provider" => {
                let (mp, more) = decode_mock_provider_block(block);
                let failed = has_errors(&more);
                diags.extend(more);
                let Some(mp) = mp.filter(|_| !failed) else {
                    continue;
                };
                let key = mp.addr();
                match tf.mock_providers.entry(key) {
                    std::collections::btree_map::Entry::Occupied(e) => {
                        diags.push(Diagnostic::error(
                            "Duplicated `mock_provider` block",
                            format!("It is not allowed to have multiple `mock_provider` blocks with the same address: `{}`.", e.key().string_compact()),
                            mp.decl_range.clone(),
                        ));
                    }
                    std::collections::btree_map::Entry::Vacant(e) => {
                        e.insert(mp);
                    }
                }
            }
            _ => {}
        }
    }
    (tf, diags)
}

/// `hcl.ExprAsKeyword`: a bare name, or nothing.
fn keyword(expr: &hclsyntax::Expr) -> Option<String> {
    abs_traversal(expr)
        .ok()
        .filter(|t| t.steps.is_empty())
        .map(|t| t.root)
}

fn decode_run_block(block: &Block) -> (TestRun, Diagnostics) {
    let (content, mut diags) = block.body.content(&run_schema());
    let label = block.labels.first();
    let mut run = TestRun {
        name: label.map(|l| l.value.clone()).unwrap_or_default(),
        name_range: label
            .map(|l| l.range.clone())
            .unwrap_or_else(|| block.def_range()),
        decl_range: block.def_range(),
        command: TestCommand::Apply,
        options: TestRunOptions::default(),
        variables: Vec::new(),
        variables_decl_range: None,
        providers: Vec::new(),
        check_rules: Vec::new(),
        module: None,
        config_under_test: None,
        expect_failures: Vec::new(),
        override_resources: Vec::new(),
        override_modules: Vec::new(),
    };
    if !hclsyntax::valid_identifier(&run.name) {
        diags.push(Diagnostic::error(
            "Invalid run block name",
            BAD_IDENTIFIER_DETAIL,
            run.name_range.clone(),
        ));
    }

    let mut options_range: Option<Range> = None;
    for b in &content.blocks {
        match b.type_name.as_str() {
            "assert" => {
                let (cr, more) = decode_check_rule_block(b, false);
                let failed = has_errors(&more);
                diags.extend(more);
                if !failed {
                    run.check_rules.push(cr);
                }
            }
            "plan_options" => {
                if let Some(prev) = &options_range {
                    diags.push(Diagnostic::error(
                        "Multiple \"plan_options\" blocks",
                        format!(
                            "This run block already has a plan_options block defined at {prev}."
                        ),
                        b.def_range(),
                    ));
                    continue;
                }
                let (opts, more) = decode_run_options_block(b);
                let failed = has_errors(&more);
                diags.extend(more);
                if !failed {
                    options_range = Some(b.def_range());
                    run.options = opts;
                }
            }
            "variables" => {
                if let Some(prev) = &run.variables_decl_range {
                    diags.push(Diagnostic::error(
                        "Multiple \"variables\" blocks",
                        format!("This run block already has a variables block defined at {prev}."),
                        b.def_range(),
                    ));
                    continue;
                }
                run.variables_decl_range = Some(b.def_range());
                let (attrs, more) = b.body.just_attributes();
                diags.extend(more);
                run.variables = attrs;
            }
            "module" => {
                if let Some(prev) = &run.module {
                    diags.push(Diagnostic::error(
                        "Multiple \"module\" blocks",
                        format!(
                            "This run block already has a module block defined at {}.",
                            prev.decl_range
                        ),
                        b.def_range(),
                    ));
                }
                let (module, more) = decode_run_module_block(b);
                let failed = has_errors(&more);
                diags.extend(more);
                if !failed {
                    run.module = Some(module);
                }
            }
            "override_resource" | "override_data" => {
                let (o, more) = decode_override_resource_block(b);
                let failed = has_errors(&more);
                diags.extend(more);
                if !failed {
                    run.override_resources.push(o);
                }
            }
            "override_module" => {
                let (o, more) = decode_override_module_block(b);
                let failed = has_errors(&more);
                diags.extend(more);
                if !failed {
                    run.override_modules.push(o);
                }
            }
            _ => {}
        }
    }

    if let Some(attr) = content.attribute("command") {
        match keyword(&attr.expr).as_deref() {
            Some("apply") => run.command = TestCommand::Apply,
            Some("plan") => run.command = TestCommand::Plan,
            _ => diags.push(Diagnostic::error(
                "Invalid \"command\" keyword",
                "The \"command\" argument requires one of the following keywords without quotes: apply or plan.",
                attr.expr.range.clone(),
            )),
        }
    }
    if let Some(attr) = content.attribute("providers") {
        let (providers, more) = decode_passed_provider_configs(attr);
        diags.extend(more);
        run.providers.extend(providers);
    }
    if let Some(attr) = content.attribute("expect_failures") {
        let (failures, more) = decode_depends_on(attr);
        diags.extend(more);
        run.expect_failures = failures;
    }
    (run, diags)
}

fn decode_run_module_block(block: &Block) -> (TestRunModuleCall, Diagnostics) {
    let (content, mut diags) = block
        .body
        .content(&BodySchema::new(&["source", "version"], &[]));
    let mut module = TestRunModuleCall {
        source: None,
        version: None,
        decl_range: block.def_range(),
        source_decl_range: None,
    };
    let has_version = match content.attribute("version") {
        Some(attr) => {
            let (vc, more) = decode_version_constraint(attr);
            diags.extend(more);
            module.version = Some(vc);
            true
        }
        None => false,
    };
    match content.attribute("source") {
        Some(attr) => {
            module.source_decl_range = Some(attr.range.clone());
            match decode_string(&attr.expr) {
                Ok(raw) => {
                    let (addr, more) = parse_source_string(&raw, has_version, &attr.range);
                    diags.extend(more);
                    module.source = addr;
                }
                Err(more) => diags.extend(more),
            }
        }
        None => diags.push(Diagnostic::error(
            "Missing \"source\" attribute for module block",
            "You must specify a source attribute when executing alternate modules during test executions.",
            module.decl_range.clone(),
        )),
    }
    (module, diags)
}

fn decode_run_options_block(block: &Block) -> (TestRunOptions, Diagnostics) {
    let (content, mut diags) = block.body.content(&BodySchema::new(
        &["mode", "refresh", "replace", "target"],
        &[],
    ));
    let mut opts = TestRunOptions {
        decl_range: Some(block.def_range()),
        ..TestRunOptions::default()
    };
    if let Some(attr) = content.attribute("mode") {
        match keyword(&attr.expr).as_deref() {
            Some("refresh-only") => opts.mode = TestMode::RefreshOnly,
            Some("normal") => opts.mode = TestMode::Normal,
            _ => diags.push(Diagnostic::error(
                "Invalid \"mode\" keyword",
                "The \"mode\" argument requires one of the following keywords without quotes: normal or refresh-only",
                attr.expr.range.clone(),
            )),
        }
    }
    if let Some(attr) = content.attribute("refresh") {
        match decode_bool(&attr.expr) {
            Ok(b) => opts.refresh = b,
            Err(more) => {
                opts.refresh = false;
                diags.extend(more);
            }
        }
    }
    if let Some(attr) = content.attribute("replace") {
        let (t, more) = decode_depends_on(attr);
        diags.extend(more);
        opts.replace = t;
    }
    if let Some(attr) = content.attribute("target") {
        let (t, more) = decode_depends_on(attr);
        diags.extend(more);
        opts.target = t;
    }
    if !opts.refresh && opts.mode == TestMode::RefreshOnly {
        if let Some(attr) = content.attribute("refresh") {
            diags.push(Diagnostic::error(
                "Incompatible plan options",
                "The \"refresh\" option cannot be set to false when running a test in \"refresh-only\" mode.",
                attr.range.clone(),
            ));
        }
    }
    (opts, diags)
}

impl TestFile {
    /// `TestFile.Validate`: no two file-level override blocks may have
    /// the same target.
    pub fn validate(&self) -> Diagnostics {
        let mut diags = duplicated_override_resources(&self.override_resources);
        diags.extend(duplicated_override_modules(&self.override_modules));
        diags
    }
}

impl TestRun {
    /// `TestRun.Validate`: `expect_failures` may only name checkable
    /// objects, and no two override blocks may have the same target.
    pub fn validate(&self) -> Diagnostics {
        use addrs::Referenceable as R;
        let mut diags = Diagnostics::new();
        for t in &self.expect_failures {
            let reference = match addrs::parse_ref_from_testing_scope(t) {
                Ok(r) => r,
                Err(more) => {
                    diags.extend(more);
                    continue;
                }
            };
            match &reference.subject {
                R::OutputValue(_)
                | R::InputVariable(_)
                | R::Check(_)
                | R::ResourceInstance(_)
                | R::Resource(_) => {}
                other => diags.push(Diagnostic::error(
                    "Invalid `expect_failures` reference",
                    format!("You cannot expect failures from {other}. You can only expect failures from checkable objects such as input variables, output values, check blocks, managed resources and data sources."),
                    reference.source_range.clone(),
                )),
            }
        }
        diags.extend(duplicated_override_resources(&self.override_resources));
        diags.extend(duplicated_override_modules(&self.override_modules));
        diags
    }
}

/// Test files found and decoded for one module.
#[derive(Debug, Default)]
pub struct LoadedTests {
    /// Keyed by path relative to the module directory
    /// (`main.tftest.hcl`, `tests/main.tftest.hcl`).
    pub files: BTreeMap<String, TestFile>,
    pub sources: Vec<Arc<SourceFile>>,
}

/// `loadTestFiles` with the test part of `dirFiles`: the test files of
/// `dir` and of `dir/test_dir`. A missing test directory is only worth a
/// warning when it is not the default one.
pub fn load_test_files(dir: &Path, test_dir: &str) -> (LoadedTests, Diagnostics) {
    let mut diags = Diagnostics::new();
    let mut names: Vec<String> = Vec::new();
    if let Ok(files) = crate::file_names::dir_files(dir) {
        for p in files.tests {
            if let Some(n) = p.file_name().and_then(|n| n.to_str()) {
                names.push(n.to_string());
            }
        }
    }
    if !test_dir.is_empty() {
        let tdir = dir.join(test_dir);
        match std::fs::read_dir(&tdir) {
            Ok(entries) => {
                let listed: Vec<String> = entries
                    .flatten()
                    .filter(|e| !e.path().is_dir())
                    .filter_map(|e| e.file_name().to_str().map(str::to_string))
                    .collect();
                let (_, _, tests) = classify(&listed);
                let prefix = test_dir.trim_end_matches('/');
                names.extend(tests.into_iter().map(|n| format!("{prefix}/{n}")));
            }
            Err(_) if test_dir != DEFAULT_TEST_DIRECTORY => {
                diags.push(Diagnostic {
                    severity: hclsyntax::Severity::Warning,
                    summary: "Test directory does not exist".into(),
                    detail: format!(
                        "Requested test directory {} does not exist.",
                        display_path(dir, test_dir)
                    ),
                    subject: None,
                    context: None,
                });
            }
            Err(_) => {}
        }
    }

    let mut loaded = LoadedTests::default();
    for name in names {
        let display = display_path(dir, &name);
        // A file with syntax errors is still decoded as far as it goes.
        let (file, more) = read_and_parse(&dir.join(&name), &display);
        loaded.sources.push(file.source.clone());
        diags.extend(more);
        let (tf, more) = decode_test_file(&file.body);
        diags.extend(more);
        loaded.files.insert(name, tf);
    }
    (loaded, diags)
}

#[cfg(test)]
#[path = "test_file_tests.rs"]
mod tests;
