//! `check --exclude-domain`, `--exclude-url`, `--exclude-quotes` through the binary: against
//! files and against a store.

use serde_json::Value;
use std::path::Path;

#[path = "common/run.rs"]
mod run;
use run::{json, s, stderr, stdout, uniqcheck};

const MINE: &str = "Шинглы — это последовательности слов фиксированной длины, по которым \
    поисковые системы находят почти одинаковые документы в интернете и считают их копиями, \
    если совпадает большая часть таких последовательностей.";
const THEIRS: &str = "Уникальность текста показывает, какая доля слов черновика не \
    встречается в опубликованных источниках, найденных проверкой по всему индексу документов \
    за последние годы работы сервиса.";

fn ids(report: &Value) -> Vec<String> {
    report["sources"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["url"].as_str().unwrap().to_owned())
        .collect()
}

/// A draft copying MINE, then THEIRS in quotation marks.
fn draft(dir: &Path) -> std::path::PathBuf {
    let text = format!(
        "Мой вводный абзац о проверке текстов для заказчика и о том, зачем она нужна. {MINE}\n\
         Дальше своими словами о работе копирайтера. Как пишет сервис: «{THEIRS}» Конец."
    );
    let path = dir.join("draft.txt");
    std::fs::write(&path, text).unwrap();
    path
}

#[test]
fn check_against_a_store_leaves_out_a_domain_and_quotations() {
    let dir = tempfile::tempdir().unwrap();
    let lines = [
        ("https://www.mysite.ru/shingles/", MINE),
        ("https://other.com/uniq", THEIRS),
    ]
    .map(|(url, text)| serde_json::json!({ "url": url, "text": text }).to_string())
    .join("\n");
    std::fs::write(dir.path().join("docs.jsonl"), lines).unwrap();
    let db = dir.path().join("store.db");
    let o = uniqcheck(&["index", s(&dir.path().join("docs.jsonl")), "--db", s(&db)]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let draft = draft(dir.path());
    let check = |extra: &[&str]| {
        let mut args = vec!["check", s(&draft), "--db", s(&db), "--json"];
        args.extend_from_slice(extra);
        json(&uniqcheck(&args))
    };
    let all = check(&[]);
    assert_eq!(
        ids(&all),
        ["https://www.mysite.ru/shingles/", "https://other.com/uniq"]
    );
    assert_eq!(
        all["excluded"],
        serde_json::json!({"sources": 0, "quoted_words": 0})
    );

    let mine = check(&["--exclude-domain", "mysite.ru"]);
    assert_eq!(ids(&mine), ["https://other.com/uniq"]);
    assert_eq!(mine["excluded"]["sources"], 1);
    let share = all["sources"][0]["share"].as_f64().unwrap();
    let raised = mine["uniqueness"].as_f64().unwrap() - all["uniqueness"].as_f64().unwrap();
    assert!((raised - 100.0 * share).abs() < 0.11, "{raised} vs {share}");

    let url = check(&["--exclude-url", "http://mysite.ru/shingles"]);
    assert_eq!(ids(&url), ["https://other.com/uniq"]);

    let quotes = check(&["--exclude-quotes"]);
    assert_eq!(ids(&quotes), ["https://www.mysite.ru/shingles/"]);
    assert!(quotes["excluded"]["quoted_words"].as_u64().unwrap() > 15);

    let both = check(&[
        "--exclude-quotes",
        "--exclude-domain",
        "https://www.mysite.ru/",
    ]);
    assert!(ids(&both).is_empty());
    assert_eq!(both["uniqueness"], 100.0);
}

#[test]
fn check_against_files_says_what_was_excluded_and_refuses_a_bad_domain() {
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path().join("src");
    std::fs::create_dir(&src).unwrap();
    std::fs::write(src.join("mine.txt"), MINE).unwrap();
    std::fs::write(src.join("theirs.txt"), THEIRS).unwrap();
    let draft = draft(dir.path());
    let o = uniqcheck(&["check", s(&draft), "--against", s(&src), "--exclude-quotes"]);
    assert!(o.status.success());
    let out = stdout(&o);
    assert!(out.contains("Excluded: 0 sources"), "{out}");
    assert!(
        out.contains("words in quotations counted as not copied"),
        "{out}"
    );
    assert!(!out.contains("theirs.txt"), "{out}");

    let o = uniqcheck(&[
        "check",
        s(&draft),
        "--against",
        s(&src),
        "--exclude-domain",
        "localhost",
    ]);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(err.contains("exclude.domains"), "{err}");
}
