//! End-to-end tests of `--method` (compare, check), `dedup` and `study`: real files, real
//! processes, real exit codes.

use std::path::PathBuf;
use std::process::Output;

#[path = "common/data.rs"]
mod data;
#[path = "common/run.rs"]
mod run;
use run::{assert_fails, json, s, stdout, uniqcheck};

/// A usage error (exit 2) that names `needle`.
fn assert_usage_error(o: &Output, needle: &str) {
    assert_fails(o, 2, needle);
}

const TEA: &str = "Заварочный чайник сначала ополаскивают кипятком, чтобы фарфор прогрелся и не \
    отнимал тепло у настоя. Чёрный чай раскрывается за три-пять минут, зелёный за две-три, а \
    улун можно заваривать несколько раз подряд, каждый раз чуть дольше прежнего. Воду для \
    зелёного чая не доводят до кипения: восьмидесяти градусов достаточно, иначе листья горчат.";
const BREAD: &str =
    "Domашний хлеб? No: a sourdough loaf needs a lively starter, flour with enough \
    protein, water at room temperature and patience. Mix, rest for an hour, fold the dough every \
    half hour, shape it, proof it overnight in the fridge and bake it in a hot covered pot.";
const GARDEN: &str = "A balcony herb garden starts with pots that drain well, a sunny wall and \
    herbs that forgive neglect: thyme, rosemary and oregano want little water, basil wants a lot, \
    and mint must live alone or it will take over every other pot on the balcony by midsummer.";

/// A folder with three unrelated texts and a lightly edited copy of the first.
fn folder() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let site = dir.path().join("site");
    std::fs::create_dir(&site).unwrap();
    std::fs::write(site.join("tea.txt"), TEA).unwrap();
    std::fs::write(site.join("tea-copy.txt"), TEA.replace("фарфор", "сосуд")).unwrap();
    std::fs::write(site.join("bread.txt"), BREAD).unwrap();
    std::fs::write(site.join("garden.txt"), GARDEN).unwrap();
    (dir, site)
}

#[test]
fn compare_adds_the_methods_verdict_and_keeps_its_shape() {
    let (_dir, site) = folder();
    let (a, b) = (site.join("tea.txt"), site.join("tea-copy.txt"));
    let v = json(&uniqcheck(&[
        "compare",
        s(&a),
        s(&b),
        "--method",
        "longwords",
        "--json",
    ]));
    assert!(v["uniqueness"].is_number() && v["fragments"].is_array());
    // The short-text method's old name is still read; the verdict names it as it is now.
    assert_eq!(v["verdict"]["method"], "short");
    assert_eq!(v["verdict"]["duplicate"], true);
    assert_eq!(v["verdict"]["threshold"], 0.8);
    let plain = json(&uniqcheck(&["compare", s(&a), s(&b), "--json"]));
    assert!(plain.get("verdict").is_none());
    let v = json(&uniqcheck(&[
        "compare",
        s(&a),
        s(&site.join("garden.txt")),
        "--method",
        "char-cosine",
        "--json",
    ]));
    assert_eq!(v["verdict"]["duplicate"], false);
    assert_usage_error(
        &uniqcheck(&["compare", s(&a), s(&b), "--method", "nope"]),
        "unknown method",
    );
    assert_usage_error(
        &uniqcheck(&[
            "compare",
            s(&a),
            s(&b),
            "--method",
            "simhash",
            "--threshold",
            "2",
        ]),
        "--threshold",
    );
}

#[test]
fn check_against_ranks_every_source_and_refuses_a_store() {
    let (dir, site) = folder();
    let draft = dir.path().join("draft.txt");
    std::fs::write(&draft, TEA).unwrap();
    let v = json(&uniqcheck(&[
        "check",
        s(&draft),
        "--against",
        s(&site),
        "--method",
        "simhash",
        "--json",
    ]));
    let ranking = v["ranking"].as_array().unwrap();
    assert_eq!(
        ranking.len(),
        4,
        "every source file, not only the candidates"
    );
    assert!(ranking[0]["id"].as_str().unwrap().ends_with("tea.txt"));
    assert_eq!(ranking[0]["similarity"], 1.0);
    let sims: Vec<f64> = ranking
        .iter()
        .map(|r| r["similarity"].as_f64().unwrap())
        .collect();
    assert!(sims.windows(2).all(|w| w[0] >= w[1]), "{sims:?}");
    assert_usage_error(
        &uniqcheck(&["check", s(&draft), "--db", "x.db", "--method", "simhash"]),
        "--against",
    );
}

#[test]
fn dedup_groups_the_copy_with_its_original_in_json_and_csv() {
    let (dir, site) = folder();
    let db = dir.path().join("site.db");
    let o = uniqcheck(&["index", s(&site), "--db", s(&db)]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v = json(&uniqcheck(&["dedup", "--db", s(&db), "--json"]));
    assert_eq!(v["documents"], 4);
    assert_eq!(v["method"], "aligned");
    let groups = v["groups"].as_array().unwrap();
    assert_eq!(groups.len(), 1, "{v}");
    let urls: Vec<&str> = groups[0]["members"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["url"].as_str().unwrap())
        .collect();
    assert_eq!(urls.len(), 2);
    assert!(urls.iter().all(|u| u.contains("tea")), "{urls:?}");
    let csv = uniqcheck(&["dedup", "--db", s(&db), "--csv"]);
    let csv = stdout(&csv);
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(lines[0], "group,id,url,title,words,similarity,keep");
    assert_eq!(lines.len(), 3);
    assert_eq!(lines.iter().filter(|l| l.ends_with(",true")).count(), 1);
    assert_usage_error(
        &uniqcheck(&["dedup", "--db", s(&db), "--method", "char-cosine"]),
        "characters",
    );
}

#[test]
fn study_draws_an_svg_when_the_data_is_there() {
    let Some(data) = data::require("ru/paraphrases_train.tsv") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("s.svg");
    let o = uniqcheck(&[
        "study",
        s(&data),
        "--dataset",
        "paraphrases",
        "--x",
        "char-cosine",
        "--y",
        "short",
        "--random",
        "500",
        "--out",
        s(&out),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let svg = std::fs::read_to_string(&out).unwrap();
    assert!(svg.starts_with("<svg") && svg.contains("char-cosine similarity"));
    let table = stdout(&o);
    assert!(table.contains("| duplicates |"), "{table}");
}

#[test]
fn study_on_a_store_counts_its_own_candidate_pairs_by_side_of_the_thresholds() {
    let (dir, site) = folder();
    let db = dir.path().join("site.db");
    let o = uniqcheck(&["index", s(&site), "--db", s(&db)]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let out = dir.path().join("store.svg");
    let o = uniqcheck(&[
        "study",
        "--db",
        s(&db),
        "--x",
        "shingles",
        "--y",
        "aligned",
        "--out",
        s(&out),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let svg = std::fs::read_to_string(&out).unwrap();
    assert!(svg.starts_with("<svg") && svg.contains("aligned similarity"));
    // The copy and its original are a candidate pair above both thresholds; the store's pairs
    // carry no labels, so only their row is printed.
    let table = stdout(&o);
    let row = table
        .lines()
        .find(|l| l.starts_with("| candidate pairs |"))
        .unwrap_or_else(|| panic!("{table}"));
    let cells: Vec<usize> = row
        .split('|')
        .filter_map(|c| c.trim().parse().ok())
        .collect();
    assert!(cells.len() == 4 && cells[0] >= 1, "{row}");
    assert!(!table.contains("| duplicates |"), "{table}");
    // A method that needs the text is refused, and the data folder and --db exclude each other.
    assert_usage_error(
        &uniqcheck(&["study", "--db", s(&db), "--x", "char-cosine"]),
        "characters",
    );
    let both = uniqcheck(&["study", s(&site), "--db", s(&db)]);
    assert!(!both.status.success());
}
