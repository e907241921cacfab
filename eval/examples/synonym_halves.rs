//! How much a synonym table buys against a synonymizer that uses ANOTHER dictionary.
//!
//! `eval rewrites --synonyms` rewrites with the same thesaurus the table is built from, an upper
//! bound. Here the Russian thesaurus' lines are split in two halves by headword (FNV-1a parity):
//! the `synonyms` and `heavy` drafts are rewritten from half A only, and tables are built from
//! A (the synonymizer's own dictionary), from B (the other half: a different dictionary with
//! overlapping words) and from both.
//!
//! ```sh
//! cargo run --release -p uniqcheck-eval --example synonym_halves -- ../shared/data
//! ```

use anyhow::{bail, Result};
use std::path::Path;
use uniqcheck::synonyms::Synonyms;
use uniqcheck::{CheckOptions, Params};
use uniqcheck_eval::rewrites::{self, Kind, KindScores};
use uniqcheck_eval::thesaurus::{self, Entry};

fn half(e: &Entry) -> bool {
    let mut h: u32 = 0x811c_9dc5;
    for b in e.headword.bytes() {
        h = (h ^ u32::from(b)).wrapping_mul(0x0100_0193);
    }
    h & 1 == 0
}

fn pct(x: Option<f64>) -> String {
    x.map_or_else(|| "-".to_owned(), |x| format!("{:.1}", 100.0 * x))
}

fn main() -> Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [data] = args.as_slice() else {
        bail!("usage: synonym_halves DATA (the shared data folder)");
    };
    let data = Path::new(data);
    let text = std::fs::read_to_string(data.join("thesaurus/ru/ru_synonyms.tsv"))?;
    let entries = thesaurus::read_ru(&text);
    let (a, b): (Vec<Entry>, Vec<Entry>) = entries.iter().cloned().partition(half);
    let freq = thesaurus::frequencies_of_files(
        &[
            &data.join("ru/factRuEval-2016/devset"),
            &data.join("ru/rusimplesenteval"),
            &data.join("ru/paraphrases_train.tsv"),
        ],
        |f| {
            let name = f.file_name().and_then(|n| n.to_str()).unwrap_or("");
            !f.components().any(|c| c.as_os_str() == "devset")
                || (name.starts_with("book_") && name.ends_with(".txt"))
        },
    )?;
    let texts = rewrites::read_corpus(&data.join("ru/factRuEval-2016"))?;
    let kinds = [Kind::None, Kind::Synonyms, Kind::Heavy];
    let pairs = rewrites::build(&texts, &kinds, &rewrites::Synonymizer::new(&a));
    let (params, opts) = (Params::default(), CheckOptions::default());
    let tables: Vec<(&str, Option<Synonyms>)> = vec![
        ("no table", None),
        (
            "table from A (the synonymizer's)",
            Some(thesaurus::table(&a, &freq).0),
        ),
        (
            "table from B (the other half)",
            Some(thesaurus::table(&b, &freq).0),
        ),
        (
            "table from A and B",
            Some(thesaurus::table(&entries, &freq).0),
        ),
    ];
    println!(
        "{} sources; half A: {} lines, half B: {} lines",
        pairs.len() / kinds.len(),
        a.len(),
        b.len()
    );
    println!(
        "{:<34} {:<9} {:>7} {:>8} {:>6} {:>8} {:>6} {:>8} {:>6}",
        "table", "kind", "flagged", "det.rec", "prec", "copy.rec", "prec", "mark.rec", "prec"
    );
    for (name, table) in &tables {
        let results = rewrites::run(&pairs, &texts, &params, &opts, table.as_ref());
        let scores: Vec<KindScores> = rewrites::summarize(&pairs, &results, &kinds);
        for k in scores.iter().filter(|k| k.kind != rewrites::ALL_REWRITTEN) {
            println!(
                "{:<34} {:<9} {:>7} {:>8} {:>6} {:>8} {:>6} {:>8} {:>6}",
                name,
                k.kind,
                k.flagged,
                pct(k.recall),
                pct(k.precision),
                pct(k.highlight_recall),
                pct(k.highlight_precision),
                pct(k.marked_recall),
                pct(k.marked_precision)
            );
        }
    }
    Ok(())
}
