//! End-to-end tests of the `uniqcheck` binary: real files, real processes, real exit codes.

use serde_json::Value;
use std::path::{Path, PathBuf};

#[path = "common/run.rs"]
mod run;
use run::{assert_fails, json, s, stderr, stdout, uniqcheck, uniqcheck_stdin};

fn write(dir: &Path, name: &str, bytes: impl AsRef<[u8]>) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, bytes).unwrap();
    path
}

/// The `[start, end)` char span of a JSON pair, sliced out of `text`.
fn slice_chars(text: &str, span: &Value) -> String {
    let (start, end) = (
        span[0].as_u64().unwrap() as usize,
        span[1].as_u64().unwrap() as usize,
    );
    text.chars().skip(start).take(end - start).collect()
}

const COPIED: &str =
    "Шинглы позволяют поисковым системам быстро находить почти одинаковые документы \
    среди миллионов страниц интернета";

const OTHER_RU: &str = "Копирайтер проверяет текст перед публикацией, потому что заказчики \
    требуют высокой уникальности и внимательно смотрят на каждый абзац. Хороший редактор \
    переписывает чужие мысли своими словами, добавляет примеры из личного опыта и убирает \
    канцелярские обороты. ";

const TEA: &str = "Заварочный чайник сначала ополаскивают кипятком, чтобы фарфор прогрелся и не \
    отнимал тепло у настоя. Чёрный чай раскрывается за три-пять минут, зелёный за две-три, белый \
    можно держать дольше. Хранят чай в плотно закрытой банке вдали от специй и кофе, потому что \
    сухие листья легко впитывают чужие запахи. Открытую пачку лучше допить за два-три месяца, пока \
    аромат не выдохся.";

const SHOES: &str = "Running shoes are chosen for the foot, the surface and the usual distance, \
    and their colour comes last. Try them on in the evening, when feet are slightly swollen, and \
    leave a thumbnail of room in front of the big toe. Replace them every six to eight hundred \
    kilometres, because the foam in the sole slowly stops protecting the joints.";

const GARDEN: &str = "Tomatoes need full sun, deep watering twice a week and a stake to climb \
    before the fruit gets heavy. Pinch out the side shoots that grow between the stem and the \
    branches, and mulch the soil with straw so it keeps moisture through the hottest weeks of \
    summer. Pick the fruit when it turns fully red and slightly soft.";

fn corpus() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "tea.txt", TEA);
    write(dir.path(), "shoes.md", SHOES);
    write(dir.path(), "garden", GARDEN);
    write(dir.path(), "picture.png", b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR");
    std::fs::create_dir(dir.path().join(".git")).unwrap();
    write(&dir.path().join(".git"), "tea-copy.txt", TEA);
    dir
}

#[test]
fn compare_json_gives_char_offsets_in_both_texts() {
    let dir = tempfile::tempdir().unwrap();
    let a = format!("Заметки 😀 о поиске. {OTHER_RU}Говорят, что {COPIED}. Остальное я придумал сам и проверил на практике за выходные.");
    let b = format!("Статья 🙂🙂 про индексы. Первые поисковики хранили обратные списки слов. {COPIED}: так сказано в учебнике по информационному поиску для студентов второго курса.");
    let (pa, pb) = (
        write(dir.path(), "a.txt", &a),
        write(dir.path(), "b.txt", &b),
    );
    let v = json(&uniqcheck(&["compare", s(&pa), s(&pb), "--json"]));

    let u = v["uniqueness"].as_f64().unwrap();
    assert!(u > 0.0 && u < 100.0, "{v}");
    for key in ["resemblance", "containment"] {
        let x = v[key].as_f64().unwrap();
        assert!((0.0..=1.0).contains(&x) && x > 0.0, "{key}: {v}");
    }
    assert!(v["words"].as_u64().unwrap() > 0);
    assert!(v["method"].is_string());
    assert_eq!(v["units"], "chars");
    let fragments = v["fragments"].as_array().unwrap();
    assert_eq!(fragments.len(), 1, "{v}");
    assert_eq!(slice_chars(&a, &fragments[0]["draft"]), COPIED);
    assert_eq!(slice_chars(&b, &fragments[0]["source"]), COPIED);

    // The same spans in UTF-16 code units differ by the emoji (surrogate pairs).
    let v16 = json(&uniqcheck(&[
        "compare",
        s(&pa),
        s(&pb),
        "--json",
        "--units",
        "utf16",
    ]));
    let (c, w) = (&fragments[0], &v16["fragments"][0]);
    assert_eq!(
        w["draft"][0].as_u64().unwrap(),
        c["draft"][0].as_u64().unwrap() + 1
    );
    assert_eq!(
        w["source"][0].as_u64().unwrap(),
        c["source"][0].as_u64().unwrap() + 2
    );
}

#[test]
fn compare_human_output_quotes_the_fragment() {
    let dir = tempfile::tempdir().unwrap();
    let a = write(dir.path(), "a.txt", format!("{OTHER_RU}{COPIED}."));
    let b = write(dir.path(), "b.txt", format!("{COPIED}. {TEA}"));
    let o = uniqcheck(&["compare", s(&a), s(&b)]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.starts_with("Uniqueness: "), "{out}");
    assert!(
        out.contains(&format!(
            "“{}”",
            COPIED.split_whitespace().collect::<Vec<_>>().join(" ")
        )),
        "{out}"
    );
    assert!(!out.contains('\x1b'), "no colour when piped: {out}");
}

#[test]
fn check_finds_the_copied_source_in_a_folder() {
    let dir = corpus();
    let draft = format!("{OTHER_RU}{TEA}");
    let draft_path = write(dir.path(), "draft.txt", &draft); // inside the corpus: never its own source
    let v = json(&uniqcheck(&[
        "check",
        s(&draft_path),
        "--against",
        s(dir.path()),
        "--json",
    ]));
    let u = v["uniqueness"].as_f64().unwrap();
    assert!(u < 100.0 && u > 0.0, "{v}");
    let sources = v["sources"].as_array().unwrap();
    assert_eq!(sources.len(), 1, "{v}");
    let top = &sources[0];
    assert!(top["id"].as_str().unwrap().ends_with("tea.txt"), "{v}");
    assert_eq!(top["title"], "tea.txt");
    assert!(top["url"].as_str().unwrap().starts_with("file://"));
    assert!(top["share"].as_f64().unwrap() > 0.3);
    // Draft and source spans are chars of each text.
    let span = &top["spans"][0];
    let in_draft = slice_chars(&draft, &span["draft"]);
    assert_eq!(in_draft, slice_chars(TEA, &span["source"]));
    assert!(in_draft.starts_with("Заварочный чайник"), "{in_draft}");
    let fragment = &v["fragments"][0];
    assert_eq!(fragment["sources"][0], top["id"]);
    // The summary: three text files indexed (the extension-less one too: a news archive's posts
    // have none), the PNG passed over, the hidden folder not entered.
    assert_eq!(v["corpus"]["indexed"], 3, "{v}");
    assert_eq!(v["corpus"]["skipped"].as_array().unwrap().len(), 0, "{v}");
    let passed_over = &v["corpus"]["passed_over"];
    assert_eq!(passed_over["not a text file type"], 1, "{v}");
    let out = stdout(&uniqcheck(&[
        "check",
        s(&draft_path),
        "--against",
        s(dir.path()),
    ]));
    assert!(
        out.contains("passed over: 1 not a text file type)"),
        "{out}"
    );
}

#[test]
fn index_passes_over_licences_and_project_files_in_folders_but_takes_them_named() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("site");
    std::fs::create_dir(&root).unwrap();
    write(&root, "tea.txt", TEA);
    write(
        &root,
        "LICENSE",
        format!("Permission is hereby granted. {SHOES}"),
    );
    write(&root, "Makefile", format!("all: {GARDEN}"));
    // A news archive's post has no extension either, and is a text.
    write(
        &root,
        "82757",
        "A post of a news archive, numbered as such archives number their posts, and long enough \
         to be a published text of its own.",
    );
    let db = dir.path().join("u.db");
    let v = index(&root, &db, &[]);
    assert_eq!(
        (v["added"].as_u64(), v["skipped"].as_u64()),
        (Some(2), Some(2)),
        "{v}"
    );
    let why = &v["skipped_by_reason"]["a licence or project file, not a published text"];
    assert_eq!(why["count"], 2, "{v}");
    let examples = why["examples"].as_array().unwrap();
    assert!(examples[0].as_str().unwrap().contains("/LICENSE"), "{v}");
    let out = stdout(&uniqcheck(&["index", s(&root), "--db", s(&db)]));
    assert!(out.contains("2 skipped"), "{out}");
    // Named, it is indexed.
    let v = index(&root.join("LICENSE"), &db, &[]);
    assert_eq!(v["added"], 1, "{v}");
}

#[test]
fn check_human_output_ranks_sources_and_quotes_fragments() {
    let dir = corpus();
    let draft = write(dir.path(), "draft.txt", format!("{OTHER_RU}{TEA}"));
    let o = uniqcheck(&["check", s(&draft), "--against", s(dir.path())]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    let first = out.lines().next().unwrap();
    assert!(
        first.starts_with("Uniqueness: ") && first.contains(" %  (") && first.contains("method: "),
        "{out}"
    );
    assert!(
        out.contains("Matching sources") && out.contains("tea.txt"),
        "{out}"
    );
    assert!(
        out.contains("“Заварочный чайник сначала ополаскивают кипятком"),
        "{out}"
    );
}

#[test]
fn unrelated_draft_is_fully_unique() {
    let dir = corpus();
    let o = uniqcheck_stdin(
        &["check", "-", "--against", s(dir.path()), "--json"],
        OTHER_RU.as_bytes(),
    );
    let v = json(&o);
    assert_eq!(v["uniqueness"].as_f64(), Some(100.0), "{v}");
    assert!(v["sources"].as_array().unwrap().is_empty());
    assert!(v["fragments"].as_array().unwrap().is_empty());
}

#[test]
fn empty_or_whitespace_draft_is_an_error_not_100_percent() {
    let dir = corpus();
    for text in ["", "  \n\t  \n", "… — !!!"] {
        let draft = write(dir.path(), "empty.txt", text);
        let o = uniqcheck(&["check", s(&draft), "--against", s(dir.path())]);
        assert_fails(&o, 1, "empty");
        assert!(stderr(&o).contains("empty.txt"));
        assert!(!stdout(&o).contains("100"), "{}", stdout(&o));
    }
}

#[test]
fn binary_garbage_is_refused_clearly() {
    let dir = corpus();
    let mut garbage: Vec<u8> = (0..20_000u32)
        .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8)
        .collect();
    let bin = write(dir.path(), "blob.txt", &garbage);
    let o = uniqcheck(&["check", s(&bin), "--against", s(dir.path())]);
    assert_fails(&o, 1, "blob.txt: looks like binary data, not text");
    let o = uniqcheck(&["compare", s(&bin), s(&dir.path().join("tea.txt"))]);
    assert_fails(&o, 1, "blob.txt: looks like binary data, not text");

    // Without NUL bytes it takes the engine's check to notice.
    garbage.iter_mut().for_each(|b| *b = (*b % 31) + 1);
    let bin = write(dir.path(), "noise.txt", &garbage);
    let o = uniqcheck(&["compare", s(&dir.path().join("tea.txt")), s(&bin)]);
    assert_fails(&o, 1, "noise.txt: looks like binary data, not text");

    // As sources, binary files are skipped with a warning and counted.
    let draft = write(dir.path(), "draft.txt", TEA);
    let o = uniqcheck(&["check", s(&draft), "--against", s(dir.path()), "--json"]);
    let v = json(&o);
    assert_eq!(v["corpus"]["skipped"].as_array().unwrap().len(), 2, "{v}");
    let err = stderr(&o);
    assert!(
        err.contains("warning: skipped") && err.contains("blob.txt: looks like binary data"),
        "{err}"
    );
    assert!(v["sources"][0]["id"].as_str().unwrap().ends_with("tea.txt"));
}

#[test]
fn no_usable_source_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "empty.txt", "   ");
    write(dir.path(), "zeros.txt", [0u8; 64]);
    let draft = write(dir.path(), "draft.txt", TEA);
    let o = uniqcheck(&["check", s(&draft), "--against", s(dir.path())]);
    assert_fails(&o, 1, "no source could be indexed");
    assert!(stderr(&o).contains("warning: skipped"), "{}", stderr(&o));
    let o = uniqcheck(&[
        "check",
        s(&draft),
        "--against",
        s(&dir.path().join("missing")),
    ]);
    assert_fails(&o, 1, "cannot read");
    let empty = dir.path().join("empty.txt");
    let o = uniqcheck(&["check", s(&draft), "--against", s(&empty)]);
    assert_fails(&o, 1, "1 file found, none usable");
}

#[test]
fn windows_1251_and_utf16_sources_are_decoded() {
    let dir = tempfile::tempdir().unwrap();
    let (cp1251, _, _) = encoding_rs::WINDOWS_1251.encode(TEA);
    write(dir.path(), "legacy.txt", &cp1251);
    let mut utf16 = vec![0xFF, 0xFE];
    utf16.extend(
        format!("{OTHER_RU}\r\n{COPIED}.")
            .encode_utf16()
            .flat_map(u16::to_le_bytes),
    );
    write(dir.path(), "wide.txt", &utf16);
    let mut utf16be = vec![0xFE, 0xFF];
    utf16be.extend(SHOES.encode_utf16().flat_map(u16::to_be_bytes));
    write(dir.path(), "wide-be.txt", &utf16be);

    let draft = format!("{TEA} {COPIED}. {SHOES}");
    let v = json(&uniqcheck_stdin(
        &["check", "-", "--against", s(dir.path()), "--json"],
        draft.as_bytes(),
    ));
    let ids: Vec<&str> = v["sources"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["title"].as_str().unwrap())
        .collect();
    for name in ["legacy.txt", "wide.txt", "wide-be.txt"] {
        assert!(ids.contains(&name), "{name} not found in {v}");
    }
    // Source offsets are chars of the DECODED text, so slicing works there too.
    let wide = v["sources"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["title"] == "wide.txt")
        .unwrap();
    let wide_text = format!("{OTHER_RU}\r\n{COPIED}.");
    assert_eq!(slice_chars(&wide_text, &wide["spans"][0]["source"]), COPIED);

    // A 1251 draft, read from standard input.
    let draft_1251 = encoding_rs::WINDOWS_1251
        .encode(&format!("{OTHER_RU}{TEA}"))
        .0
        .into_owned();
    let pb = write(dir.path(), "b.txt", TEA);
    let v = json(&uniqcheck_stdin(
        &["compare", "-", s(&pb), "--json"],
        &draft_1251,
    ));
    assert!(v["uniqueness"].as_f64().unwrap() < 60.0, "{v}");
}

#[test]
fn encoding_override_and_bad_label() {
    let dir = tempfile::tempdir().unwrap();
    // The override applies to every input.
    let koi8 = encoding_rs::KOI8_R.encode(TEA).0.into_owned();
    let a = write(dir.path(), "a.txt", &koi8);
    let b = write(dir.path(), "b.txt", &koi8);
    let o = uniqcheck(&["compare", s(&a), s(&b), "--encoding", "koi8-r"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("“Заварочный чайник"), "{}", stdout(&o));
    let o = uniqcheck(&["compare", s(&a), s(&b), "--encoding", "klingon"]);
    assert_fails(&o, 2, "unknown encoding");
}

#[test]
fn stdin_works_for_compare_and_check() {
    let dir = corpus();
    let tea = dir.path().join("tea.txt");
    let v = json(&uniqcheck_stdin(
        &["compare", s(&tea), "-", "--json"],
        TEA.as_bytes(),
    ));
    assert_eq!(v["uniqueness"].as_f64(), Some(0.0));
    assert_eq!(v["method"], "exact");
    let o = uniqcheck_stdin(
        &["check", "-", "--against", s(dir.path())],
        format!("{OTHER_RU}{TEA}").as_bytes(),
    );
    assert!(
        o.status.success() && stdout(&o).contains("standard input checked against 3 sources"),
        "{}",
        stdout(&o)
    );
    let o = uniqcheck_stdin(&["compare", "-", "-"], b"x");
    assert_fails(&o, 2, "standard input");
}

#[test]
fn invalid_engine_options_are_usage_errors() {
    let dir = corpus();
    let tea = dir.path().join("tea.txt");
    let o = uniqcheck(&["check", s(&tea), "--against", s(dir.path()), "-n", "1"]);
    assert_fails(&o, 2, "-n/--shingle");
    assert!(
        stderr(&o).contains("n = 1") && stderr(&o).contains("2..=10"),
        "{}",
        stderr(&o)
    );
    let o = uniqcheck(&["compare", s(&tea), s(&tea), "-k", "5000"]);
    assert_fails(&o, 2, "16..=1024");
    // Not a number at all: clap's own usage error, also exit code 2.
    let o = uniqcheck(&["compare", s(&tea), s(&tea), "-w", "many"]);
    assert_eq!(o.status.code(), Some(2));
    let o = uniqcheck(&[
        "check",
        s(&tea),
        "--against",
        s(dir.path()),
        "--max-size",
        "100",
    ]);
    assert_fails(&o, 1, "too large");
}

#[test]
fn engine_options_change_the_result() {
    let dir = tempfile::tempdir().unwrap();
    let a = write(dir.path(), "a.txt", format!("{OTHER_RU}{TEA}"));
    let b = write(dir.path(), "b.txt", TEA);
    let strict = json(&uniqcheck(&[
        "compare",
        s(&a),
        s(&b),
        "--json",
        "--min-fragment-words",
        "1000",
        "--extend-min-words",
        "0",
    ]));
    assert_eq!(strict["uniqueness"].as_f64(), Some(100.0), "{strict}");
    let v = json(&uniqcheck(&[
        "compare",
        s(&a),
        s(&b),
        "--json",
        "-n",
        "6",
        "-w",
        "2",
        "-k",
        "64",
        "--keep-stop-words",
        "--no-stemming",
        "--gap",
        "0",
    ]));
    assert!(v["uniqueness"].as_f64().unwrap() < 100.0, "{v}");
}

#[test]
fn examples_demo_finds_the_rewritten_article() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
    let draft = root.join("examples/draft.txt");
    let corpus = root.join("examples/corpus");
    let v = json(&uniqcheck(&[
        "check",
        s(&draft),
        "--against",
        s(&corpus),
        "--json",
    ]));
    let u = v["uniqueness"].as_f64().unwrap();
    assert!(u > 20.0 && u < 90.0, "{v}");
    assert_eq!(v["corpus"]["indexed"], 6, "{v}");
    assert_eq!(v["sources"][0]["title"], "ru-tea.txt", "{v}");
    assert_eq!(v["sources"].as_array().unwrap().len(), 1, "{v}");

    let o = uniqcheck(&["check", s(&draft), "--against", s(&corpus)]);
    let out = stdout(&o);
    for verbatim in [
        "Заварочный чайник сначала ополаскивают кипятком, чтобы фарфор прогрелся и не отнимал тепло у настоя",
        "Хранят чай в плотно закрытой банке вдали от специй и кофе, потому что сухие листья легко впитывают чужие запахи",
    ] {
        assert!(out.contains(verbatim), "{verbatim:?} not quoted in:\n{out}");
    }
    assert!(
        out.contains("от огня") || out.contains("с огня"),
        "the rewritten sentence is found too:\n{out}"
    );
}

#[test]
fn html_inputs_are_read_as_html() {
    let dir = tempfile::tempdir().unwrap();
    let page = format!(
        "<!DOCTYPE html><html><head><title>Чай</title><style>p {{ margin: 0 }}</style></head>\
         <body><p>&laquo;Заметки&raquo;&nbsp;о чае.</p><p>{}</p></body></html>",
        TEA.replace("кипятком", "<b>кипятком</b>")
    );
    let page_path = write(dir.path(), "page.html", &page);
    write(dir.path(), "shoes.txt", SHOES);
    // A draft without an extension, recognised as HTML by its tags.
    let draft =
        format!("<div><p>{OTHER_RU}</p>\n<p>{TEA}</p>\n<ul><li>чай</li><li>кофе</li></ul></div>");
    let draft_path = write(dir.path(), "draft", &draft);
    let args = ["check", s(&draft_path), "--against", s(&page_path)];
    let o = uniqcheck(&args);
    let out = stdout(&o);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        out.contains("“Заварочный чайник сначала ополаскивают кипятком,"),
        "{out}"
    );
    assert!(!out.contains("<p>") && !out.contains("<b>"), "{out}");

    let v = json(&uniqcheck(&[&args[..], &["--json"]].concat()));
    let span = &v["sources"][0]["spans"][0];
    let in_page = slice_chars(&page, &span["source"]);
    assert!(
        in_page.starts_with("Заварочный") && in_page.contains("<b>кипятком</b>"),
        "{in_page}"
    );
    assert!(slice_chars(&draft, &span["draft"]).starts_with("Заварочный"));
}

// ---- index, check --db, pack, stats ----

/// A site folder with every format `index` reads, a Windows-1251 file, a bad .jsonl line and a
/// binary file.
fn site() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("site");
    std::fs::create_dir_all(root.join("blog")).unwrap();
    write(&root, "tea.txt", format!("Как заваривать чай\n\n{TEA}"));
    write(
        &root,
        "shoes.md",
        format!("Intro line\n\n# Choosing running shoes\n\n{SHOES}"),
    );
    write(
        &root.join("blog"),
        "garden.html",
        format!("<html><head><title>Tomatoes &amp; sun</title></head><body><h1>Other</h1><p>{GARDEN}</p></body></html>"),
    );
    write(
        &root,
        "legacy.txt",
        encoding_rs::WINDOWS_1251
            .encode(&format!("{OTHER_RU}{COPIED}."))
            .0,
    );
    let lines = [
        serde_json::json!({"url": "https://example.com/a", "title": "Post A", "text": COPIED}).to_string(),
        "{\"url\": \"https://example.com/broken\", \"text\": ".to_owned(),
        String::new(),
        serde_json::json!({"url": "https://example.com/b", "html": format!("<h1>Post B</h1><p>{SHOES} Extra closing words.</p>")}).to_string(),
    ];
    write(&root, "posts.jsonl", lines.join("\n"));
    write(&root, "blob.txt", b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR");
    write(&root, "picture.png", b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR");
    dir
}

fn index(root: &Path, db: &Path, extra: &[&str]) -> Value {
    let mut args = vec!["index", s(root), "--db", s(db), "--json"];
    args.extend(extra);
    json(&uniqcheck(&args))
}

fn stats(db: &Path) -> Value {
    json(&uniqcheck(&["stats", "--db", s(db), "--json"]))
}

#[test]
fn index_reads_every_format_reports_skips_and_rewrites_only_changes() {
    let dir = site();
    let (root, db) = (dir.path().join("site"), dir.path().join("u.db"));
    let v = index(&root, &db, &[]);
    assert_eq!(
        (
            v["added"].as_u64(),
            v["updated"].as_u64(),
            v["unchanged"].as_u64(),
            v["skipped"].as_u64()
        ),
        (Some(6), Some(0), Some(0), Some(3)),
        "{v}"
    );
    let reasons = &v["skipped_by_reason"];
    let other = reasons["not a text file type"]["examples"][0]
        .as_str()
        .unwrap();
    assert!(other.ends_with("picture.png (.png)"), "{v}");
    let bad_line = reasons["invalid JSON"]["examples"][0].as_str().unwrap();
    assert!(bad_line.contains("posts.jsonl:2"), "{v}");
    let binary = &reasons["looks like binary data, not text"]["examples"][0];
    assert!(binary.as_str().unwrap().contains("blob.txt"), "{v}");
    let before = stats(&db);
    assert_eq!(before["documents"], 6);

    // Unchanged: nothing written, the changes counter stays.
    let v = index(&root, &db, &[]);
    assert_eq!(
        (v["added"].as_u64(), v["unchanged"].as_u64()),
        (Some(0), Some(6)),
        "{v}"
    );
    assert_eq!(stats(&db)["changes"], before["changes"]);

    // One file changed: one update.
    write(
        &root,
        "tea.txt",
        format!("Как заваривать чай\n\n{TEA} Добавлен новый абзац о воде."),
    );
    let v = index(&root, &db, &[]);
    assert_eq!(
        (v["updated"].as_u64(), v["unchanged"].as_u64()),
        (Some(1), Some(5)),
        "{v}"
    );
    assert!(stats(&db)["changes"].as_i64() > before["changes"].as_i64());

    // Human summary, and a 1251 file that was decoded (its words match a UTF-8 draft).
    let o = uniqcheck(&["index", s(&root), "--db", s(&db)]);
    let out = stdout(&o);
    assert!(
        out.contains("0 added, 0 updated, 6 unchanged, 3 skipped"),
        "{out}"
    );
    assert!(out.contains("invalid JSON (1): "), "{out}");
    let draft = write(dir.path(), "d.txt", format!("{COPIED}. {OTHER_RU}"));
    let v = json(&uniqcheck(&["check", s(&draft), "--db", s(&db), "--json"]));
    assert!(
        v["sources"]
            .as_array()
            .unwrap()
            .iter()
            .any(|s| s["url"] == "legacy.txt"),
        "{v}"
    );
}

#[test]
fn index_merges_the_key_runs_it_wrote_in_many_batches() {
    let dir = site();
    let (root, db) = (dir.path().join("site"), dir.path().join("u.db"));
    // A batch a document: one run each, left unmerged by the bulk writes, merged into one at
    // the end.
    let v = index(&root, &db, &["--batch", "1"]);
    assert_eq!(
        (v["added"].as_u64(), v["merged"].as_bool()),
        (Some(6), Some(true)),
        "{v}"
    );
    let runs = stats(&db)["key_runs"].clone();
    assert_eq!(runs, serde_json::json!([1, 1, 1]), "{runs}");
    // Unchanged texts and one run a list: nothing to merge.
    let v = index(&root, &db, &["--merge"]);
    assert_eq!(v["merged"], false, "{v}");
    let out = stdout(&uniqcheck(&["stats", "--db", s(&db)]));
    assert!(
        out.contains("key runs      1 fingerprints, 1 long words, 1 sentences"),
        "{out}"
    );
}

#[test]
fn index_takes_urls_and_titles_from_the_files() {
    let dir = site();
    let (root, db) = (dir.path().join("site"), dir.path().join("u.db"));
    index(&root, &db, &["--base-url", "https://example.com/site/"]);
    let draft = write(dir.path(), "d.txt", format!("{TEA}\n\n{SHOES}\n\n{GARDEN}"));
    let v = json(&uniqcheck(&["check", s(&draft), "--db", s(&db), "--json"]));
    let titles: std::collections::HashMap<String, String> = v["sources"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            (
                s["url"].as_str().unwrap().to_owned(),
                s["title"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    assert_eq!(
        titles["https://example.com/site/tea.txt"], "Как заваривать чай",
        "{v}"
    );
    assert_eq!(
        titles["https://example.com/site/shoes.md"],
        "Choosing running shoes"
    );
    assert_eq!(
        titles["https://example.com/site/blog/garden.html"],
        "Tomatoes & sun"
    );
    assert_eq!(titles["https://example.com/b"], "Post B");
}

#[test]
fn check_db_matches_check_against_on_the_same_folder() {
    let dir = corpus();
    let db = dir.path().join("..").join(format!(
        "{}.db",
        dir.path().file_name().unwrap().to_str().unwrap()
    ));
    let v = index(dir.path(), &db, &[]);
    assert_eq!(v["added"], 3, "{v}");
    let draft_text = format!("{OTHER_RU}{TEA}");
    let draft = write(dir.path(), "draft.txt", &draft_text);
    let by_db = json(&uniqcheck(&["check", s(&draft), "--db", s(&db), "--json"]));
    let by_files = json(&uniqcheck(&[
        "check",
        s(&draft),
        "--against",
        s(dir.path()),
        "--json",
    ]));
    let _ = std::fs::remove_file(&db);
    let top = &by_db["sources"][0];
    assert_eq!(top["url"], "tea.txt", "{by_db}");
    assert!(
        top["title"]
            .as_str()
            .unwrap()
            .starts_with("Заварочный чайник"),
        "{by_db}"
    );
    assert_eq!(by_db["sources"].as_array().unwrap().len(), 1, "{by_db}");
    // The store keeps no text: no source spans, said as null.
    assert!(top["spans"][0]["source"].is_null(), "{by_db}");
    assert!(slice_chars(&draft_text, &top["spans"][0]["draft"]).contains("Чёрный чай"));
    assert_eq!(by_db["corpus"]["indexed"], 3, "{by_db}");
    // The store's records hold every content word: the same alignment as on the full texts
    // (only the stop words around a fragment, which uniqueness does not count, are not widened).
    let (u_db, u_files) = (
        by_db["uniqueness"].as_f64().unwrap(),
        by_files["uniqueness"].as_f64().unwrap(),
    );
    eprintln!("uniqueness: --db {u_db}, --against {u_files}");
    assert!(
        (u_db - u_files).abs() <= 0.5,
        "db {u_db} vs files {u_files}"
    );
    assert!(u_db < 80.0, "{u_db}");

    let o = uniqcheck(&["check", s(&draft), "--db", s(&db)]);
    assert!(!o.status.success(), "the store was removed");
}

/// The demo corpus, in the repository.
fn demo_corpus() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../demo/corpus")
}

/// The visible text of a demo article's paragraphs `range` (split at ". ").
fn demo_sentences(name: &str, range: std::ops::Range<usize>) -> String {
    let html = std::fs::read_to_string(demo_corpus().join(name)).unwrap();
    let text = uniqcheck::canonicalize::visible_text(&html);
    let sentences: Vec<&str> = text.split(". ").collect();
    sentences[range].join(". ") + "."
}

#[test]
fn the_store_and_the_packs_give_the_full_texts_answer_on_mixes_and_short_copies() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("demo.db");
    index(&demo_corpus(), &db, &[]);
    let packs = dir.path().join("packs");
    let o = uniqcheck(&["pack", "--db", s(&db), "-o", s(&packs), "--json"]);
    let total = json(&o)["bytes"].as_u64().unwrap();
    let mix = format!(
        "{} Моя собственная вставка о выходных и о том, что я узнал нового. {} Ещё немного \
         своих мыслей. {}",
        demo_sentences("ru/domashnij-khleb.html", 2..8),
        demo_sentences("ru/robot-pylesos.html", 3..9),
        demo_sentences("ru/zdorovyj-son.html", 1..6),
    );
    let english = format!(
        "{} A few words of my own about it. {}",
        demo_sentences("en/sourdough-starter.html", 2..7),
        demo_sentences("en/old-dog-new-tricks.html", 1..5),
    );
    let short = demo_sentences("ru/robot-pylesos.html", 1..4);
    for (name, text) in [("mix", mix), ("english", english), ("short", short)] {
        let draft = write(dir.path(), &format!("{name}.txt"), &text);
        let by_db = json(&uniqcheck(&["check", s(&draft), "--db", s(&db), "--json"]));
        let by_files = json(&uniqcheck(&[
            "check",
            s(&draft),
            "--against",
            s(&demo_corpus()),
            "--json",
        ]));
        // The browser's path: only the pack files this draft needs.
        let by_packs = json(&uniqcheck(&[
            "check",
            s(&draft),
            "--packs",
            s(&packs),
            "--json",
        ]));
        let u = |v: &Value| v["uniqueness"].as_f64().unwrap();
        assert!(
            (u(&by_db) - u(&by_files)).abs() <= 0.5,
            "{name}: --db {} vs --against {}",
            u(&by_db),
            u(&by_files)
        );
        assert_eq!(u(&by_packs), u(&by_db), "{name}: --packs {by_packs}");
        assert_eq!(by_packs["sources"], by_db["sources"], "{name}");
        let read = by_packs["fetched"]["bytes"].as_u64().unwrap();
        assert!(read < total, "{name}: read {read} of {total} bytes");
        assert!(u(&by_db) < 60.0, "{name}: {by_db}");
        // The same sources: the store names them by URL, --against by path; both end in the file.
        let files = |v: &Value| -> Vec<String> {
            let mut f: Vec<String> = v["sources"]
                .as_array()
                .unwrap()
                .iter()
                .map(|s| {
                    let url = s["url"].as_str().unwrap();
                    url.rsplit('/').next().unwrap().to_owned()
                })
                .collect();
            f.sort();
            f
        };
        assert_eq!(files(&by_db), files(&by_files), "{name}");
        assert!(!files(&by_db).is_empty(), "{name}");
    }
}

/// A rewrite (synonyms, reordered words, shuffled sentences) sharing no fingerprint with its
/// source, checked against the demo corpus plus that source: found alike by the store, the packs
/// and the full texts, through its sentence keys.
#[test]
fn check_packs_aligns_as_many_candidates_as_a_browser_unless_told_and_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let site = dir.path().join("site");
    std::fs::create_dir(&site).unwrap();
    let article = demo_sentences("ru/domashnij-khleb.html", 0..12);
    for i in 0..60 {
        write(
            &site,
            &format!("copy{i:02}.txt"),
            format!("Перепечатка номер {i}. {article}"),
        );
    }
    let db = dir.path().join("copies.db");
    index(&site, &db, &[]);
    let packs = dir.path().join("packs");
    uniqcheck(&["pack", "--db", s(&db), "-o", s(&packs), "--json"]);
    let draft = write(dir.path(), "draft.txt", &article);
    let check = |extra: &[&str]| {
        let mut args = vec!["check", s(&draft), "--json"];
        args.extend(extra);
        json(&uniqcheck(&args))
    };
    // The browser's bound (50 records, one file each) and what it left out.
    let by_packs = check(&["--packs", s(&packs)]);
    assert_eq!(by_packs["capped"], true, "{by_packs}");
    assert_eq!(by_packs["unchecked"], 10);
    assert_eq!(by_packs["sources"].as_array().unwrap().len(), 50);
    // The corpus is named as what it is: the pack folder, not a store.
    let corpus = &by_packs["corpus"];
    assert_eq!(corpus["packs"], s(&packs), "{corpus}");
    assert!(corpus.get("db").is_none(), "{corpus}");
    // The store's bound is the engine's 500: every copy.
    let by_db = check(&["--db", s(&db)]);
    assert_eq!(by_db["corpus"]["db"], s(&db), "{by_db}");
    assert!(by_db["corpus"].get("packs").is_none());
    assert_eq!(by_db["capped"], false);
    assert_eq!(by_db["sources"].as_array().unwrap().len(), 60);
    // Told otherwise, the packs give the store's answer.
    let all = check(&["--packs", s(&packs), "--max-candidates", "100"]);
    assert_eq!(all["capped"], false);
    assert_eq!(all["sources"], by_db["sources"]);
}

#[test]
fn a_rewritten_text_finds_its_source_through_the_store_the_packs_and_the_full_texts() {
    let dir = tempfile::tempdir().unwrap();
    let corpus = dir.path().join("corpus");
    copy_dir(&demo_corpus(), &corpus);
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/data");
    std::fs::copy(
        data.join("rewrite-source.txt"),
        corpus.join("lighthouses.txt"),
    )
    .unwrap();
    let db = dir.path().join("u.db");
    index(&corpus, &db, &[]);
    let packs = dir.path().join("packs");
    json(&uniqcheck(&[
        "pack",
        "--db",
        s(&db),
        "-o",
        s(&packs),
        "--json",
    ]));
    let draft = data.join("rewrite-draft.txt");
    let check = |how: &[&str]| {
        let mut args = vec!["check", s(&draft), "--json"];
        args.extend(how);
        json(&uniqcheck(&args))
    };
    let by_db = check(&["--db", s(&db)]);
    let by_packs = check(&["--packs", s(&packs)]);
    let by_files = check(&["--against", s(&corpus)]);
    for (how, v) in [("db", &by_db), ("packs", &by_packs), ("files", &by_files)] {
        let sources = v["sources"].as_array().unwrap();
        assert_eq!(sources.len(), 1, "{how}: {v}");
        assert!(
            sources[0]["url"]
                .as_str()
                .unwrap()
                .ends_with("lighthouses.txt"),
            "{how}: {v}"
        );
        assert!(v["originality"].as_f64().unwrap() < 10.0, "{how}: {v}");
        assert!(!v["rewrites"].as_array().unwrap().is_empty(), "{how}: {v}");
    }
    assert_eq!(by_packs["uniqueness"], by_db["uniqueness"]);
    assert_eq!(by_packs["originality"], by_db["originality"]);
    assert_eq!(by_packs["sources"], by_db["sources"]);
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let path = entry.unwrap().path();
        let target = to.join(path.file_name().unwrap());
        if path.is_dir() {
            copy_dir(&path, &target);
        } else {
            std::fs::copy(&path, &target).unwrap();
        }
    }
}

#[test]
fn check_db_human_output_names_sources_by_url() {
    let dir = site();
    let (root, db) = (dir.path().join("site"), dir.path().join("u.db"));
    index(&root, &db, &[]);
    let draft = write(dir.path(), "d.txt", format!("{OTHER_RU}{GARDEN}"));
    let o = uniqcheck(&["check", s(&draft), "--db", s(&db)]);
    let out = stdout(&o);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(out.contains("checked against 6 documents in"), "{out}");
    assert!(
        out.contains("Tomatoes & sun") && out.contains("blog/garden.html"),
        "{out}"
    );
}

#[test]
fn check_needs_exactly_one_of_against_and_db() {
    let dir = corpus();
    let draft = write(dir.path(), "d.txt", TEA);
    let both = uniqcheck(&[
        "check",
        s(&draft),
        "--db",
        "x.db",
        "--against",
        s(dir.path()),
    ]);
    assert_fails(&both, 2, "cannot be used with");
    let neither = uniqcheck(&["check", s(&draft)]);
    assert_fails(&neither, 2, "--against");
    let missing = uniqcheck(&["check", s(&draft), "--db", s(&dir.path().join("none.db"))]);
    assert_fails(&missing, 1, "there is no store");
    let not_a_store = uniqcheck(&["check", s(&draft), "--db", s(&draft)]);
    assert_fails(&not_a_store, 1, "not a uniqcheck store");
}

#[test]
fn a_store_refuses_other_parameters_but_keeps_its_own() {
    let dir = site();
    let (root, db) = (dir.path().join("site"), dir.path().join("u.db"));
    index(&root, &db, &["-n", "5"]);
    // Without engine flags, the store's own parameters are used.
    let v = index(&root, &db, &[]);
    assert_eq!(v["unchanged"], 6, "{v}");
    assert_eq!(stats(&db)["params"]["n"], 5);
    let o = uniqcheck(&["index", s(&root), "--db", s(&db), "-n", "6"]);
    assert_fails(&o, 1, "n = 5 in the store, 6 here");
    // The CLI names the flags that select the store's parameters.
    assert!(
        stderr(&o).contains("new file") && stderr(&o).contains("-n 5"),
        "{}",
        stderr(&o)
    );
    let draft = write(dir.path(), "d.txt", GARDEN);
    let o = uniqcheck(&["check", s(&draft), "--db", s(&db), "-n", "6"]);
    assert_fails(&o, 1, "n = 5 in the store, 6 here");
}

#[test]
fn pack_writes_records_and_pages_that_hold_the_stored_documents() {
    let dir = site();
    let (root, db) = (dir.path().join("site"), dir.path().join("u.db"));
    let out = dir.path().join("packs");
    let v = index(&root, &db, &["--pack", s(&out), "--page-bytes", "64"]);
    assert_eq!(v["pack"]["documents"], 6, "{v}");
    let o = uniqcheck(&["pack", "--db", s(&db), "-o", s(&out), "--page-bytes", "64"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stdout(&o).starts_with("Wrote 6 documents to "),
        "{}",
        stdout(&o)
    );
    let manifest: uniqcheck::pack::Manifest =
        serde_json::from_slice(&std::fs::read(out.join("manifest.json")).unwrap()).unwrap();
    assert_eq!(manifest.documents, 6);
    assert_eq!(manifest.params, uniqcheck::Params::default());
    assert!(manifest.generated_iso.ends_with('Z'));
    let read = |name: &str| std::fs::read(out.join(name)).unwrap();
    let table = read(&manifest.table.name);
    assert_eq!(table.len() as u64, manifest.table.bytes);
    let mut index = uniqcheck::PackIndex::open(manifest.clone(), &table).unwrap();
    // Every page, named from the table alone: a page a list at least.
    let pages = index.all_pages();
    assert!(pages.len() >= 3, "{pages:?}");
    assert!(pages.iter().all(|p| p.starts_with("i/")), "{pages:?}");
    for page in pages {
        index.add(&page, &read(&page)).unwrap();
    }
    assert_eq!(index.all_pages(), Vec::<String>::new());
    let mut urls = Vec::new();
    for file in index
        .records_to_fetch(&read(&manifest.records.name))
        .unwrap()
    {
        let record = uniqcheck::pack::Record::decode(&read(&file), &manifest.params).unwrap();
        urls.push((record.info.id, record.info.url));
    }
    urls.sort_by_key(|u| u.0.parse::<u32>().unwrap());
    let ids: Vec<String> = (1..=6).map(|i| i.to_string()).collect();
    assert_eq!(urls.iter().map(|u| u.0.clone()).collect::<Vec<_>>(), ids);
    assert!(urls.iter().any(|u| u.1 == "blog/garden.html"), "{urls:?}");
}

// ---- bad input: NUL bytes, damaged UTF-8, degenerate texts, folders with other files ----

#[test]
fn a_stray_nul_is_a_space_by_the_engine_rule_for_files_and_jsonl_lines() {
    let dir = tempfile::tempdir().unwrap();
    let tea = write(dir.path(), "tea.txt", TEA);
    // One NUL where a space was: the same words, checked rather than refused.
    let with_nul = write(dir.path(), "nul.txt", TEA.replacen(' ', "\0", 1));
    let v = json(&uniqcheck(&["compare", s(&with_nul), s(&tea), "--json"]));
    assert_eq!(v["uniqueness"], 0.0, "{v}");
    assert_eq!(v["method"], "exact", "{v}");
    // Many NULs are binary data, as the API says too.
    let zeros = write(dir.path(), "zeros.txt", TEA.replace(' ', "\0"));
    let o = uniqcheck(&["compare", s(&zeros), s(&tea)]);
    assert_fails(&o, 1, "zeros.txt: looks like binary data, not text");

    // A .jsonl with NUL lines: each bad line is skipped alone, every good line is indexed (an
    // escaped NUL inside a text is a stray NUL in good text).
    let site = dir.path().join("site");
    std::fs::create_dir_all(&site).unwrap();
    let lines = [
        serde_json::json!({"url": "https://example.com/a", "text": TEA}).to_string(),
        "\0".to_owned(),
        "{\"url\": \"https://example.com/raw\", \"text\": \"a\0b\"}".to_owned(),
        serde_json::json!({"url": "https://example.com/b", "text": SHOES.replacen(' ', "\0", 1)})
            .to_string(),
    ];
    write(&site, "posts.jsonl", lines.join("\n"));
    let v = index(&site, &dir.path().join("u.db"), &[]);
    assert_eq!(
        (v["added"].as_u64(), v["skipped"].as_u64()),
        (Some(2), Some(2)),
        "{v}"
    );
    let bad = &v["skipped_by_reason"]["invalid JSON"];
    assert_eq!(bad["count"], 2, "{v}");
    assert!(
        bad["examples"][0]
            .as_str()
            .unwrap()
            .contains("posts.jsonl:2"),
        "{v}"
    );
}

#[test]
fn compare_of_a_one_word_text_with_itself_is_an_exact_copy_all_through() {
    let dir = tempfile::tempdir().unwrap();
    // One 10 MB "word" (fewer words than a shingle), and one real one.
    for (name, text) in [
        ("long.txt", "a".repeat(10_000_000)),
        ("hello.txt", "Hello".into()),
    ] {
        let f = write(dir.path(), name, &text);
        let v = json(&uniqcheck(&["compare", s(&f), s(&f), "--json"]));
        assert_eq!(
            (&v["uniqueness"], &v["method"]),
            (&serde_json::json!(0.0), &serde_json::json!("exact")),
            "{name}: {v}"
        );
        assert_eq!(
            (v["resemblance"].as_f64(), v["containment"].as_f64()),
            (Some(1.0), Some(1.0)),
            "{name}: {v}"
        );
        let o = uniqcheck(&["compare", s(&f), s(&f)]);
        assert!(
            stdout(&o).contains("resemblance 1.00, containment 1.00"),
            "{}",
            stdout(&o)
        );
    }
}

#[test]
fn utf8_cut_in_its_last_character_is_read_as_utf8_with_a_warning() {
    let dir = tempfile::tempdir().unwrap();
    let source = write(dir.path(), "source.txt", format!("{OTHER_RU}{TEA}"));
    // What `head -c` does to a rewrite: the last two-byte letter loses its second byte.
    let whole = format!("{TEA}{}", OTHER_RU.trim_end().trim_end_matches('.'));
    let mut cut = whole.into_bytes();
    cut.pop();
    assert!(std::str::from_utf8(&cut).is_err());
    let draft = write(dir.path(), "cut.txt", &cut);
    let o = uniqcheck(&["compare", s(&draft), s(&source), "--json"]);
    let v = json(&o);
    assert!(v["uniqueness"].as_f64().unwrap() < 60.0, "{v}");
    let err = stderr(&o);
    assert!(
        err.contains("cut.txt: read as UTF-8") && err.contains("cut short"),
        "{err}"
    );
    let out = stdout(&uniqcheck(&["compare", s(&draft), s(&source)]));
    assert!(out.contains("cut.txt (damaged utf-8)"), "{out}");

    // A real legacy file is still guessed, and the human output says it was a guess.
    let legacy = write(
        dir.path(),
        "legacy.txt",
        encoding_rs::WINDOWS_1251.encode(TEA).0,
    );
    let out = stdout(&uniqcheck(&["compare", s(&legacy), s(&source)]));
    assert!(
        out.contains("legacy.txt (encoding guessed: windows-1251"),
        "{out}"
    );
}

#[test]
fn index_names_what_it_passed_over_readmes_and_other_file_types() {
    let dir = tempfile::tempdir().unwrap();
    let site = dir.path().join("site");
    std::fs::create_dir_all(site.join("docs")).unwrap();
    write(&site, "tea.txt", TEA);
    write(
        &site,
        "README.md",
        "# This folder\n\nHow the site is built.",
    );
    write(&site.join("docs"), "readme.txt", "Notes for editors.");
    write(&site, "prices.csv", "item,price\ntea,3\n");
    write(&site, "table.tsv", "item\tprice\n");
    let v = index(&site, &dir.path().join("u.db"), &[]);
    assert_eq!(
        (v["added"].as_u64(), v["skipped"].as_u64()),
        (Some(1), Some(4)),
        "{v}"
    );
    let reasons = &v["skipped_by_reason"];
    assert_eq!(reasons["a README, not a published text"]["count"], 2, "{v}");
    assert_eq!(reasons["not a text file type"]["count"], 2, "{v}");
    let o = uniqcheck(&["index", s(&site), "--db", s(&dir.path().join("u.db"))]);
    let out = stdout(&o);
    assert!(out.contains("4 skipped"), "{out}");
    assert!(out.contains("not a text file type (2): "), "{out}");
    assert!(
        out.contains("prices.csv (.csv)") && out.contains("table.tsv (.tsv)"),
        "{out}"
    );
    assert!(
        out.contains("a README, not a published text (2): "),
        "{out}"
    );
    assert!(out.contains("README.md"), "{out}");
    // Named directly, a README is indexed: the user asked for it.
    let v = index(&site.join("README.md"), &dir.path().join("u.db"), &[]);
    assert_eq!(v["added"], 1, "{v}");
    // Nothing but other types: an error that says what was there.
    let other = dir.path().join("data");
    std::fs::create_dir_all(&other).unwrap();
    write(&other, "prices.csv", "item,price\n");
    let o = uniqcheck(&["index", s(&other), "--db", s(&dir.path().join("v.db"))]);
    assert_fails(&o, 1, "passed over 1 other file, such as");
}

#[test]
fn only_check_and_compare_take_units() {
    // Offsets in a text are `check`'s and `compare`'s output only; the others have none to count.
    for command in ["check", "compare"] {
        let help = stdout(&uniqcheck(&[command, "--help"]));
        assert!(help.contains("--units"), "{command}: {help}");
    }
    for command in ["index", "pack", "stats"] {
        let help = stdout(&uniqcheck(&[command, "--help"]));
        assert!(help.contains("--json"), "{command}: {help}");
        assert!(!help.contains("--units"), "{command}: {help}");
    }
    let o = uniqcheck(&["pack", "--db", "x.db", "-o", "out", "--units", "utf16"]);
    assert_fails(&o, 2, "--units");
}

#[test]
fn compare_says_which_text_is_empty() {
    let dir = tempfile::tempdir().unwrap();
    let text = write(dir.path(), "text.txt", TEA);
    let empty = write(dir.path(), "blank.txt", "  \n ");
    let o = uniqcheck(&["compare", s(&text), s(&empty)]);
    assert_fails(
        &o,
        1,
        "blank.txt: empty, there are no words to compare (it is the second text, the source)",
    );
    let o = uniqcheck(&["compare", s(&empty), s(&text)]);
    assert_fails(
        &o,
        1,
        "blank.txt: empty, there are no words to compare (it is the first text, the draft)",
    );
}

/// A missing, damaged or wrong `--bilingual` file is a clear error naming it, before any check.
#[test]
fn a_bad_bilingual_table_is_refused_with_its_name() {
    let dir = tempfile::tempdir().unwrap();
    let draft = dir.path().join("draft.txt");
    std::fs::write(
        &draft,
        "Городской совет одобрил новый план ремонта старого моста через реку.",
    )
    .unwrap();
    let table = std::fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../data/bilingual/en-ru.uqbl"
    ))
    .unwrap();
    let cut = dir.path().join("cut.uqbl");
    std::fs::write(&cut, &table[..table.len() / 2]).unwrap();
    let synonyms = concat!(env!("CARGO_MANIFEST_DIR"), "/../data/synonyms/ru.uqsy");
    let d = s(&draft);
    let missing = dir.path().join("missing.uqbl");
    for (i, (file, needle)) in [
        (s(&missing), "cannot read the bilingual table"),
        (s(&cut), "checksum mismatch: the file is damaged"),
        (synonyms, "does not start with the magic bytes UQBL"),
    ]
    .into_iter()
    .enumerate()
    {
        let o = uniqcheck(&["compare", d, d, "--bilingual", file]);
        assert_fails(&o, 1, needle);
        let o = uniqcheck(&["check", d, "--against", d, "--bilingual", file]);
        assert_fails(&o, 1, needle);
        let db = dir.path().join(format!("u{i}.db"));
        let out = dir.path().join(format!("packs{i}"));
        let o = uniqcheck(&[
            "index",
            d,
            "--db",
            s(&db),
            "--pack",
            s(&out),
            "--bilingual",
            file,
        ]);
        assert_fails(&o, 1, needle);
        assert!(!out.exists(), "no packs written");
        let o = uniqcheck(&["index", d, "--db", s(&db)]);
        assert!(o.status.success(), "{}", stderr(&o));
        let o = uniqcheck(&["pack", "--db", s(&db), "-o", s(&out), "--bilingual", file]);
        assert_fails(&o, 1, needle);
        assert!(!out.join("manifest.json").exists());
    }
}

/// Packs written with the table (`index --pack --bilingual`, `pack --bilingual`) publish it,
/// and `check --packs` finds a Russian translation of an English source through them, as
/// `check --db` does with the table; packs written without it find none.
#[test]
fn packs_publish_the_bilingual_table_and_check_packs_finds_a_translation() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("site");
    std::fs::create_dir_all(&root).unwrap();
    write(
        &root,
        "bridge.txt",
        include_str!("../../tests/data/translation/bridge-en.txt"),
    );
    write(
        &root,
        "galaxy.txt",
        "Astronomers measured the distance to a faint galaxy using the light of distant \
         supernovae, and found that it moves away from us faster than their models predicted.",
    );
    let draft = write(
        dir.path(),
        "draft.txt",
        include_str!("../../tests/data/translation/bridge-ru.txt"),
    );
    let table = concat!(env!("CARGO_MANIFEST_DIR"), "/../data/bilingual/en-ru.uqbl");
    let (db, out, plain) = (
        dir.path().join("u.db"),
        dir.path().join("p"),
        dir.path().join("q"),
    );
    let v = index(&root, &db, &["--pack", s(&out), "--bilingual", table]);
    assert_eq!(v["pack"]["documents"], 2, "{v}");
    let o = uniqcheck(&["pack", "--db", s(&db), "-o", s(&plain)]);
    assert!(o.status.success(), "{}", stderr(&o));

    let through = |args: &[&str]| {
        let mut all = vec!["check", s(&draft), "--json"];
        all.extend_from_slice(args);
        json(&uniqcheck(&all))
    };
    let packs = through(&["--packs", s(&out)]);
    let db_report = through(&["--db", s(&db), "--bilingual", table]);
    assert_eq!(
        packs["sources"][0]["url"], db_report["sources"][0]["url"],
        "{packs}"
    );
    assert!(packs["sources"][0]["url"]
        .as_str()
        .unwrap()
        .ends_with("bridge.txt"));
    assert_eq!(packs["translations"], db_report["translations"]);
    assert!(!packs["translations"].as_array().unwrap().is_empty());
    assert_eq!(packs["originality"], db_report["originality"]);
    let without = through(&["--packs", s(&plain)]);
    assert!(
        without["translations"].as_array().unwrap().is_empty(),
        "{without}"
    );
    assert_eq!(without["originality"], 100.0);

    let o = uniqcheck(&["check", s(&draft), "--packs", s(&out)]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("Translated passages (translated from the source)"),
        "{}",
        stdout(&o)
    );
}
