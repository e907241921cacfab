//! Rewrite detection: the fast path against the reference, clustering, passages.

use super::*;
use proptest::prelude::*;

/// Words from a few terms (so sentences share some), sentences of 3 to 12 words.
fn text() -> impl Strategy<Value = (Vec<u32>, Vec<u32>)> {
    prop::collection::vec(
        (prop::collection::vec(0u32..40, 3..12), any::<bool>()),
        1..12,
    )
    .prop_map(|sentences| {
        let (mut words, mut starts) = (Vec::new(), Vec::new());
        for (s, _) in sentences {
            starts.push(words.len() as u32);
            words.extend(s);
        }
        (words, starts)
    })
}

proptest! {
    /// Terms from 2^16 on (not folded) are numbered by binary search instead of the dense
    /// table: the passages are those of the same texts with their terms below 2^16, in the
    /// same order.
    #[test]
    fn large_terms_find_the_same_passages((dw, ds) in text(), (sw, ss) in text()) {
        let words = |w: &[u32], s: &[u32], shift: u32| Words {
            hashes: w.iter().map(|&h| h * 1000 + shift).collect(),
            shingles: Vec::new(),
            sentences: s.to_vec(),
        };
        let opts = RewriteOptions { min_words: 3, ..Default::default() };
        let small = rewrites(&words(&dw, &ds, 7), &words(&sw, &ss, 7), &opts);
        let large = rewrites(&words(&dw, &ds, 1 << 20), &words(&sw, &ss, 1 << 20), &opts);
        prop_assert_eq!(small, large);
    }
}

proptest! {
    /// The draft prepared once per check finds the passages of `rewrites_of`, also for a
    /// source that repeats terms in more than MAX_SENTENCES_PER_TERM sentences; with few
    /// terms, sentences share enough of them to seed.
    #[test]
    fn a_prepared_draft_finds_the_passages_of_rewrites_of(
        (dw, ds) in text(),
        (sw, ss) in text(),
        repeat in 1usize..12,
        min_words in 3usize..25,
    ) {
        let words = |w: &[u32], s: &[u32]| Words {
            hashes: w.iter().map(|&h| h * 1543 % 65_536).collect(),
            shingles: Vec::new(),
            sentences: s.to_vec(),
        };
        // The source repeated, so that some of its terms are in many sentences.
        let (mut rw, mut rs) = (Vec::new(), Vec::new());
        for _ in 0..repeat {
            rs.extend(ss.iter().map(|&x| x + rw.len() as u32));
            rw.extend_from_slice(&sw);
        }
        let opts = RewriteOptions { min_words, ..Default::default() };
        let draft = words(&dw, &ds);
        let prepared = DraftSentences::new(&draft);
        for source in [words(&sw, &ss), words(&rw, &rs), draft.clone()] {
            let expected = rewrites(&draft, &source, &opts);
            prop_assert_eq!(prepared.rewrites(&source, &opts), expected);
        }
    }
}

/// A long source with many distinct terms finds what [`rewrites`] finds.
#[test]
fn a_source_of_many_terms_finds_the_passages_of_rewrites_of() {
    let folded = |t: u32| t * 1543 % 65_536;
    // The draft: 30 sentences of 10 distinct terms.
    let (mut dw, mut ds) = (Vec::new(), Vec::new());
    for k in 0..30u32 {
        ds.push(dw.len() as u32);
        dw.extend((0..10).map(|i| folded(10 * k + i)));
    }
    // The source: 200 sentences, of new terms but for the draft's sentences in the middle
    // in the other order, two words of each replaced.
    let (mut sw, mut ss) = (Vec::new(), Vec::new());
    for k in 0..200u32 {
        ss.push(sw.len() as u32);
        if (100..130).contains(&k) {
            let d = 129 - k;
            sw.extend((0..10).map(|i| {
                if i % 4 == 1 {
                    folded(20_000 + 10 * d + i)
                } else {
                    folded(10 * d + i)
                }
            }));
        } else {
            sw.extend((0..9).map(|i| folded(1_000 + 9 * k + i)));
        }
    }
    let words = |w: Vec<u32>, s: Vec<u32>| Words {
        hashes: w,
        shingles: Vec::new(),
        sentences: s,
    };
    let (draft, source) = (words(dw, ds), words(sw, ss));
    let opts = RewriteOptions::default();
    let expected = rewrites(&draft, &source, &opts);
    assert!(!expected.is_empty());
    assert_eq!(
        DraftSentences::new(&draft).rewrites(&source, &opts),
        expected
    );
}

#[test]
fn large_terms_find_a_reordered_text() {
    let words = (0..40u32).map(|i| (i % 13) << 20 | i).collect::<Vec<_>>();
    let mut reordered = words[20..].to_vec();
    reordered.extend_from_slice(&words[..20]);
    let text = |w: Vec<u32>| Words {
        hashes: w,
        shingles: Vec::new(),
        sentences: vec![0, 5, 10, 15, 20, 25, 30, 35],
    };
    let found = rewrites(&text(reordered), &text(words), &RewriteOptions::default());
    assert!(!found.is_empty());
}

fn m(d: Range<usize>, s: Range<usize>) -> Match {
    Match {
        draft: d,
        source: s,
        seeds: 1,
    }
}

#[test]
fn passages_widen_the_copies_they_meet_and_stand_alone_elsewhere() {
    let copies = vec![m(10..20, 100..110)];
    let passages = [m(5..30, 95..130), m(40..60, 200..220), m(12..18, 500..506)];
    let all = combine(copies, &passages);
    let spans: Vec<_> = all
        .iter()
        .map(|d| (d.draft.clone(), d.source.clone()))
        .collect();
    // The second overlaps the first's draft side only: the longer of the two stays.
    assert_eq!(spans, vec![(5..30, 95..130), (40..60, 200..220)]);
}

#[test]
fn clusters_split_on_both_sides() {
    let seeds = vec![(0, 0), (1, 1), (2, 30), (10, 2)];
    let mut parts = cluster(seeds, 4, 0, true);
    parts.sort();
    assert_eq!(
        parts,
        vec![vec![(0, 0), (1, 1)], vec![(2, 30)], vec![(10, 2)]]
    );
}

/// Weak pairs count only in order: four of them one sentence apart on both sides are a chain;
/// the same pairs out of order, or with a step over `chain_step`, are not.
#[test]
fn weak_pairs_are_seeds_only_on_a_chain_in_order() {
    let opts = RewriteOptions::default();
    assert_eq!((opts.chain, opts.chain_step), (4, 2));
    let in_order = vec![(0, 0), (1, 1), (3, 2), (4, 4)];
    assert_eq!(chained(&[], in_order.clone(), &opts), in_order);
    // A seed is a link of the chain, never one of the weak pairs returned.
    assert_eq!(
        chained(&[(1, 1)], vec![(0, 0), (3, 2), (4, 4)], &opts),
        vec![(0, 0), (3, 2), (4, 4)]
    );
    let shuffled = vec![(0, 3), (1, 0), (2, 4), (3, 1)];
    assert!(chained(&[], shuffled, &opts).is_empty());
    let far = vec![(0, 0), (1, 1), (2, 5), (3, 6)];
    assert!(chained(&[], far, &opts).is_empty());
    let off = RewriteOptions { chain: 0, ..opts };
    assert!(chained(&[], in_order, &off).is_empty());
}
