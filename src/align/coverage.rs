//! Word coverage: which positions of a text are already covered by stronger matches.
//!
//! Used to resolve overlapping detections (a passage the source repeats): covering a range and
//! counting the covered positions in a range both cost O(log len) amortized, so resolving d
//! detections over a draft of w words costs O((d + w) log w) instead of O(d · w).

use std::ops::Range;

/// Which of `0..len` are covered: cover a range, count the covered in a range, both in
/// O(log len) amortized (each position is covered once: a Fenwick tree of covered positions and a
/// skip list of the next uncovered one).
pub(crate) struct Coverage {
    tree: Vec<u32>,
    next: Vec<u32>,
}

impl Coverage {
    pub(crate) fn new(len: usize) -> Self {
        Coverage {
            tree: vec![0; len + 1],
            next: (0..=len as u32).collect(),
        }
    }

    /// The first uncovered position at or after `i` (`len` if none), shortening paths on the way.
    fn uncovered(&mut self, mut i: usize) -> usize {
        let mut root = i;
        while self.next[root] as usize != root {
            root = self.next[root] as usize;
        }
        while self.next[i] as usize != root {
            let up = self.next[i] as usize;
            self.next[i] = root as u32;
            i = up;
        }
        root
    }

    pub(crate) fn cover(&mut self, r: Range<usize>) {
        let mut i = self.uncovered(r.start);
        while i < r.end {
            let mut t = i + 1;
            while t < self.tree.len() {
                self.tree[t] += 1;
                t += t & t.wrapping_neg();
            }
            self.next[i] = i as u32 + 1;
            i = self.uncovered(i + 1);
        }
    }

    fn prefix(&self, mut i: usize) -> usize {
        let mut sum = 0;
        while i > 0 {
            sum += self.tree[i] as usize;
            i &= i - 1;
        }
        sum
    }

    pub(crate) fn count(&self, r: Range<usize>) -> usize {
        self.prefix(r.end) - self.prefix(r.start)
    }
}

#[cfg(test)]
mod tests {
    use super::Coverage;
    use proptest::prelude::*;

    proptest! {
        /// Coverage answers as a plain array of flags would, whatever the order of ranges.
        #[test]
        fn coverage_counts_like_flags(ops in prop::collection::vec((0usize..200, 0usize..60, any::<bool>()), 1..60)) {
            let mut covered = Coverage::new(200);
            let mut flags = [false; 200];
            for (start, len, cover) in ops {
                let r = start..(start + len).min(200);
                if cover {
                    covered.cover(r.clone());
                    flags[r].iter_mut().for_each(|f| *f = true);
                } else {
                    let expected = flags[r.clone()].iter().filter(|&&f| f).count();
                    prop_assert_eq!(covered.count(r), expected);
                }
            }
        }
    }
}
