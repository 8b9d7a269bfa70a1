//! Expression evaluation over the whole function library, as `console`
//! evaluates and renders it. The input is a generated expression tree
//! (see `expr_gen`), so nearly every input parses and reaches a function
//! with some mix of unknown, null, sensitive, nested, huge and multibyte
//! arguments. Any panic, stack overflow, time-out or blow-up is a bug:
//! every wrong argument must end in a diagnostic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tofu_rs_fuzz::eval_data::{arity, function_names, function_table, FuzzData};
use tofu_rs_fuzz::expr_gen::{render, Expr, Functions};

fuzz_target!(|e: Expr| {
    let funcs = Functions {
        names: function_names(),
        arity: &arity,
    };
    let src = render(&e, &funcs);
    let data = FuzzData;
    let scope = lang::Scope::new(&data, function_table());
    let result = command::commands::console::evaluate(&scope, &src);
    // FUZZ_SHOW=1 prints what an input (an artifact, a corpus entry) is.
    if std::env::var_os("FUZZ_SHOW").is_some() {
        eprintln!("{src}\n=> {result:?}");
    }
    if let Err(diags) = result {
        let sources = [std::sync::Arc::new(hclsyntax::SourceFile::new(
            "<console-input>",
            src.as_str(),
        ))]
        .into_iter()
        .collect();
        tofu_rs_fuzz::render_diagnostics(&diags, &sources);
    }
});
