//! Vectors sized to what they hold. The tree of a large configuration is
//! mostly short vectors (an object's items, a call's arguments, a
//! traversal's one or two steps), and a vector grown by pushing keeps up
//! to twice the room it needs (and never less than four elements): at
//! 20,000 resources that slack was a third of the parsed tree.

/// `v` with no spare capacity. Shrinking in place is not enough: an
/// allocator may keep a shrunk block at its old size, so the elements
/// are moved to a new allocation of the exact size.
pub(super) fn exact<T>(v: Vec<T>) -> Vec<T> {
    if v.len() == v.capacity() {
        return v;
    }
    let mut out = Vec::with_capacity(v.len());
    out.extend(v);
    out
}

/// Pushes `x`, growing a short vector by one element at a time (a long
/// one grows as usual, so that pushing stays amortized constant).
pub(super) fn push_short<T>(v: &mut Vec<T>, x: T) {
    const SHORT: usize = 4;
    if v.len() == v.capacity() && v.len() < SHORT {
        v.reserve_exact(1);
    }
    v.push(x);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exact_drops_spare_capacity_and_keeps_order() {
        let mut v = Vec::with_capacity(16);
        v.extend([1, 2, 3]);
        let v = exact(v);
        assert_eq!(v, [1, 2, 3]);
        assert_eq!(v.capacity(), 3);
    }

    #[test]
    fn short_vectors_grow_one_at_a_time() {
        let mut v = Vec::new();
        push_short(&mut v, 'a');
        assert_eq!(v.capacity(), 1);
        push_short(&mut v, 'b');
        assert_eq!(v.capacity(), 2);
        for c in 'c'..='z' {
            push_short(&mut v, c);
        }
        assert_eq!(v.len(), 26);
        assert_eq!(v.iter().collect::<String>(), "abcdefghijklmnopqrstuvwxyz");
    }
}
