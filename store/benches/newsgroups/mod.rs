//! The benchmark corpus built from 20 Newsgroups, shared by `store/benches/store.rs` and the
//! peers bench (`benches/peers/rust`, which includes this file by path): every post in a fixed
//! shuffle, then perturbed copies (sentences shuffled, 10 % of words dropped, 5 % replaced, with
//! fixed-seed RNGs), and 32 drafts quoting posts of the first 1,000. Both benchmarks must see the
//! same documents, so there is one construction.

use std::path::{Path, PathBuf};

/// The benchmarks' xorshift RNG: fixed seeds, the same sequence everywhere.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// Every post under `dir` as (path relative to `dir`, text), in a fixed shuffled order (so the
/// first 1,000 are a sample of all groups).
pub fn posts(dir: &Path) -> Vec<(String, String)> {
    let mut files: Vec<PathBuf> = walkdir::WalkDir::new(dir)
        .sort_by_file_name()
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_file())
        .map(|e| e.into_path())
        .collect();
    let mut rng = Rng(0x5EED_1234_5678_9ABC);
    for i in (1..files.len()).rev() {
        files.swap(i, rng.below(i + 1));
    }
    files
        .into_iter()
        .filter_map(|p| {
            let text = String::from_utf8_lossy(&std::fs::read(&p).ok()?).into_owned();
            let rel = p.strip_prefix(dir).unwrap_or(&p).display().to_string();
            Some((rel, text))
        })
        .collect()
}

/// A distinct variant of `text`: sentences shuffled, some words dropped or replaced.
fn perturb(text: &str, rng: &mut Rng) -> String {
    let mut sentences: Vec<&str> = text.split_inclusive(['.', '!', '?', '\n']).collect();
    for i in (1..sentences.len()).rev() {
        sentences.swap(i, rng.below(i + 1));
    }
    let words: Vec<&str> = text.split_whitespace().collect();
    let mut out = String::with_capacity(text.len());
    for sentence in sentences {
        for word in sentence.split_whitespace() {
            match rng.below(100) {
                0..=9 => continue,
                10..=14 if !words.is_empty() => out.push_str(words[rng.below(words.len())]),
                _ => out.push_str(word),
            }
            out.push(' ');
        }
        out.push('\n');
    }
    out
}

/// The first `n` documents, lazily, as (post index, round, text): round 0 is the posts
/// themselves, every later round a perturbed copy of each.
pub fn documents(
    posts: &[(String, String)],
    n: usize,
) -> impl Iterator<Item = (usize, usize, String)> + '_ {
    let mut rng = Rng(0xD0C5_0000_0000_0001);
    (0..n).map(move |i| {
        let post = i % posts.len();
        let round = i / posts.len();
        let text = &posts[post].1;
        let text = if round == 0 {
            text.clone()
        } else {
            perturb(text, &mut rng)
        };
        (post, round, text)
    })
}

/// The 32 drafts as (post index quoted, text): a post of the first 1,000 (so in every store) with
/// an original sentence in front.
pub fn drafts(posts: &[(String, String)]) -> Vec<(usize, String)> {
    let mut rng = Rng(0xDAF7);
    (0..32)
        .map(|_| {
            let source = rng.below(1_000);
            let draft = format!(
                "A few words of my own to start with, written for this draft only and not \
                 copied from anywhere at all. {}",
                posts[source].1
            );
            (source, draft)
        })
        .collect()
}

/// The 32 drafts of about 1,000 words as (post index quoted, text): each of [`drafts`] (a post of
/// the first 1,000 with an original sentence in front), then words drawn at random from all the
/// posts (fixed seed) up to 1,000 words in all: a long draft of which one part is quoted, the rest
/// new writing (random words share hardly any 4-word shingle with a post, but every one is looked
/// up). A post longer than 1,000 words is cut there.
#[allow(dead_code)] // the store benchmark's; the peers bench includes this file too
pub fn long_drafts(posts: &[(String, String)]) -> Vec<(usize, String)> {
    const WORDS: usize = 1_000;
    let mut rng = Rng(0x1000_D4AF);
    drafts(posts)
        .into_iter()
        .map(|(source, draft)| {
            let mut words: Vec<&str> = draft.split_whitespace().take(WORDS).collect();
            while words.len() < WORDS {
                let post = &posts[rng.below(posts.len())].1;
                let pool: Vec<&str> = post.split_whitespace().collect();
                if !pool.is_empty() {
                    words.push(pool[rng.below(pool.len())]);
                }
            }
            (source, words.join(" "))
        })
        .collect()
}
