//! Human-readable output: the uniqueness figure first and large, then the matching sources,
//! then every matched fragment quoted from the draft.
//!
//! Colour only when stdout is a terminal and `NO_COLOR` is unset (https://no-color.org), so
//! piped output and files stay plain. Every function writes to a `Write` and returns its error,
//! so a closed pipe (`uniqcheck … | head`) ends the program quietly instead of panicking the way
//! `println!` would.

use crate::decode::EncodingEvidence;
use crate::input::Input;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use serde::Serialize;
use std::collections::BTreeMap;
use std::io::{self, IsTerminal, Write};
use std::ops::Range;
use uniqcheck::canonicalize::visible_text;
use uniqcheck::{Comparison, Format, Fragment, Method, Report};

/// Whether to colour what goes to `stream`: it is a terminal and `NO_COLOR` is unset or empty.
pub fn colour(stream: &impl IsTerminal) -> bool {
    stream.is_terminal() && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
}

/// ANSI styling, or none.
#[derive(Debug, Clone, Copy)]
pub struct Paint {
    enabled: bool,
}

impl Paint {
    /// Colour when stdout is a terminal and `NO_COLOR` is unset or empty.
    pub fn for_stdout() -> Paint {
        Paint {
            enabled: colour(&io::stdout()),
        }
    }

    /// Never colour.
    #[cfg(test)]
    pub fn plain() -> Paint {
        Paint { enabled: false }
    }

    fn style(self, code: &str, text: &str) -> String {
        if self.enabled {
            format!("\x1b[{code}m{text}\x1b[0m")
        } else {
            text.to_owned()
        }
    }

    fn bold(self, text: &str) -> String {
        self.style("1", text)
    }

    fn dim(self, text: &str) -> String {
        self.style("2", text)
    }

    fn quote(self, text: &str) -> String {
        self.style("33", text)
    }

    /// Green when mostly original, yellow when partly copied, red when mostly copied.
    fn uniqueness(self, percent: f64) -> String {
        let colour = if percent >= 90.0 {
            "1;32"
        } else if percent >= 60.0 {
            "1;33"
        } else {
            "1;31"
        };
        self.style(colour, &format!("{percent:.1} %"))
    }
}

/// Longest quote shown whole, in characters; longer ones keep their start and end.
const MAX_QUOTE: usize = 220;
/// Characters kept on each side of a trimmed quote.
const QUOTE_SIDE: usize = 100;

/// Bytes of plain text flattened at each end of a long fragment: 4 bytes a character at most, twice
/// what the quote shows, so the cut never falls inside what is shown.
const LOOK: usize = 8 * MAX_QUOTE;

/// The text of `range` on one line, as a reader sees it (markup removed from HTML), long quotes
/// cut in the middle with " … ".
pub fn quote(text: &str, range: Range<usize>, format: Format) -> String {
    let Some(slice) = text.get(range) else {
        return String::new();
    };
    // A fragment may be megabytes long, and there may be tens of thousands of them: for plain
    // text only its two ends are read.
    if format == Format::Plain && slice.len() > 4 * LOOK {
        // The char boundaries nearest inside (str::floor_char_boundary is newer than our MSRV).
        let head_end = (0..=LOOK).rev().find(|&i| slice.is_char_boundary(i));
        let tail_start = (slice.len() - LOOK..=slice.len()).find(|&i| slice.is_char_boundary(i));
        let head = flatten(&slice[..head_end.unwrap_or(0)]);
        let tail = flatten(&slice[tail_start.unwrap_or(slice.len())..]);
        if head.chars().count() >= 2 * QUOTE_SIDE && tail.chars().count() >= 2 * QUOTE_SIDE {
            return cut(&head, &tail);
        }
    }
    let visible = match format {
        Format::Html => visible_text(slice),
        Format::Plain => slice.to_owned(),
    };
    let flat = flatten(&visible);
    if flat.chars().count() <= MAX_QUOTE {
        return flat;
    }
    cut(&flat, &flat)
}

/// Words separated by single spaces.
fn flatten(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The first [`QUOTE_SIDE`] characters of `head` and the last of `tail`, cut at word boundaries
/// when there is one nearby, so no half-words show.
fn cut(head: &str, tail: &str) -> String {
    let head: String = head.chars().take(QUOTE_SIDE).collect();
    let skip = tail.chars().count().saturating_sub(QUOTE_SIDE);
    let tail: String = tail.chars().skip(skip).collect();
    let head = match head.rfind(' ') {
        Some(i) if i > QUOTE_SIDE / 2 => &head[..i],
        _ => head.as_str(),
    };
    let tail = match tail.find(' ') {
        Some(i) if i < tail.len() / 2 => &tail[i + 1..],
        _ => tail.as_str(),
    };
    format!("{head} … {tail}")
}

/// Line numbers of byte offsets in one text. Built once per text: counting newlines from the
/// start for every fragment made printing quadratic (10 minutes for 64,000 fragments of a
/// 21 MB text).
struct Lines(Vec<usize>);

impl Lines {
    fn new(text: &str) -> Lines {
        Lines(
            text.bytes()
                .enumerate()
                .filter(|&(_, b)| b == b'\n')
                .map(|(i, _)| i)
                .collect(),
        )
    }

    /// The 1-based line of byte offset `at` (past the end: the last line).
    fn of(&self, at: usize) -> usize {
        1 + self.0.partition_point(|&newline| newline < at)
    }
}

fn headline(
    w: &mut dyn Write,
    paint: Paint,
    [uniqueness, originality]: [f64; 2],
    words: usize,
    method: Method,
) -> io::Result<()> {
    let words = if words == 1 {
        "1 word".to_owned()
    } else {
        format!("{words} words")
    };
    writeln!(
        w,
        "{} {}  {} {}  ({words}, method: {})",
        paint.bold("Uniqueness:"),
        paint.uniqueness(uniqueness),
        paint.bold("Originality:"),
        paint.uniqueness(originality),
        method.as_str()
    )
}

/// " (encoding guessed: windows-1251)" for a guess, " (utf-16le)" for other inputs that were not
/// UTF-8, " (damaged utf-8)" for UTF-8 with bad bytes: so a wrong reading is visible.
fn encoding_note(input: &Input) -> String {
    let name = input.encoding.name().to_ascii_lowercase();
    match input.evidence {
        EncodingEvidence::Guessed => format!(" (encoding guessed: {name}; --encoding to change)"),
        EncodingEvidence::DamagedUtf8 { .. } => " (damaged utf-8)".to_owned(),
        _ if input.encoding == encoding_rs::UTF_8 => String::new(),
        _ => format!(" ({name})"),
    }
}

/// What indexing the sources of a check produced, or the store they came from.
#[derive(Debug, Clone, Default, Serialize)]
pub struct CorpusSummary {
    /// Sources indexed (documents in the store).
    pub indexed: usize,
    /// Files that were skipped, with the reason.
    pub skipped: Vec<Skipped>,
    /// Files in the folders given that are not texts, by reason (`no file extension`, `not a
    /// text file type`, `a README`): counted, not warned about one by one, since a folder of
    /// texts often holds images and stylesheets.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub passed_over: BTreeMap<String, usize>,
    /// The store checked against (`check --db`): sources are then shown by URL, and have no
    /// source spans since the store keeps no text.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub db: Option<String>,
    /// The pack folder checked against (`check --packs`): shown as a store's are (by URL, no
    /// source spans), but named as what it is, not as a store.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub packs: Option<String>,
}

impl CorpusSummary {
    /// The store or the pack folder checked against, `None` for files (`--against`).
    fn place(&self) -> Option<&str> {
        self.db.as_deref().or(self.packs.as_deref())
    }
}

/// A source file that could not be indexed.
#[derive(Debug, Clone, Serialize)]
pub struct Skipped {
    /// The path as found.
    pub path: String,
    /// Why.
    pub reason: String,
}

/// Prints a check report (draft offsets in bytes of `draft.text`).
pub fn print_check(
    w: &mut dyn Write,
    paint: Paint,
    draft: &Input,
    report: &Report,
    summary: &CorpusSummary,
) -> io::Result<()> {
    headline(
        w,
        paint,
        [report.uniqueness, report.originality],
        report.words,
        report.method,
    )?;
    let plural = if summary.indexed == 1 { "" } else { "s" };
    let against = match summary.place() {
        Some(db) => format!("{} document{plural} in {db}", summary.indexed),
        None => format!("{} source{plural}", summary.indexed),
    };
    let mut skipped = match summary.skipped.len() {
        0 => String::new(),
        n => format!(
            " ({n} file{} skipped, see the warnings)",
            if n == 1 { "" } else { "s" }
        ),
    };
    if !summary.passed_over.is_empty() {
        let why: Vec<String> = summary
            .passed_over
            .iter()
            .map(|(reason, n)| format!("{n} {reason}"))
            .collect();
        let n: usize = summary.passed_over.values().sum();
        skipped.push_str(&format!(
            " ({n} other file{} passed over: {})",
            if n == 1 { "" } else { "s" },
            why.join(", ")
        ));
    }
    writeln!(
        w,
        "{}",
        paint.dim(&format!(
            "{}{} checked against {against}{skipped}",
            draft.name,
            encoding_note(draft),
        ))
    )?;
    if report.capped {
        writeln!(
            w,
            "Note: {} more documents matched than were checked (--max-candidates); they were \
             left out, so the figure may be too high.",
            report.unchecked
        )?;
    }
    let ex = report.excluded;
    if ex.sources > 0 || ex.quoted_words > 0 {
        let s = |n: usize| if n == 1 { "" } else { "s" };
        writeln!(
            w,
            "Excluded: {} source{} (--exclude-domain, --exclude-url), {} word{} in quotations \
             counted as not copied (--exclude-quotes).",
            ex.sources,
            s(ex.sources),
            ex.quoted_words,
            s(ex.quoted_words)
        )?;
    }
    writeln!(w)?;
    if report.sources.is_empty() {
        return writeln!(
            w,
            "No matching sources: nothing in the draft was found in them."
        );
    }

    writeln!(w, "{}", paint.bold("Matching sources"))?;
    let title_width = report
        .sources
        .iter()
        .map(|s| s.info.title.chars().count())
        .max()
        .unwrap_or(0)
        .min(40);
    for (i, s) in report.sources.iter().enumerate() {
        let share = format!("{:5.1} %", 100.0 * s.share);
        let exact = if s.exact { "  (exact duplicate)" } else { "" };
        let place = if summary.place().is_some() {
            s.info.url.as_str()
        } else if s.info.id != s.info.title {
            s.info.id.as_str()
        } else {
            s.info.url.as_str()
        };
        writeln!(
            w,
            "  {:>2}. {}  {:<title_width$}  {}{exact}",
            i + 1,
            paint.bold(&share),
            s.info.title,
            paint.dim(place),
        )?;
    }
    writeln!(w)?;

    let lines = Lines::new(&draft.text);
    let stretches = |w: &mut dyn Write, title: &str, list: &[Fragment]| -> io::Result<()> {
        writeln!(w, "{}", paint.bold(&format!("{title} ({})", list.len())))?;
        for (i, f) in list.iter().enumerate() {
            let titles: Vec<&str> = f
                .sources
                .iter()
                .map(|id| {
                    report
                        .sources
                        .iter()
                        .find(|s| &s.info.id == id)
                        .map_or(id.as_str(), |s| s.info.title.as_str())
                })
                .collect();
            writeln!(
                w,
                "  {:>2}. {}",
                i + 1,
                paint.quote(&format!(
                    "“{}”",
                    quote(&draft.text, f.start..f.end, draft.format)
                ))
            )?;
            writeln!(
                w,
                "      {} {}",
                paint.dim(&format!("line {}, found in", lines.of(f.start))),
                titles.join(", ")
            )?;
        }
        Ok(())
    };
    stretches(w, "Matched fragments", &report.fragments)?;
    if !report.rewrites.is_empty() {
        writeln!(w)?;
        stretches(w, "Rewritten passages", &report.rewrites)?;
    }
    if !report.translations.is_empty() {
        writeln!(w)?;
        stretches(
            w,
            "Translated passages (translated from the source)",
            &report.translations,
        )?;
    }
    Ok(())
}

/// Prints a comparison of A against B (offsets in bytes of their texts).
pub fn print_compare(
    w: &mut dyn Write,
    paint: Paint,
    a: &Input,
    b: &Input,
    c: &Comparison,
) -> io::Result<()> {
    headline(w, paint, [c.uniqueness, c.originality], c.words, c.method)?;
    writeln!(
        w,
        "{}",
        paint.dim(&format!(
            "{}{} checked against {}{}: resemblance {:.2}, containment {:.2}",
            a.name,
            encoding_note(a),
            b.name,
            encoding_note(b),
            c.resemblance,
            c.containment
        ))
    )?;
    writeln!(w)?;
    if c.fragments.is_empty() && c.rewrites.is_empty() && c.translations.is_empty() {
        return writeln!(
            w,
            "No matched fragments: nothing in {} was found in {}.",
            a.name, b.name
        );
    }
    let (lines_a, lines_b) = (Lines::new(&a.text), Lines::new(&b.text));
    for (title, list) in [
        ("Matched fragments", &c.fragments),
        ("Rewritten passages", &c.rewrites),
        (
            "Translated passages (translated from the source)",
            &c.translations,
        ),
    ] {
        if list.is_empty() {
            continue;
        }
        writeln!(w, "{}", paint.bold(&format!("{title} ({})", list.len())))?;
        for (i, f) in list.iter().enumerate() {
            let [start, end] = f.draft;
            writeln!(
                w,
                "  {:>2}. {}",
                i + 1,
                paint.quote(&format!("“{}”", quote(&a.text, start..end, a.format)))
            )?;
            let there = match f.source {
                Some([s, _]) => format!("{} line {}", b.name, lines_b.of(s)),
                None => b.name.clone(),
            };
            writeln!(
                w,
                "      {}",
                paint.dim(&format!(
                    "{} line {}  ↔  {there}",
                    a.name,
                    lines_a.of(start)
                ))
            )?;
        }
    }
    Ok(())
}

/// Prints `value` as pretty JSON and a newline.
pub fn print_json(w: &mut dyn Write, value: &impl Serialize) -> io::Result<()> {
    serde_json::to_writer_pretty(&mut *w, value)?;
    writeln!(w)
}

/// A progress bar on stderr in `template` (indicatif's), hidden when stderr is not a terminal so
/// that logs and pipes get no control sequences.
pub fn progress_bar(total: u64, template: &str) -> ProgressBar {
    if !io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
    if let Ok(style) = ProgressStyle::with_template(template) {
        bar.set_style(style.progress_chars("=> "));
    }
    bar
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_quotes_are_flattened_long_ones_cut_in_the_middle() {
        let text = "Первая строка\n   вторая строка";
        assert_eq!(
            quote(text, 0..text.len(), Format::Plain),
            "Первая строка вторая строка"
        );
        // Long plain fragments read only their ends, with the same result as reading it all.
        for text in [
            "слово ".repeat(10_000),
            format!(
                "{}\n\n{}",
                "Начало текста. ".repeat(900),
                "end of it ".repeat(2_000)
            ),
            format!(
                "{}{}{}",
                "a ".repeat(3_000),
                " ".repeat(LOOK * 4),
                "b ".repeat(3_000)
            ),
        ] {
            let whole = cut(&flatten(&text), &flatten(&text));
            assert_eq!(quote(&text, 0..text.len(), Format::Plain), whole);
        }
        let long = "слово ".repeat(100);
        let q = quote(&long, 0..long.len(), Format::Plain);
        assert!(q.contains(" … "));
        assert!(q.chars().count() <= 2 * QUOTE_SIDE + 3);
        assert!(q.starts_with("слово") && q.ends_with("слово"));
        assert_eq!(quote("abc", 1..10, Format::Plain), "");
    }

    #[test]
    fn html_quotes_show_visible_text() {
        let html = "Title</title><style>p { color: red }</style></head><body><h1>Big</h1>\
            <p>Say &laquo;hi&raquo;&nbsp;to <b>bo</b>ld &#x41;&#66; &amp; &bogus; <!-- x --> end";
        assert_eq!(
            quote(html, 0..html.len(), Format::Html),
            "Title Big Say «hi» to bold AB & &bogus; end"
        );
    }

    #[test]
    fn lines_count_from_one() {
        let lines = Lines::new("a\nb\nc");
        assert_eq!(lines.of(0), 1);
        assert_eq!(lines.of(1), 1, "the newline itself ends line 1");
        assert_eq!(lines.of(2), 2);
        assert_eq!(lines.of(4), 3);
        assert_eq!(Lines::new("a").of(99), 1);
        assert_eq!(Lines::new("a\n").of(99), 2);
    }

    #[test]
    fn plain_paint_adds_no_escapes() {
        let p = Paint::plain();
        assert_eq!(p.uniqueness(62.5), "62.5 %");
        assert_eq!(p.bold("x"), "x");
    }
}
