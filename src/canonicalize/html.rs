//! HTML → visible text: a tolerant single-pass scanner, not a DOM parser.
//!
//! - Tags are skipped; a `>` inside a quoted attribute value (`title="a>b"`) does not end the tag.
//! - Inline formatting tags (`b`, `i`, `span`, `a`, `em`, `strong`, …, see [`is_inline`]) and
//!   comments vanish without a trace, so `wo<b>rd</b>` stays one word, as a browser renders it.
//!   Every other tag (block-level, `br`, `img`, unknown and custom elements), doctypes,
//!   processing instructions and CDATA sections become a line break, so
//!   `<p>one</p><p>two</p>` is two words. Treating unknown tags as separators errs on the side
//!   of splitting: a wrongly split word costs less than two words glued into a nonsense one.
//! - The bodies of `script`, `style`, `noscript`, `template`, `iframe`, `noembed`, `noframes`
//!   are skipped up to the matching close tag (case-insensitive).
//! - Entities: all HTML5 named references (html-escape's table; the `;` is required except for
//!   the legacy `&amp` `&lt` `&gt` `&quot` `&nbsp` `&copy` `&reg`), decimal and hex numeric
//!   references with or without `;` (0, surrogates and out-of-range values become U+FFFD, 0x80–0x9F
//!   are read as Windows-1252 like browsers do). Anything else after `&` is text.
//! - Malformed input never panics: an unclosed tag, comment or raw-text element swallows the rest
//!   of the document; a `<` not followed by a tag name is text.

use super::visible::{Builder, Visible};

/// Tags that do not interrupt the flow of text (CSS `display: inline` formatting elements).
fn is_inline(name: &[u8]) -> bool {
    const INLINE: &[&[u8]] = &[
        b"a", b"abbr", b"acronym", b"b", b"bdi", b"bdo", b"big", b"blink", b"cite", b"code",
        b"data", b"del", b"dfn", b"em", b"font", b"i", b"ins", b"kbd", b"mark", b"nobr", b"q",
        b"s", b"samp", b"small", b"span", b"strike", b"strong", b"sub", b"sup", b"time", b"tt",
        b"u", b"var", b"wbr",
    ];
    INLINE.iter().any(|t| t.eq_ignore_ascii_case(name))
}

/// Elements whose body is not visible text.
fn is_raw_skip(name: &[u8]) -> bool {
    const SKIP: &[&[u8]] = &[
        b"script",
        b"style",
        b"noscript",
        b"template",
        b"iframe",
        b"noembed",
        b"noframes",
    ];
    SKIP.iter().any(|t| t.eq_ignore_ascii_case(name))
}

/// What a piece of markup does to the text around it.
enum Markup {
    /// Invisible and non-splitting (inline tags, comments).
    Inline,
    /// Acts as a line break.
    Break,
}

fn find(hay: &[u8], from: usize, needle: &[u8]) -> Option<usize> {
    if from > hay.len() {
        return None;
    }
    hay[from..]
        .windows(needle.len())
        .position(|w| w == needle)
        .map(|p| p + from)
}

/// End (exclusive) of a tag whose attributes start at `i`: after the `>` that is not inside a
/// quoted attribute value, or the end of input.
fn tag_end(b: &[u8], mut i: usize) -> usize {
    while i < b.len() {
        match b[i] {
            b'>' => return i + 1,
            b'=' => {
                i += 1;
                while i < b.len() && b[i].is_ascii_whitespace() {
                    i += 1;
                }
                if i < b.len() && (b[i] == b'"' || b[i] == b'\'') {
                    let q = b[i];
                    match b[i + 1..].iter().position(|&c| c == q) {
                        Some(p) => i += p + 2,
                        None => return b.len(),
                    }
                }
            }
            _ => i += 1,
        }
    }
    b.len()
}

/// Length of the tag name starting at `i`.
fn name_len(b: &[u8], i: usize) -> usize {
    b[i..]
        .iter()
        .position(|&c| c.is_ascii_whitespace() || c == b'/' || c == b'>')
        .unwrap_or(b.len() - i)
}

/// End of the raw-text element `name` whose body starts at `i`: after its close tag, or the
/// end of input.
fn raw_body_end(b: &[u8], mut i: usize, name: &[u8]) -> usize {
    while let Some(p) = find(b, i, b"</") {
        let n = p + 2;
        let after = n + name.len();
        if after <= b.len()
            && b[n..after].eq_ignore_ascii_case(name)
            && (after == b.len()
                || matches!(
                    b[after],
                    b'>' | b'/' | b' ' | b'\t' | b'\n' | b'\r' | b'\x0C'
                ))
        {
            return tag_end(b, after);
        }
        i = n;
    }
    b.len()
}

/// Parses markup at `b[i] == b'<'`; `None` when the `<` is plain text.
fn markup(b: &[u8], i: usize) -> Option<(Markup, usize)> {
    let rest = &b[i..];
    let next = *rest.get(1)?;
    if rest.starts_with(b"<!--") {
        // `<!-->` and `<!--->` are (empty) comments too, hence the search from `<!`'s end.
        let end = find(b, i + 2, b"-->").map_or(b.len(), |p| p + 3);
        return Some((Markup::Inline, end.max(i + 4)));
    }
    if rest.starts_with(b"<![CDATA[") {
        let end = find(b, i + 9, b"]]>").map_or(b.len(), |p| p + 3);
        return Some((Markup::Break, end));
    }
    match next {
        b'!' | b'?' => {
            let end = find(b, i + 2, b">").map_or(b.len(), |p| p + 1);
            Some((Markup::Break, end))
        }
        b'/' => {
            let c = *rest.get(2)?;
            if c == b'>' {
                Some((Markup::Inline, i + 3))
            } else if c.is_ascii_alphabetic() {
                let n = name_len(b, i + 2);
                let name = &b[i + 2..i + 2 + n];
                let kind = if is_inline(name) {
                    Markup::Inline
                } else {
                    Markup::Break
                };
                Some((kind, tag_end(b, i + 2 + n)))
            } else {
                // `</ x>` etc.: a bogus comment in HTML5.
                let end = find(b, i + 2, b">").map_or(b.len(), |p| p + 1);
                Some((Markup::Break, end))
            }
        }
        c if c.is_ascii_alphabetic() => {
            let n = name_len(b, i + 1);
            let name = &b[i + 1..i + 1 + n];
            let end = tag_end(b, i + 1 + n);
            if is_raw_skip(name) {
                Some((Markup::Break, raw_body_end(b, end, name)))
            } else if is_inline(name) {
                Some((Markup::Inline, end))
            } else {
                Some((Markup::Break, end))
            }
        }
        _ => None,
    }
}

/// Windows-1252 meanings of the C1 range, as HTML5 numeric references read them.
fn c1_to_cp1252(n: u32) -> char {
    const T: [char; 32] = [
        '€', '\u{81}', '‚', 'ƒ', '„', '…', '†', '‡', 'ˆ', '‰', 'Š', '‹', 'Œ', '\u{8D}', 'Ž',
        '\u{8F}', '\u{90}', '‘', '’', '“', '”', '•', '–', '—', '˜', '™', 'š', '›', 'œ', '\u{9D}',
        'ž', 'Ÿ',
    ];
    T[(n - 0x80) as usize]
}

/// Decodes the entity at `b[i] == b'&'`: the replacement text and the end of the reference.
fn entity(s: &str, i: usize) -> Option<(Decoded, usize)> {
    let b = s.as_bytes();
    let mut j = i + 1;
    if b.get(j) == Some(&b'#') {
        j += 1;
        let hex = matches!(b.get(j), Some(b'x' | b'X'));
        if hex {
            j += 1;
        }
        let digits = j;
        let mut v: u32 = 0;
        while let Some(d) = b
            .get(j)
            .and_then(|&c| (c as char).to_digit(if hex { 16 } else { 10 }))
        {
            v = v
                .saturating_mul(if hex { 16 } else { 10 })
                .saturating_add(d);
            j += 1;
        }
        if j == digits {
            return None;
        }
        if b.get(j) == Some(&b';') {
            j += 1;
        }
        let c = match v {
            0x80..=0x9F => c1_to_cp1252(v),
            0 => '\u{FFFD}',
            _ => char::from_u32(v).unwrap_or('\u{FFFD}'),
        };
        return Some((Decoded::Char(c), j));
    }
    let name_start = j;
    while j < b.len() && b[j].is_ascii_alphanumeric() && j - name_start < 40 {
        j += 1;
    }
    let name = &b[name_start..j];
    if name.is_empty() {
        return None;
    }
    if b.get(j) == Some(&b';') {
        let t = &html_escape::NAMED_ENTITIES;
        return t
            .binary_search_by(|(n, _)| (*n).cmp(name))
            .ok()
            .map(|k| (Decoded::Str(t[k].1), j + 1));
    }
    let legacy = match name {
        b"amp" => "&",
        b"lt" => "<",
        b"gt" => ">",
        b"quot" => "\"",
        b"nbsp" => "\u{A0}",
        b"copy" => "©",
        b"reg" => "®",
        _ => return None,
    };
    Some((Decoded::Str(legacy), j))
}

enum Decoded {
    Char(char),
    Str(&'static str),
}

/// Appends the text `s[from..to]` (a stretch between tags), decoding entities and dropping
/// ignorable characters.
fn push_text(out: &mut Builder, s: &str, from: usize, to: usize) {
    let b = s.as_bytes();
    let mut seg = from;
    let mut i = from;
    while i < to {
        let c = b[i];
        if c == b'&' {
            if let Some((d, end)) = entity(&s[..to], i) {
                out.push_filtered(&s[seg..i], seg);
                let mut tmp = [0u8; 4];
                let text = match d {
                    Decoded::Char(c) => &*c.encode_utf8(&mut tmp),
                    Decoded::Str(t) => t,
                };
                if text.chars().any(super::is_ignorable) {
                    let kept: String = text.chars().filter(|&c| !super::is_ignorable(c)).collect();
                    out.push_atomic(&kept, i, end);
                } else {
                    out.push_atomic(text, i, end);
                }
                i = end;
                seg = end;
                continue;
            }
        }
        i += 1;
    }
    out.push_filtered(&s[seg..to], seg);
}

/// Visible text of the HTML document `s`.
pub(crate) fn visible(s: &str) -> Visible<'_> {
    let b = s.as_bytes();
    let mut out = Builder::with_capacity(s.len());
    let mut text_start = 0;
    let mut i = 0;
    while i < b.len() {
        if b[i] != b'<' {
            i += 1;
            continue;
        }
        match markup(b, i) {
            Some((kind, end)) => {
                push_text(&mut out, s, text_start, i);
                if let Markup::Break = kind {
                    out.push_atomic("\n", i, end);
                }
                i = end;
                text_start = end;
            }
            None => i += 1,
        }
    }
    push_text(&mut out, s, text_start, b.len());
    out.finish()
}
