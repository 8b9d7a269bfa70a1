//! Number functions: abs, max, min.

use cty::{Type, Value};

use crate::function::{FnError, Function, FunctionTable, Param};

pub(super) fn register(t: &mut FunctionTable) {
    t.insert(
        "abs",
        Function::new(
            vec![Param::new("num", Type::Number).allow_dynamic()],
            None,
            |_| Ok(Type::Number),
            |args, _| Ok(args[0].absolute()?),
        ),
    );
    t.insert("max", extreme(true));
    t.insert("min", extreme(false));
}

/// `max` (`greatest`) or `min`: the first argument that no other beats,
/// returned as given.
fn extreme(greatest: bool) -> Function {
    Function::new(
        vec![],
        Some(Param::new("numbers", Type::Number).allow_dynamic()),
        |_| Ok(Type::Number),
        move |args, _| {
            let Some(first) = args.first() else {
                return Err(FnError::general("must pass at least one number"));
            };
            let mut best: &Value = first;
            for num in &args[1..] {
                let beats = if greatest {
                    num.greater_than(best)?
                } else {
                    num.less_than(best)?
                };
                if beats.as_bool() == Some(true) {
                    best = num;
                }
            }
            Ok(best.clone())
        },
    )
}
