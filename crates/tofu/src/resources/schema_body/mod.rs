//! A resource or provider body decoded against its provider's schema:
//! OpenTofu's `Scope.EvalBlock` after `ExpandBlock` (`internal/lang/
//! eval.go`): `dynamic` blocks expanded (`dynamic`), attributes written as
//! blocks accepted (`blocktoattr`), then hcldec's decoding of
//! `configschema.Block.DecoderSpec()` (`block`). Where the provider reports
//! on the decoded value, `in_config_body` puts its diagnostics back in the
//! source.

mod block;
mod blocktoattr;
mod dynamic;
mod ephemeral;
mod in_config_body;
mod variables;

pub use in_config_body::in_config_body;

use configs::merged_body::ConfigBody;
use configschema::Block;
use cty::Value;
use hclsyntax::Diagnostics;
use lang::Scope;

/// The body's value as the schema's object type: unknown where the
/// references could not be evaluated. `ephemeral_context`: the block may
/// hold ephemeral values anywhere (an ephemeral resource, a provider
/// configuration); elsewhere only write-only attributes may.
pub fn decode(
    body: &ConfigBody,
    schema: &Block,
    scope: &Scope<'_>,
    ephemeral_context: bool,
) -> (Value, Diagnostics) {
    let mut traversals = Vec::new();
    variables::body_variables(body, schema, &mut Vec::new(), 0, &mut traversals);
    let (refs, mut diags) = scope.references(&traversals);
    let (ctx, d) = scope.eval_context(&refs);
    diags.extend(d);
    if hclsyntax::has_errors(&diags) {
        return (Value::unknown(schema.implied_type()), diags);
    }
    let value = block::decode_block(body, schema, &ctx, &block::Frame::default(), &mut diags);
    if !ephemeral_context {
        for d in ephemeral::ephemeral_outside_write_only(schema, &value) {
            diags.push(in_config_body(&d, body));
        }
    }
    (value, diags)
}
