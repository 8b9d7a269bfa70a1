//! plan-lite over the recorded plan samples (`../shared/samples/plan`):
//! the resource instance addresses, actions and root outputs' known
//! values agree with what terraform planned; `err-*` cases fail with the
//! recorded summary. Skips, saying so, where the samples are absent.

mod common;

use std::path::PathBuf;

fn samples() -> Option<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/samples/plan");
    dir.is_dir().then_some(dir)
}

#[test]
#[allow(clippy::print_stderr)] // says why it skips
fn plan_samples_match_terraform() {
    let Some(dir) = samples() else {
        eprintln!("skipping: ../shared/samples/plan is absent");
        return;
    };
    let mut failures = Vec::new();
    let mut cases: Vec<_> = std::fs::read_dir(dir.join("cases"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    cases.sort();
    for case in cases {
        let name = case.file_name().unwrap().to_string_lossy().into_owned();
        let golden: serde_json::Value = serde_json::from_str(
            &std::fs::read_to_string(dir.join("golden").join(format!("{name}.json"))).unwrap(),
        )
        .unwrap();
        let (cfg, diags) = common::load(&case);
        assert!(!hclsyntax::has_errors(&diags), "{name}: {diags:?}");
        let cfg = cfg.unwrap();
        let vars = common::default_variables(&cfg);
        let (plan, diags) = tofu::plan(&cfg, vars);
        if golden["error"] == true {
            let want = golden["summary"].as_str().unwrap();
            if plan.is_some() || !diags.iter().any(|d| d.summary == want) {
                failures.push(format!("{name}: want error {want:?}, got {diags:?}"));
            }
            continue;
        }
        let Some(plan) = plan else {
            failures.push(format!("{name}: plan failed: {diags:?}"));
            continue;
        };
        let got: Vec<String> = plan
            .resource_changes
            .iter()
            .map(|c| c.addr.to_string())
            .collect();
        let mut want: Vec<String> = golden["resource_changes"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["address"].as_str().unwrap().to_string())
            .collect();
        want.sort();
        let mut got_sorted = got.clone();
        got_sorted.sort();
        if got_sorted != want {
            failures.push(format!("{name}: addresses {got_sorted:?} != {want:?}"));
        }
        for (out_name, out) in golden["planned_values"]["outputs"].as_object().unwrap() {
            let Some(change) = plan.output_changes.get(out_name) else {
                failures.push(format!("{name}: output {out_name} missing"));
                continue;
            };
            if let Some(want_value) = out.get("value") {
                let got = if change.after.is_wholly_known() {
                    serde_json::from_str::<serde_json::Value>(
                        &cty::json::marshal(&change.after.unmark_deep().0).unwrap_or_default(),
                    )
                    .ok()
                } else {
                    None
                };
                if got.as_ref() != Some(want_value) {
                    failures.push(format!(
                        "{name}: output {out_name} = {got:?}, want {want_value}"
                    ));
                }
            }
            if out["sensitive"].as_bool() != Some(change.sensitive) {
                failures.push(format!("{name}: output {out_name} sensitivity differs"));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
