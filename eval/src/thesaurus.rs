//! Synonym classes from thesauri, for [`uniqcheck::synonyms`]: which word stands for which.
//!
//! Input: the Russian thesaurus (LibreOffice's, AOT + Abramov; `ru_synonyms.tsv`: headword,
//! label, members) and Open English WordNet's synsets (`oewn_synsets.tsv`). Every member is put
//! through the engine's own canonicalization (stemming on, stop words marked), so a key is
//! exactly what a content word's hash is; members of several words, stop words and members that
//! are no word at all are left out.
//!
//! A **sense** is one group of synonyms: a synonym line of the Russian thesaurus with its
//! headword, or a WordNet synset. Antonym lines (`(антоним)`) and related-term lines
//! (`(связанный термин)`: «альтернатива» → «коллекция») are not senses.
//!
//! ## The rule: stars, one link deep
//!
//! Taking the connected components of "shares a sense with" glues the whole vocabulary together
//! through polysemous words («дело» is a synonym of «суд», «работа» and «спор»). Instead, the
//! words are visited from the most frequent down (frequency in a reference corpus, then the
//! number of senses, then the hash, so the order is total and the build deterministic):
//!
//! - a word not yet in a class becomes a **representative** (and its own class);
//! - it takes every word not yet in a class that shares a sense with it, **if it is in at least
//!   half of that word's senses**: a representative stands for a word only where it is its
//!   synonym in most of its meanings.
//!
//! So every class is a representative and some of its direct synonyms: no word is more than one
//! link from its representative and no chain of links joins two words; a polysemous word (in
//! many senses, each with other words) joins nobody and stays itself; representatives map to
//! themselves. The table maps each non-representative member to its representative.

use crate::{read_error, Result};
use std::collections::{HashMap, HashSet};
use std::path::Path;
use uniqcheck::canonicalize::{canonicalize, CanonOptions, Format};
use uniqcheck::synonyms::Synonyms;

/// The engine's canonicalization for keys: stemming on, stop words marked.
pub const KEY_OPTIONS: CanonOptions = CanonOptions {
    stop_words: true,
    stemming: true,
};

/// One line of a thesaurus.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// The headword (Russian), or empty (a WordNet synset has none).
    pub headword: String,
    /// The label: `(синоним)`, `(сходный термин)`, `(связанный термин)`, `(антоним)`; a WordNet
    /// synset's part of speech.
    pub label: String,
    /// The synonyms, as written (may hold several words).
    pub members: Vec<String>,
}

impl Entry {
    /// A synonym line: not an antonym (`(антоним)`) nor a related term (`(связанный термин)`).
    pub fn is_synonymy(&self) -> bool {
        !(self.label.contains("антоним") || self.label.contains("связанный"))
    }

    /// The headword (when there is one) and the members.
    pub fn words(&self) -> impl Iterator<Item = &str> {
        std::iter::once(self.headword.as_str())
            .filter(|h| !h.is_empty())
            .chain(self.members.iter().map(String::as_str))
    }
}

/// Reads `ru_synonyms.tsv` (header `headword, label, synonyms`; synonyms joined by `|`).
pub fn read_ru(text: &str) -> Vec<Entry> {
    text.lines()
        .skip(1)
        .filter_map(|l| {
            let mut f = l.split('\t');
            let (h, label, syn) = (f.next()?, f.next()?, f.next()?);
            Some(Entry {
                headword: h.trim().to_owned(),
                label: label.trim().to_owned(),
                members: syn
                    .split('|')
                    .map(|s| s.trim().to_owned())
                    .filter(|s| !s.is_empty())
                    .collect(),
            })
        })
        .collect()
}

/// Reads `oewn_synsets.tsv` (header `synset_id, pos, lexfile, ili, members`; members joined by
/// `|`, several-word lemmas with spaces or underscores).
pub fn read_en(text: &str) -> Vec<Entry> {
    text.lines()
        .skip(1)
        .filter_map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            let (pos, members) = (f.get(1)?, f.get(4)?);
            Some(Entry {
                headword: String::new(),
                label: (*pos).to_owned(),
                members: members
                    .split('|')
                    .map(|s| s.trim().replace('_', " "))
                    .filter(|s| !s.is_empty())
                    .collect(),
            })
        })
        .collect()
}

/// The key of a thesaurus word: the hash of its canonical form when it is one content word
/// (`None` for several words, a stop word, or no word).
pub fn key(word: &str) -> Option<u32> {
    let c = canonicalize(word, Format::Plain, KEY_OPTIONS);
    match (c.words.as_slice(), c.content.as_slice()) {
        ([w], [_]) => Some(w.hash),
        _ => None,
    }
}

/// Content-word counts of `texts` (keys as [`key`] makes them).
pub fn frequencies<'a>(texts: impl IntoIterator<Item = &'a str>) -> HashMap<u32, u64> {
    let mut freq = HashMap::new();
    for t in texts {
        let c = canonicalize(t, Format::Plain, KEY_OPTIONS);
        for &i in &c.content {
            *freq.entry(c.words[i as usize].hash).or_insert(0) += 1;
        }
    }
    freq
}

/// Reads every file under `paths` (files or folders, recursively, in name order) that
/// `accept` takes as text (invalid UTF-8 replaced) and counts its content words.
pub fn frequencies_of_files(
    paths: &[&Path],
    accept: impl Fn(&Path) -> bool,
) -> Result<HashMap<u32, u64>> {
    let mut files = Vec::new();
    for p in paths {
        collect(p, &mut files)?;
    }
    files.retain(|f| accept(f));
    files.sort();
    let mut freq: HashMap<u32, u64> = HashMap::new();
    for f in files {
        let text = crate::read_text(&f)?;
        for (k, v) in frequencies([text.as_str()]) {
            *freq.entry(k).or_insert(0) += v;
        }
    }
    Ok(freq)
}

fn collect(p: &Path, out: &mut Vec<std::path::PathBuf>) -> Result<()> {
    if p.is_dir() {
        for e in std::fs::read_dir(p).map_err(read_error(p))? {
            collect(&e.map_err(read_error(p))?.path(), out)?;
        }
    } else {
        out.push(p.to_owned());
    }
    Ok(())
}

/// The words of a thesaurus and its senses.
#[derive(Debug, Clone, Default)]
pub struct Senses {
    /// Each word (lemma) as written, lower-case, `ё` as `е`.
    pub lemmas: Vec<String>,
    /// Its key.
    pub keys: Vec<u32>,
    /// The senses, as sorted lists of lemma numbers (two or more each).
    pub senses: Vec<Vec<u32>>,
}

/// The senses of `entries`' synonym lines, over the words that have a key.
pub fn senses(entries: &[Entry]) -> Senses {
    let mut out = Senses::default();
    let mut ids: HashMap<String, Option<u32>> = HashMap::new();
    for e in entries.iter().filter(|e| e.is_synonymy()) {
        let mut s: Vec<u32> = e
            .words()
            .filter_map(|w| {
                let lemma = w.to_lowercase().replace('ё', "е");
                if let Some(&id) = ids.get(&lemma) {
                    return id;
                }
                let id = key(&lemma).map(|k| {
                    out.lemmas.push(lemma.clone());
                    out.keys.push(k);
                    (out.lemmas.len() - 1) as u32
                });
                ids.insert(lemma, id);
                id
            })
            .collect();
        s.sort_unstable();
        s.dedup();
        if s.len() >= 2 {
            out.senses.push(s);
        }
    }
    out
}

/// Lemma classes by the star rule (see the module's documentation): each lemma's
/// representative lemma, visiting lemmas by the frequency of their key.
fn stars(s: &Senses, freq: &HashMap<u32, u64>) -> Vec<u32> {
    let n = s.lemmas.len();
    let mut of: Vec<Vec<u32>> = vec![Vec::new(); n];
    for (i, sense) in s.senses.iter().enumerate() {
        for &l in sense {
            of[l as usize].push(i as u32);
        }
    }
    let mut order: Vec<u32> = (0..n as u32)
        .filter(|&l| !of[l as usize].is_empty())
        .collect();
    order.sort_unstable_by(|&a, &b| {
        let (a, b) = (a as usize, b as usize);
        let f = |l: usize| freq.get(&s.keys[l]).copied().unwrap_or(0);
        f(b).cmp(&f(a))
            .then(of[b].len().cmp(&of[a].len()))
            .then(s.lemmas[a].cmp(&s.lemmas[b]))
    });
    let none = u32::MAX;
    let mut rep = vec![none; n];
    for &r in &order {
        if rep[r as usize] != none {
            continue;
        }
        rep[r as usize] = r;
        // The lemmas sharing a sense with r, and in how many of their senses r is.
        let mut shared: HashMap<u32, usize> = HashMap::new();
        for &si in &of[r as usize] {
            for &l in &s.senses[si as usize] {
                if l != r && rep[l as usize] == none {
                    *shared.entry(l).or_insert(0) += 1;
                }
            }
        }
        for (l, k) in shared {
            if 2 * k >= of[l as usize].len() {
                rep[l as usize] = r;
            }
        }
    }
    rep
}

/// Keys whose lemmas fall in two classes or more under `rep`.
fn ambiguous_keys(s: &Senses, rep: &[u32]) -> HashSet<u32> {
    let mut class_of: HashMap<u32, u32> = HashMap::new();
    let mut out = HashSet::new();
    for (l, &r) in rep.iter().enumerate() {
        if r == u32::MAX {
            continue;
        }
        let k = s.keys[l];
        if *class_of.entry(k).or_insert(r) != r {
            out.insert(k);
        }
    }
    out
}

/// `s` without the lemmas whose key is in `keys`.
fn without(s: &Senses, keys: &HashSet<u32>) -> Senses {
    let senses = s
        .senses
        .iter()
        .map(|sense| {
            sense
                .iter()
                .copied()
                .filter(|&l| !keys.contains(&s.keys[l as usize]))
                .collect::<Vec<u32>>()
        })
        .filter(|sense| sense.len() >= 2)
        .collect();
    Senses {
        lemmas: s.lemmas.clone(),
        keys: s.keys.clone(),
        senses,
    }
}

/// The final lemma stars and the keys left out as ambiguous.
fn resolved(s: &Senses, freq: &HashMap<u32, u64>) -> (Vec<u32>, HashSet<u32>) {
    let mut left_out = HashSet::new();
    let mut current = s.clone();
    loop {
        let rep = stars(&current, freq);
        let ambiguous = ambiguous_keys(&current, &rep);
        if ambiguous.is_empty() {
            return (rep, left_out);
        }
        left_out.extend(ambiguous);
        current = without(s, &left_out);
    }
}

/// The classes as keys (see the module's documentation): (word, representative) for every key
/// that is not its own representative, ascending by word.
///
/// The stars are made of lemmas, but a key (a stem) may be the key of several lemmas («дело»,
/// «делить» and «делать» are all `дел`): a key whose lemmas fall in two classes or more is
/// **ambiguous**, since mapping it would join those classes. Ambiguous keys are taken out of
/// every sense and the stars made again, until none is left; they stay themselves. So every
/// key is in one class, represented by its star centre's key.
pub fn classes(s: &Senses, freq: &HashMap<u32, u64>) -> Vec<(u32, u32)> {
    let (rep, _) = resolved(s, freq);
    let mut pairs: Vec<(u32, u32)> = rep
        .iter()
        .enumerate()
        .filter(|&(_, &r)| r != u32::MAX)
        .map(|(l, &r)| (s.keys[l], s.keys[r as usize]))
        .filter(|(k, r)| k != r)
        .collect();
    pairs.sort_unstable();
    pairs.dedup();
    pairs
}

/// What a table holds.
#[derive(Debug, Clone, serde::Serialize)]
pub struct ClassStats {
    /// Lemmas with a key in some sense.
    pub lemmas: usize,
    /// Distinct keys among them.
    pub words: usize,
    /// Keys left alone because their lemmas fall in different classes.
    pub ambiguous: usize,
    /// Words mapped to another (the table's entries).
    pub mapped: usize,
    /// Classes of two words or more.
    pub classes: usize,
    /// Words in the largest class.
    pub largest: usize,
    /// Mean words per class of two or more.
    pub mean_size: f64,
    /// The largest classes, representative first, as words (a key shown by its lemmas).
    pub examples: Vec<Vec<String>>,
}

/// Counts of the classes `pairs` makes of `s`' words.
pub fn stats(
    s: &Senses,
    pairs: &[(u32, u32)],
    freq: &HashMap<u32, u64>,
    examples: usize,
) -> ClassStats {
    let mut names: HashMap<u32, Vec<&str>> = HashMap::new();
    for (l, &k) in s.lemmas.iter().zip(&s.keys) {
        names.entry(k).or_default().push(l);
    }
    let (_, ambiguous) = resolved(s, freq);
    let mut members: HashMap<u32, Vec<u32>> = HashMap::new();
    for &(w, r) in pairs {
        members.entry(r).or_default().push(w);
    }
    let mut sizes: Vec<(usize, u32)> = members.iter().map(|(r, m)| (m.len() + 1, *r)).collect();
    sizes.sort_unstable_by(|a, b| b.cmp(a));
    let name = |k: &u32| {
        names
            .get(k)
            .map(|v| v.join("/"))
            .unwrap_or_else(|| format!("#{k:08x}"))
    };
    ClassStats {
        lemmas: s.lemmas.len(),
        words: names.len(),
        ambiguous: ambiguous.len(),
        mapped: pairs.len(),
        classes: sizes.len(),
        largest: sizes.first().map_or(0, |s| s.0),
        mean_size: if sizes.is_empty() {
            0.0
        } else {
            sizes.iter().map(|s| s.0).sum::<usize>() as f64 / sizes.len() as f64
        },
        examples: sizes
            .iter()
            .take(examples)
            .map(|&(_, r)| {
                let mut m: Vec<String> = members[&r].iter().map(name).collect();
                m.sort();
                std::iter::once(name(&r)).chain(m).collect()
            })
            .collect(),
    }
}

/// A table from a thesaurus and word frequencies.
pub fn table(entries: &[Entry], freq: &HashMap<u32, u64>) -> (Synonyms, ClassStats) {
    let s = senses(entries);
    let pairs = classes(&s, freq);
    let stats = stats(&s, &pairs, freq, 8);
    (Synonyms::from_pairs(pairs, KEY_OPTIONS.stemming), stats)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn k(w: &str) -> u32 {
        key(w).unwrap()
    }

    #[test]
    fn reads_both_formats() {
        let ru = "headword\tlabel\tsynonyms\nабзац\t(синоним)\tотступ\nабсолютный\t(антоним)\tотносительный\nа\t(синоним)\tно|однако же\n";
        let e = read_ru(ru);
        assert_eq!(e.len(), 3);
        assert!(e[0].is_synonymy() && !e[1].is_synonymy());
        assert_eq!(e[2].members, vec!["но", "однако же"]);
        let en = "synset_id\tpos\tlexfile\tili\tmembers\n1-a\ta\tadj.all\ti1\table|capable\n2-n\tn\tx\ti2\tice_cream\n";
        let e = read_en(en);
        assert_eq!(e[0].members, vec!["able", "capable"]);
        assert_eq!(e[1].members, vec!["ice cream"]);
        // Stop words, several words and non-words have no key; inflections share one.
        assert_eq!(key("но"), None);
        assert_eq!(key("ice cream"), None);
        assert_eq!(key("—"), None);
        assert_eq!(key("властей"), key("власть"));
    }

    #[test]
    fn stars_one_link_deep_and_no_polysemous_glue() {
        // «дело» is frequent and polysemous: a synonym of «суд» in one of its three senses,
        // of «занятие» in one of its two.
        let entries = read_ru(
            "h\tl\ts\n\
             дело\t(синоним)\tзанятие|суд\n\
             суд\t(синоним)\tтрибунал\n\
             суд\t(синоним)\tсудилище\n\
             занятие\t(синоним)\tремесло\n\
             ремесло\t(синоним)\tпромысел\n\
             дело\t(антоним)\tбезделье\n",
        );
        let freq: HashMap<u32, u64> = [("дело", 100), ("суд", 50), ("занятие", 10), ("ремесло", 5)]
            .iter()
            .map(|&(w, n)| (k(w), n))
            .collect();
        let s = senses(&entries);
        let pairs = classes(&s, &freq);
        let rep = |w: &str| pairs.iter().find(|p| p.0 == k(w)).map_or(k(w), |p| p.1);
        // «занятие» is in one sense, with «дело»: it joins. «суд» is in three, one with «дело»:
        // it stays itself and takes its own synonyms.
        assert_eq!(rep("занятие"), k("дело"));
        assert_eq!(rep("суд"), k("суд"));
        assert_eq!(rep("трибунал"), k("суд"));
        // «ремесло» shares a sense with «занятие» (taken by «дело»), not with «дело»: no chain.
        assert_eq!(rep("ремесло"), k("ремесло"));
        assert_eq!(rep("промысел"), k("ремесло"));
        // Antonyms are no sense.
        assert!(key("безделье").is_some_and(|b| !pairs.iter().any(|p| p.0 == b || p.1 == b)));
        // Deterministic, and every representative maps to itself.
        assert_eq!(classes(&s, &freq), pairs);
        assert!(pairs.iter().all(|&(_, r)| !pairs.iter().any(|p| p.0 == r)));
    }
}
