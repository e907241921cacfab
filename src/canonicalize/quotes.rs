//! Quotations: which words of a text stand between quotation marks. The one rule for "quoted",
//! used when a check is asked to leave quotations out ([`crate::exclude`]).
//!
//! The rule:
//! - **Pairs**: `«…»`, `„…“` (also closed by `”`), `“…”` and straight `"…"`. Single quotes
//!   and `'` are not quotation marks here: they are apostrophes far more often.
//! - **Nesting**: quotes nest (`«он сказал „да“»`); a closing mark closes the innermost open
//!   quotation it can close, and any opened inside it. A straight `"` closes an open `"`,
//!   otherwise opens one; `“` closes an open `„`, otherwise opens one.
//! - **Paragraphs**: a quotation must close in the paragraph where it opened. A line break (plain
//!   text) or a block tag (`<p>`, `<br>`, `<li>`… in HTML) ends every open quotation unclosed.
//! - **Unclosed**: a quotation that never closes leaves out nothing, so a stray or malicious
//!   opening mark cannot hide the rest of a text; a closing mark with nothing open is ignored.
//! - A quotation covers the words between its marks; empty ones cover nothing.
//! - **Quotation elements** (HTML): the words inside `<q>…</q>` and `<blockquote>…</blockquote>`
//!   are quoted too, whatever marks they hold; a `<blockquote>` spans its paragraphs (its block
//!   tags end only the marks' quotations). They nest like marks, a closing tag closes the
//!   innermost element of its name and any opened inside it, and one never closed leaves out
//!   nothing, as an unclosed mark.
//!
//! Marks are read only between words (UAX #29 never puts them inside one), in the visible text:
//! in HTML, quotes inside tags (attribute values) are not marks, and entities (`&laquo;`,
//! `&quot;`) are.

use std::ops::Range;

use super::html::{element, visible_text, Kind};
use super::{Canonical, Format};

/// The ranges of word indices (into `canonical.words`) that stand inside a closed quotation of
/// `text` (canonicalized into `canonical` from `format`), in order, disjoint, each non-empty.
///
/// # Example
/// ```
/// use uniqcheck::canonicalize::{canonicalize, quoted_words, CanonOptions, Format};
/// let text = "Он сказал: «Это „важно“ для всех» и ушёл. Ещё \"кавычки\" и «незакрытая";
/// let c = canonicalize(text, Format::Plain, CanonOptions { stop_words: false, stemming: false });
/// let words = |r: &std::ops::Range<usize>| -> Vec<&str> {
///     c.words[r.clone()].iter().map(|w| &text[w.start as usize..w.end as usize]).collect()
/// };
/// let q = quoted_words(text, Format::Plain, &c);
/// assert_eq!(q.iter().map(words).collect::<Vec<_>>(),
///     [vec!["Это", "важно", "для", "всех"], vec!["кавычки"]]);
/// ```
pub fn quoted_words(text: &str, format: Format, canonical: &Canonical) -> Vec<Range<usize>> {
    let mut open: Vec<(Mark, usize)> = Vec::new();
    // Quotation elements, apart from the marks: paragraphs inside a blockquote do not end it.
    let mut elements: Vec<(Quote, usize)> = Vec::new();
    let mut ranges: Vec<Range<usize>> = Vec::new();
    let mut prev_end = 0usize;
    let words = &canonical.words;
    for i in 0..=words.len() {
        let gap_end = words.get(i).map_or(text.len(), |w| w.start as usize);
        let gap = &text[prev_end.min(gap_end)..gap_end];
        if let Some(w) = words.get(i) {
            prev_end = w.end as usize;
        }
        if gap.is_empty() {
            continue;
        }
        if format == Format::Plain || !gap.contains(['<', '&']) {
            read(gap, format, i, &mut open, &mut ranges);
            continue;
        }
        // One pass over the gap's tags: quotation elements open and close, and each block tag
        // ends the piece before it, whose visible text is read with the quotations open ended
        // there. A `<blockquote>` is both. (The elements and the marks keep apart stacks, and
        // the ranges are merged at the end, so the order they are met in changes nothing.)
        let mut from = 0;
        for (at, name, closing) in tags(gap) {
            if let Some(quote) = quote_element(name) {
                if !closing {
                    elements.push((quote, i));
                } else if let Some(opened) = elements.iter().rposition(|&(q, _)| q == quote) {
                    let (_, first) = elements[opened];
                    elements.truncate(opened);
                    if first < i {
                        ranges.push(first..i);
                    }
                }
            }
            if element(name) == Some(Kind::Block) {
                read(
                    &visible_text(&gap[from..at]),
                    format,
                    i,
                    &mut open,
                    &mut ranges,
                );
                open.clear();
                from = at;
            }
        }
        read(
            &visible_text(&gap[from..]),
            format,
            i,
            &mut open,
            &mut ranges,
        );
    }
    // Nested quotations close inside out: merge each into the one around it.
    merged(ranges)
}

/// `ranges` sorted, overlapping ones merged into one: the sorted, disjoint word ranges a
/// document's quotations are ([`crate::Document::quoted`]).
pub(crate) fn merged(mut ranges: Vec<Range<usize>>) -> Vec<Range<usize>> {
    ranges.sort_unstable_by_key(|r| r.start);
    let mut merged: Vec<Range<usize>> = Vec::with_capacity(ranges.len());
    for r in ranges {
        match merged.last_mut() {
            Some(last) if r.start < last.end => last.end = last.end.max(r.end),
            _ => merged.push(r),
        }
    }
    merged
}

/// Reads the marks of `piece`, visible text before word `i`: opens and closes quotations.
fn read(
    piece: &str,
    format: Format,
    i: usize,
    open: &mut Vec<(Mark, usize)>,
    ranges: &mut Vec<Range<usize>>,
) {
    for c in piece.chars() {
        // In HTML a line break of the markup is a space; its paragraphs are tags.
        if format == Format::Plain && (c == '\n' || c == '\r') {
            open.clear();
            continue;
        }
        let Some(closes) = closing(c, open) else {
            if let Some(m) = opening(c) {
                open.push((m, i));
            }
            continue;
        };
        let (_, from) = open[closes];
        open.truncate(closes);
        if from < i {
            ranges.push(from..i);
        }
    }
}

/// An open quotation, by the mark that opened it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mark {
    /// `«`, closed by `»`.
    Guillemet,
    /// `„`, closed by `“` or `”`.
    Low,
    /// `“`, closed by `”`.
    High,
    /// `"`, closed by `"`.
    Straight,
}

fn opening(c: char) -> Option<Mark> {
    match c {
        '«' => Some(Mark::Guillemet),
        '„' => Some(Mark::Low),
        '“' => Some(Mark::High),
        '"' => Some(Mark::Straight),
        _ => None,
    }
}

/// The position in `open` of the quotation `c` closes, if any: the innermost one it can close.
fn closing(c: char, open: &[(Mark, usize)]) -> Option<usize> {
    let closes = |m: Mark| match c {
        '»' => m == Mark::Guillemet,
        '“' => m == Mark::Low,
        '”' => m == Mark::High || m == Mark::Low,
        '"' => m == Mark::Straight,
        _ => false,
    };
    match c {
        // A straight or high mark closes only the innermost quotation: further out, it opens one.
        '"' | '“' => open
            .last()
            .filter(|(m, _)| closes(*m))
            .map(|_| open.len() - 1),
        _ => open.iter().rposition(|(m, _)| closes(*m)),
    }
}

/// The tags of an HTML gap between two words, in order: where each starts, its element name and
/// whether it is a closing tag.
fn tags(gap: &str) -> impl Iterator<Item = (usize, &[u8], bool)> + '_ {
    let b = gap.as_bytes();
    (0..b.len()).filter_map(move |i| {
        if b[i] != b'<' {
            return None;
        }
        let closing = b.get(i + 1) == Some(&b'/');
        let start = (i + 1 + usize::from(closing)).min(b.len());
        let len = b[start..]
            .iter()
            .take_while(|c| c.is_ascii_alphanumeric())
            .count();
        (len > 0).then(|| (i, &b[start..start + len], closing))
    })
}

/// A quotation element of HTML.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Quote {
    /// `<q>`, an inline quotation.
    Inline,
    /// `<blockquote>`, a quoted passage of one or more paragraphs.
    Block,
}

/// The quotation element a tag's name names, if any.
fn quote_element(name: &[u8]) -> Option<Quote> {
    if name.eq_ignore_ascii_case(b"q") {
        Some(Quote::Inline)
    } else if name.eq_ignore_ascii_case(b"blockquote") {
        Some(Quote::Block)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::canonicalize::{canonicalize, CanonOptions};

    /// The quoted words of `text`, each range as its words joined by spaces.
    fn quoted(text: &str, format: Format) -> Vec<String> {
        let opts = CanonOptions {
            stop_words: false,
            stemming: false,
        };
        let c = canonicalize(text, format, opts);
        quoted_words(text, format, &c)
            .into_iter()
            .map(|r| {
                c.words[r]
                    .iter()
                    .map(|w| &text[w.start as usize..w.end as usize])
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect()
    }

    #[test]
    fn every_pair_of_marks() {
        assert_eq!(quoted("a «b c» d", Format::Plain), ["b c"]);
        assert_eq!(quoted("a „b c“ d", Format::Plain), ["b c"]);
        assert_eq!(quoted("a „b c” d", Format::Plain), ["b c"]);
        assert_eq!(quoted("a “b c” d", Format::Plain), ["b c"]);
        assert_eq!(quoted("a \"b c\" d \"e\"", Format::Plain), ["b c", "e"]);
        // Apostrophes and single quotes are not marks.
        assert!(quoted("it's 'b c' d", Format::Plain).is_empty());
    }

    #[test]
    fn nested_quotations_are_one_range() {
        assert_eq!(quoted("x «a „b c“ d» y", Format::Plain), ["a b c d"]);
        assert_eq!(quoted("x «„b c“» y", Format::Plain), ["b c"]);
        assert_eq!(quoted("x “a \"b\" c” y", Format::Plain), ["a b c"]);
        // The outer quotation never closes: the inner one still counts.
        assert_eq!(quoted("x «a „b c“ d y", Format::Plain), ["b c"]);
        // A closing guillemet closes what was opened inside it.
        assert_eq!(quoted("x «a „b c» d", Format::Plain), ["a b c"]);
    }

    #[test]
    fn an_unclosed_quotation_leaves_out_nothing() {
        assert!(quoted("«a b c d e f g", Format::Plain).is_empty());
        assert!(quoted("a b» c \" d", Format::Plain).is_empty());
        // A paragraph ends it: the mark in the next one opens a new quotation.
        assert_eq!(quoted("«a b\nc» d «e» f", Format::Plain), ["e"]);
        assert!(quoted("<p>«a b</p><p>c» d</p>", Format::Html).is_empty());
        assert!(quoted("«a b<br>c» d", Format::Html).is_empty());
    }

    #[test]
    fn html_marks_are_read_in_the_visible_text() {
        assert_eq!(
            quoted(
                "<p>a <a href=\"x\">b</a> &laquo;c <b>d</b>&raquo; &quot;e&quot;</p>",
                Format::Html
            ),
            ["c d", "e"]
        );
        assert!(quoted("<p class=\"q\">a b</p>", Format::Html).is_empty());
        // A line break of the markup is a space.
        assert_eq!(quoted("<p>«a\nb» c</p>", Format::Html), ["a b"]);
    }

    #[test]
    fn html_quotation_elements_quote_their_words() {
        assert_eq!(
            quoted("<p>a <q>b c</q> d <Q cite=\"x\">e</Q></p>", Format::Html),
            ["b c", "e"]
        );
        // A blockquote spans its paragraphs; the marks inside it still end with each paragraph.
        assert_eq!(
            quoted(
                "<p>a</p><blockquote><p>b «c</p><p>d» e</p></blockquote><p>f</p>",
                Format::Html
            ),
            ["b c d e"]
        );
        // Nested in each other and in marks: one range.
        assert_eq!(
            quoted(
                "<p>a «b <q>c</q> d» e <q>f <q>g</q> h</q> i</p>",
                Format::Html
            ),
            ["b c d", "f g h"]
        );
        // Never closed, or closed with nothing open: nothing is left out.
        assert!(quoted("<blockquote><p>a b c</p>", Format::Html).is_empty());
        assert!(quoted("<p>a</q> b</blockquote> c</p>", Format::Html).is_empty());
        // A closing tag closes what was opened inside it.
        assert_eq!(
            quoted("<blockquote>a <q>b</blockquote> c", Format::Html),
            ["a b"]
        );
        // Other elements whose names start alike are not quotations; plain text has no tags.
        assert!(quoted("<p>a <quote>b</quote> <qx>c</qx></p>", Format::Html).is_empty());
        assert!(quoted("a <q>b</q> c", Format::Plain).is_empty());
    }
}
