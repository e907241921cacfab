//! `uniqcheck eval` end to end, on tiny corpora built in a temporary folder.

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Output;

#[path = "common/run.rs"]
mod run;
use run::{json, stdout, uniqcheck};

/// A made-up word, distinct for distinct `i` below 10,000 (its four decimal digits as syllables
/// of `syl`, then `end`), so unrelated passages share nothing.
fn made_up(i: usize, syl: &[&str; 10], end: &str) -> String {
    let (a, b, c, d) = (i / 1000 % 10, i / 100 % 10, i / 10 % 10, i % 10);
    format!("{}{}{}{}{end}", syl[a], syl[b], syl[c], syl[d])
}

/// Made-up words, distinct for distinct `i`.
fn words(range: std::ops::Range<usize>) -> String {
    const SYL: [&str; 10] = ["ka", "lo", "mi", "ne", "pu", "ro", "si", "tu", "ve", "zo"];
    range
        .map(|i| made_up(i, &SYL, "x"))
        .collect::<Vec<_>>()
        .join(" ")
}

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

fn feature(toff: usize, tlen: usize, src: &str, soff: usize, slen: usize) -> String {
    format!(
        "<feature name=\"plagiarism\" obfuscation=\"none\" source_length=\"{slen}\" \
         source_offset=\"{soff}\" source_reference=\"{src}\" this_length=\"{tlen}\" \
         this_offset=\"{toff}\" type=\"artificial\" />\n"
    )
}

/// Builds: 01 with one unrelated pair; 02 with a verbatim copy annotated exactly, and one whose
/// annotation runs `extra` characters past the copy on both sides. Returns (L, extra), L the
/// length of the second copy.
fn corpus(root: &Path) -> (usize, usize) {
    let doc = |kind: &str, n: u32| format!("{kind}-document{n:05}.txt");
    let xml = |s: u32, r: u32| format!("suspicious-document{s:05}-source-document{r:05}.xml");
    let put =
        |dir: &str, kind: &str, n: u32, text: &str| write(&root.join(dir).join(doc(kind, n)), text);

    // 01: unrelated.
    put("susp", "suspicious", 1, &words(0..150));
    put("src", "source", 1, &words(200..350));
    write(
        &root.join("01-no-plagiarism/pairs"),
        &format!("{} {}\n", doc("suspicious", 1), doc("source", 1)),
    );
    write(
        &root.join("01-no-plagiarism").join(xml(1, 1)),
        "<document reference=\"suspicious-document00001.txt\">\n</document>\n",
    );

    // 02, pair 2: exact annotation.
    let copied = words(1000..1080);
    let susp = format!("{}. {copied}. {}", words(400..440), words(500..540));
    let src = format!("{}. {copied}. {}", words(600..630), words(700..740));
    put("susp", "suspicious", 2, &susp);
    put("src", "source", 2, &src);
    let (t, s) = (susp.find(&copied).unwrap(), src.find(&copied).unwrap());
    let case2 = feature(t, copied.len(), &doc("source", 2), s, copied.len());

    // 02, pair 3: the annotation is `extra` characters longer than the copy on each side.
    let extra = 20;
    let copied3 = words(4000..4060);
    let susp3 = format!("{}. {copied3}. {}", words(5000..5030), words(5100..5130));
    let src3 = format!("{}. {copied3}. {}", words(3000..3030), words(3100..3130));
    put("susp", "suspicious", 3, &susp3);
    put("src", "source", 3, &src3);
    let (t3, s3) = (susp3.find(&copied3).unwrap(), src3.find(&copied3).unwrap());
    let l = copied3.len();
    let case3 = feature(t3, l + extra, &doc("source", 3), s3, l + extra);

    write(
        &root.join("02-no-obfuscation/pairs"),
        &format!(
            "{} {}\n{} {}\n",
            doc("suspicious", 2),
            doc("source", 2),
            doc("suspicious", 3),
            doc("source", 3)
        ),
    );
    for (n, case) in [(2, case2), (3, case3)] {
        write(
            &root.join("02-no-obfuscation").join(xml(n, n)),
            &format!(
                "<document reference=\"{}\">\n{case}</document>\n",
                doc("suspicious", n)
            ),
        );
    }
    (l, extra)
}

fn close(v: &Value, expected: f64) {
    let x = v.as_f64().unwrap_or_else(|| panic!("not a number: {v}"));
    assert!((x - expected).abs() < 1e-9, "{x} != {expected}");
}

#[test]
fn pan_scores_are_the_hand_computed_ones() {
    let dir = tempfile::tempdir().unwrap();
    let (l, extra) = corpus(dir.path());
    let xml_dir = dir.path().join("detections");
    let root = dir.path().to_str().unwrap();
    let o = uniqcheck(&[
        "eval",
        "pan",
        root,
        "--json",
        "--threads",
        "2",
        "--xml",
        xml_dir.to_str().unwrap(),
    ]);
    let j = json(&o);
    assert_eq!(j["pairs"], 3);
    let f = &j["folders"];
    assert_eq!(f[0]["name"], "01-no-plagiarism");
    assert_eq!(
        (f[0]["pairs"].as_u64(), f[0]["detections"].as_u64()),
        (Some(1), Some(0))
    );
    for key in ["precision", "recall", "granularity", "plagdet"] {
        close(&f[0][key], 1.0); // no cases, no detections: the official script's 1s
    }
    assert_eq!(f[1]["name"], "02-no-obfuscation");
    assert_eq!(
        (f[1]["cases"].as_u64(), f[1]["detections"].as_u64()),
        (Some(2), Some(2))
    );
    let recall = (1.0 + l as f64 / (l + extra) as f64) / 2.0;
    close(&f[1]["recall"], recall);
    close(&f[1]["precision"], 1.0);
    close(&f[1]["granularity"], 1.0);
    close(&f[1]["plagdet"], 2.0 * recall / (recall + 1.0));
    close(&j["overall"]["recall"], recall);
    close(&j["overall"]["plagdet"], 2.0 * recall / (recall + 1.0));
    assert_eq!(j["false_alarms"]["flagged"], 0);
    close(&j["false_alarms"]["share"], 0.0);

    let det = std::fs::read_to_string(
        xml_dir.join("02-no-obfuscation/suspicious-document00002-source-document00002.xml"),
    )
    .unwrap();
    assert!(
        det.starts_with("<document reference=\"suspicious-document00002.txt\">"),
        "{det}"
    );
    assert_eq!(
        det.matches("name=\"detected-plagiarism\"").count(),
        1,
        "{det}"
    );

    // The table, --limit and --folders.
    let o = uniqcheck(&[
        "eval",
        "pan",
        root,
        "--limit",
        "1",
        "--folders",
        "02-no-obfuscation",
    ]);
    assert!(o.status.success());
    let table = stdout(&o);
    assert!(table.contains("02-no-obfuscation"), "{table}");
    assert!(!table.contains("01-no-plagiarism"), "{table}");
    assert!(table.contains("elapsed"), "{table}");
    let o = uniqcheck(&["eval", "pan", root, "--folders", "09-nothing"]);
    assert_eq!(o.status.code(), Some(1));
    let o = uniqcheck(&[
        "eval",
        "pan",
        dir.path().join("02-no-obfuscation").to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(1));
}

#[test]
fn russian_paraphrases_and_rewrites() {
    let dir = tempfile::tempdir().unwrap();
    let tsv = dir.path().join("p.tsv");
    write(
        &tsv,
        "id\tclass\ttext_1\ttext_2\n\
         1\t1\tПравительство утвердило новые правила въезда иностранных граждан\tПравительством утверждены новые правила въезда иностранных граждан\n\
         2\t-1\tСборная России выиграла чемпионат мира по хоккею\tЦентробанк снизил ключевую ставку до семи процентов\n\
         3\t0\tВ Москве открылся новый парк\tНовый парк открылся в Москве\n",
    );
    let j = json(&uniqcheck(&[
        "eval",
        "paraphrase",
        tsv.to_str().unwrap(),
        "--json",
    ]));
    assert_eq!(j["pairs"], 3);
    let r = j["results"].as_array().unwrap();
    assert_eq!(r.len(), 4);
    assert_eq!(
        (r[0]["n"].as_u64(), r[0]["stemming"].as_bool()),
        (Some(2), Some(true))
    );
    close(&r[0]["auc_resemblance"], 1.0);

    let csv = dir.path().join("simple/dev.csv");
    write(
        &csv,
        ",INPUT:source,OUTPUT:output\n\
         0,\"Кошка, сидевшая на окне, смотрела на улицу.\",\"Кошка, сидевшая на окне, смотрела на улицу.\"\n\
         1,Собаки громко лаяли во дворе всю ночь.,Кот спал.\n",
    );
    let j = json(&uniqcheck(&[
        "eval",
        "simplify",
        dir.path().join("simple").to_str().unwrap(),
        "--json",
    ]));
    let r = j["results"].as_array().unwrap();
    assert_eq!(r.len(), 4);
    assert_eq!(
        (r[0]["rewrites"].as_u64(), r[0]["identical"].as_u64()),
        (Some(2), Some(1))
    );
    assert_eq!(r[0]["flagged"], 1);
    close(&r[0]["share"], 0.5);
}

/// Made-up Russian-looking words, distinct for distinct `i`, as sentences of ten words.
fn sentences(range: std::ops::Range<usize>) -> String {
    const SYL: [&str; 10] = ["ка", "ло", "ми", "не", "пу", "ро", "си", "ту", "ве", "зо"];
    let w: Vec<String> = range.map(|i| made_up(i, &SYL, "р")).collect();
    w.chunks(10)
        .map(|s| {
            let s = s.join(" ");
            let mut c = s.chars();
            let first: String = c.next().unwrap().to_uppercase().collect();
            format!("{first}{}.", c.as_str())
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// A factRuEval-2016 folder under `dir` with four books of unrelated made-up sentences, and a
/// thesaurus file of `entries` (lines after its header): (folder, thesaurus).
fn fact_ru_eval(dir: &Path, entries: &str) -> (PathBuf, PathBuf) {
    let root = dir.join("factRuEval-2016");
    for i in 0..4 {
        write(
            &root.join("devset").join(format!("book_{i}.txt")),
            &sentences(i * 200..i * 200 + 120),
        );
    }
    let thesaurus = dir.join("ru_synonyms.tsv");
    write(&thesaurus, &format!("headword\tlabel\tsynonyms\n{entries}"));
    (root, thesaurus)
}

/// `uniqcheck eval rewrites ROOT --thesaurus THESAURUS` and `more`.
fn eval_rewrites(root: &Path, thesaurus: &Path, more: &[&str]) -> Output {
    let mut args = vec![
        "eval",
        "rewrites",
        root.to_str().unwrap(),
        "--thesaurus",
        thesaurus.to_str().unwrap(),
    ];
    args.extend_from_slice(more);
    uniqcheck(&args)
}

#[test]
fn rewrites_benchmark_with_and_without_a_synonym_table() {
    use uniqcheck::synonyms::Synonyms;
    use uniqcheck_eval::thesaurus::key;
    let dir = tempfile::tempdir().unwrap();
    // A thesaurus with one line, and a table mapping its synonym back.
    let (root, thesaurus) = fact_ru_eval(dir.path(), "какакар\t(синоним)\tдругословор\n");
    let h = |w: &str| key(w).unwrap();
    let table = dir.path().join("ru.uqsy");
    let t = Synonyms::from_pairs([(h("другословор"), h("какакар"))], true);
    std::fs::write(&table, t.encode()).unwrap();
    let table_arg = table.to_str().unwrap();
    let j = json(&eval_rewrites(
        &root,
        &thesaurus,
        &["--synonyms", table_arg, "--json"],
    ));
    assert_eq!(j["sources"], 4);
    let kinds = j["kinds"].as_array().unwrap();
    let names: Vec<&str> = kinds.iter().map(|k| k["kind"].as_str().unwrap()).collect();
    assert_eq!(
        names,
        [
            "none",
            "verbatim",
            "synonyms",
            "shuffle-words",
            "shuffle-sentences",
            "merge-split",
            "delete",
            "heavy",
            "all rewritten"
        ]
    );
    assert_eq!(kinds[0]["flagged"], 0);
    assert!(kinds[1]["recall"].as_f64().unwrap() > 0.9, "{}", kinds[1]);
    assert!(kinds[1]["highlight_precision"].as_f64().unwrap() > 0.9);
    assert_eq!(j["synonyms"]["words_mapped"], 1);
    assert_eq!(j["synonyms"]["kinds"].as_array().unwrap().len(), 9);
    // A damaged table is refused with its name.
    std::fs::write(&table, b"UQSY-not-a-table-at-all").unwrap();
    let o = eval_rewrites(&root, &thesaurus, &["--synonyms", table_arg]);
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("ru.uqsy"));
}

#[test]
fn rewrites_checked_through_one_index_find_their_sources() {
    let dir = tempfile::tempdir().unwrap();
    let (root, thesaurus) = fact_ru_eval(dir.path(), "");
    let j = json(&eval_rewrites(
        &root,
        &thesaurus,
        &["--retrieval", "--json"],
    ));
    let r = j["retrieval"].as_array().unwrap();
    let kind = |name: &str| r.iter().find(|k| k["kind"] == name).unwrap();
    assert_eq!(kind("none")["counts"]["drafts"], 4);
    assert_eq!(kind("none")["found"], 0.0);
    // Shuffled words keep no 4-word run: only the sentence keys find their source.
    for name in ["verbatim", "shuffle-words", "shuffle-sentences"] {
        let k = kind(name);
        assert_eq!(k["found"], 1.0, "{k}");
        assert!(k["recall"].as_f64().unwrap() > 0.8, "{k}");
        assert!(k["precision"].as_f64().unwrap() > 0.95, "{k}");
    }
    assert_eq!(kind("all rewritten")["counts"]["drafts"], 28);
}

#[test]
fn unrelated_drafts_are_counted_with_what_is_marked_of_them() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("20news-bydate");
    let post = |split: &str, name: &str, body: &str| {
        write(
            &root.join(split).join("sci.space").join(name),
            &format!("From: someone\nSubject: x\n\n{body}\n"),
        );
    };
    post("20news-bydate-train", "1", &sentences(0..60));
    post("20news-bydate-train", "2", &sentences(100..160));
    // A test post repeating a training post (headers and quotes are not counted), and one of
    // its own words only.
    post(
        "20news-bydate-test",
        "3",
        &format!("> {}\n{}", sentences(100..110), sentences(0..60)),
    );
    post("20news-bydate-test", "4", &sentences(300..360));
    let j = json(&uniqcheck(&[
        "eval",
        "unrelated",
        root.to_str().unwrap(),
        "--json",
    ]));
    let s = &j["scores"];
    assert_eq!(
        (s["indexed"].as_u64(), s["drafts"].as_u64()),
        (Some(2), Some(2))
    );
    assert_eq!(s["with_fragments"], 1);
    assert_eq!(s["with_sources"], 1);
    assert_eq!(s["with_rewrites"], 0);
}
