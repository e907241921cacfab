//! Russian rewrites: a deterministic benchmark of drafts that reuse rewritten passages of a
//! source, built from factRuEval-2016's texts, and what the engine finds of them.
//!
//! ## The benchmark
//!
//! Every text of a split (`devset/` → dev, `testset/` → test) with at least
//! [`MIN_SOURCE_SENTENCES`] sentences is a **source**. Its draft is the writer's own text
//! (runs of 3 to 5 sentences of other texts of the same split, chosen at random) with one or two
//! **passages** of the source ([`PASSAGE_SENTENCES`] consecutive sentences each; two when the
//! source has at least [`TWO_PASSAGES_SENTENCES`]) between them, rewritten by one [`Kind`]:
//! own, passage, own, passage, own, as paragraphs. The layout (which passages, which own text)
//! depends on the source only, so every kind rewrites the same passages inside the same own
//! text; the rewriting itself has its own random stream per source and kind. Randomness is a
//! SplitMix64 seeded from [`SEED`] and the file name: the same files give the same benchmark.
//!
//! ## The measures
//!
//! On the draft side, in characters, summed over the pairs of a kind: the **truth** is the
//! rewritten passages; **recall** is the share of the truth covered by the engine's detections
//! (one per reused passage, however reworded: what PAN scores and what the report shows as
//! rewrites), **precision** the share of detected characters inside the truth. The same for the
//! **highlight** (the report's fragments: exact copies, what uniqueness counts) and for what the
//! report **marks** (its fragments and rewrites, what originality counts). PAN's macro measures
//! of the detections (both sides) are given too. For [`Kind::None`] (no passage at all) every
//! detection is a false alarm.

use super::measures::{ratio, Annotation, Scores};
use super::pan::annotation_span;
use super::thesaurus::{key, Entry};
use anyhow::{bail, Context, Result};
use rayon::prelude::*;
use serde::Serialize;
use std::collections::HashMap;
use std::ops::Range;
use std::path::{Path, PathBuf};
use uniqcheck::pair::find_with_detections;
use uniqcheck::synonyms::Synonyms;
use uniqcheck::{
    CheckOptions, Document, Format, Method, OffsetConverter, Params, Report, SourceInfo, Unit,
};

/// The benchmark's seed.
pub const SEED: u64 = 2016;
/// A source needs this many sentences.
pub const MIN_SOURCE_SENTENCES: usize = 6;
/// Sentences per passage.
pub const PASSAGE_SENTENCES: usize = 3;
/// A source this long (sentences) gives two passages.
pub const TWO_PASSAGES_SENTENCES: usize = 10;
/// `synonyms`: the share of the words the dictionary knows that are replaced.
pub const SYNONYM_SHARE: f64 = 1.0;
/// `delete`: the share of words dropped.
pub const DELETE_SHARE: f64 = 0.25;
/// `heavy`: the share of known words replaced, and of words dropped.
pub const HEAVY_SYNONYM_SHARE: f64 = 0.5;
/// See [`HEAVY_SYNONYM_SHARE`].
pub const HEAVY_DELETE_SHARE: f64 = 0.15;

/// How a passage is rewritten.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Kind {
    /// No passage of the source at all: every detection is a false alarm.
    None,
    /// Copied as it is.
    Verbatim,
    /// Every word the thesaurus knows ([`SYNONYM_SHARE`]) replaced by one of its synonyms.
    Synonyms,
    /// The words of each sentence shuffled (punctuation stays in place).
    ShuffleWords,
    /// The sentences shuffled.
    ShuffleSentences,
    /// Sentences merged in pairs or split at a comma.
    MergeSplit,
    /// A share of the words ([`DELETE_SHARE`]) dropped.
    Delete,
    /// Synonyms (half of the known words), deletion (15 %), merge-split and shuffled sentences.
    Heavy,
}

impl Kind {
    /// Every kind, in table order.
    pub const ALL: [Kind; 8] = [
        Kind::None,
        Kind::Verbatim,
        Kind::Synonyms,
        Kind::ShuffleWords,
        Kind::ShuffleSentences,
        Kind::MergeSplit,
        Kind::Delete,
        Kind::Heavy,
    ];

    /// The kind's name, as in the table and the JSON.
    pub fn name(self) -> &'static str {
        match self {
            Kind::None => "none",
            Kind::Verbatim => "verbatim",
            Kind::Synonyms => "synonyms",
            Kind::ShuffleWords => "shuffle-words",
            Kind::ShuffleSentences => "shuffle-sentences",
            Kind::MergeSplit => "merge-split",
            Kind::Delete => "delete",
            Kind::Heavy => "heavy",
        }
    }
}

/// SplitMix64 (Steele, Lea, Flood 2014): small, fast, and the same on every platform.
#[derive(Debug, Clone)]
pub struct Rng(u64);

impl Rng {
    /// A stream from a seed and a name.
    pub fn new(seed: u64, name: &str) -> Rng {
        let mut r = Rng(seed ^ u64::from(fnv1a(name.as_bytes())) << 17);
        r.next_u64();
        r
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n` (`n` > 0).
    pub fn below(&mut self, n: usize) -> usize {
        (((self.next_u64() >> 11) as u128 * n as u128) >> 53) as usize
    }

    /// True with probability `p`.
    pub fn chance(&mut self, p: f64) -> bool {
        ((self.next_u64() >> 11) as f64 / (1u64 << 53) as f64) < p
    }

    /// Shuffles `v` (Fisher–Yates).
    pub fn shuffle<T>(&mut self, v: &mut [T]) {
        for i in (1..v.len()).rev() {
            v.swap(i, self.below(i + 1));
        }
    }
}

/// FNV-1a: any fixed hash does for seeding.
fn fnv1a(bytes: &[u8]) -> u32 {
    let mut h: u32 = 0x811c_9dc5;
    for &b in bytes {
        h = (h ^ u32::from(b)).wrapping_mul(0x0100_0193);
    }
    h
}

/// One text of the corpus.
#[derive(Debug, Clone)]
pub struct Text {
    /// File name (`book_N.txt`).
    pub name: String,
    /// `dev` or `test`.
    pub split: String,
    /// The text.
    pub text: String,
    /// Byte ranges of its sentences, in order (paragraph breaks end a sentence).
    pub sentences: Vec<Range<usize>>,
}

/// Whether a sentence may end after `before` and start again at `after`: a full stop, `!`, `?`
/// or `…` (closing quotes and brackets after it allowed), then white space, then a capital
/// letter, a digit, an opening quote or a dash.
fn sentence_breaks(para: &str) -> Vec<usize> {
    let chars: Vec<(usize, char)> = para.char_indices().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        if matches!(chars[i].1, '.' | '!' | '?' | '…') {
            let mut j = i + 1;
            while j < chars.len() && matches!(chars[j].1, '.' | '!' | '?' | '…' | '»' | '"' | ')')
            {
                j += 1;
            }
            let end = chars.get(j).map_or(para.len(), |c| c.0);
            let mut k = j;
            while k < chars.len() && chars[k].1.is_whitespace() {
                k += 1;
            }
            if k > j
                && chars.get(k).is_some_and(|&(_, c)| {
                    c.is_uppercase() || c.is_ascii_digit() || matches!(c, '«' | '"' | '—' | '-')
                })
            {
                out.push(end);
                out.push(chars[k].0);
            }
            i = j;
        } else {
            i += 1;
        }
    }
    out
}

/// Splits `text` into sentences (byte ranges, trimmed, non-empty).
pub fn split_sentences(text: &str) -> Vec<Range<usize>> {
    let mut out = Vec::new();
    let mut line_start = 0;
    for line in text.split('\n') {
        let breaks = sentence_breaks(line);
        let mut start = 0;
        for pair in breaks.chunks(2) {
            out.push(line_start + start..line_start + pair[0]);
            start = pair[1];
        }
        out.push(line_start + start..line_start + line.len());
        line_start += line.len() + 1;
    }
    out.into_iter()
        .filter_map(|r| {
            let s = &text[r.clone()];
            let lead = s.len() - s.trim_start().len();
            let trail = s.len() - s.trim_end().len();
            let r = r.start + lead..r.end - trail;
            (r.start < r.end && text[r.clone()].chars().any(char::is_alphanumeric)).then_some(r)
        })
        .collect()
}

/// Reads `book_*.txt` under `dir/devset` and `dir/testset`, sorted by split and name.
///
/// Errors: neither folder, or an unreadable file.
pub fn read_corpus(dir: &Path) -> Result<Vec<Text>> {
    let mut texts = Vec::new();
    for (folder, split) in [("devset", "dev"), ("testset", "test")] {
        let d = dir.join(folder);
        if !d.is_dir() {
            continue;
        }
        let mut files: Vec<PathBuf> = std::fs::read_dir(&d)
            .with_context(|| format!("cannot read {}", d.display()))?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| {
                p.file_name()
                    .and_then(|n| n.to_str())
                    .is_some_and(|n| n.starts_with("book_") && n.ends_with(".txt"))
            })
            .collect();
        files.sort();
        for f in files {
            let text = crate::read_text(&f)?
                .trim_start_matches('\u{feff}')
                .replace("\r\n", "\n");
            texts.push(Text {
                name: f
                    .file_name()
                    .map(|n| n.to_string_lossy().into_owned())
                    .unwrap_or_default(),
                split: split.to_owned(),
                sentences: split_sentences(&text),
                text,
            });
        }
    }
    if texts.is_empty() {
        bail!(
            "{}: no devset/book_*.txt or testset/book_*.txt (factRuEval-2016's layout)",
            dir.display()
        );
    }
    Ok(texts)
}

/// A word of a sentence with the punctuation around it: `prefix core suffix`.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Token {
    prefix: String,
    core: String,
    suffix: String,
}

fn tokens(sentence: &str) -> Vec<Token> {
    sentence
        .split_whitespace()
        .map(|t| {
            let start = t.find(char::is_alphanumeric).unwrap_or(t.len());
            let end = t.rfind(char::is_alphanumeric).map_or(start, |i| {
                i + t[i..].chars().next().map_or(1, char::len_utf8)
            });
            let end = end.max(start);
            Token {
                prefix: t[..start].to_owned(),
                core: t[start..end].to_owned(),
                suffix: t[end..].to_owned(),
            }
        })
        .collect()
}

fn join(tokens: &[Token]) -> String {
    let mut out = String::new();
    for t in tokens {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(&t.prefix);
        out.push_str(&t.core);
        out.push_str(&t.suffix);
    }
    out
}

fn capitalize(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}

fn decapitalize(s: &str) -> String {
    let mut c = s.chars();
    match (c.next(), c.clone().next()) {
        // An acronym («СМИ») keeps its case.
        (Some(f), Some(second)) if !second.is_uppercase() => f.to_lowercase().chain(c).collect(),
        _ => s.to_owned(),
    }
}

/// Ends `s` with a full stop unless it ends with `.`, `!`, `?` or `…` already.
fn terminate(s: &str) -> String {
    let t = s.trim_end_matches([',', ';', ':', ' ', '—', '-']);
    if t.ends_with(['.', '!', '?', '…']) {
        t.to_owned()
    } else {
        format!("{t}.")
    }
}

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

/// The words of each sentence shuffled; punctuation and the sentence's end stay in place.
fn shuffle_words(sentence: &str, rng: &mut Rng) -> String {
    let mut toks = tokens(sentence);
    let mut cores: Vec<String> = toks
        .iter()
        .enumerate()
        .map(|(i, t)| {
            if i == 0 {
                decapitalize(&t.core)
            } else {
                t.core.clone()
            }
        })
        .collect();
    rng.shuffle(&mut cores);
    for (i, (t, c)) in toks.iter_mut().zip(cores).enumerate() {
        t.core = if i == 0 { capitalize(&c) } else { c };
    }
    join(&toks)
}

/// A share of the words dropped (a sentence keeps at least one).
fn delete_words(sentence: &str, share: f64, rng: &mut Rng) -> String {
    let mut kept: Vec<Token> = tokens(sentence)
        .into_iter()
        .filter(|t| t.core.is_empty() || !rng.chance(share))
        .collect();
    if kept.iter().all(|t| t.core.is_empty()) {
        return sentence.to_owned();
    }
    if let Some(first) = kept.first_mut() {
        first.core = capitalize(&first.core);
    }
    terminate(&join(&kept))
}

/// Sentences merged in pairs (the first one's full stop becomes a comma) or, with a comma
/// between the fourth word and the fourth from the end, split there; half and half.
fn merge_split(sentences: Vec<String>, rng: &mut Rng) -> Vec<String> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < sentences.len() {
        let s = &sentences[i];
        if i + 1 < sentences.len() && rng.chance(0.5) {
            let a = s.trim_end_matches(['.', '!', '?', '…']);
            let b = &sentences[i + 1];
            let first = tokens(b)
                .first()
                .map(|t| t.core.clone())
                .unwrap_or_default();
            let b = match b.find(first.as_str()) {
                Some(at) if !first.is_empty() => {
                    format!(
                        "{}{}{}",
                        &b[..at],
                        decapitalize(&first),
                        &b[at + first.len()..]
                    )
                }
                _ => b.clone(),
            };
            out.push(format!("{a}, {b}"));
            i += 2;
            continue;
        }
        let toks = tokens(s);
        let cut = (4..toks.len().saturating_sub(4))
            .filter(|&j| toks[j - 1].suffix.starts_with(','))
            .min_by_key(|&j| j.abs_diff(toks.len() / 2));
        match cut {
            Some(j) => {
                let mut a = toks[..j].to_vec();
                if let Some(last) = a.last_mut() {
                    last.suffix = ".".to_owned();
                }
                let mut b = toks[j..].to_vec();
                b[0].core = capitalize(&b[0].core);
                out.push(join(&a));
                out.push(join(&b));
            }
            None => out.push(s.clone()),
        }
        i += 1;
    }
    out
}

/// Rewrites a passage (its sentences) by `kind`.
pub fn rewrite(
    sentences: &[&str],
    kind: Kind,
    syn: &Synonymizer,
    rng: &mut Rng,
    counts: &mut SynonymCounts,
) -> String {
    let mut s: Vec<String> = sentences.iter().map(|s| (*s).to_owned()).collect();
    match kind {
        Kind::None | Kind::Verbatim => {}
        Kind::Synonyms => {
            s = s
                .iter()
                .map(|x| syn.rewrite(x, SYNONYM_SHARE, rng, counts))
                .collect()
        }
        Kind::ShuffleWords => s = s.iter().map(|x| shuffle_words(x, rng)).collect(),
        Kind::ShuffleSentences => {
            let before = s.clone();
            rng.shuffle(&mut s);
            if s == before && s.len() > 1 {
                s.rotate_left(1);
            }
        }
        Kind::MergeSplit => s = merge_split(s, rng),
        Kind::Delete => {
            s = s
                .iter()
                .map(|x| delete_words(x, DELETE_SHARE, rng))
                .collect()
        }
        Kind::Heavy => {
            s = s
                .iter()
                .map(|x| {
                    let x = syn.rewrite(x, HEAVY_SYNONYM_SHARE, rng, counts);
                    delete_words(&x, HEAVY_DELETE_SHARE, rng)
                })
                .collect();
            s = merge_split(s, rng);
            let before = s.clone();
            rng.shuffle(&mut s);
            if s == before && s.len() > 1 {
                s.rotate_left(1);
            }
        }
    }
    s.join(" ")
}

/// One draft–source pair of the benchmark.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pair {
    /// The source's file name.
    pub source: String,
    /// Its split.
    pub split: String,
    /// How the passages were rewritten.
    pub kind: Kind,
    /// The draft.
    pub draft: String,
    /// Each rewritten passage: (draft byte range, source byte range).
    pub truth: Vec<(Range<usize>, Range<usize>)>,
    /// What the synonymizer did.
    pub counts: SynonymCounts,
}

/// Where a source's passages and own text come from.
#[derive(Debug, Clone)]
struct Layout {
    /// Sentence ranges (indices into the source's sentences).
    passages: Vec<Range<usize>>,
    /// Own text: (text index, sentence range) before, between and after the passages.
    own: Vec<(usize, Range<usize>)>,
}

fn layout(texts: &[Text], si: usize, pool: &[usize], rng: &mut Rng) -> Layout {
    let n = texts[si].sentences.len();
    let count = if n >= TWO_PASSAGES_SENTENCES { 2 } else { 1 };
    // Passage starts: the first in the first half, the second in the second half.
    let mut passages = Vec::new();
    for p in 0..count {
        let lo = p * n / count;
        let hi = ((p + 1) * n / count)
            .saturating_sub(PASSAGE_SENTENCES)
            .max(lo);
        let start = lo + rng.below(hi - lo + 1);
        passages.push(start..(start + PASSAGE_SENTENCES).min(n));
    }
    let others: Vec<usize> = pool
        .iter()
        .copied()
        .filter(|&t| t != si && texts[t].sentences.len() >= 3)
        .collect();
    let own = (0..=count)
        .map(|_| {
            let t = others[rng.below(others.len())];
            let m = texts[t].sentences.len();
            let len = (3 + rng.below(3)).min(m);
            let start = rng.below(m - len + 1);
            (t, start..start + len)
        })
        .collect();
    Layout { passages, own }
}

/// Builds the benchmark: every source of `texts` with every kind of `kinds`.
pub fn build(texts: &[Text], kinds: &[Kind], syn: &Synonymizer) -> Vec<Pair> {
    let mut pairs = Vec::new();
    let mut splits: Vec<&str> = texts.iter().map(|t| t.split.as_str()).collect();
    splits.dedup();
    for split in splits {
        let pool: Vec<usize> = (0..texts.len())
            .filter(|&i| texts[i].split == split)
            .collect();
        if pool.len() < 2 {
            continue;
        }
        for &si in &pool {
            let src = &texts[si];
            if src.sentences.len() < MIN_SOURCE_SENTENCES {
                continue;
            }
            let lay = layout(texts, si, &pool, &mut Rng::new(SEED, &src.name));
            for &kind in kinds {
                let mut rng = Rng::new(SEED, &format!("{}/{}", src.name, kind.name()));
                let mut draft = String::new();
                let mut truth = Vec::new();
                let mut counts = SynonymCounts::default();
                let add = |draft: &mut String, part: &str| {
                    if !draft.is_empty() {
                        draft.push_str("\n\n");
                    }
                    let start = draft.len();
                    draft.push_str(part);
                    start..draft.len()
                };
                for (i, (t, r)) in lay.own.iter().enumerate() {
                    let own = &texts[*t];
                    let part: Vec<&str> = own.sentences[r.clone()]
                        .iter()
                        .map(|s| &own.text[s.clone()])
                        .collect();
                    add(&mut draft, &part.join(" "));
                    let Some(p) = lay.passages.get(i) else {
                        continue;
                    };
                    if kind == Kind::None {
                        continue;
                    }
                    let sentences: Vec<&str> = src.sentences[p.clone()]
                        .iter()
                        .map(|s| &src.text[s.clone()])
                        .collect();
                    let text = rewrite(&sentences, kind, syn, &mut rng, &mut counts);
                    let d = add(&mut draft, &text);
                    let s = src.sentences[p.start].start..src.sentences[p.end - 1].end;
                    truth.push((d, s));
                }
                pairs.push(Pair {
                    source: src.name.clone(),
                    split: split.to_owned(),
                    kind,
                    draft,
                    truth,
                    counts,
                });
            }
        }
    }
    pairs
}

/// What the engine found in one pair, as draft and source byte ranges.
#[derive(Debug, Clone, Default)]
pub struct Found {
    /// Detections: (draft, source).
    pub detections: Vec<(Range<usize>, Range<usize>)>,
    /// The report's fragments (copies, what uniqueness counts), draft side.
    pub fragments: Vec<Range<usize>>,
    /// The report's rewrites (reused but not copied word for word, what originality counts
    /// besides the copies), draft side.
    pub rewrites: Vec<Range<usize>>,
    /// The report's uniqueness, percent.
    pub uniqueness: f64,
    /// The report's originality, percent.
    pub originality: f64,
}

/// Runs the engine's `compare` path on (draft, source): analysis, the synonym table when there
/// is one (both sides), [`find_with_detections`], the report.
///
/// Errors: the engine's (an empty text).
pub fn find(
    draft: &str,
    source: &str,
    params: &Params,
    opts: &CheckOptions,
    synonyms: Option<&Synonyms>,
) -> Result<Found, uniqcheck::Error> {
    let analyze = |t: &str| -> Result<Document, uniqcheck::Error> {
        let d = Document::analyze(t, Format::Plain, params, opts.max_text_bytes)?;
        Ok(match synonyms {
            Some(s) => s.apply(d, params),
            None => d,
        })
    };
    let (da, db) = (analyze(draft)?, analyze(source)?);
    let (finding, detections) = find_with_detections(&da, &db, SourceInfo::default(), params, opts);
    let detections = if finding.exact {
        vec![(0..draft.len(), 0..source.len())]
    } else {
        detections
    };
    let method = Method::decide(&da, std::slice::from_ref(&finding), opts);
    let report = Report::build(&da, vec![finding], method);
    Ok(Found {
        detections,
        fragments: report.fragments.iter().map(|f| f.start..f.end).collect(),
        rewrites: report.rewrites.iter().map(|f| f.start..f.end).collect(),
        uniqueness: report.uniqueness,
        originality: report.originality,
    })
}

/// Characters of the union of `ranges` (byte ranges of `text`), and of its intersection with
/// the union of `truth` (the retrieval view counts the same way).
pub(crate) fn covered(
    conv: &OffsetConverter<'_>,
    ranges: &[Range<usize>],
    truth: &[Range<usize>],
) -> (usize, usize) {
    let union = |v: &[Range<usize>]| -> Vec<Range<usize>> {
        let mut v: Vec<Range<usize>> = v.iter().filter(|r| r.start < r.end).cloned().collect();
        v.sort_by_key(|r| r.start);
        let mut out: Vec<Range<usize>> = Vec::new();
        for r in v {
            match out.last_mut() {
                Some(l) if r.start <= l.end => l.end = l.end.max(r.end),
                _ => out.push(r),
            }
        }
        out
    };
    let chars = |r: &Range<usize>| conv.convert(r.end) - conv.convert(r.start);
    let (a, t) = (union(ranges), union(truth));
    let total = a.iter().map(chars).sum();
    let mut inside = 0;
    for x in &a {
        for y in &t {
            let r = x.start.max(y.start)..x.end.min(y.end);
            if r.start < r.end {
                inside += chars(&r);
            }
        }
    }
    (total, inside)
}

/// Character counts of one pair.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Counts {
    /// Rewritten characters of the draft (the truth).
    pub truth: usize,
    /// Characters the detections cover.
    pub detected: usize,
    /// ... of which rewritten.
    pub detected_true: usize,
    /// Characters the highlight (copies) covers.
    pub highlighted: usize,
    /// ... of which rewritten.
    pub highlighted_true: usize,
    /// Characters marked as copies or rewrites.
    pub marked: usize,
    /// ... of which rewritten.
    pub marked_true: usize,
    /// Source characters the detections point at, and of which in the source passages.
    pub source_detected: usize,
    /// See `source_detected`.
    pub source_detected_true: usize,
}

impl std::ops::AddAssign for Counts {
    fn add_assign(&mut self, o: Counts) {
        self.truth += o.truth;
        self.detected += o.detected;
        self.detected_true += o.detected_true;
        self.highlighted += o.highlighted;
        self.highlighted_true += o.highlighted_true;
        self.marked += o.marked;
        self.marked_true += o.marked_true;
        self.source_detected += o.source_detected;
        self.source_detected_true += o.source_detected_true;
    }
}

/// One pair, measured.
#[derive(Debug, Clone)]
pub struct PairResult {
    /// Index into the benchmark's pairs.
    pub pair: usize,
    /// Character counts.
    pub counts: Counts,
    /// Detections, as PAN annotations in characters (draft = `this`).
    pub detections: Vec<Annotation>,
    /// The truth, as PAN annotations.
    pub cases: Vec<Annotation>,
    /// The engine refused a text.
    pub error: Option<String>,
}

/// Measures one pair's findings.
pub fn measure(
    pair: &Pair,
    source: &str,
    found: &Found,
) -> (Counts, Vec<Annotation>, Vec<Annotation>) {
    let (cd, cs) = (
        OffsetConverter::new(&pair.draft, Unit::Chars),
        OffsetConverter::new(source, Unit::Chars),
    );
    let truth_d: Vec<Range<usize>> = pair.truth.iter().map(|t| t.0.clone()).collect();
    let truth_s: Vec<Range<usize>> = pair.truth.iter().map(|t| t.1.clone()).collect();
    let det_d: Vec<Range<usize>> = found.detections.iter().map(|d| d.0.clone()).collect();
    let det_s: Vec<Range<usize>> = found.detections.iter().map(|d| d.1.clone()).collect();
    let (truth, _) = covered(&cd, &truth_d, &truth_d);
    let (detected, detected_true) = covered(&cd, &det_d, &truth_d);
    let (highlighted, highlighted_true) = covered(&cd, &found.fragments, &truth_d);
    let both: Vec<Range<usize>> = found
        .fragments
        .iter()
        .chain(&found.rewrites)
        .cloned()
        .collect();
    let (marked, marked_true) = covered(&cd, &both, &truth_d);
    let (source_detected, source_detected_true) = covered(&cs, &det_s, &truth_s);
    let draft = format!("{}/{}", pair.kind.name(), pair.source);
    let ann = |d: &Range<usize>, s: &Range<usize>| {
        Annotation::new(&draft, &pair.source, annotation_span(&cd, &cs, d, s))
    };
    (
        Counts {
            truth,
            detected,
            detected_true,
            highlighted,
            highlighted_true,
            marked,
            marked_true,
            source_detected,
            source_detected_true,
        },
        found.detections.iter().map(|(d, s)| ann(d, s)).collect(),
        pair.truth.iter().map(|(d, s)| ann(d, s)).collect(),
    )
}

/// Runs the engine on every pair (rayon's current pool).
pub fn run(
    pairs: &[Pair],
    texts: &[Text],
    params: &Params,
    opts: &CheckOptions,
    synonyms: Option<&Synonyms>,
) -> Vec<PairResult> {
    let by_name: HashMap<&str, &Text> = texts.iter().map(|t| (t.name.as_str(), t)).collect();
    pairs
        .par_iter()
        .enumerate()
        .map(|(i, p)| {
            let source = &by_name[p.source.as_str()].text;
            match find(&p.draft, source, params, opts, synonyms) {
                Ok(found) => {
                    let (counts, detections, cases) = measure(p, source, &found);
                    PairResult {
                        pair: i,
                        counts,
                        detections,
                        cases,
                        error: None,
                    }
                }
                Err(e) => PairResult {
                    pair: i,
                    counts: Counts::default(),
                    detections: Vec::new(),
                    cases: Vec::new(),
                    error: Some(e.to_string()),
                },
            }
        })
        .collect()
}

/// The scores of one kind.
#[derive(Debug, Clone, Serialize)]
pub struct KindScores {
    /// The kind's name.
    pub kind: &'static str,
    /// Pairs.
    pub pairs: usize,
    /// Pairs with any detection.
    pub flagged: usize,
    /// Summed character counts.
    pub chars: Counts,
    /// Detections: share of the rewritten characters covered (`None` without any).
    pub recall: Option<f64>,
    /// Detections: share of the detected characters that are rewritten (`None`: nothing detected).
    pub precision: Option<f64>,
    /// The highlight (fragments): share of the rewritten characters covered.
    pub highlight_recall: Option<f64>,
    /// The highlight: share of the highlighted characters that are rewritten.
    pub highlight_precision: Option<f64>,
    /// Copies and rewrites as the report marks them: share of the rewritten characters covered.
    pub marked_recall: Option<f64>,
    /// ... and share of the marked characters that are rewritten.
    pub marked_precision: Option<f64>,
    /// Detections, source side: share of the source characters pointed at inside the passages.
    pub source_precision: Option<f64>,
    /// PAN's macro measures of the detections (both sides).
    pub pan: Scores,
    /// What the synonymizer did (synonyms and heavy).
    pub synonym_counts: SynonymCounts,
}

/// The name of the row that pools every kind but [`Kind::None`].
pub const ALL_REWRITTEN: &str = "all rewritten";

fn score(name: &'static str, pairs: &[Pair], mine: &[&PairResult]) -> KindScores {
    let mut c = Counts::default();
    let mut sc = SynonymCounts::default();
    for r in mine {
        c += r.counts;
        let p = &pairs[r.pair].counts;
        sc.words += p.words;
        sc.known += p.known;
        sc.replaced += p.replaced;
        sc.inflected += p.inflected;
    }
    let cases: Vec<Annotation> = mine.iter().flat_map(|r| r.cases.clone()).collect();
    let dets: Vec<Annotation> = mine.iter().flat_map(|r| r.detections.clone()).collect();
    KindScores {
        kind: name,
        pairs: mine.len(),
        flagged: mine.iter().filter(|r| !r.detections.is_empty()).count(),
        recall: ratio(c.detected_true, c.truth),
        precision: ratio(c.detected_true, c.detected),
        highlight_recall: ratio(c.highlighted_true, c.truth),
        highlight_precision: ratio(c.highlighted_true, c.highlighted),
        marked_recall: ratio(c.marked_true, c.truth),
        marked_precision: ratio(c.marked_true, c.marked),
        source_precision: ratio(c.source_detected_true, c.source_detected),
        chars: c,
        pan: Scores::compute(&cases, &dets),
        synonym_counts: sc,
    }
}

/// Scores per kind, in `kinds` order, then [`ALL_REWRITTEN`]: every pair of the other kinds
/// together (characters summed, so each kind weighs by its rewritten characters).
pub fn summarize(pairs: &[Pair], results: &[PairResult], kinds: &[Kind]) -> Vec<KindScores> {
    let mut out: Vec<KindScores> = kinds
        .iter()
        .map(|&kind| {
            let mine: Vec<&PairResult> = results
                .iter()
                .filter(|r| pairs[r.pair].kind == kind)
                .collect();
            score(kind.name(), pairs, &mine)
        })
        .collect();
    let rewritten: Vec<&PairResult> = results
        .iter()
        .filter(|r| pairs[r.pair].kind != Kind::None && kinds.contains(&pairs[r.pair].kind))
        .collect();
    out.push(score(ALL_REWRITTEN, pairs, &rewritten));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn corpus() -> Vec<Text> {
        let base = [
            "Мэрия Москвы согласовала акцию протеста. Организаторы ожидают около тысячи участников. \
             Полиция обещает обеспечить порядок. Акция начнётся в семь часов вечера. Участники \
             пройдут по бульварам. Журналисты будут освещать событие. Власти призвали к спокойствию. \
             Погода обещает быть хорошей. После шествия состоится митинг. Выступят известные \
             политики и общественные деятели. Итоги подведут на следующий день.",
            "Компания представила новый смартфон. Устройство получило большой экран и мощный \
             процессор. Продажи стартуют осенью. Цена пока не объявлена. Аналитики ожидают высокого \
             спроса. Конкуренты готовят ответ. Производство налажено в Китае. Первая партия уже \
             отправлена. Магазины принимают предзаказы. Покупатели оставили много отзывов.",
            "Сборная выиграла чемпионат. Решающий матч завершился со счётом три один. Тренер \
             похвалил игроков. Болельщики встретили команду в аэропорту. Капитан поднял кубок. \
             Президент поздравил спортсменов. Следующий турнир пройдёт через два года.",
        ];
        base.iter()
            .enumerate()
            .map(|(i, t)| {
                let text = t.split_whitespace().collect::<Vec<_>>().join(" ");
                Text {
                    name: format!("book_{i}.txt"),
                    split: "dev".into(),
                    sentences: split_sentences(&text),
                    text,
                }
            })
            .collect()
    }

    fn synonymizer() -> Synonymizer {
        Synonymizer::new(&super::super::thesaurus::read_ru(
            "h\tl\ts\nсообщить\t(синоним)\tизвестить|уведомить\nпротест\t(синоним)\tнесогласие\n\
             участник\t(синоним)\tсоучастник\nучастник\t(антоним)\tзритель\n",
        ))
    }

    #[test]
    fn sentences_split_at_full_stops_before_capitals() {
        let t = "Он сказал: «Да». Потом ушёл… В 19 часов — всё. т. е. нет\nНовая строка";
        let s: Vec<&str> = split_sentences(t).into_iter().map(|r| &t[r]).collect();
        assert_eq!(
            s,
            vec![
                "Он сказал: «Да».",
                "Потом ушёл…",
                "В 19 часов — всё. т. е. нет",
                "Новая строка"
            ]
        );
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

    #[test]
    fn rewrites_keep_words_or_sentences_as_promised() {
        let mut rng = Rng::new(3, "k");
        let s = "Участники пройдут по бульварам, журналисты будут освещать событие, власти призвали к спокойствию.";
        let shuffled = shuffle_words(s, &mut rng);
        let mut a: Vec<String> = tokens(s)
            .into_iter()
            .map(|t| t.core.to_lowercase())
            .collect();
        let mut b: Vec<String> = tokens(&shuffled)
            .into_iter()
            .map(|t| t.core.to_lowercase())
            .collect();
        a.sort();
        b.sort();
        assert_eq!(a, b);
        assert!(shuffled.ends_with('.'));
        let split = merge_split(vec![s.to_owned()], &mut rng);
        assert_eq!(split.len(), 2, "{split:?}");
        let merged = merge_split(
            vec!["Один два.".into(), "Три четыре.".into()],
            &mut Rng::new(0, "m"),
        );
        assert!(merged.len() == 1 && merged[0] == "Один два, три четыре." || merged.len() == 2);
        let d = delete_words(s, 0.5, &mut rng);
        assert!(tokens(&d).len() < tokens(s).len() && d.ends_with('.'));
    }

    #[test]
    fn benchmark_is_deterministic_and_truth_points_at_the_passages() {
        let texts = corpus();
        let syn = synonymizer();
        let a = build(&texts, &Kind::ALL, &syn);
        let b = build(&texts, &Kind::ALL, &syn);
        assert_eq!(a, b);
        // Every text has six sentences or more: one pair per kind each.
        assert_eq!(a.len(), 3 * Kind::ALL.len());
        let by_name: HashMap<&str, &Text> = texts.iter().map(|t| (t.name.as_str(), t)).collect();
        for p in &a {
            let src = &by_name[p.source.as_str()].text;
            match p.kind {
                Kind::None => assert!(p.truth.is_empty()),
                Kind::Verbatim => {
                    assert!(!p.truth.is_empty());
                    for (d, s) in &p.truth {
                        assert_eq!(&p.draft[d.clone()], &src[s.clone()]);
                    }
                }
                _ => assert!(!p.truth.is_empty()),
            }
        }
    }

    #[test]
    fn a_copied_passage_is_found_and_measured() {
        let passage = "Освещающие акцию блоггеры сообщили, что автобусы с милицией стали занимать \
            площадь у памятника Юрию Долгорукому ещё с пятнадцати часов дня, центральная часть \
            площади была огорожена. Ко времени начала акции вокруг огороженной территории \
            собралось множество журналистов и прохожих, по мере прибытия самих участников акции \
            милиция начала планомерно их задерживать и заталкивать в автобусы.";
        let source = format!(
            "Начало акции было намечено на вечер. {passage} Всего задержано тридцать человек."
        );
        let own = "Компания представила новый смартфон с большим экраном и мощным процессором, \
            продажи стартуют осенью, цена пока не объявлена, аналитики ожидают высокого спроса.";
        let draft = format!("{own}\n\n{passage}\n\n{own}");
        let d0 = draft.find(passage).unwrap();
        let s0 = source.find(passage).unwrap();
        let pair = Pair {
            source: "s".into(),
            split: "dev".into(),
            kind: Kind::Verbatim,
            truth: vec![(d0..d0 + passage.len(), s0..s0 + passage.len())],
            draft,
            counts: SynonymCounts::default(),
        };
        let opts = CheckOptions::default();
        let found = find(&pair.draft, &source, &Params::default(), &opts, None).unwrap();
        let (c, dets, cases) = measure(&pair, &source, &found);
        assert_eq!(c.truth, passage.chars().count());
        assert!(c.detected_true as f64 > 0.95 * c.truth as f64, "{c:?}");
        assert!(c.detected_true as f64 > 0.95 * c.detected as f64, "{c:?}");
        assert!(c.highlighted_true > 0 && c.highlighted_true <= c.highlighted);
        assert_eq!(cases.len(), 1);
        assert!(!dets.is_empty());
        // Through a synonym table that maps nothing, the same.
        let empty = Synonyms::default();
        let again = find(
            &pair.draft,
            &source,
            &Params::default(),
            &opts,
            Some(&empty),
        )
        .unwrap();
        assert_eq!(again.detections, found.detections);
    }

    #[test]
    fn covered_counts_characters() {
        let text = "аб вг де";
        let conv = OffsetConverter::new(text, Unit::Chars);
        // "аб вг" (bytes 0..9) and "вг де" (5..14) against the truth "вг" (5..9).
        let truth: Vec<Range<usize>> = std::iter::once(5..9).collect();
        assert_eq!(covered(&conv, &[0..9, 5..14], &truth), (8, 2));
        assert_eq!(covered(&conv, &[], &truth), (0, 0));
    }

    #[test]
    fn rng_is_stable() {
        let mut r = Rng::new(SEED, "book_1.txt");
        let first: Vec<usize> = (0..5).map(|_| r.below(100)).collect();
        let mut r2 = Rng::new(SEED, "book_1.txt");
        assert_eq!(first, (0..5).map(|_| r2.below(100)).collect::<Vec<_>>());
        assert!(first.iter().all(|&x| x < 100));
    }
}
