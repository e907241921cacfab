//! Text statistics copywriters compare between services: "water" (вода) and "nausea" (тошнота),
//! with the words behind each figure.
//!
//! Definitions (the ones Advego publishes, which text.ru and most Russian services follow):
//! - **Water**: the share of stop words (prepositions, conjunctions, pronouns, particles…) among
//!   all words, in percent: `100 × (1 − content words / all words)`. The stop words are the
//!   engine's own lists (Russian and English), the ones the check itself drops.
//! - **Classic nausea**: the square root of how many times the most frequent content word occurs.
//!   "Word" means the word's canonical form, stem included, so `сковорода`, `сковороды` and
//!   `сковороду` are one word, as Advego counts word forms of one lemma together.
//! - **Academic nausea**: the share of the text, in percent of all words, taken by its most
//!   frequent content words: the occurrences of the [`TOP_WORDS`] most frequent content words
//!   that occur at least twice, over all words. A text that repeats its key words a lot has a high
//!   academic nausea (Advego's guidance: 7–9 % reads naturally, above 10–12 % reads as spam).
//!
//! Guarantees: no panic for any text; figures are finite (0 for a text without words); lists are
//! ordered by count (descending), ties by first occurrence, and each word is shown as it is first
//! written in the text (lowercased, invisible characters and inline markup removed).

use serde::Serialize;

use crate::canonicalize::{is_ignorable, Canonical, Format};
use crate::hash::PrehashedMap;

/// How many words the lists hold, and how many most frequent words academic nausea counts.
pub const TOP_WORDS: usize = 10;

/// One word of a list and how many times it occurs (all its forms together).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct WordCount {
    /// The word as first written in the text, lowercased.
    pub word: String,
    /// Occurrences in the text.
    pub count: u32,
}

/// Water and nausea of one text, and the words behind them.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TextStats {
    /// All words, stop words included.
    pub words: u32,
    /// Content words (not stop words).
    pub content_words: u32,
    /// Share of stop words among all words, percent (0..=100).
    pub water: f64,
    /// √ (occurrences of the most frequent content word).
    pub nausea_classic: f64,
    /// Occurrences of the most frequent content words over all words, percent (0..=100).
    pub nausea_academic: f64,
    /// The most frequent content words (at most [`TOP_WORDS`]), those academic nausea counts
    /// when they occur at least twice.
    pub top_words: Vec<WordCount>,
    /// The most frequent stop words (at most [`TOP_WORDS`]): the "water".
    pub water_words: Vec<WordCount>,
}

impl TextStats {
    /// The statistics of `text`, canonicalized as `canonical` (whose spans are offsets in `text`,
    /// written in `format`).
    pub fn of(text: &str, format: Format, canonical: &Canonical) -> TextStats {
        let words = canonical.words.len() as u32;
        let content_words = canonical.content.len() as u32;
        // One counter per canonical form, remembering where the form was first seen.
        // Keyed by CRC32s, which need no SipHash (the lists below are ordered, not the maps).
        // Sized for every word from the start: growing them rehashed every form several times.
        let mut content: PrehashedMap<u32, (u32, usize)> =
            PrehashedMap::with_capacity_and_hasher(content_words as usize, Default::default());
        let mut stop: PrehashedMap<u32, (u32, usize)> = PrehashedMap::with_capacity_and_hasher(
            (words - content_words) as usize,
            Default::default(),
        );
        for (i, w) in canonical.words.iter().enumerate() {
            let table = if w.stop { &mut stop } else { &mut content };
            table.entry(w.hash).or_insert((0, i)).0 += 1;
        }
        let top = |table: PrehashedMap<u32, (u32, usize)>| -> Vec<(u32, usize)> {
            let mut all: Vec<(u32, usize)> = table.into_values().collect();
            // A total order (first occurrences differ): the first TOP_WORDS after selecting them
            // are those a whole sort puts first, and only they are sorted.
            let order = |a: &(u32, usize), b: &(u32, usize)| b.0.cmp(&a.0).then(a.1.cmp(&b.1));
            if all.len() > TOP_WORDS {
                all.select_nth_unstable_by(TOP_WORDS, order);
                all.truncate(TOP_WORDS);
            }
            all.sort_unstable_by(order);
            all
        };
        let top_content = top(content);
        let top_stop = top(stop);
        let repeated: u32 = top_content
            .iter()
            .filter(|(count, _)| *count >= 2)
            .map(|(count, _)| count)
            .sum();
        let percent = |part: u32| {
            if words == 0 {
                0.0
            } else {
                100.0 * f64::from(part) / f64::from(words)
            }
        };
        let list = |top: Vec<(u32, usize)>| -> Vec<WordCount> {
            top.into_iter()
                .map(|(count, i)| {
                    let w = &canonical.words[i];
                    WordCount {
                        word: surface(&text[w.start as usize..w.end as usize], format),
                        count,
                    }
                })
                .collect()
        };
        TextStats {
            words,
            content_words,
            water: percent(words - content_words),
            nausea_classic: top_content
                .first()
                .map_or(0.0, |(count, _)| f64::from(*count).sqrt()),
            nausea_academic: percent(repeated),
            top_words: list(top_content),
            water_words: list(top_stop),
        }
    }
}

/// A word as the reader sees it: lowercased, without invisible characters and (in HTML) without
/// the inline tags inside it.
fn surface(span: &str, format: Format) -> String {
    let mut out = String::with_capacity(span.len());
    let mut in_tag = false;
    for c in span.chars() {
        match c {
            '<' if format == Format::Html => in_tag = true,
            '>' if in_tag => in_tag = false,
            _ if in_tag || is_ignorable(c) => {}
            _ => out.extend(c.to_lowercase()),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::canonicalize::{canonicalize, CanonOptions};
    use proptest::prelude::*;

    const OPTS: CanonOptions = CanonOptions {
        stop_words: true,
        stemming: true,
    };

    fn stats(text: &str) -> TextStats {
        TextStats::of(
            text,
            Format::Plain,
            &canonicalize(text, Format::Plain, OPTS),
        )
    }

    fn words(list: &[WordCount]) -> Vec<(&str, u32)> {
        list.iter().map(|w| (w.word.as_str(), w.count)).collect()
    }

    #[test]
    fn classic_nausea_is_the_root_of_the_top_lemma_count() {
        // Four forms of one lemma: one word four times, whatever the case ending.
        let s = stats("Сковорода на столе. Сковороды нет. Сковороду купили, и сковородой жарим.");
        assert_eq!(words(&s.top_words)[0], ("сковорода", 4));
        assert!(
            (s.nausea_classic - 2.0).abs() < 1e-12,
            "{}",
            s.nausea_classic
        );
    }

    #[test]
    fn water_is_the_share_of_stop_words_and_lists_them() {
        // 11 words, 4 of them stop words ("и" twice, "на", "в").
        let s = stats("Кот и пёс спят на диване, и мыши бегают в кухне.");
        assert_eq!((s.words, s.content_words), (11, 7));
        assert!((s.water - 400.0 / 11.0).abs() < 1e-9, "{}", s.water);
        assert_eq!(words(&s.water_words), [("и", 2), ("на", 1), ("в", 1)]);
    }

    #[test]
    fn academic_nausea_counts_the_repeated_top_words_over_all_words() {
        // 12 words: "text" 3 times, "check" 2 times, the others once.
        let s = stats("Text check text. Check the text quickly, then sleep well, eat lunch.");
        assert_eq!(s.words, 12);
        assert_eq!(words(&s.top_words)[..2], [("text", 3), ("check", 2)]);
        let expected = 100.0 * 5.0 / 12.0;
        assert!(
            (s.nausea_academic - expected).abs() < 1e-9,
            "{}",
            s.nausea_academic
        );
        assert!((s.nausea_classic - 3f64.sqrt()).abs() < 1e-12);
    }

    #[test]
    fn lists_keep_the_top_ten_by_count_then_first_occurrence() {
        let text = "a1 b2 c3 d4 e5 f6 g7 h8 i9 j10 k11 l12 k11 l12 l12";
        let s = stats(text);
        assert_eq!(s.top_words.len(), TOP_WORDS);
        assert_eq!(
            words(&s.top_words)[..3],
            [("l12", 3), ("k11", 2), ("a1", 1)]
        );
        assert_eq!(s.top_words[9].word, "h8");
    }

    #[test]
    fn words_are_shown_as_written_without_hidden_characters_or_tags() {
        let text = "Сково\u{200B}рода <b>Ско</b>ворода";
        let s = TextStats::of(text, Format::Html, &canonicalize(text, Format::Html, OPTS));
        assert_eq!(words(&s.top_words), [("сковорода", 2)]);
    }

    #[test]
    fn a_text_without_words_has_zero_figures() {
        let s = stats("… — !");
        assert_eq!(
            (s.words, s.water, s.nausea_classic, s.nausea_academic),
            (0, 0.0, 0.0, 0.0)
        );
        assert!(s.top_words.is_empty() && s.water_words.is_empty());
    }

    proptest! {
        #[test]
        fn figures_stay_in_range(text in "\\PC{0,200}") {
            let s = stats(&text);
            prop_assert!((0.0..=100.0).contains(&s.water));
            prop_assert!((0.0..=100.0).contains(&s.nausea_academic));
            prop_assert!(s.nausea_classic.is_finite() && s.nausea_classic >= 0.0);
            prop_assert!(s.nausea_classic * s.nausea_classic <= f64::from(s.content_words) + 1e-9);
        }
    }
}
