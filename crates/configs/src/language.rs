//! Which OpenTofu versions and language features a module declares:
//! `language { compatible_with { opentofu = "..." } edition experiments }`
//! and the legacy `terraform { required_version }` (honoured only in
//! `.tofu` / `.tofu.json` files), as OpenTofu's `language.go` and its
//! version-requirement checks.

use hclsyntax::static_expr::{as_keyword, expr_list};
use hclsyntax::{has_errors, Block, Body, BodySchema, Diagnostic, Diagnostics};

use crate::version_constraint::{decode_version_constraint, Version, VersionConstraint};

/// The OpenTofu version this implementation follows, as its
/// `version.SemVer` prints.
pub const TOFU_VERSION: &str = "1.13.0-dev";

/// The version that module constraints are checked against: prerelease
/// builds match constraints by their version core.
pub const TOFU_VERSION_CORE: &str = "1.13.0";

const FIRST_EDITION: &str = "tofu2024";

/// Summary of the diagnostic that marks a module as incompatible.
pub const INCOMPATIBLE_MODULE: &str = "Incompatible module";

fn language_schema() -> BodySchema {
    BodySchema::new(&["edition", "experiments"], &[("compatible_with", &[])])
}

/// Whether a file name is OpenTofu-specific (`.tofu`, `.tofu.json`).
pub fn is_tofu_file(filename: &str) -> bool {
    filename.ends_with(".tofu") || filename.ends_with(".tofu.json")
}

/// `validateLanguageBlock` plus the checks of its `experiments` argument:
/// the diagnostics of a top-level `language` block. The version constraint
/// itself is checked by [`check_version_requirements`].
pub fn decode_language_block(block: &Block, override_file: bool) -> Diagnostics {
    let mut diags = Diagnostics::new();
    if override_file {
        diags.push(Diagnostic::error(
            "Language selections in override file",
            "Language-related settings in \"language\" blocks are not allowed in override files. Place these settings in a normal configuration file.",
            block.def_range(),
        ));
        return diags;
    }
    let (content, more) = block.body.content(&language_schema());
    diags.extend(more);

    if let Some(attr) = content.attribute("edition") {
        let kw = as_keyword(&attr.expr).unwrap_or_default();
        let subject = attr.expr.range.clone();
        if kw.is_empty() {
            diags.push(Diagnostic::error(
                "Invalid language edition",
                format!("The \"edition\" argument expects a bare language edition keyword. OpenTofu {TOFU_VERSION} supports only language edition {FIRST_EDITION}, which is the default."),
                subject,
            ));
        } else if kw.starts_with("TF") {
            diags.push(Diagnostic::error(
                "Unsupported language edition",
                format!("OpenTofu v{TOFU_VERSION} does not support language edition \"{FIRST_EDITION}\". This module may be intended for use with other software."),
                subject,
            ));
        } else if kw != FIRST_EDITION {
            let rel = if kw.as_str() > FIRST_EDITION {
                "newer"
            } else {
                "different"
            };
            diags.push(Diagnostic::error(
                "Unsupported language edition",
                format!("OpenTofu v{TOFU_VERSION} only supports language edition {FIRST_EDITION}. This module requires a {rel} version of OpenTofu CLI."),
                subject,
            ));
        }
    }

    if let Some(attr) = content.attribute("experiments") {
        diags.extend(decode_reserved_experiments(&attr.expr));
    }

    let mut compatible_with: Option<Option<VersionConstraint>> = None;
    for nested in content.blocks_of("compatible_with") {
        if let Some(Some(previous)) = &compatible_with {
            diags.push(Diagnostic::error(
                "Duplicate compatible_with block",
                format!("Each language block may have at most one compatible_with block referring to OpenTofu. The OpenTofu version constraint was already declared at {}.", previous.decl_range),
                block.def_range(),
            ));
            continue;
        }
        let (constraint, more) = decode_compatible_with(nested);
        let ok = !has_errors(&more);
        diags.extend(more);
        if ok {
            if let Some(c) = &constraint {
                let v1_11 = Version::parse("1.11.0").expect("1.11.0 is a version");
                if c.required.check(&v1_11) {
                    diags.push(Diagnostic::warning(
                        "Ineffective version constraint",
                        "The compatible_with block was added in OpenTofu v1.12.0, so any constraint specified this way should exclude earlier versions of OpenTofu, such as by including \">= 0.12.0\".\n\nIf your module must be compatible with earlier versions of OpenTofu, use the required_version argument in a \"terraform\" block in a file named with the .tofu suffix, which is an older way to specify OpenTofu version constraints.",
                        c.decl_range.clone(),
                    ));
                }
            }
        }
        compatible_with = Some(constraint);
    }
    diags
}

/// The `opentofu` constraint of a `compatible_with` block; anything else in
/// the block is for other software and ignored.
fn decode_compatible_with(block: &Block) -> (Option<VersionConstraint>, Diagnostics) {
    let (content, _, mut diags) = block
        .body
        .partial_content(&BodySchema::new(&["opentofu"], &[]));
    let mut ret = None;
    if let Some(attr) = content.attribute("opentofu") {
        let (c, more) = decode_version_constraint(attr);
        if !has_errors(&more) {
            ret = Some(c);
        }
        diags.extend(more);
    }
    (ret, diags)
}

/// `decodeReservedExperimentsAttr`: OpenTofu has no current experiments,
/// so every keyword is unknown.
fn decode_reserved_experiments(expr: &hclsyntax::Expr) -> Diagnostics {
    let mut diags = Diagnostics::new();
    let exprs = match expr_list(expr) {
        Ok(e) => e,
        Err(more) => return more,
    };
    for e in &exprs {
        match as_keyword(e) {
            None => diags.push(Diagnostic::error(
                "Invalid experiment keyword",
                "Elements of \"experiments\" must all be keywords representing active experiments.",
                e.range.clone(),
            )),
            Some(kw) => diags.push(Diagnostic::error(
                "Unknown experiment keyword",
                format!(
                    "There is no current experiment with the keyword {}.",
                    hclsyntax::go_quote(&kw)
                ),
                e.range.clone(),
            )),
        }
    }
    diags
}

/// `validateOpenTofuCoreVersionConstraint`: no prerelease versions.
pub fn validate_core_version_constraint(c: &VersionConstraint) -> Diagnostics {
    c.required
        .0
        .iter()
        .filter(|r| r.prerelease())
        .map(|r| {
            Diagnostic::error(
                "Invalid required_version constraint",
                format!("Prerelease version constraints are not supported: {r}. Remove the prerelease information from the constraint. Prerelease versions of OpenTofu will match constraints using their version core only."),
                c.decl_range.clone(),
            )
        })
        .collect()
}

/// The `required_version` constraints of the `terraform` blocks of a file,
/// read only in `.tofu` / `.tofu.json` files (others are assumed to be for
/// OpenTofu's predecessor and are ignored, errors included), with the
/// diagnostics of [`check_version_requirements`] against this version: a
/// file's version requirements are checked before anything else in it, as
/// `loadConfigFileBody` does.
pub fn sniff_core_version_requirements(body: &Body) -> (Vec<VersionConstraint>, Diagnostics) {
    let (root, _, _) = body.partial_content(&BodySchema::new(&[], &[("terraform", &[])]));
    let mut out = Vec::new();
    for block in &root.blocks {
        if !is_tofu_file(&block.def_range().filename) {
            continue;
        }
        let (content, _, _) = block
            .body
            .partial_content(&BodySchema::new(&["required_version"], &[]));
        if let Some(attr) = content.attribute("required_version") {
            // Decode errors come from check_version_requirements below.
            let (c, more) = decode_version_constraint(attr);
            if !has_errors(&more) {
                out.push(c);
            }
        }
    }
    let current = Version::parse(TOFU_VERSION_CORE).expect("TOFU_VERSION_CORE is a valid version");
    (out, check_version_requirements(body, &current))
}

/// `checkVersionRequirements`: errors for every declaration (a `language`
/// block's `compatible_with`, or `required_version` in a `.tofu` file)
/// that excludes `current` (normally [`TOFU_VERSION_CORE`]). Read as
/// leniently as possible, so that a module for a later version is reported
/// as incompatible rather than as invalid.
pub fn check_version_requirements(body: &Body, current: &Version) -> Diagnostics {
    let (root, _, mut diags) = body.partial_content(&BodySchema::new(
        &[],
        &[("terraform", &[]), ("language", &[])],
    ));
    let incompatible = |c: &VersionConstraint| {
        Diagnostic::error(
            INCOMPATIBLE_MODULE,
            format!("This module is not compatible with OpenTofu v{current}.\n\nTo proceed, either choose another supported OpenTofu version or update this version constraint. Version constraints are normally set for good reason, so updating the constraint may lead to other errors or unexpected behavior."),
            c.decl_range.clone(),
        )
    };
    for block in &root.blocks {
        let mut constraints = Vec::new();
        if block.type_name == "language" {
            let (content, _, more) = block
                .body
                .partial_content(&BodySchema::new(&[], &[("compatible_with", &[])]));
            diags.extend(more);
            for nested in content.blocks_of("compatible_with") {
                let (c, more) = decode_compatible_with(nested);
                diags.extend(more);
                constraints.extend(c);
            }
        } else {
            if !is_tofu_file(&block.def_range().filename) {
                continue;
            }
            let (content, _, more) = block
                .body
                .partial_content(&BodySchema::new(&["required_version"], &[]));
            diags.extend(more);
            if let Some(attr) = content.attribute("required_version") {
                let (c, more) = decode_version_constraint(attr);
                if !has_errors(&more) {
                    constraints.push(c);
                }
                diags.extend(more);
            }
        }
        for c in constraints {
            let valid = validate_core_version_constraint(&c);
            let ok = !has_errors(&valid);
            diags.extend(valid);
            if ok && !c.required.check(current) {
                diags.push(incompatible(&c));
            }
        }
    }
    diags
}

/// `finalizeModuleLoadDiagnostics`: when a module is incompatible with
/// this OpenTofu version, only the incompatibility errors are kept (the
/// others may be about features of a later version).
pub fn finalize_module_load_diagnostics(diags: Diagnostics) -> Diagnostics {
    if diags.iter().any(|d| d.summary == INCOMPATIBLE_MODULE) {
        diags
            .into_iter()
            .filter(|d| d.summary == INCOMPATIBLE_MODULE)
            .collect()
    } else {
        diags
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::named_values::testing::blocks;

    fn current() -> Version {
        Version::parse(TOFU_VERSION_CORE).unwrap()
    }

    fn language(name: &str, src: &str) -> Option<Diagnostics> {
        let bs = blocks(name, src, "language", &[])?;
        Some(decode_language_block(&bs[0], false))
    }

    fn lines(diags: &[Diagnostic]) -> Vec<(usize, &str)> {
        diags
            .iter()
            .map(|d| {
                (
                    d.subject.as_ref().unwrap().start.line as usize,
                    d.summary.as_str(),
                )
            })
            .collect()
    }

    fn parse(name: &str, src: &str) -> Option<Body> {
        let (file, diags) = hclsyntax::parse_file(name, src.as_bytes());
        if diags
            .iter()
            .any(|d| d.summary == "Native syntax parser missing")
        {
            return None;
        }
        Some(file.body)
    }

    #[test]
    fn valid_language_block() {
        let src = "language {\n  compatible_with {\n    opentofu = \">= 1.12\"\n    ignored = \"blah\"\n    also_ignored {}\n  }\n  edition = tofu2024\n  experiments = []\n}\n";
        let Some(diags) = language("language.tf", src) else {
            return;
        };
        assert!(diags.is_empty(), "{diags:?}");
        let body = parse("language.tf", src).unwrap();
        assert!(check_version_requirements(&body, &current()).is_empty());
    }

    #[test]
    fn language_errors() {
        let cases = [
            (
                "language {\n  # x\n  edition = \"tofu2024\"\n}\n",
                (3, "Invalid language edition"),
            ),
            (
                "language {\n  experiments = [unsupported]\n}\n",
                (2, "Unknown experiment keyword"),
            ),
            (
                "language {\n\n\n\n  edition = tofu2038\n}\n",
                (5, "Unsupported language edition"),
            ),
            (
                "language {\n  compatible_with {\n    opentofu = \">= 1.11\"\n  }\n}\n",
                (3, "Ineffective version constraint"),
            ),
        ];
        for (src, want) in cases {
            let Some(diags) = language("l.tf", src) else {
                return;
            };
            assert_eq!(lines(&diags), vec![want], "{src}");
        }
        let diags = language("l.tf", "language {\n  edition = tofu2038\n}\n").unwrap();
        assert_eq!(diags[0].detail, "OpenTofu v1.13.0-dev only supports language edition tofu2024. This module requires a newer version of OpenTofu CLI.");
    }

    #[test]
    fn incompatible_versions() {
        let Some(body) = parse(
            "unsupported_version.tf",
            "language {\n  compatible_with {\n    opentofu = \"999.9\"\n  }\n}\n",
        ) else {
            return;
        };
        let diags = check_version_requirements(&body, &current());
        assert_eq!(lines(&diags), vec![(3, INCOMPATIBLE_MODULE)]);
        assert!(diags[0]
            .detail
            .starts_with("This module is not compatible with OpenTofu v1.13.0.\n\n"));

        let src = "terraform {\n  # x\n  # y\n  required_version = \"999.9\"\n}\n";
        let body = parse("legacy.tofu", src).unwrap();
        assert_eq!(
            lines(&check_version_requirements(&body, &current())),
            vec![(4, INCOMPATIBLE_MODULE)]
        );
        let body = parse("legacy.tf", src).unwrap();
        assert!(check_version_requirements(&body, &current()).is_empty());
        let (c, d) = sniff_core_version_requirements(&body);
        assert!(c.is_empty() && d.is_empty());
    }

    #[test]
    fn prerelease_constraint_rejected() {
        let src = r#"{"language": {"compatible_with": {"opentofu": ">= 1.12.0-beta1"}}}"#;
        let (file, _) = hclsyntax::parse_file("p.tf.json", src.as_bytes());
        let diags = check_version_requirements(&file.body, &current());
        assert_eq!(diags.len(), 1);
        assert_eq!(diags[0].summary, "Invalid required_version constraint");
        assert!(diags[0]
            .detail
            .starts_with("Prerelease version constraints are not supported: >= 1.12.0-beta1. "));
    }

    #[test]
    fn finalize_keeps_only_incompatibility() {
        let r = hclsyntax::SourceFile::new("x", "").range(0, 0);
        let diags = vec![
            Diagnostic::error("Other", "", r.clone()),
            Diagnostic::error(INCOMPATIBLE_MODULE, "", r),
        ];
        let out = finalize_module_load_diagnostics(diags);
        assert_eq!(out.len(), 1);
    }
}
