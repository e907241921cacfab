//! Replacing words by thesaurus synonyms, in the word's form where the synonym's paradigm allows
//! (the `synonyms` and `heavy` rewrites).

use super::rng::Rng;
use super::words::{capitalize, join, tokens};
use crate::thesaurus::{key, Entry};
use serde::Serialize;
use std::collections::HashMap;

/// Replaces words by thesaurus synonyms.
#[derive(Debug, Clone, Default)]
pub struct Synonymizer {
    /// Key → (lemma, its one-word synonyms), for the lemmas with that key.
    by_key: HashMap<u32, Vec<(String, Vec<String>)>>,
}

/// Rewriting statistics of a synonymizer pass.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct SynonymCounts {
    /// Content words seen.
    pub words: usize,
    /// Of which the thesaurus knows.
    pub known: usize,
    /// Replaced.
    pub replaced: usize,
    /// Replaced with the word's ending carried over (the rest: the synonym's base form).
    pub inflected: usize,
}

impl Synonymizer {
    /// From the Russian thesaurus' lines (antonym and related-term lines skipped).
    pub fn new(entries: &[Entry]) -> Synonymizer {
        let mut lemmas: HashMap<String, Vec<String>> = HashMap::new();
        for e in entries.iter().filter(|e| e.is_synonymy()) {
            let head = e.headword.to_lowercase().replace('ё', "е");
            if head.is_empty() || key(&head).is_none() {
                continue;
            }
            let list = lemmas.entry(head.clone()).or_default();
            for m in &e.members {
                let m = m.replace('ё', "е");
                if m.split_whitespace().count() == 1
                    && m.chars().all(|c| c.is_alphabetic() || c == '-')
                    && key(&m).is_some_and(|k| Some(k) != key(&head))
                    && !list.contains(&m)
                {
                    list.push(m);
                }
            }
        }
        let mut names: Vec<(String, Vec<String>)> =
            lemmas.into_iter().filter(|(_, s)| !s.is_empty()).collect();
        names.sort();
        let mut by_key: HashMap<u32, Vec<(String, Vec<String>)>> = HashMap::new();
        for (lemma, syns) in names {
            if let Some(k) = key(&lemma) {
                by_key.entry(k).or_default().push((lemma, syns));
            }
        }
        Synonymizer { by_key }
    }

    /// Lemmas known.
    pub fn len(&self) -> usize {
        self.by_key.values().map(Vec::len).sum()
    }

    /// No lemma known.
    pub fn is_empty(&self) -> bool {
        self.by_key.is_empty()
    }

    /// Whether the thesaurus has a synonym for `word`.
    pub fn knows(&self, word: &str) -> bool {
        word.chars().all(char::is_alphabetic)
            && key(word).is_some_and(|k| self.by_key.contains_key(&k))
    }

    /// A synonym of `word` in the same form where the trick works: when the word is its lemma's
    /// stem plus an ending, and the synonym ends as the lemma does, the synonym's stem takes
    /// the word's ending («сообщили»: сообщить → известить → «известили»); otherwise the
    /// synonym's base form. `None`: the thesaurus does not know the word. The second value says
    /// whether the ending was carried over.
    pub fn replace(&self, word: &str, rng: &mut Rng) -> Option<(String, bool)> {
        if !word.chars().all(char::is_alphabetic) {
            return None;
        }
        let k = key(word)?;
        let lemmas = self.by_key.get(&k)?;
        let low = word.to_lowercase().replace('ё', "е");
        // The lemma that shares the longest beginning with the word.
        let common =
            |a: &str, b: &str| a.chars().zip(b.chars()).take_while(|(x, y)| x == y).count();
        let (lemma, syns) = lemmas
            .iter()
            .max_by_key(|(l, _)| (common(l, &low), std::cmp::Reverse(l.len())))?;
        let syn = &syns[rng.below(syns.len())];
        let stem = common(lemma, &low);
        let lemma_end: String = lemma.chars().skip(stem).collect();
        let word_end: String = low.chars().skip(stem).collect();
        // A lemma with no ending (a masculine noun: «протест») only lends its endings to a
        // synonym that has none either, one ending in a hard consonant.
        let same_paradigm = if lemma_end.is_empty() {
            syn.chars()
                .last()
                .is_some_and(|c| "бвгджзклмнпрстфхцчшщ".contains(c))
        } else {
            syn.ends_with(&lemma_end)
        };
        let (mut out, inflected) = if stem >= 2
            && lemma_end != word_end
            && same_paradigm
            && syn.chars().count() > lemma_end.chars().count() + 1
        {
            let base = &syn[..syn.len() - lemma_end.len()];
            (format!("{base}{word_end}"), true)
        } else {
            (syn.clone(), false)
        };
        if word.chars().next().is_some_and(char::is_uppercase) {
            out = capitalize(&out);
        }
        Some((out, inflected))
    }

    /// `sentence` with each known word replaced with probability `share`.
    pub fn rewrite(
        &self,
        sentence: &str,
        share: f64,
        rng: &mut Rng,
        counts: &mut SynonymCounts,
    ) -> String {
        let mut toks = tokens(sentence);
        for t in &mut toks {
            if key(&t.core).is_none() {
                continue;
            }
            counts.words += 1;
            if !self.knows(&t.core) {
                continue;
            }
            counts.known += 1;
            if rng.chance(share) {
                if let Some((w, inflected)) = self.replace(&t.core, rng) {
                    t.core = w;
                    counts.replaced += 1;
                    counts.inflected += usize::from(inflected);
                }
            }
        }
        join(&toks)
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;

    /// A synonymizer from a few thesaurus lines (the pairs tests use it too).
    pub(in crate::rewrites) fn synonymizer() -> Synonymizer {
        Synonymizer::new(&crate::thesaurus::read_ru(
            "h\tl\ts\nсообщить\t(синоним)\tизвестить|уведомить\nпротест\t(синоним)\tнесогласие\n\
             участник\t(синоним)\tсоучастник\nучастник\t(антоним)\tзритель\n",
        ))
    }

    #[test]
    fn synonyms_keep_the_ending_where_they_can() {
        let s = synonymizer();
        let mut rng = Rng::new(1, "x");
        let (w, inflected) = s.replace("Сообщили", &mut rng).unwrap();
        assert!(["Известили", "Уведомили"].contains(&w.as_str()), "{w}");
        assert!(inflected);
        assert_eq!(
            s.replace("протеста", &mut rng),
            Some(("несогласие".into(), false))
        );
        assert_eq!(s.replace("зритель", &mut rng), None);
        let mut c = SynonymCounts::default();
        let out = s.rewrite(
            "Участники акции протеста, как сообщили.",
            1.0,
            &mut rng,
            &mut c,
        );
        assert!(out.starts_with("Соучастники акции несогласие,"), "{out}");
        assert_eq!((c.known, c.replaced), (3, 3));
    }
}
