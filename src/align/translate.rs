//! Translations: passages of a draft translated from a source in the other language (English
//! and Russian), found by carrying the draft's words into the source's vocabulary and aligning
//! what results as a rewrite.
//!
//! A translation keeps no word of its source (but numbers, and names spelled alike), so neither
//! shingles nor sentence seeds meet it. Through a bilingual table ([`crate::bilingual`]) each draft content word has
//! a few possible translations; against one source, each word becomes the translation that the
//! source uses most ([`in_source_words`]: the source picks the sense, as a reader of both texts
//! would), or stays itself when the source holds it as it is or holds none of its translations.
//! The result is a draft in the source's words where a translator put them, which
//! [`super::rewrite`] aligns sentence by sentence like any reworded passage: seeds need a share
//! of each sentence's words, chains need sentences in order, passages need
//! [`RewriteOptions::min_words`] on each side. A translation follows its source sentence by
//! sentence, which is what tells it from a text on the same topic in the other language: that one
//! shares the topic's words (translated), not a sequence of sentences each with its own facts.
//!
//! Guarantees: only the draft's full hashes are looked up; the source is read as folded words,
//! so a source's record aligns as its text does. A source of the draft's own language gives
//! nothing here (at most a chance word of 65,536 folded values has a translation in it, far
//! under [`MIN_TRANSLATED_SHARE`]), so for it the step costs the counting and the carrying
//! below, never an alignment.
//! Cost, for every source when a table is given: O(source words · log) to sort and count the
//! source's terms, O(draft words · translations · log) to carry the draft over, then one rewrite
//! alignment when the source is in the other language.

use super::rewrite::{rewrites, RewriteOptions};
use super::seeds::Match;
use super::words::Words;

/// A draft is read as a translation of a source only when at least this share of its content
/// words, in percent, have a translation in the source (and not themselves): a text in the
/// source's own language has almost none, and a passage translated from it most of its words.
pub const MIN_TRANSLATED_SHARE: usize = 20;

/// A draft sentence's lookups draw on each word's this many most certain translations: a word's
/// rarer senses would fill the sentence's smallest words with words no translator chose.
/// Chosen on the tuning set (docs/EVALUATION.md, "Translated reuse").
pub const LOOKUP_TRANSLATIONS: usize = 1;

/// The draft's content words' translations, looked up once per draft however many sources it
/// is compared with: word `i` may become any of `values[at[i]..at[i + 1]]` (folded).
#[derive(Debug, Clone, Default)]
pub struct DraftTranslations {
    at: Vec<u32>,
    values: Vec<u16>,
}

impl DraftTranslations {
    /// Looks up every content word of the draft (`hashes`: its full hashes, in order) in
    /// `table` (a word's folded translations, most certain first: [`Bilingual::translations`]).
    ///
    /// [`Bilingual::translations`]: crate::bilingual::Bilingual::translations
    pub fn new<'t>(hashes: &[u32], table: impl Fn(u32) -> &'t [u16]) -> DraftTranslations {
        let mut t = DraftTranslations {
            at: Vec::with_capacity(hashes.len() + 1),
            values: Vec::new(),
        };
        t.at.push(0);
        for &h in hashes {
            t.values.extend_from_slice(table(h));
            t.at.push(t.values.len() as u32);
        }
        t
    }

    /// Whether no word of the draft has a translation.
    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }

    fn of(&self, i: usize) -> &[u16] {
        &self.values[self.at[i] as usize..self.at[i + 1] as usize]
    }

    /// The sentence keys a source of this draft in the other language may hold
    /// ([`crate::sentences::translated_keys_in_order`] of each sentence's possible words: every
    /// word's translations, and the word itself for names and numbers), sorted and distinct,
    /// each with the number of the first sentence it is a key of. `draft` is the draft these
    /// translations were looked up for.
    pub fn lookups(&self, draft: &Words) -> (Vec<u32>, Vec<u32>) {
        if self.at.len() != draft.hashes.len() + 1 {
            return Default::default();
        }
        let sets: Vec<Vec<u32>> = crate::sentences::ranges(&draft.sentences, draft.hashes.len())
            .into_iter()
            .map(|r| {
                let mut set = Vec::new();
                for i in r {
                    set.push(draft.hashes[i]);
                    let options = self.of(i);
                    let likely = &options[..options.len().min(LOOKUP_TRANSLATIONS)];
                    set.extend(likely.iter().map(|&t| u32::from(t)));
                }
                set
            })
            .collect();
        let mut keys = crate::sentences::translated_keys_in_order(&sets);
        keys.sort_unstable();
        keys.dedup_by_key(|&mut (key, _)| key);
        keys.into_iter().unzip()
    }
}

/// `draft` carried into `source`'s words (folded, as [`Words::hashes`]): each word becomes its
/// translation that `source` holds most often (the more certain on a tie), or stays itself when
/// `source` holds it or none of its translations. `None` when fewer than
/// [`MIN_TRANSLATED_SHARE`] percent of the draft's words were translated: `source` is not in
/// the other language, or shares too little with the draft to be its original.
pub fn in_source_words(
    draft: &Words,
    translations: &DraftTranslations,
    source: &Words,
) -> Option<Words> {
    let n = draft.hashes.len();
    if translations.is_empty() || translations.at.len() != n + 1 || n == 0 {
        return None;
    }
    let mut held: Vec<u32> = source.hashes.clone();
    held.sort_unstable();
    let count = |w: u32| {
        let from = held.partition_point(|&h| h < w);
        held[from..].partition_point(|&h| h == w)
    };
    let mut hashes = draft.hashes.clone();
    let mut translated = 0usize;
    for (i, word) in hashes.iter_mut().enumerate() {
        let options = translations.of(i);
        if options.is_empty() || count(*word) > 0 {
            continue;
        }
        // The most used in the source; on a tie the more certain (earlier) translation.
        let mut best = (0, 0);
        for &t in options {
            let c = count(u32::from(t));
            if c > best.0 {
                best = (c, t);
            }
        }
        if best.0 > 0 {
            *word = u32::from(best.1);
            translated += 1;
        }
    }
    if translated * 100 < n * MIN_TRANSLATED_SHARE {
        return None;
    }
    Some(Words {
        hashes,
        shingles: Vec::new(),
        sentences: draft.sentences.clone(),
    })
}

/// The passages of `draft` translated from `source` ([`rewrites`] of the draft in the source's
/// words), with the draft in the source's words they were found in (what
/// [`super::rewrite::rewritten`] reads to say which sentences show as translated); `None` when
/// the source is not in the other language ([`in_source_words`]).
pub fn translations(
    draft: &Words,
    translations: &DraftTranslations,
    source: &Words,
    opts: &RewriteOptions,
) -> Option<(Words, Vec<Match>)> {
    let carried = in_source_words(draft, translations, source)?;
    let found = rewrites(&carried, source, opts);
    Some((carried, found))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_source_picks_the_sense_and_own_words_stay() {
        // Draft words 1, 2, 3, 4 (full hashes); 1 translates to 11 or 12, 2 to 21, 3 to 31.
        let table = |h: u32| -> &'static [u16] {
            match h {
                1 => &[11, 12],
                2 => &[21],
                3 => &[31],
                _ => &[],
            }
        };
        let draft = Words::from_hashes(&[1, 2, 3, 4], 4);
        let t = DraftTranslations::new(&[1, 2, 3, 4], table);
        // The source uses 12 twice and 11 once, holds 3 itself and not 31; 4 has no translation.
        let source = Words::from_hashes(&[12, 11, 12, 21, 3], 4);
        let carried = in_source_words(&draft, &t, &source).unwrap();
        assert_eq!(carried.hashes, vec![12, 21, 3, 4]);
        // A source of the draft's language: nothing translated.
        let same = Words::from_hashes(&[1, 2, 3, 4, 5], 4);
        assert!(in_source_words(&draft, &t, &same).is_none());
    }
}
