//! `tofu-rs validate`: is the configuration valid? Human output or the
//! `validate -json` document.

use std::path::Path;

use crate::flags::{self, bool_flag, value_flag};
use crate::loader::{load_config, root_static_call};
use crate::view::{Streams, View};

const SUCCESS: &str = "Success! The configuration is valid.";
const SUCCESS_WARNINGS: &str =
    "Success! The configuration is valid, but there were some validation warnings as shown above.";

pub fn run(args: &[String], streams: &mut Streams) -> i32 {
    let specs = [
        bool_flag("json"),
        bool_flag("no-color"),
        value_flag("var"),
        value_flag("var-file"),
        value_flag("deprecation"),
        bool_flag("no-tests"),
        value_flag("test-directory"),
    ];
    let parsed = match flags::parse(args, &specs) {
        Ok(p) => p,
        Err(e) => {
            streams.eprint(&format!("{e}\n"));
            return 1;
        }
    };
    let json = parsed.bool("json", false);
    let view = View::new(parsed.bool("no-color", false));
    let dir = parsed.args.first().map(String::as_str).unwrap_or(".");

    let (root_call, var_diags) = root_static_call(&parsed.all("var"), false);
    let loaded = load_config(Path::new(dir), &root_call);
    let mut diags = tfdiags::Diagnostics::new();
    diags.append(var_diags);
    diags.append(loaded.diags);
    // The graph walk needs a whole, well-formed tree: like OpenTofu, it
    // runs only once loading found no errors.
    if let (false, Some(config)) = (diags.has_errors(), &loaded.config) {
        diags.append(tofu::validate(config));
    }
    let sources = loaded.sources;

    if json {
        streams.print(&tfdiags::validate_json(&diags, &sources));
        return if diags.has_errors() { 1 } else { 0 };
    }
    if diags.has_errors() {
        view.diagnostics(streams, &diags, &sources);
        return 1;
    }
    view.diagnostics(streams, &diags, &sources);
    let message = if diags.is_empty() {
        SUCCESS
    } else {
        SUCCESS_WARNINGS
    };
    streams.print(&view.success_line(message));
    0
}
