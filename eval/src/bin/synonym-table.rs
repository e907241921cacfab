//! Builds the synonym tables (`uniqcheck::synonyms`) from the thesauri in the shared data folder.
//!
//! ```sh
//! cargo run --release -p uniqcheck-eval --bin synonym-table -- ../shared/data data/synonyms
//! ```
//!
//! Reads `DATA/thesaurus/ru/ru_synonyms.tsv` and `DATA/thesaurus/en/oewn_synsets.tsv`; ranks
//! words by their frequency in every Russian text of DATA but factRuEval's test set (which
//! `eval rewrites --split test` keeps held out): factRuEval's `devset/book_*.txt`,
//! `ru/rusimplesenteval` and `ru/paraphrases_train.tsv`; and in English in
//! `20news-bydate/20news-bydate-train` (not PAN, which `eval pan` measures). Writes
//! `OUT/ru.uqsy` and `OUT/en.uqsy` and prints what each holds as JSON. Deterministic: the same
//! data gives the same bytes.

use anyhow::{bail, Context, Result};
use std::path::{Path, PathBuf};
use uniqcheck_eval::thesaurus::{self, ClassStats};

#[derive(serde::Serialize)]
struct Built {
    language: &'static str,
    thesaurus: String,
    frequencies: Vec<String>,
    file: String,
    bytes: usize,
    #[serde(flatten)]
    stats: ClassStats,
}

fn build(
    language: &'static str,
    thesaurus_file: &Path,
    read: fn(&str) -> Vec<thesaurus::Entry>,
    corpora: &[PathBuf],
    out: &Path,
) -> Result<Built> {
    let text = std::fs::read_to_string(thesaurus_file)
        .with_context(|| format!("cannot read {}", thesaurus_file.display()))?;
    let entries = read(&text);
    if entries.is_empty() {
        bail!("{}: no thesaurus entries", thesaurus_file.display());
    }
    let paths: Vec<&Path> = corpora.iter().map(PathBuf::as_path).collect();
    // factRuEval's folders also hold its annotation files (.tokens, .spans, ...): texts only.
    let freq = thesaurus::frequencies_of_files(&paths, |f| {
        let name = f.file_name().and_then(|n| n.to_str()).unwrap_or("");
        !f.components().any(|c| c.as_os_str() == "devset")
            || (name.starts_with("book_") && name.ends_with(".txt"))
    })?;
    let (table, stats) = thesaurus::table(&entries, &freq);
    let bytes = table.encode();
    let file = out.join(format!("{language}.uqsy"));
    std::fs::write(&file, &bytes).with_context(|| format!("cannot write {}", file.display()))?;
    Ok(Built {
        language,
        thesaurus: thesaurus_file.display().to_string(),
        frequencies: corpora.iter().map(|p| p.display().to_string()).collect(),
        file: file.display().to_string(),
        bytes: bytes.len(),
        stats,
    })
}

fn main() -> Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [data, out] = args.as_slice() else {
        bail!("usage: synonym-table DATA OUT (DATA: the shared data folder; OUT: where to write ru.uqsy and en.uqsy)");
    };
    let (data, out) = (Path::new(data), Path::new(out));
    std::fs::create_dir_all(out).with_context(|| format!("cannot create {}", out.display()))?;
    let built = vec![
        build(
            "ru",
            &data.join("thesaurus/ru/ru_synonyms.tsv"),
            thesaurus::read_ru,
            &[
                data.join("ru/factRuEval-2016/devset"),
                data.join("ru/rusimplesenteval"),
                data.join("ru/paraphrases_train.tsv"),
            ],
            out,
        )?,
        build(
            "en",
            &data.join("thesaurus/en/oewn_synsets.tsv"),
            thesaurus::read_en,
            &[data.join("20news-bydate/20news-bydate-train")],
            out,
        )?,
    ];
    println!("{}", serde_json::to_string_pretty(&built)?);
    Ok(())
}
