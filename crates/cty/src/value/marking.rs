//! Deep mark operations (Go `UnmarkDeep`, `UnmarkDeepWithPaths`, `MarkWithPaths`).

use crate::marks::{PathValueMarks, ValueMarks};
use crate::path::{Path, PathStep};

use super::{Data, Value};

impl Value {
    /// Go `UnmarkDeep`: the value with all nested marks removed, and their union.
    pub fn unmark_deep(&self) -> (Value, ValueMarks) {
        let mut marks = ValueMarks::new();
        let v = self.strip(&mut |_, m| marks.extend(m.iter().cloned()), &Path::root());
        (v, marks)
    }

    /// Go `UnmarkDeepWithPaths`: the unmarked value and the marks found at each path.
    pub fn unmark_deep_with_paths(&self) -> (Value, Vec<PathValueMarks>) {
        let mut found = Vec::new();
        let v = self.strip(
            &mut |p, m| {
                found.push(PathValueMarks {
                    path: p.clone(),
                    marks: m.clone(),
                })
            },
            &Path::root(),
        );
        (v, found)
    }

    fn strip(&self, sink: &mut dyn FnMut(&Path, &ValueMarks), path: &Path) -> Value {
        if !self.contains_marked() {
            return self.clone();
        }
        if self.is_marked() {
            sink(path, self.marks());
        }
        let data = match self.data() {
            Data::Seq(v) => {
                let is_set = self.ty().is_set();
                Data::Seq(
                    v.iter()
                        .enumerate()
                        .map(|(i, e)| {
                            let p = if is_set {
                                path.index(e.clone())
                            } else {
                                path.index_int(i)
                            };
                            e.strip(sink, &p)
                        })
                        .collect(),
                )
            }
            Data::Attrs(m) => {
                let is_obj = self.ty().is_object();
                Data::Attrs(
                    m.iter()
                        .map(|(k, e)| {
                            let p = if is_obj {
                                path.get_attr(k)
                            } else {
                                path.index(Value::string(k))
                            };
                            (k.clone(), e.strip(sink, &p))
                        })
                        .collect(),
                )
            }
            other => other.clone(),
        };
        Value::from_parts(self.ty().clone(), data, ValueMarks::new())
    }

    /// Go `MarkWithPaths`: re-applies marks at the given paths; paths that
    /// do not exist in the value are ignored.
    pub fn mark_with_paths(&self, pvm: &[PathValueMarks]) -> Value {
        let mut v = self.clone();
        for p in pvm {
            v = v.mark_at(&p.path.0, &p.marks);
        }
        v
    }

    fn mark_at(&self, steps: &[PathStep], marks: &ValueMarks) -> Value {
        let Some((first, rest)) = steps.split_first() else {
            return self.with_marks(marks.iter().cloned());
        };
        let data = match (self.data(), first) {
            (Data::Attrs(m), PathStep::GetAttr(name)) if self.ty().is_object() => {
                let mut m = m.clone();
                if let Some(e) = m.get(name).cloned() {
                    m.insert(name.clone(), e.mark_at(rest, marks));
                }
                Data::Attrs(m)
            }
            (Data::Attrs(m), PathStep::Index(k)) if self.ty().is_map() => {
                let mut m = m.clone();
                if let Some(key) = k.unmark().as_str() {
                    if let Some(e) = m.get(key).cloned() {
                        m.insert(key.to_string(), e.mark_at(rest, marks));
                    }
                }
                Data::Attrs(m)
            }
            (Data::Seq(v), PathStep::Index(k)) if self.ty().is_set() => {
                // Set elements cannot carry marks; the set takes them.
                let _ = (v, k);
                return self.with_marks(marks.iter().cloned());
            }
            (Data::Seq(v), PathStep::Index(k)) => {
                let mut v = v.clone();
                let idx = k
                    .unmark()
                    .as_number()
                    .and_then(|n| n.to_i64())
                    .and_then(|i| usize::try_from(i).ok());
                if let Some(i) = idx {
                    if let Some(e) = v.get(i).cloned() {
                        v[i] = e.mark_at(rest, marks);
                    }
                }
                Data::Seq(v)
            }
            _ => return self.clone(),
        };
        Value::from_parts(self.ty().clone(), data, self.marks().clone())
    }
}
