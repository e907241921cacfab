//! The inverted lists of the in-memory index: key → the documents that hold it, in the order they
//! were added, each document once per key.
//!
//! Most keys are in one document only (89 % of the 5.3 million fingerprint keys of 100,000
//! newsgroup posts), so a key's single document is stored in the hash table itself, and only keys
//! in two or more documents get a list of their own. A key then costs 8 bytes of table instead of a
//! `Vec` header and a heap allocation: the index of 100,000 posts takes about a quarter of the
//! memory, and a lookup reads one table slot instead of following a pointer.
//!
//! Guarantees: [`Postings::get`] returns exactly the documents [`Postings::push`]ed for a key, in
//! push order, without repeats of consecutive pushes (a document is added whole before the next,
//! so that is every repeat); document ids are below 2^31.

use crate::hash::PrehashedMap;
use std::hash::Hash;

/// The table value's top bit: set when the rest is an index into `lists`, clear when it is the
/// key's only document.
const LIST: u32 = 1 << 31;

/// Key → documents, compact when a key has one document.
#[derive(Debug, Clone)]
pub(crate) struct Postings<K> {
    table: PrehashedMap<K, u32>,
    lists: Vec<Vec<u32>>,
}

impl<K> Default for Postings<K> {
    fn default() -> Self {
        Postings {
            table: PrehashedMap::default(),
            lists: Vec::new(),
        }
    }
}

impl<K: Hash + Eq> Postings<K> {
    /// Records that document `doc` (below 2^31) holds `key`; pushing the same pair twice in a row
    /// records it once.
    pub(crate) fn push(&mut self, key: K, doc: u32) {
        assert!(
            doc < LIST,
            "the in-memory index holds at most 2^31 documents"
        );
        match self.table.entry(key) {
            std::collections::hash_map::Entry::Vacant(v) => {
                v.insert(doc);
            }
            std::collections::hash_map::Entry::Occupied(mut o) => {
                let value = *o.get();
                if value & LIST != 0 {
                    let list = &mut self.lists[(value & !LIST) as usize];
                    if list.last() != Some(&doc) {
                        list.push(doc);
                    }
                } else if value != doc {
                    let at = u32::try_from(self.lists.len())
                        .ok()
                        .filter(|&i| i < LIST)
                        .expect("fewer than 2^31 shared keys");
                    self.lists.push(vec![value, doc]);
                    o.insert(LIST | at);
                }
            }
        }
    }

    /// The documents holding `key`, in the order they were pushed; empty for an unknown key.
    pub(crate) fn get(&self, key: &K) -> &[u32] {
        match self.table.get(key) {
            None => &[],
            Some(value) if value & LIST != 0 => &self.lists[(value & !LIST) as usize],
            Some(doc) => std::slice::from_ref(doc),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use std::collections::HashMap;

    #[test]
    fn one_document_then_a_list_and_repeats_once() {
        let mut p = Postings::default();
        assert!(p.get(&7u32).is_empty());
        p.push(7u32, 3);
        p.push(7, 3);
        assert_eq!(p.get(&7), [3]);
        p.push(7, 5);
        p.push(7, 5);
        p.push(7, 9);
        assert_eq!(p.get(&7), [3, 5, 9]);
        assert!(p.get(&8).is_empty());
    }

    #[test]
    fn the_largest_document_id_is_kept_apart_from_list_indexes() {
        let mut p = Postings::default();
        p.push(1u64, LIST - 1);
        p.push(2, 0);
        p.push(2, 1);
        assert_eq!(p.get(&1), [LIST - 1]);
        assert_eq!(p.get(&2), [0, 1]);
    }

    proptest! {
        /// Documents are added one after another, each with any keys (repeats included): the
        /// index answers as a plain map of lists would.
        #[test]
        fn answers_as_a_map_of_lists(docs in prop::collection::vec(prop::collection::vec(0u16..64, 0..20), 0..40)) {
            let mut p = Postings::default();
            let mut model: HashMap<u16, Vec<u32>> = HashMap::new();
            for (d, keys) in docs.iter().enumerate() {
                for &k in keys {
                    p.push(k, d as u32);
                    let list = model.entry(k).or_default();
                    if list.last() != Some(&(d as u32)) {
                        list.push(d as u32);
                    }
                }
            }
            for k in 0..64u16 {
                prop_assert_eq!(p.get(&k), model.get(&k).map_or(&[][..], Vec::as_slice));
            }
        }
    }
}
