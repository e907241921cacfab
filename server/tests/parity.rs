//! The parity of the paths (issue 33): the three hand-written drafts of `tests/data/parity/`
//! checked by the real CLI against the demo corpus through `check --against` (the files),
//! `check --db` (a store made by `uniqcheck index`) and `check --packs` (the packs `uniqcheck
//! pack` writes, read as a browser reads them) must name the same sources with uniqueness and
//! originality within 0.5 points; and `eval parity --demo` must say the same as the CLI.
//!
//! The other two targets, every draft of the rewrite benchmark and 99 % of PAN 2013's
//! suspicious documents, are here too, through `eval parity` on the shared data
//! (docs/EVALUATION.md, "Parity of the paths"; PAN's takes about a minute and a half).

use serde_json::Value;
use std::path::{Path, PathBuf};

#[path = "common/data.rs"]
mod data;
#[path = "common/run.rs"]
mod run;
use run::{json, s, uniqcheck};

/// Figures of two paths further apart than this disagree (issue 33's target).
const TOLERANCE: f64 = 0.5;

/// The full paraphrase (i) is found by no path today, not even by `compare` against its article
/// (uniqueness and originality 100, resemblance 0.004): every sentence was restated, so it shares
/// no shingle, no anchor and no sentence key with the article. That is the engine's recall of
/// paraphrases, not the parity of the paths, which holds; when the engine learns to find it,
/// this turns to `true` and the test then demands the source on every path.
const PARAPHRASE_FOUND_TODAY: bool = false;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn draft(name: &str) -> PathBuf {
    repo().join("tests/data/parity").join(name)
}

/// A source as `lang/file.html`, whatever the path names it by (`file://…/demo/corpus/ru/x.html`
/// for `--against`, `https://demo.uniqcheck.local/ru/x.html` for the store and the packs).
fn sources(v: &Value) -> Vec<String> {
    let mut out: Vec<String> = v["sources"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            let url = s["url"].as_str().unwrap();
            let mut parts = url.rsplit('/');
            let file = parts.next().unwrap();
            format!("{}/{file}", parts.next().unwrap())
        })
        .collect();
    out.sort();
    out
}

fn figure(v: &Value, key: &str) -> f64 {
    v[key].as_f64().unwrap()
}

/// The demo corpus indexed as `scripts/start` indexes it, and its packs.
struct Built {
    _dir: tempfile::TempDir,
    db: PathBuf,
    packs: PathBuf,
}

fn build() -> Built {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("demo.db");
    let packs = dir.path().join("packs");
    let corpus = repo().join("demo/corpus");
    json(&uniqcheck(&[
        "index",
        s(&corpus),
        "--db",
        s(&db),
        "--base-url",
        "https://demo.uniqcheck.local/",
        "--json",
    ]));
    json(&uniqcheck(&[
        "pack",
        "--db",
        s(&db),
        "-o",
        s(&packs),
        "--json",
    ]));
    Built {
        _dir: dir,
        db,
        packs,
    }
}

/// `check DRAFT --json` with `how` on each of the three paths: (against, db, packs).
fn three_paths(built: &Built, name: &str) -> [Value; 3] {
    let d = draft(name);
    let corpus = repo().join("demo/corpus");
    let check = |how: &[&str]| {
        let mut args = vec!["check", s(&d), "--json"];
        args.extend(how);
        json(&uniqcheck(&args))
    };
    [
        check(&["--against", s(&corpus)]),
        check(&["--db", s(&built.db)]),
        check(&["--packs", s(&built.packs)]),
    ]
}

/// Asserts that the three paths agree on `name`, and returns their sources (the store's).
fn assert_parity(built: &Built, name: &str) -> Vec<String> {
    let [against, db, packs] = three_paths(built, name);
    for (path, v) in [("--against", &against), ("--packs", &packs)] {
        assert_eq!(
            sources(v),
            sources(&db),
            "{name}: the sources of {path} and --db\n{path}: {v}\n--db: {db}"
        );
        for key in ["uniqueness", "originality"] {
            assert!(
                (figure(v, key) - figure(&db, key)).abs() <= TOLERANCE,
                "{name}: {key} {} through {path}, {} through --db",
                figure(v, key),
                figure(&db, key)
            );
        }
    }
    // Within the tolerance of each other, not only of the store.
    for key in ["uniqueness", "originality"] {
        let f = [&against, &db, &packs].map(|v| figure(v, key));
        let spread =
            f.iter().cloned().fold(f64::MIN, f64::max) - f.iter().cloned().fold(f64::MAX, f64::min);
        assert!(
            spread <= TOLERANCE,
            "{name}: {key} {f:?} (against, db, packs)"
        );
    }
    assert_eq!(figure(&against, "words"), figure(&db, "words"), "{name}");
    assert_eq!(figure(&packs, "words"), figure(&db, "words"), "{name}");
    sources(&db)
}

#[test]
fn a_full_paraphrase_gets_the_same_answer_on_every_path() {
    let built = build();
    let found = assert_parity(&built, "paraphrase.txt");
    if PARAPHRASE_FOUND_TODAY {
        assert_eq!(found, ["ru/chugunnaya-skovoroda.html"]);
    } else {
        assert_eq!(
            found,
            Vec::<String>::new(),
            "found at last: set PARAPHRASE_FOUND_TODAY"
        );
    }
}

#[test]
fn a_heavy_rewrite_gets_the_same_answer_on_every_path() {
    let built = build();
    let found = assert_parity(&built, "heavy-rewrite.txt");
    assert_eq!(found, ["ru/chugunnaya-skovoroda.html"]);
}

#[test]
fn own_text_with_one_copied_sentence_gets_the_same_answer_on_every_path() {
    let built = build();
    let found = assert_parity(&built, "own-text-one-sentence.txt");
    assert_eq!(found, ["ru/utrennyaya-zaryadka.html"]);
}

#[test]
fn eval_parity_demo_agrees_with_the_cli() {
    let built = build();
    let out = json(&uniqcheck(&[
        "eval",
        "parity",
        "--demo",
        s(&repo()),
        "--json",
        "--threads",
        "1",
    ]));
    let demo = &out["corpora"][0];
    assert_eq!(demo["corpus"], "demo");
    assert_eq!(demo["published"], 30);
    assert_eq!(demo["groups"][0]["name"], "all");
    assert_eq!(demo["groups"][0]["drafts"], 3);
    // What the harness says of each draft is what the CLI says: where every path agrees, the
    // harness lists nothing; where one does not, it lists the draft with the store's figures.
    let disagreeing: Vec<&str> = demo["disagreements"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["draft"].as_str().unwrap())
        .collect();
    let mut agree = 0;
    for name in [
        "heavy-rewrite.txt",
        "own-text-one-sentence.txt",
        "paraphrase.txt",
    ] {
        let [against, db, packs] = three_paths(&built, name);
        let same = [&against, &packs].iter().all(|v| {
            sources(v) == sources(&db)
                && ["uniqueness", "originality"]
                    .iter()
                    .all(|k| (figure(v, k) - figure(&db, k)).abs() <= TOLERANCE)
        });
        agree += usize::from(same);
        assert_eq!(!disagreeing.contains(&name), same, "{name}: {demo}");
    }
    assert_eq!(demo["groups"][0]["agree"], agree, "{demo}");
}

/// `eval parity` on one corpus of the shared data: its summary, or `None` (skipped) without it.
fn eval_parity(flag: &str, needed: &str) -> Option<Value> {
    let data = data::require(needed)?;
    let out = json(&uniqcheck(&[
        "eval",
        "parity",
        flag,
        s(&data.join(needed)),
        "--json",
    ]));
    Some(out["corpora"][0].clone())
}

/// The first disagreements of a summary, for a failure's message.
fn first_disagreements(summary: &Value) -> String {
    summary["disagreements"]
        .as_array()
        .unwrap()
        .iter()
        .take(5)
        .map(|d| format!("{}: {}", d["draft"], d["kinds"]))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Every rewrite draft gets the same answer on every path: the store's, the packs' and
/// `--against`'s (which differed on 1 of 1,872 while rewrites were widened over equal neighbouring
/// words against a full text and not against a record).
#[test]
fn every_draft_of_the_rewrite_benchmark_gets_the_same_answer_on_every_path() {
    let Some(summary) = eval_parity("--rewrites", "ru/factRuEval-2016") else {
        return;
    };
    let all = &summary["groups"][0];
    let drafts = all["drafts"].as_u64().unwrap();
    assert!(drafts > 1000, "{all}");
    assert!(
        summary["disagreements"].as_array().unwrap().is_empty(),
        "{all}\n{}",
        first_disagreements(&summary)
    );
}

#[test]
fn pan_suspicious_documents_get_the_same_answer_on_every_path_at_99_percent() {
    let Some(summary) = eval_parity("--pan", "pan13-train") else {
        return;
    };
    let all = &summary["groups"][0];
    let (agree, drafts) = (
        all["agree"].as_u64().unwrap(),
        all["drafts"].as_u64().unwrap(),
    );
    assert!(drafts > 1000, "{all}");
    assert!(
        agree * 100 >= drafts * 99,
        "{agree} of {drafts} agree\n{}",
        first_disagreements(&summary)
    );
}
