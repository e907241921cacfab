//! Telling HTML from plain text, for inputs that do not say which they are (files, standard
//! input).
//!
//! Reading HTML as plain text would count tag names and attributes as words, and reading plain
//! text as HTML would hide whatever looks like a tag, so the rules lean to HTML only on clear
//! signs: an HTML file extension, a leading doctype or `<html>`, or tags of known elements (the
//! element table of the `html` submodule) throughout the text, at least one of them a closing
//! tag, which prose rarely has. Only the first 64 KB of the text is looked at. Never panics.

use super::html::element;
use super::Format;

/// How much of a text is looked at to tell HTML from plain text.
const SNIFF: usize = 64 * 1024;

/// The format of a text: [`Format::Html`] for the extensions `html`, `htm` and `xhtml` (any case,
/// with or without the leading dot), for text that starts with a doctype or `<html` (after
/// whitespace and a BOM), and for text whose first 64 KB hold at least four tags of known
/// elements, one of them closing, and a tag every 2 KB or closer; [`Format::Plain`] otherwise.
///
/// # Example
/// ```
/// use uniqcheck::canonicalize::{detect_format, Format};
/// assert_eq!(detect_format(Some("HTM"), "plain words"), Format::Html);
/// assert_eq!(detect_format(None, "<h1>Tea</h1>\n<p>Green <b>or</b> black</p>"), Format::Html);
/// assert_eq!(detect_format(Some("txt"), "if a < b and c > d then <nothing> happens"), Format::Plain);
/// ```
pub fn detect_format(extension: Option<&str>, text: &str) -> Format {
    let html_extension = extension.is_some_and(|e| {
        let e = e.strip_prefix('.').unwrap_or(e);
        ["html", "htm", "xhtml"]
            .iter()
            .any(|h| e.eq_ignore_ascii_case(h))
    });
    if html_extension {
        return Format::Html;
    }
    let mut end = text.len().min(SNIFF);
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    let head = &text[..end];
    let lead = head
        .trim_start_matches(|c: char| c.is_whitespace() || c == '\u{FEFF}')
        .as_bytes();
    let starts = |p: &[u8]| {
        lead.get(..p.len())
            .is_some_and(|l| l.eq_ignore_ascii_case(p))
    };
    if starts(b"<!doctype") || starts(b"<html") {
        return Format::Html;
    }
    let (tags, closing) = count_tags(head);
    // At least one closing tag (prose rarely has one), and on average a tag every 2 KB or closer.
    if tags >= 4 && closing >= 1 && tags * 2048 >= head.len() {
        Format::Html
    } else {
        Format::Plain
    }
}

/// Counts `<name …>` and `</name>` tags with a known element name: (all, closing).
fn count_tags(text: &str) -> (usize, usize) {
    let (mut tags, mut closing) = (0, 0);
    let bytes = text.as_bytes();
    let mut i = 0;
    while let Some(off) = bytes[i..].iter().position(|&b| b == b'<') {
        i += off + 1;
        let close = bytes.get(i) == Some(&b'/');
        let name_start = (i + close as usize).min(bytes.len());
        let name_len = bytes[name_start..]
            .iter()
            .take_while(|b| b.is_ascii_alphanumeric())
            .count();
        let name_end = name_start + name_len;
        let terminated = matches!(
            bytes.get(name_end),
            Some(b'>' | b' ' | b'/' | b'\t' | b'\n' | b'\r')
        );
        if name_len > 0 && terminated && element(&bytes[name_start..name_end]).is_some() {
            tags += 1;
            closing += close as usize;
        }
    }
    (tags, closing)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn html_by_extension_doctype_or_tags() {
        assert_eq!(detect_format(Some("HTM"), "plain"), Format::Html);
        assert_eq!(detect_format(Some(".xhtml"), "plain"), Format::Html);
        assert_eq!(detect_format(None, "\n  <!DOCTYPE html><p>x"), Format::Html);
        assert_eq!(detect_format(None, "<html lang=ru>"), Format::Html);
        let fragment = "<h1>Title</h1>\n<p>One <b>bold</b> word.</p>\n<ul><li>item</li></ul>";
        assert_eq!(detect_format(Some("txt"), fragment), Format::Html);
    }

    #[test]
    fn prose_with_angle_brackets_stays_plain() {
        assert_eq!(
            detect_format(None, "if a < b and c > d then <nothing> happens"),
            Format::Plain
        );
        let md = "# Title\n\nUse the <b> tag for bold text, and `x < y`.\n".repeat(3);
        assert_eq!(detect_format(Some("md"), &md), Format::Plain);
        assert_eq!(detect_format(None, ""), Format::Plain);
        assert_eq!(detect_format(None, "<"), Format::Plain);
        assert_eq!(detect_format(None, "</"), Format::Plain);
        assert_eq!(detect_format(None, "\u{FEFF}<!doc"), Format::Plain);
    }
}
