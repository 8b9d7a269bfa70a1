//! `modules.json` files from OpenTofu's own test data (read from the
//! shared corpus; skipped when it is absent): every one parses, and
//! rewriting gives OpenTofu's compact, key-sorted form — byte for byte the
//! input when the input was already written that way.

use std::path::{Path, PathBuf};

use initwd::Manifest;

const CORPUS: &str = "/work/shared/corpus/opentofu/internal";

fn find(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if e.file_type().map(|t| t.is_dir()).unwrap_or(false) {
            find(&p, out);
        } else if p.ends_with(".terraform/modules/modules.json") {
            out.push(p);
        }
    }
}

/// What OpenTofu would write for `m`, built independently of `to_bytes`.
fn expected(m: &Manifest) -> String {
    let recs: Vec<String> = m
        .records
        .values()
        .map(|r| {
            let mut fields = vec![
                format!("\"Key\":{}", serde_json::to_string(&r.key).unwrap()),
                format!("\"Source\":{}", serde_json::to_string(&r.source).unwrap()),
            ];
            if let Some(v) = &r.version {
                fields.push(format!("\"Version\":\"{v}\""));
            }
            fields.push(format!(
                "\"Dir\":{}",
                serde_json::to_string(&r.dir).unwrap()
            ));
            format!("{{{}}}", fields.join(","))
        })
        .collect();
    format!("{{\"Modules\":[{}]}}", recs.join(","))
}

#[test]
fn opentofu_fixtures_round_trip() {
    let mut files = Vec::new();
    find(Path::new(CORPUS), &mut files);
    if files.is_empty() {
        // No OpenTofu corpus on this machine: nothing to compare against.
        return;
    }
    files.sort();
    let mut exact = 0;
    for f in &files {
        let src = std::fs::read(f).unwrap();
        let m = Manifest::parse(&src).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        assert!(m.get("").is_some(), "{}: no root record", f.display());
        let out = String::from_utf8(m.to_bytes()).unwrap();
        assert_eq!(out, expected(&m), "{}", f.display());
        assert_eq!(
            Manifest::parse(out.as_bytes()).unwrap(),
            m,
            "{}",
            f.display()
        );
        let text = String::from_utf8(src).unwrap();
        if !text.contains('\n') {
            // Written by OpenTofu itself, unless its records are out of order.
            let sorted = m.records.keys().cloned().collect::<Vec<_>>();
            let mut in_file: Vec<String> = Vec::new();
            for r in text.split("\"Key\":\"").skip(1) {
                in_file.push(r[..r.find('"').unwrap()].to_string());
            }
            if in_file == sorted {
                assert_eq!(out, text, "{}", f.display());
                exact += 1;
            }
        }
    }
    assert!(exact >= 2, "expected some byte-exact fixtures, got {exact}");
}
