//! Builds the English–Russian table (`uniqcheck::bilingual`) from the dictionary in the shared
//! data folder.
//!
//! ```sh
//! cargo run --release -p uniqcheck-eval --bin bilingual-table -- ../shared/data data/bilingual
//! ```
//!
//! Reads `DATA/bilingual/en_ru.tsv` (`en<TAB>ru<TAB>sources`, Wiktionary-derived, CC BY-SA 3.0;
//! its SOURCE.md) and keeps the pairs whose both sides are one content word after the engine's
//! own canonicalization (stemming on, stop words out: `thesaurus::key`), so a key is what a
//! document's word hash is. A word keeps its [`MAX_TRANSLATIONS`] most certain translations:
//! pairs attested by more of the dictionary's three sources first (both Wiktionaries and the
//! Russian wordnet), then in file order. Writes `OUT/en-ru.uqbl` and prints what it holds as JSON.
//! Deterministic: the same data gives the same bytes.

use anyhow::{bail, Context, Result};
use std::path::Path;
use uniqcheck::bilingual::{Bilingual, MAX_TRANSLATIONS};
use uniqcheck_eval::thesaurus::key;

#[derive(serde::Serialize)]
struct Built {
    dictionary: String,
    pairs_read: usize,
    pairs_of_words: usize,
    keys: usize,
    translations: usize,
    keys_at_the_cap: usize,
    file: String,
    bytes: usize,
}

fn main() -> Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [data, out] = args.as_slice() else {
        bail!("usage: bilingual-table DATA OUT (DATA: the shared data folder; OUT: where to write en-ru.uqbl)");
    };
    let (data, out) = (Path::new(data), Path::new(out));
    let dictionary = data.join("bilingual/en_ru.tsv");
    let text = std::fs::read_to_string(&dictionary)
        .with_context(|| format!("cannot read {}", dictionary.display()))?;
    let mut pairs: Vec<(usize, u32, u32)> = Vec::new();
    let mut read = 0;
    for line in text.lines().skip(1) {
        let mut cols = line.split('\t');
        let (Some(en), Some(ru), Some(sources)) = (cols.next(), cols.next(), cols.next()) else {
            continue;
        };
        read += 1;
        if let (Some(a), Some(b)) = (key(en), key(ru)) {
            pairs.push((sources.split(',').count(), a, b));
        }
    }
    if pairs.is_empty() {
        bail!("{}: no pair of single words", dictionary.display());
    }
    // Most attested first; the sort is stable, so file order breaks ties.
    pairs.sort_by_key(|&(sources, _, _)| std::cmp::Reverse(sources));
    let table = Bilingual::from_pairs(pairs.iter().map(|&(_, a, b)| (a, b)), true);
    let bytes = table.encode();
    std::fs::create_dir_all(out).with_context(|| format!("cannot create {}", out.display()))?;
    let file = out.join("en-ru.uqbl");
    let tmp = out.join("en-ru.uqbl.tmp");
    std::fs::write(&tmp, &bytes).with_context(|| format!("cannot write {}", tmp.display()))?;
    std::fs::rename(&tmp, &file).with_context(|| format!("cannot write {}", file.display()))?;
    let decoded = Bilingual::decode(&bytes)?;
    let keys = decoded.len();
    let lists = decoded.lists();
    let translations = lists.iter().sum();
    let capped = lists.iter().filter(|&&n| n == MAX_TRANSLATIONS).count();
    let built = Built {
        dictionary: dictionary.display().to_string(),
        pairs_read: read,
        pairs_of_words: pairs.len(),
        keys,
        translations,
        keys_at_the_cap: capped,
        file: file.display().to_string(),
        bytes: bytes.len(),
    };
    println!("{}", serde_json::to_string_pretty(&built)?);
    Ok(())
}
