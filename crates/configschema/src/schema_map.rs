//! The schemas of one kind of a provider (resource types, data sources or
//! ephemeral resource types), by type name.
//!
//! A provider's document can be large (the AWS provider's is 13.6 MB, 1,500
//! resource types) while a configuration uses a few of its types, so a map
//! read from a document known to be well formed
//! ([`crate::json::decode_provider_trusted`]: a schema cache entry our own
//! encoder wrote) keeps each type's JSON text and decodes it the first
//! time the type is asked for. Every other map holds decoded schemas only.
//! Either way the map behaves as a `BTreeMap<String, Schema>`.

use std::collections::BTreeMap;
use std::fmt;
use std::ops::Range;
use std::sync::{Arc, OnceLock};

use crate::provider::Schema;

/// Schemas by type name, each decoded on first use when read lazily.
#[derive(Clone, Default)]
pub struct SchemaMap {
    entries: BTreeMap<String, Entry>,
}

#[derive(Clone)]
struct Entry {
    /// The type's JSON text as read, until the schema is changed; an entry
    /// without it was decoded (or built) from the start.
    text: Option<Text>,
    /// Shared, so that every resource of a type can hold its schema
    /// without copying it.
    decoded: OnceLock<Arc<Schema>>,
}

/// A slice of a shared document.
#[derive(Clone)]
pub(crate) struct Text {
    doc: Arc<str>,
    range: Range<usize>,
}

impl Text {
    pub(crate) fn new(doc: Arc<str>, range: Range<usize>) -> Text {
        debug_assert!(doc.get(range.clone()).is_some());
        Text { doc, range }
    }

    fn as_str(&self) -> &str {
        // The range was taken from this document's own parse.
        self.doc.get(self.range.clone()).unwrap_or("")
    }
}

impl Entry {
    fn decoded(schema: Schema) -> Entry {
        Entry {
            text: None,
            decoded: OnceLock::from(Arc::new(schema)),
        }
    }

    fn get(&self) -> &Schema {
        self.shared()
    }

    fn shared(&self) -> &Arc<Schema> {
        self.decoded.get_or_init(|| {
            let text = self.text.as_ref().map(Text::as_str).unwrap_or("");
            // A trusted document was written by our encoder from a schema
            // that decoded, so this cannot fail; if it did, the type is
            // known without a block rather than taking the process down.
            Arc::new(crate::json::decode_schema(text).unwrap_or_default())
        })
    }

    fn get_mut(&mut self) -> &mut Schema {
        self.get();
        self.text = None;
        Arc::make_mut(
            self.decoded
                .get_mut()
                .expect("an entry is decoded once get has run"),
        )
    }
}

impl SchemaMap {
    pub fn new() -> SchemaMap {
        SchemaMap::default()
    }

    /// A map of types given by their JSON texts, decoded on first use
    /// (built in one pass when the names come sorted).
    pub(crate) fn from_texts(texts: impl IntoIterator<Item = (String, Text)>) -> SchemaMap {
        SchemaMap {
            entries: texts
                .into_iter()
                .map(|(name, text)| {
                    (
                        name,
                        Entry {
                            text: Some(text),
                            decoded: OnceLock::new(),
                        },
                    )
                })
                .collect(),
        }
    }

    /// The JSON text of a lazily read type not changed since, exactly as
    /// the trusted document had it (for writing the document back without
    /// encoding it again).
    pub(crate) fn original_text(&self, name: &str) -> Option<&str> {
        self.entries.get(name)?.text.as_ref().map(Text::as_str)
    }

    /// Adds or replaces a type's schema, returning the one it replaced.
    pub fn insert(&mut self, name: String, schema: Schema) -> Option<Schema> {
        self.entries
            .insert(name, Entry::decoded(schema))
            .map(|mut e| std::mem::take(e.get_mut()))
    }

    /// The schema of `name`, decoding it on first use.
    pub fn get(&self, name: &str) -> Option<&Schema> {
        self.entries.get(name).map(Entry::get)
    }

    /// The schema of `name`, shared (no copy is made).
    pub fn get_shared(&self, name: &str) -> Option<Arc<Schema>> {
        self.entries.get(name).map(|e| e.shared().clone())
    }

    /// The schema of `name`, for changing it.
    pub fn get_mut(&mut self, name: &str) -> Option<&mut Schema> {
        self.entries.get_mut(name).map(Entry::get_mut)
    }

    /// Whether `name` is a type of this kind (decodes nothing).
    pub fn contains_key(&self, name: &str) -> bool {
        self.entries.contains_key(name)
    }

    /// Removes a type, returning its schema.
    pub fn remove(&mut self, name: &str) -> Option<Schema> {
        self.entries
            .remove(name)
            .map(|mut e| std::mem::take(e.get_mut()))
    }

    pub fn clear(&mut self) {
        self.entries.clear();
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The type names in order (decodes nothing).
    pub fn keys(&self) -> impl DoubleEndedIterator<Item = &String> + ExactSizeIterator + Clone {
        self.entries.keys()
    }

    /// Every type in name order, each decoded.
    pub fn iter(&self) -> impl DoubleEndedIterator<Item = (&String, &Schema)> + ExactSizeIterator {
        self.entries.iter().map(|(k, e)| (k, e.get()))
    }

    /// Every schema in name order, each decoded.
    pub fn values(&self) -> impl DoubleEndedIterator<Item = &Schema> + ExactSizeIterator {
        self.entries.values().map(Entry::get)
    }

    /// Every schema in name order, for changing them.
    pub fn values_mut(
        &mut self,
    ) -> impl DoubleEndedIterator<Item = &mut Schema> + ExactSizeIterator {
        self.entries.values_mut().map(Entry::get_mut)
    }
}

impl<'m> IntoIterator for &'m SchemaMap {
    type Item = (&'m String, &'m Schema);
    type IntoIter = Box<dyn Iterator<Item = (&'m String, &'m Schema)> + 'm>;

    fn into_iter(self) -> Self::IntoIter {
        Box::new(self.iter())
    }
}

impl FromIterator<(String, Schema)> for SchemaMap {
    fn from_iter<I: IntoIterator<Item = (String, Schema)>>(iter: I) -> SchemaMap {
        SchemaMap {
            entries: iter
                .into_iter()
                .map(|(k, s)| (k, Entry::decoded(s)))
                .collect(),
        }
    }
}

impl<const N: usize> From<[(String, Schema); N]> for SchemaMap {
    fn from(items: [(String, Schema); N]) -> SchemaMap {
        items.into_iter().collect()
    }
}

impl std::ops::Index<&str> for SchemaMap {
    type Output = Schema;

    fn index(&self, name: &str) -> &Schema {
        self.get(name)
            .unwrap_or_else(|| panic!("no schema for type {name:?}"))
    }
}

impl PartialEq for SchemaMap {
    fn eq(&self, other: &SchemaMap) -> bool {
        self.len() == other.len() && self.iter().eq(other.iter())
    }
}

impl fmt::Debug for SchemaMap {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map().entries(self.iter()).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const DOC: &str =
        r#"{"a_thing":{"version":2,"block":{"description_kind":"plain"}},"b_thing":{"version":1}}"#;

    fn lazy() -> SchemaMap {
        let doc: Arc<str> = Arc::from(DOC);
        let a = DOC.find(r#"{"version":2"#).unwrap();
        let b = DOC.find(r#"{"version":1"#).unwrap();
        SchemaMap::from_texts([
            ("a_thing".into(), Text::new(doc.clone(), a..b - 11)),
            ("b_thing".into(), Text::new(doc, b..DOC.len() - 1)),
        ])
    }

    #[test]
    fn a_lazy_entry_decodes_when_asked_for() {
        let mut m = lazy();
        assert_eq!(m.original_text("b_thing"), Some(r#"{"version":1}"#));
        assert_eq!(m.get("b_thing").unwrap().version, 1);
        // Decoded, unchanged: still written back as read.
        assert_eq!(m.original_text("b_thing"), Some(r#"{"version":1}"#));
        m.get_mut("b_thing").unwrap().version = 3;
        assert_eq!(m.original_text("b_thing"), None);
        assert!(m.original_text("a_thing").is_some());
        assert_eq!(m.keys().collect::<Vec<_>>(), ["a_thing", "b_thing"]);
    }

    #[test]
    fn lazy_and_decoded_maps_compare_by_their_schemas() {
        let decoded: SchemaMap = [
            (
                "a_thing".to_string(),
                Schema {
                    version: 2,
                    block: Some(crate::Block::default()),
                },
            ),
            (
                "b_thing".to_string(),
                Schema {
                    version: 1,
                    block: None,
                },
            ),
        ]
        .into();
        assert_eq!(lazy(), decoded);
    }

    #[test]
    fn text_that_does_not_decode_is_a_type_without_a_block() {
        let doc: Arc<str> = Arc::from("{\"version\":\"x\"}");
        let m = SchemaMap::from_texts([("t".into(), Text::new(doc.clone(), 0..doc.len()))]);
        assert_eq!(m.get("t"), Some(&Schema::default()));
    }
}
