//! `TF_REATTACH_PROVIDERS` as every command reads it first: raw bytes
//! through Go's JSON syntax check (`gocompat::json_syntax`), then the
//! reattach entries, provider addresses and TCP addresses. Any panic or
//! time-out is a bug: a bad value must end in OpenTofu's error text.
//! Also a differential check of the syntax checker: what it accepts,
//! serde_json parses too, but for the limits serde_json has and Go has
//! not (nesting deeper than 128, invalid UTF-8, lone surrogates).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let go_valid = gocompat::json_syntax::check_valid(data).is_ok();
    if go_valid {
        if let Err(e) = serde_json::from_slice::<serde_json::Value>(data) {
            let text = e.to_string();
            let serde_limit = text.contains("recursion limit")
                || text.contains("surrogate")
                || text.contains("invalid unicode code point")
                || std::str::from_utf8(data).is_err();
            assert!(serde_limit, "Go accepts what serde_json rejects: {text}");
        }
    } else {
        assert!(
            serde_json::from_slice::<serde_json::Value>(data).is_err(),
            "serde_json accepts what Go rejects"
        );
    }
    let text = String::from_utf8_lossy(data);
    let _ = command::unmanaged_providers::parse(&text);
});
