//! OpenTofu's human plan output (`internal/command/jsonformat`) for the
//! plans plan-lite makes: the action legend, one block per resource
//! instance to create, the `Plan:` summary and `Changes to Outputs:`.
//!
//! Like OpenTofu, values are rendered from their JSON views (the known
//! parts, the unknown map and the sensitive map of the plan document), so
//! both renderings agree; resource attributes are treated as the dynamic
//! attributes of `terraform_data` are (maps and objects alike, sets as
//! lists).

use std::collections::{BTreeMap, BTreeSet};

use crate::plans::{Action, OutputChange, Plan, ResourceInstanceChange};
use addrs::ResourceMode;
use rayon::prelude::*;

use super::jsonw::{parse_json_prefix, Json};
use super::values::{known_parts, sensitive_as_bool, unknown_as_bool};

mod schema_diff;

/// How to render.
#[derive(Debug, Clone, Copy)]
pub struct HumanOptions {
    /// ANSI colour and bold, as OpenTofu without `-no-color`.
    pub color: bool,
    /// The width paragraphs wrap to (OpenTofu uses 78 when stdout is not a
    /// terminal).
    pub width: usize,
}

impl Default for HumanOptions {
    fn default() -> HumanOptions {
        HumanOptions {
            color: false,
            width: 78,
        }
    }
}

/// The whole human rendering of a plan, as `tofu plan` prints it before
/// its closing note.
pub fn render_plan(plan: &Plan, opts: &HumanOptions) -> String {
    let mut text = String::new();
    render_plan_to(plan, opts, &mut |part| text.push_str(part));
    text
}

/// How much rendered text is held before it is handed on: a plan of
/// 20,000 resources renders to tens of megabytes, which need never be in
/// memory at once.
const EMIT_CHUNK: usize = 64 * 1024;

/// Plans with at least this many changes render in parallel, this many at
/// a time.
const PARALLEL_RENDER_CHANGES: usize = 256;

/// [`render_plan`], handing the text to `emit` in pieces as it is made.
pub fn render_plan_to(plan: &Plan, opts: &HumanOptions, emit: &mut dyn FnMut(&str)) {
    let c = Colorize {
        enabled: opts.color,
    };
    let mut out = String::new();

    let changes: Vec<&ResourceInstanceChange> = plan
        .resource_changes
        .iter()
        .filter(|rc| {
            let mode = rc.addr.resource.resource.mode;
            // No-ops say nothing; deleting a data resource is bookkeeping;
            // ephemeral resources are never shown.
            rc.action != Action::NoOp
                && !(rc.action == Action::Delete && mode != ResourceMode::Managed)
                && mode != ResourceMode::Ephemeral
        })
        .collect();
    let mut counts: BTreeMap<u8, usize> = BTreeMap::new();
    for rc in &changes {
        *counts.entry(action_order(rc.action)).or_default() += 1;
    }
    let count = |a: Action| counts.get(&action_order(a)).copied().unwrap_or(0);

    let outputs = render_outputs(&plan.output_changes, &c);

    if changes.is_empty() && outputs.is_empty() {
        // One line since OpenTofu 1.13 (opentofu#4427): the paragraph that
        // repeated it ("OpenTofu has compared your real infrastructure ...",
        // which Terraform still prints) is gone, and whatever follows, such
        // as the warnings, starts on the next line.
        out.push_str(&c.color(
            "\n[reset][bold][green]No changes.[reset][bold] Your infrastructure matches the configuration.[reset]\n",
        ));
        emit(&out);
        return;
    }

    if !counts.is_empty() {
        out.push_str(&word_wrap(
            "\nOpenTofu used the selected providers to generate the following execution plan. Resource actions are indicated with the following symbols:",
            opts.width,
        ));
        out.push('\n');
        for action in [
            Action::Create,
            Action::Update,
            Action::Delete,
            Action::DeleteThenCreate,
            Action::CreateThenDelete,
            Action::Read,
        ] {
            if count(action) > 0 {
                out.push_str(&c.color(action_description(action)));
                out.push('\n');
            }
        }
    }

    if !changes.is_empty() {
        out.push_str("\nOpenTofu will perform the following actions:\n");
        // Each change renders on its own, so a large plan renders a batch
        // at a time on every core, in order (a small one stays on this
        // thread: starting the pool costs more).
        let parallel = changes.len() >= PARALLEL_RENDER_CHANGES;
        for group in changes.chunks(PARALLEL_RENDER_CHANGES) {
            let rendered: Vec<String> = if parallel {
                group
                    .par_iter()
                    .map(|rc| render_resource_change(rc, &c))
                    .collect()
            } else {
                group
                    .iter()
                    .map(|rc| render_resource_change(rc, &c))
                    .collect()
            };
            for text in rendered {
                out.push('\n');
                out.push_str(&text);
                out.push('\n');
            }
            if out.len() >= EMIT_CHUNK {
                emit(&out);
                out.clear();
            }
        }
        let to_add = count(Action::Create)
            + count(Action::DeleteThenCreate)
            + count(Action::CreateThenDelete);
        let to_destroy = count(Action::Delete)
            + count(Action::DeleteThenCreate)
            + count(Action::CreateThenDelete);
        out.push_str(&c.color(&format!(
            "\n[bold]Plan:[reset] {to_add} to add, {} to change, {to_destroy} to destroy.\n",
            count(Action::Update)
        )));
    }

    if !outputs.is_empty() {
        out.push_str("\nChanges to Outputs:\n");
        out.push_str(&outputs);
        out.push('\n');
        if counts.is_empty() {
            out.push_str(&word_wrap(
                "\nYou can apply this plan to save these new output values to the OpenTofu state, without changing any real infrastructure.",
                opts.width,
            ));
            out.push('\n');
        }
    }
    emit(&out);
}

/// A stable index per action for counting.
fn action_order(a: Action) -> u8 {
    match a {
        Action::NoOp => 0,
        Action::Create => 1,
        Action::Read => 2,
        Action::Update => 3,
        Action::Delete => 4,
        Action::DeleteThenCreate => 5,
        Action::CreateThenDelete => 6,
    }
}

fn action_description(a: Action) -> &'static str {
    match a {
        Action::Create => "  [green]+[reset] create",
        Action::Delete => "  [red]-[reset] destroy",
        Action::Update => "  [yellow]~[reset] update in-place (current -> planned)",
        Action::CreateThenDelete => {
            "[green]+[reset]/[red]-[reset] create replacement and then destroy"
        }
        Action::DeleteThenCreate => {
            "[red]-[reset]/[green]+[reset] destroy and then create replacement"
        }
        Action::Read => " [cyan]<=[reset] read (data resources)",
        Action::NoOp => "",
    }
}

/// `format.DiffActionSymbol`.
fn diff_action_symbol(a: Action) -> &'static str {
    match a {
        Action::DeleteThenCreate => "[red]-[reset]/[green]+[reset]",
        Action::CreateThenDelete => "[green]+[reset]/[red]-[reset]",
        Action::Create => "  [green]+[reset]",
        Action::Delete => "  [red]-[reset]",
        Action::Read => " [cyan]<=[reset]",
        Action::Update => "  [yellow]~[reset]",
        Action::NoOp => "   ",
    }
}

/// One resource instance: the comment line, the header and its attributes.
fn render_resource_change(rc: &ResourceInstanceChange, c: &Colorize) -> String {
    let addr = rc.addr.to_string();
    let comment = match rc.action {
        Action::Create => format!("[bold]  # {addr}[reset] will be created"),
        // plan-lite plans only create; OpenTofu's own fallback for an
        // action its renderer cannot show.
        _ => format!("{addr} has an action the plan renderer doesn't support (this is a bug)"),
    };
    let res = &rc.addr.resource.resource;
    let mode = if res.mode == ResourceMode::Managed {
        "resource"
    } else {
        "data"
    };
    let body = match rc.schema.as_ref().and_then(|s| s.block.as_ref()) {
        Some(schema) => schema_block_diff(&rc.after, schema),
        None => block_diff(&rc.after),
    }
    .render(0, c);
    format!(
        "{}{} {mode} \"{}\" \"{}\" {body}",
        c.color(&format!("{comment}\n")),
        c.color(diff_action_symbol(rc.action)),
        res.type_name,
        res.name,
    )
}

/// `renderHumanDiffOutputs`: every output with a change, names padded to
/// the longest name (unchanged outputs count for the width too).
fn render_outputs(outputs: &BTreeMap<String, OutputChange>, c: &Colorize) -> String {
    let width = outputs
        .keys()
        .map(|k| escape_attribute_name(k).len())
        .max()
        .unwrap_or(0);
    let mut lines = Vec::new();
    for (name, oc) in outputs {
        let diff = output_diff(oc);
        if diff.action == Action::NoOp {
            continue;
        }
        lines.push(format!(
            "{} {} = {}",
            c.color(diff_action_symbol(diff.action)),
            pad(&escape_attribute_name(name), width),
            diff.render(0, c)
        ));
    }
    lines.join("\n")
}

fn output_diff(oc: &OutputChange) -> Diff {
    // As the plan document has it: a null or wholly unknown value has no
    // `after`, and a wholly known one is not unknown anywhere.
    let after = known_parts(&oc.after).filter(|j| *j != Json::Null);
    let unknown = if oc.after.is_wholly_known() {
        Json::Bool(false)
    } else {
        unknown_as_bool(&oc.after)
    };
    let sensitive = Json::Bool(oc.sensitive);
    transform(
        &Change {
            after: after.as_ref(),
            explicit: false,
            unknown: Some(&unknown),
            sensitive: Some(&sensitive),
        },
        oc.sensitive,
    )
}

/// One value being created, as jsonformat's `structured.Change` sees it:
/// the after value (absent, or explicitly given), and the unknown and
/// sensitive maps at the same place.
#[derive(Clone, Copy)]
struct Change<'a> {
    after: Option<&'a Json>,
    /// Whether the value was given (a JSON key or element), as opposed to
    /// absent; an explicit null is shown, an absent one is not.
    explicit: bool,
    unknown: Option<&'a Json>,
    sensitive: Option<&'a Json>,
}

impl<'a> Change<'a> {
    fn child_key(&self, key: &str) -> Change<'a> {
        let get = |j: Option<&'a Json>| match j {
            Some(Json::Object(members)) => {
                members.iter().rev().find(|(k, _)| k == key).map(|m| &m.1)
            }
            _ => None,
        };
        let after = get(self.after);
        Change {
            after,
            explicit: after.is_some(),
            unknown: get(self.unknown),
            sensitive: get(self.sensitive),
        }
    }

    fn child_index(&self, i: usize) -> Change<'a> {
        let get = |j: Option<&'a Json>| match j {
            Some(Json::Array(items)) => items.get(i),
            _ => None,
        };
        let after = get(self.after);
        Change {
            after,
            explicit: after.is_some(),
            unknown: get(self.unknown),
            sensitive: get(self.sensitive),
        }
    }

    fn is_null(&self) -> bool {
        matches!(self.after, None | Some(Json::Null))
    }
}

/// What a value renders as.
enum Shape {
    Null,
    /// Booleans and numbers, as their text.
    Plain(String),
    String(String),
    Object(BTreeMap<String, Diff>),
    List(Vec<Diff>),
    Unknown,
    Sensitive,
    /// A resource's top-level block.
    Block(BTreeMap<String, Diff>),
    /// A map of a schema type: keys quoted, aligned unless it is a nested
    /// attribute type's map.
    Map {
        elems: BTreeMap<String, Diff>,
        align: bool,
    },
    /// A write-only attribute: never shown.
    WriteOnly,
    /// A block with its schema: its attributes, then each nested block
    /// type's blocks (with the ` "key"` of map blocks).
    SchemaBlock {
        attrs: BTreeMap<String, Diff>,
        blocks: Vec<(String, Vec<(String, Diff)>)>,
    },
}

/// A rendered value's shape and the action its line shows.
struct Diff {
    shape: Shape,
    action: Action,
}

/// `collections.CompareActions`.
fn compare_actions(current: Action, next: Action) -> Action {
    if next == Action::NoOp {
        current
    } else if current != next {
        Action::Update
    } else {
        current
    }
}

/// jsondiff's `Transform` for a value being created (nothing before).
/// `before_sensitive` says whether the prior value was sensitive (outputs
/// repeat one flag for both).
fn transform(change: &Change<'_>, before_sensitive: bool) -> Diff {
    if change.sensitive == Some(&Json::Bool(true)) {
        let inner = transform(
            &Change {
                sensitive: None,
                ..*change
            },
            false,
        );
        let null_noop = change.is_null() && !change.explicit;
        let action = if inner.action == Action::NoOp && !before_sensitive && !null_noop {
            Action::Update
        } else {
            inner.action
        };
        return Diff {
            shape: Shape::Sensitive,
            action,
        };
    }
    if change.unknown == Some(&Json::Bool(true)) {
        return Diff {
            shape: Shape::Unknown,
            action: Action::Create,
        };
    }
    // A JSON null is Go's nil: shown only when given explicitly.
    let created = if change.is_null() && !change.explicit {
        Action::NoOp
    } else {
        Action::Create
    };
    match change.after {
        None | Some(Json::Null) => Diff {
            shape: Shape::Null,
            action: created,
        },
        Some(Json::Bool(b)) => Diff {
            shape: Shape::Plain(b.to_string()),
            action: Action::Create,
        },
        Some(Json::Number(n) | Json::Raw(n)) => Diff {
            shape: Shape::Plain(n.clone()),
            action: Action::Create,
        },
        Some(Json::String(s)) => Diff {
            shape: Shape::String(s.clone()),
            action: Action::Create,
        },
        Some(Json::Object(_)) => {
            // Indexed once: objects and maps can be large.
            let after = object_index(change.after);
            let unknown = object_index(change.unknown);
            let sensitive = object_index(change.sensitive);
            let keys: BTreeSet<&str> = after
                .keys()
                .chain(unknown.keys())
                .chain(sensitive.keys())
                .copied()
                .collect();
            let mut action = Action::Create;
            let mut elems = BTreeMap::new();
            for key in keys {
                let value = after.get(key).copied();
                let child = Change {
                    after: value,
                    explicit: value.is_some(),
                    unknown: unknown.get(key).copied(),
                    sensitive: sensitive.get(key).copied(),
                };
                let d = transform(&child, false);
                action = compare_actions(action, d.action);
                elems.insert(key.to_string(), d);
            }
            Diff {
                shape: Shape::Object(elems),
                action,
            }
        }
        Some(Json::Array(items)) => {
            let mut action = Action::Create;
            let elems: Vec<Diff> = (0..items.len())
                .map(|i| {
                    let d = transform(&change.child_index(i), false);
                    action = compare_actions(action, d.action);
                    d
                })
                .collect();
            Diff {
                shape: Shape::List(elems),
                action,
            }
        }
    }
}

/// An object's members by key (a later duplicate wins, as in a Go map).
fn object_index(j: Option<&Json>) -> BTreeMap<&str, &Json> {
    match j {
        Some(Json::Object(members)) => members.iter().map(|(k, v)| (k.as_str(), v)).collect(),
        _ => BTreeMap::new(),
    }
}

/// `ComputeDiffForBlock` for a resource's planned value: every attribute
/// of its type, except those that are null (an empty string counts as null
/// here, a legacy rule of OpenTofu's block differ).
fn block_diff(after: &cty::Value) -> Diff {
    let after_json = known_parts(after);
    let unknown = unknown_as_bool(after);
    let sensitive = sensitive_as_bool(after);
    let top = Change {
        after: after_json.as_ref(),
        explicit: false,
        unknown: Some(&unknown),
        sensitive: Some(&sensitive),
    };
    let mut attrs = BTreeMap::new();
    let names: Vec<String> = after
        .ty()
        .attribute_types()
        .map(|a| a.keys().cloned().collect())
        .unwrap_or_default();
    for name in names {
        let mut child = top.child_key(&name);
        if child.after == Some(&Json::String(String::new())) {
            child.after = None;
        }
        // Changes to blocks are always implicit.
        child.explicit = false;
        let d = transform(&child, false);
        if d.action == Action::NoOp && child.is_null() {
            continue;
        }
        attrs.insert(name, d);
    }
    Diff {
        shape: Shape::Block(attrs),
        action: Action::Create,
    }
}

/// [`block_diff`] with the resource type's schema.
fn schema_block_diff(after: &cty::Value, schema: &configschema::Block) -> Diff {
    let after_json = known_parts(after);
    let unknown = unknown_as_bool(after);
    let sensitive = sensitive_as_bool(after);
    let top = Change {
        after: after_json.as_ref(),
        explicit: false,
        unknown: Some(&unknown),
        sensitive: Some(&sensitive),
    };
    schema_diff::block(&top, schema)
}

/// The blockRenderer: the attributes as [`render_attributes`] shows a
/// block's, then each nested block type's blocks, a blank line before each
/// type's first when there are attributes.
fn render_block(
    buf: &mut String,
    attrs: &BTreeMap<String, Diff>,
    blocks: &[(String, Vec<(String, Diff)>)],
    indent: usize,
    c: &Colorize,
) {
    if attrs.is_empty() && blocks.is_empty() {
        return buf.push_str("{}");
    }
    render_attributes(buf, attrs, indent, c, false);
    if blocks.is_empty() {
        return;
    }
    // Reopen the body: drop the closing line the attributes wrote.
    if attrs.is_empty() {
        buf.push_str("{\n");
    } else {
        let close = buf.rfind('\n').map_or(0, |i| i + 1);
        buf.truncate(close);
    }
    let mut unchanged = 0;
    for (name, group) in blocks {
        let mut first = true;
        for (key, d) in group {
            if d.action == Action::NoOp {
                unchanged += 1;
                continue;
            }
            if first && !attrs.is_empty() {
                buf.push('\n');
            }
            first = false;
            line_start(buf, indent + 1, d.action, c);
            buf.push_str(&escape_attribute_name(name));
            buf.push_str(key);
            buf.push(' ');
            d.render_into(buf, indent + 1, c);
            buf.push('\n');
        }
    }
    if unchanged > 0 {
        line_start(buf, indent + 1, Action::NoOp, c);
        buf.push_str(&unchanged_note("block", unchanged, c));
        buf.push('\n');
    }
    line_start(buf, indent, Action::NoOp, c);
    buf.push('}');
}

/// The mapRenderer: keys quoted as HCL strings, sorted, aligned (for maps
/// of a type), a comma after each element that is an object.
fn render_map(
    buf: &mut String,
    elems: &BTreeMap<String, Diff>,
    align: bool,
    indent: usize,
    c: &Colorize,
) {
    if elems.is_empty() {
        return buf.push_str("{}");
    }
    let quoted: BTreeMap<&String, String> =
        elems.keys().map(|k| (k, hcl_escape_string(k))).collect();
    let width = if align {
        quoted
            .values()
            .map(|k| k.chars().count())
            .max()
            .unwrap_or(0)
    } else {
        0
    };
    buf.push_str("{\n");
    let mut unchanged = 0;
    for (key, elem) in elems {
        if elem.action == Action::NoOp {
            unchanged += 1;
            continue;
        }
        line_start(buf, indent + 1, elem.action, c);
        buf.push_str(&pad(&quoted[key], width));
        buf.push_str(" = ");
        elem.render_into(buf, indent + 1, c);
        if matches!(elem.shape, Shape::Object(_)) {
            buf.push(',');
        }
        buf.push('\n');
    }
    if unchanged > 0 {
        line_start(buf, indent + 1, Action::NoOp, c);
        buf.push_str(&unchanged_note("element", unchanged, c));
        buf.push('\n');
    }
    line_start(buf, indent, Action::NoOp, c);
    buf.push('}');
}

/// `hclEscapeString`: Go's `%q`, with template sequences escaped.
fn hcl_escape_string(s: &str) -> String {
    addrs::go_quote(s).replace("${", "$${").replace("%{", "%%{")
}

/// Attributes shown even when unchanged.
fn important_attribute(name: &str) -> bool {
    matches!(name, "id" | "name" | "tags")
}

impl Diff {
    fn render(&self, indent: usize, c: &Colorize) -> String {
        let mut buf = String::new();
        self.render_into(&mut buf, indent, c);
        buf
    }

    /// Appends the rendering to `buf`. Nested values write into the one
    /// buffer: a child rendered to a string of its own and copied into its
    /// parent costs the depth times the output (cubic for a deep value).
    fn render_into(&self, buf: &mut String, indent: usize, c: &Colorize) {
        match &self.shape {
            Shape::Null => buf.push_str(&c.color("[dark_gray]null[reset]")),
            Shape::Plain(s) => buf.push_str(s),
            Shape::String(s) => render_string(buf, s, indent, c),
            Shape::Unknown => buf.push_str("(known after apply)"),
            Shape::Sensitive => buf.push_str("(sensitive value)"),
            Shape::Object(attrs) => render_attributes(buf, attrs, indent, c, true),
            Shape::Block(attrs) => render_attributes(buf, attrs, indent, c, false),
            Shape::List(elems) => render_list(buf, elems, indent, c),
            Shape::Map { elems, align } => render_map(buf, elems, *align, indent, c),
            Shape::WriteOnly => buf.push_str("(write-only attribute)"),
            Shape::SchemaBlock { attrs, blocks } => render_block(buf, attrs, blocks, indent, c),
        }
    }
}

/// The start of a line: the indentation and an action symbol.
fn line_start(buf: &mut String, indent: usize, action: Action, c: &Colorize) {
    push_indent(buf, indent);
    buf.push_str(&action_symbol(action, c));
}

/// The objectRenderer and blockRenderer: `key = value` lines aligned on
/// the longest (escaped) key, unchanged attributes counted, not shown.
fn render_attributes(
    buf: &mut String,
    attrs: &BTreeMap<String, Diff>,
    indent: usize,
    c: &Colorize,
    escape_important: bool,
) {
    if attrs.is_empty() {
        return buf.push_str("{}");
    }
    let width = attrs
        .keys()
        .map(|k| escape_attribute_name(k).len())
        .max()
        .unwrap_or(0);
    buf.push_str("{\n");
    let mut unchanged = 0;
    for (key, attr) in attrs {
        let shown_key = if important_attribute(key) && !escape_important {
            key.clone()
        } else {
            escape_attribute_name(key)
        };
        if !important_attribute(key) && attr.action == Action::NoOp {
            unchanged += 1;
            continue;
        }
        line_start(buf, indent + 1, attr.action, c);
        buf.push_str(&pad(&shown_key, width));
        buf.push_str(" = ");
        attr.render_into(buf, indent + 1, c);
        buf.push('\n');
    }
    if unchanged > 0 {
        line_start(buf, indent + 1, Action::NoOp, c);
        buf.push_str(&unchanged_note("attribute", unchanged, c));
        buf.push('\n');
    }
    line_start(buf, indent, Action::NoOp, c);
    buf.push('}');
}

/// The listRenderer with context (as for JSON arrays): changed elements,
/// the unchanged ones around them, a count of the rest.
fn render_list(buf: &mut String, elems: &[Diff], indent: usize, c: &Colorize) {
    if elems.is_empty() {
        return buf.push_str("[]");
    }
    buf.push_str("[\n");
    let mut unchanged: Vec<&Diff> = Vec::new();
    let mut render_next = false;
    for elem in elems {
        if elem.action == Action::NoOp && !render_next {
            unchanged.push(elem);
            continue;
        }
        render_next = false;
        if unchanged.len() > 1 {
            line_start(buf, indent + 1, Action::NoOp, c);
            buf.push_str(&unchanged_note("element", unchanged.len() - 1, c));
            buf.push('\n');
        }
        if let Some(last) = unchanged.last() {
            line_start(buf, indent + 1, last.action, c);
            last.render_into(buf, indent + 1, c);
            buf.push_str(",\n");
        }
        unchanged.clear();
        if elem.action != Action::NoOp {
            render_next = true;
        }
        line_start(buf, indent + 1, elem.action, c);
        elem.render_into(buf, indent + 1, c);
        buf.push_str(",\n");
    }
    if !unchanged.is_empty() {
        line_start(buf, indent + 1, Action::NoOp, c);
        buf.push_str(&unchanged_note("element", unchanged.len(), c));
        buf.push('\n');
    }
    line_start(buf, indent, Action::NoOp, c);
    buf.push(']');
}

/// A created string: JSON text as `jsonencode(...)`, several lines as a
/// heredoc, anything else quoted as Go's `%q` does.
fn render_string(buf: &mut String, s: &str, indent: usize, c: &Colorize) {
    if s.starts_with('{') || s.starts_with('[') {
        if let Some(json) = parse_json_prefix(s) {
            // Rendered apart: whether it spans lines decides the wrapper.
            let inner = transform(
                &Change {
                    after: Some(&json),
                    explicit: true,
                    unknown: None,
                    sensitive: None,
                },
                false,
            )
            .render(indent + 1, c);
            // The JSON's own lines carry the actions; the wrapper none.
            if inner.contains('\n') {
                buf.push_str("jsonencode(\n");
                line_start(buf, indent + 1, Action::NoOp, c);
                buf.push_str(&inner);
                buf.push('\n');
                line_start(buf, indent, Action::NoOp, c);
                buf.push(')');
            } else {
                buf.push_str("jsonencode(");
                buf.push_str(&inner);
                buf.push(')');
            }
            return;
        }
    }
    if s.contains('\n') {
        buf.push_str("<<-EOT\n");
        for l in s.trim().split('\n') {
            line_start(buf, indent + 1, Action::NoOp, c);
            buf.push_str(l);
            buf.push('\n');
        }
        line_start(buf, indent, Action::NoOp, c);
        buf.push_str("EOT");
        return;
    }
    buf.push_str(&addrs::go_quote(s));
}

fn unchanged_note(keyword: &str, count: usize, c: &Colorize) -> String {
    let plural = if count == 1 { "" } else { "s" };
    c.color(&format!(
        "[dark_gray]# ({count} unchanged {keyword}{plural} hidden)[reset]"
    ))
}

/// `writeDiffActionSymbol`: the coloured symbol and a space.
fn action_symbol(a: Action, c: &Colorize) -> String {
    format!("{} ", c.color(diff_action_symbol(a)))
}

fn push_indent(buf: &mut String, indent: usize) {
    for _ in 0..indent {
        buf.push_str("    ");
    }
}

/// `EnsureValidAttributeName`: names that are not identifiers are quoted.
fn escape_attribute_name(name: &str) -> String {
    if hclsyntax::valid_identifier(name) {
        name.to_string()
    } else {
        addrs::go_quote(name)
    }
}

/// Go's `%-*s`: left-aligned, padded to `width` characters.
fn pad(s: &str, width: usize) -> String {
    let n = s.chars().count();
    if n >= width {
        s.to_string()
    } else {
        format!("{s}{}", " ".repeat(width - n))
    }
}

/// mitchellh/colorstring as OpenTofu configures it: the colour names it
/// knows become ANSI codes and a reset ends any coloured text; without
/// colour they are removed.
struct Colorize {
    enabled: bool,
}

impl Colorize {
    fn code(name: &str) -> Option<&'static str> {
        Some(match name {
            "reset" => "0",
            "bold" => "1",
            "red" => "31",
            "green" => "32",
            "yellow" => "33",
            "cyan" => "36",
            "dark_gray" => "90",
            _ => return None,
        })
    }

    fn color(&self, s: &str) -> String {
        let mut out = String::with_capacity(s.len() + 16);
        let mut colored = false;
        let mut rest = s;
        while let Some(open) = rest.find('[') {
            out.push_str(&rest[..open]);
            let after = &rest[open + 1..];
            let name_len = after
                .find(|ch: char| !(ch.is_ascii_alphanumeric() || ch == '_' || ch == '-'))
                .unwrap_or(after.len());
            let name = &after[..name_len];
            if name_len > 0 && after[name_len..].starts_with(']') {
                if let Some(code) = Self::code(&name.to_ascii_lowercase()) {
                    colored = true;
                    if self.enabled {
                        out.push_str(&format!("\x1b[{code}m"));
                    }
                } else {
                    out.push_str(&rest[open..open + name_len + 2]);
                }
                rest = &after[name_len + 1..];
            } else {
                out.push('[');
                rest = after;
            }
        }
        out.push_str(rest);
        if colored && self.enabled {
            out.push_str("\x1b[0m");
        }
        out
    }
}

/// OpenTofu's `format.WordWrap`: each line wrapped at spaces to one less
/// than `width` (go-wordwrap's rule), except lines starting with a space,
/// which are left whole.
pub fn word_wrap(s: &str, width: usize) -> String {
    if width <= 1 {
        return s.to_string();
    }
    let limit = width - 1;
    let mut out = Vec::new();
    for line in s.split('\n') {
        if line.starts_with(' ') {
            out.push(line.to_string());
            continue;
        }
        let mut wrapped = Vec::new();
        let mut current = String::new();
        let mut current_len = 0;
        for word in line.split(' ').filter(|w| !w.is_empty()) {
            let word_len = word.chars().count();
            if current_len > 0 && current_len + 1 + word_len > limit {
                wrapped.push(std::mem::take(&mut current));
                current_len = 0;
            }
            if current_len > 0 {
                current.push(' ');
                current_len += 1;
            }
            current.push_str(word);
            current_len += word_len;
        }
        wrapped.push(current);
        out.push(wrapped.join("\n"));
    }
    out.join("\n")
}
