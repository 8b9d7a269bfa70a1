//! `validate` with provider schemas, one case per folder under
//! `tests/schema_validate/<case>/`: `main.tf` (and any other files), an
//! optional `schema.json` (one provider's entry of `providers schema
//! -json`, for `hashicorp/test`; else the shared `schema_validate/
//! schema.json`), and `diagnostics.snap`, the diagnostics as text. Adding
//! a case is adding a folder.

mod common;

use std::path::{Path, PathBuf};
use std::sync::Arc;

use tofu::schemas::Schemas;

fn cases() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/schema_validate");
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(&root)
        .expect("the cases directory")
        .map(|e| e.expect("a directory entry").path())
        .filter(|p| p.is_dir())
        .collect();
    dirs.sort();
    assert!(!dirs.is_empty(), "no cases under {}", root.display());
    dirs
}

/// The `hashicorp/test` provider's schema for a case.
pub fn schemas_for(dir: &Path) -> Schemas {
    let own = dir.join("schema.json");
    let path = if own.exists() {
        own
    } else {
        dir.parent().expect("a case's parent").join("schema.json")
    };
    let src = std::fs::read_to_string(&path).expect("the schema file");
    let schema = configschema::json::decode_provider(&src)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut schemas = Schemas::none();
    schemas.insert(
        addrs::Provider::implied_for_unqualified_type("test"),
        Arc::new(schema),
    );
    schemas
}

/// Diagnostics as text: severity, summary, detail and ranges, with the
/// case's directory taken off file names.
fn render(diags: &tfdiags::Diagnostics, dir: &Path) -> String {
    let prefix = format!("{}/", dir.display());
    let mut out = String::new();
    for d in diags.iter() {
        let sev = match d.severity {
            hclsyntax::Severity::Error => "error",
            hclsyntax::Severity::Warning => "warning",
        };
        out.push_str(&format!("{sev}: {}\n", d.summary));
        for line in d.detail.replace(&prefix, "").lines() {
            out.push_str(&format!("  | {line}\n"));
        }
        if let Some(s) = &d.subject {
            out.push_str(&format!(
                "  subject: {}\n",
                s.to_string().replace(&prefix, "")
            ));
        }
        if let Some(c) = &d.context {
            out.push_str(&format!(
                "  context: {}\n",
                c.to_string().replace(&prefix, "")
            ));
        }
    }
    if out.is_empty() {
        out.push_str("(no diagnostics)\n");
    }
    out
}

#[test]
fn schema_validate_cases() {
    for dir in cases() {
        let (cfg, diags) = common::load(&dir);
        assert!(
            !hclsyntax::has_errors(&diags),
            "{}: {diags:?}",
            dir.display()
        );
        let cfg = cfg.expect("a configuration");
        let schemas = Arc::new(schemas_for(&dir));
        let diags = tofu::validate_with_schemas_in(&cfg, Path::new("."), schemas);
        let text = render(&diags, &dir);
        insta::with_settings!({
            snapshot_path => dir.clone(),
            prepend_module_to_snapshot => false,
            omit_expression => true,
            description => dir.file_name().unwrap().to_string_lossy().to_string(),
        }, {
            insta::assert_snapshot!("diagnostics", text);
        });
    }
}
