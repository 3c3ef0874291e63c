//! [`KeyList`]: a list of strings (information-state keys) stored in one text buffer.
//!
//! A tree can hold millions of short keys; as separate `String`s each would cost a header and a
//! heap allocation several times the size of its text.

use std::fmt;
use std::ops::Index;

/// A list of strings held as one buffer of their text plus the end offset of each.
#[derive(Clone, Default, PartialEq, Eq)]
pub struct KeyList {
    text: String,
    ends: Vec<u32>,
}

impl KeyList {
    /// An empty list.
    pub fn new() -> KeyList {
        KeyList::default()
    }

    /// An empty list with room for `keys` keys of `bytes` bytes of text in all.
    pub fn with_capacity(keys: usize, bytes: usize) -> KeyList {
        KeyList { text: String::with_capacity(bytes), ends: Vec::with_capacity(keys) }
    }

    /// Appends `key`.
    ///
    /// # Panics
    /// If the text of all keys would exceed `u32::MAX` bytes.
    pub fn push(&mut self, key: &str) {
        self.text.push_str(key);
        self.ends.push(end_offset(self.text.len()));
    }

    /// Appends every key of `other`, in order.
    ///
    /// # Panics
    /// If the text of all keys would exceed `u32::MAX` bytes.
    pub fn extend_from_list(&mut self, other: &KeyList) {
        let shift = self.text.len();
        self.text.push_str(&other.text);
        self.ends.extend(other.ends.iter().map(|&e| end_offset(shift + e as usize)));
    }

    /// Number of keys.
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    /// Key `i`, or `None` if out of range.
    pub fn get(&self, i: usize) -> Option<&str> {
        let end = *self.ends.get(i)? as usize;
        let start = if i == 0 { 0 } else { self.ends[i - 1] as usize };
        Some(&self.text[start..end])
    }

    /// The keys, in order.
    pub fn iter(&self) -> impl DoubleEndedIterator<Item = &str> + ExactSizeIterator + '_ {
        (0..self.len()).map(|i| &self[i])
    }

    /// The keys as separate strings.
    pub fn to_vec(&self) -> Vec<String> {
        self.iter().map(str::to_string).collect()
    }

    /// Bytes of text and offsets held (without spare capacity).
    pub fn memory_bytes(&self) -> usize {
        self.text.len() + self.ends.len() * size_of::<u32>()
    }
}

/// `len` as an end offset.
fn end_offset(len: usize) -> u32 {
    u32::try_from(len).expect("a KeyList holds at most u32::MAX bytes of text")
}

impl Index<usize> for KeyList {
    type Output = str;

    /// Key `i`; panics if out of range.
    fn index(&self, i: usize) -> &str {
        match self.get(i) {
            Some(k) => k,
            None => panic!("key index {i} out of range for a KeyList of {} keys", self.len()),
        }
    }
}

impl fmt::Debug for KeyList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl<S: AsRef<str>> Extend<S> for KeyList {
    fn extend<I: IntoIterator<Item = S>>(&mut self, keys: I) {
        for k in keys {
            self.push(k.as_ref());
        }
    }
}

impl<S: AsRef<str>> FromIterator<S> for KeyList {
    fn from_iter<I: IntoIterator<Item = S>>(keys: I) -> KeyList {
        let mut list = KeyList::new();
        list.extend(keys);
        list
    }
}

#[cfg(test)]
mod tests {
    use super::KeyList;

    #[test]
    fn holds_keys_in_order_including_empty_ones() {
        let mut k = KeyList::new();
        assert!(k.is_empty() && k.get(0).is_none());
        for s in ["1|", "", "10|h3s", "", "ü|x"] {
            k.push(s);
        }
        assert_eq!((k.len(), k.is_empty()), (5, false));
        assert_eq!((k.get(0), k.get(1), k.get(5)), (Some("1|"), Some(""), None));
        assert_eq!((&k[2], &k[3], &k[4]), ("10|h3s", "", "ü|x"));
        assert_eq!(k.iter().collect::<Vec<_>>(), ["1|", "", "10|h3s", "", "ü|x"]);
        assert_eq!(k.iter().next_back(), Some("ü|x"));
        assert_eq!(k.to_vec(), ["1|", "", "10|h3s", "", "ü|x"]);
        assert_eq!(format!("{k:?}"), r#"["1|", "", "10|h3s", "", "ü|x"]"#);
        assert_eq!(k.memory_bytes(), 12 + 5 * 4);
    }

    #[test]
    fn equal_when_their_keys_are_equal() {
        let a: KeyList = ["ab", "c"].into_iter().collect();
        assert_eq!(a, KeyList::from_iter(vec!["ab".to_string(), "c".to_string()]));
        assert_ne!(a, ["a", "bc"].into_iter().collect());
        assert_ne!(a, ["ab", "c", ""].into_iter().collect());
        assert_eq!(KeyList::new(), KeyList::with_capacity(3, 10));
        assert_ne!(KeyList::new(), [""].into_iter().collect());
    }

    #[test]
    fn extends_from_lists_and_strings() {
        let mut a: KeyList = ["x", ""].into_iter().collect();
        let b: KeyList = ["yz", "", "w"].into_iter().collect();
        a.extend_from_list(&b);
        a.extend_from_list(&KeyList::new());
        a.extend(["v"]);
        assert_eq!(a, ["x", "", "yz", "", "w", "v"].into_iter().collect());
        let mut e = KeyList::new();
        e.extend_from_list(&b);
        assert_eq!(e, b);
        assert_eq!(a.iter().map(str::len).sum::<usize>(), 5);
    }

    #[test]
    #[should_panic(expected = "out of range")]
    fn indexing_past_the_end_panics() {
        let k: KeyList = ["a"].into_iter().collect();
        let _ = &k[1];
    }
}
