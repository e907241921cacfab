//! End-to-end tests of the `uniqcheck` binary: real files, real processes, real exit codes.

use serde_json::Value;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

fn uniqcheck(args: &[&str], stdin: Option<&[u8]>) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_uniqcheck"))
        .args(args)
        .env_remove("NO_COLOR")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run uniqcheck");
    {
        let mut pipe = child.stdin.take().unwrap();
        if let Some(bytes) = stdin {
            pipe.write_all(bytes).unwrap();
        }
    }
    child.wait_with_output().unwrap()
}

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).unwrap()
}

fn stderr(o: &Output) -> String {
    String::from_utf8(o.stderr.clone()).unwrap()
}

fn json(o: &Output) -> Value {
    assert!(
        o.status.success(),
        "exit {:?}, stderr: {}",
        o.status,
        stderr(o)
    );
    serde_json::from_slice(&o.stdout).unwrap_or_else(|e| panic!("{e}: {}", stdout(o)))
}

/// Asserts a failure that explains itself and does not panic.
fn assert_fails(o: &Output, code: i32, needle: &str) {
    let err = stderr(o);
    assert_eq!(o.status.code(), Some(code), "stderr: {err}");
    assert!(err.lines().any(|l| l.starts_with("error: ")), "{err}");
    assert!(err.contains(needle), "expected {needle:?} in: {err}");
    assert!(!err.contains("panicked"), "{err}");
}

fn write(dir: &Path, name: &str, bytes: impl AsRef<[u8]>) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, bytes).unwrap();
    path
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
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
    let v = json(&uniqcheck(&["compare", s(&pa), s(&pb), "--json"], None));

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
    assert_eq!(slice_chars(&a, &fragments[0]["a"]), COPIED);
    assert_eq!(slice_chars(&b, &fragments[0]["b"]), COPIED);

    // The same spans in UTF-16 code units differ by the emoji (surrogate pairs).
    let v16 = json(&uniqcheck(
        &["compare", s(&pa), s(&pb), "--json", "--units", "utf16"],
        None,
    ));
    let (c, w) = (&fragments[0], &v16["fragments"][0]);
    assert_eq!(w["a"][0].as_u64().unwrap(), c["a"][0].as_u64().unwrap() + 1);
    assert_eq!(w["b"][0].as_u64().unwrap(), c["b"][0].as_u64().unwrap() + 2);
}

#[test]
fn compare_human_output_quotes_the_fragment() {
    let dir = tempfile::tempdir().unwrap();
    let a = write(dir.path(), "a.txt", format!("{OTHER_RU}{COPIED}."));
    let b = write(dir.path(), "b.txt", format!("{COPIED}. {TEA}"));
    let o = uniqcheck(&["compare", s(&a), s(&b)], None);
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
    let v = json(&uniqcheck(
        &[
            "check",
            s(&draft_path),
            "--against",
            s(dir.path()),
            "--json",
        ],
        None,
    ));
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
    // The summary: three text files indexed, the PNG ignored, the hidden folder not entered.
    assert_eq!(v["corpus"]["indexed"], 3, "{v}");
    assert_eq!(v["corpus"]["skipped"].as_array().unwrap().len(), 0, "{v}");
}

#[test]
fn check_human_output_ranks_sources_and_quotes_fragments() {
    let dir = corpus();
    let draft = write(dir.path(), "draft.txt", format!("{OTHER_RU}{TEA}"));
    let o = uniqcheck(&["check", s(&draft), "--against", s(dir.path())], None);
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
    let o = uniqcheck(
        &["check", "-", "--against", s(dir.path()), "--json"],
        Some(OTHER_RU.as_bytes()),
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
        let o = uniqcheck(&["check", s(&draft), "--against", s(dir.path())], None);
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
    let o = uniqcheck(&["check", s(&bin), "--against", s(dir.path())], None);
    assert_fails(&o, 1, "blob.txt: looks like binary data, not text");
    let o = uniqcheck(&["compare", s(&bin), s(&dir.path().join("tea.txt"))], None);
    assert_fails(&o, 1, "blob.txt: looks like binary data, not text");

    // Without NUL bytes it takes the engine's check to notice.
    garbage.iter_mut().for_each(|b| *b = (*b % 31) + 1);
    let bin = write(dir.path(), "noise.txt", &garbage);
    let o = uniqcheck(&["compare", s(&dir.path().join("tea.txt")), s(&bin)], None);
    assert_fails(&o, 1, "noise.txt: looks like binary data, not text");

    // As sources, binary files are skipped with a warning and counted.
    let draft = write(dir.path(), "draft.txt", TEA);
    let o = uniqcheck(
        &["check", s(&draft), "--against", s(dir.path()), "--json"],
        None,
    );
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
    let o = uniqcheck(&["check", s(&draft), "--against", s(dir.path())], None);
    assert_fails(&o, 1, "no source could be indexed");
    assert!(stderr(&o).contains("warning: skipped"), "{}", stderr(&o));
    let o = uniqcheck(
        &[
            "check",
            s(&draft),
            "--against",
            s(&dir.path().join("missing")),
        ],
        None,
    );
    assert_fails(&o, 1, "cannot read");
    let empty = dir.path().join("empty.txt");
    let o = uniqcheck(&["check", s(&draft), "--against", s(&empty)], None);
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
    let v = json(&uniqcheck(
        &["check", "-", "--against", s(dir.path()), "--json"],
        Some(draft.as_bytes()),
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
    let v = json(&uniqcheck(
        &["compare", "-", s(&pb), "--json"],
        Some(&draft_1251),
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
    let o = uniqcheck(&["compare", s(&a), s(&b), "--encoding", "koi8-r"], None);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("“Заварочный чайник"), "{}", stdout(&o));
    let o = uniqcheck(&["compare", s(&a), s(&b), "--encoding", "klingon"], None);
    assert_fails(&o, 2, "unknown encoding");
}

#[test]
fn stdin_works_for_compare_and_check() {
    let dir = corpus();
    let tea = dir.path().join("tea.txt");
    let v = json(&uniqcheck(
        &["compare", s(&tea), "-", "--json"],
        Some(TEA.as_bytes()),
    ));
    assert_eq!(v["uniqueness"].as_f64(), Some(0.0));
    assert_eq!(v["method"], "exact");
    let o = uniqcheck(
        &["check", "-", "--against", s(dir.path())],
        Some(format!("{OTHER_RU}{TEA}").as_bytes()),
    );
    assert!(
        o.status.success() && stdout(&o).contains("standard input checked against 3 sources"),
        "{}",
        stdout(&o)
    );
    let o = uniqcheck(&["compare", "-", "-"], Some(b"x"));
    assert_fails(&o, 2, "standard input");
}

#[test]
fn invalid_engine_options_are_usage_errors() {
    let dir = corpus();
    let tea = dir.path().join("tea.txt");
    let o = uniqcheck(
        &["check", s(&tea), "--against", s(dir.path()), "-n", "1"],
        None,
    );
    assert_fails(&o, 2, "-n/--shingle");
    assert!(
        stderr(&o).contains("n = 1") && stderr(&o).contains("2..=10"),
        "{}",
        stderr(&o)
    );
    let o = uniqcheck(&["compare", s(&tea), s(&tea), "-k", "5000"], None);
    assert_fails(&o, 2, "16..=1024");
    // Not a number at all: clap's own usage error, also exit code 2.
    let o = uniqcheck(&["compare", s(&tea), s(&tea), "-w", "many"], None);
    assert_eq!(o.status.code(), Some(2));
    let o = uniqcheck(
        &[
            "check",
            s(&tea),
            "--against",
            s(dir.path()),
            "--max-size",
            "100",
        ],
        None,
    );
    assert_fails(&o, 1, "too large");
}

#[test]
fn engine_options_change_the_result() {
    let dir = tempfile::tempdir().unwrap();
    let a = write(dir.path(), "a.txt", format!("{OTHER_RU}{TEA}"));
    let b = write(dir.path(), "b.txt", TEA);
    let strict = json(&uniqcheck(
        &[
            "compare",
            s(&a),
            s(&b),
            "--json",
            "--min-fragment-words",
            "1000",
        ],
        None,
    ));
    assert_eq!(strict["uniqueness"].as_f64(), Some(100.0), "{strict}");
    let v = json(&uniqcheck(
        &[
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
        ],
        None,
    ));
    assert!(v["uniqueness"].as_f64().unwrap() < 100.0, "{v}");
}

#[test]
fn examples_demo_finds_the_rewritten_article() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
    let draft = root.join("examples/draft.txt");
    let corpus = root.join("examples/corpus");
    let v = json(&uniqcheck(
        &["check", s(&draft), "--against", s(&corpus), "--json"],
        None,
    ));
    let u = v["uniqueness"].as_f64().unwrap();
    assert!(u > 20.0 && u < 90.0, "{v}");
    assert_eq!(v["corpus"]["indexed"], 6, "{v}");
    assert_eq!(v["sources"][0]["title"], "ru-tea.txt", "{v}");
    assert_eq!(v["sources"].as_array().unwrap().len(), 1, "{v}");

    let o = uniqcheck(&["check", s(&draft), "--against", s(&corpus)], None);
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
    let o = uniqcheck(&args, None);
    let out = stdout(&o);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        out.contains("“Заварочный чайник сначала ополаскивают кипятком,"),
        "{out}"
    );
    assert!(!out.contains("<p>") && !out.contains("<b>"), "{out}");

    let v = json(&uniqcheck(&[&args[..], &["--json"]].concat(), None));
    let span = &v["sources"][0]["spans"][0];
    let in_page = slice_chars(&page, &span["source"]);
    assert!(
        in_page.starts_with("Заварочный") && in_page.contains("<b>кипятком</b>"),
        "{in_page}"
    );
    assert!(slice_chars(&draft, &span["draft"]).starts_with("Заварочный"));
}
