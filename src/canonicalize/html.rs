//! HTML → visible text: a tolerant single-pass scanner, not a DOM parser. It is the engine's only
//! HTML reader: the canonicalizer, [`visible_text`], [`html_title`] and the format sniffing of
//! [`super::detect_format`] all read markup through it, with one element table and one entity
//! decoder.
//!
//! - Tags are skipped; a `>` inside a quoted attribute value (`title="a>b"`) does not end the tag.
//! - Inline formatting tags (`b`, `i`, `span`, `a`, `em`, `strong`, …, see [`INLINE`]) and
//!   comments vanish without a trace, so `wo<b>rd</b>` stays one word, as a browser renders it.
//!   Every other tag (block-level, `br`, `img`, unknown and custom elements), doctypes,
//!   processing instructions and CDATA sections separate words, so `<p>one</p><p>two</p>` is two
//!   words. Treating unknown tags as separators errs on the side of splitting: a wrongly split
//!   word costs less than two words glued into a nonsense one.
//! - The bodies of `script`, `style`, `noscript`, `template`, `iframe`, `noembed`, `noframes`
//!   are skipped up to the matching close tag (case-insensitive).
//! - Entities: all HTML5 named references (html-escape's table; the `;` is required except for
//!   the legacy `&amp` `&lt` `&gt` `&quot` `&nbsp` `&copy` `&reg`), decimal and hex numeric
//!   references with or without `;` (0x80–0x9F are read as Windows-1252 like browsers do; 0,
//!   surrogates and out-of-range values are invalid). Anything else after `&` is text.
//! - Malformed input never panics: a `<` not followed by a tag name is text. Markup that the end
//!   of the input cuts off (an unclosed tag, comment or raw-text element) swallows the rest of
//!   the document when words are read, as in a browser; [`visible_text`] shows it as text
//!   instead, since what it is given is often an excerpt.
//!
//! Two readings share the scanner through [`Sink`]: the canonicalizer's (separators become line
//! breaks, ignorable characters go, invalid references become U+FFFD, and every visible byte is
//! mapped back to the markup) and the display one of [`visible_text`] and [`html_title`]
//! (separators become spaces, everything between tags is kept as written).

use super::visible::{Builder, Visible};

/// Tags that do not interrupt the flow of text (CSS `display: inline` formatting elements).
/// Sorted, lowercase.
const INLINE: &[&[u8]] = &[
    b"a", b"abbr", b"acronym", b"b", b"bdi", b"bdo", b"big", b"blink", b"cite", b"code", b"data",
    b"del", b"dfn", b"em", b"font", b"i", b"ins", b"kbd", b"mark", b"nobr", b"q", b"s", b"samp",
    b"small", b"span", b"strike", b"strong", b"sub", b"sup", b"time", b"tt", b"u", b"var", b"wbr",
];

/// Elements whose body is not visible text. Sorted, lowercase.
const RAW: &[&[u8]] = &[
    b"iframe",
    b"noembed",
    b"noframes",
    b"noscript",
    b"script",
    b"style",
    b"template",
];

/// Other common elements (all separate words). Only [`super::detect_format`] needs to tell them
/// from unknown names: a `<name>` in prose is a tag when the name is in one of the three lists.
/// Sorted, lowercase.
const BLOCK: &[&[u8]] = &[
    b"article",
    b"aside",
    b"blockquote",
    b"body",
    b"br",
    b"caption",
    b"dd",
    b"div",
    b"dl",
    b"dt",
    b"figcaption",
    b"figure",
    b"footer",
    b"h1",
    b"h2",
    b"h3",
    b"h4",
    b"h5",
    b"h6",
    b"head",
    b"header",
    b"hr",
    b"html",
    b"img",
    b"li",
    b"link",
    b"main",
    b"meta",
    b"nav",
    b"ol",
    b"p",
    b"pre",
    b"section",
    b"table",
    b"tbody",
    b"td",
    b"th",
    b"thead",
    b"title",
    b"tr",
    b"ul",
];

/// How an element affects the text around it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Kind {
    /// Its tags vanish ([`INLINE`]).
    Inline,
    /// Its body is skipped ([`RAW`]).
    Raw,
    /// Its tags separate words ([`BLOCK`]).
    Block,
}

/// The kind of the element `name` (ASCII case-insensitive), `None` for an unknown name.
pub(super) fn element(name: &[u8]) -> Option<Kind> {
    // The longest known name ("blockquote", "figcaption") has 10 letters.
    let mut buf = [0u8; 10];
    let lower = buf.get_mut(..name.len())?;
    lower.copy_from_slice(name);
    lower.make_ascii_lowercase();
    let lower = &*lower;
    [
        (INLINE, Kind::Inline),
        (RAW, Kind::Raw),
        (BLOCK, Kind::Block),
    ]
    .into_iter()
    .find(|(list, _)| list.binary_search(&lower).is_ok())
    .map(|(_, kind)| kind)
}

/// A tag's element name, as written.
#[derive(Debug, Clone, Copy)]
struct Tag<'a> {
    name: &'a [u8],
    closing: bool,
}

/// A piece of markup found at a `<`.
struct Markup<'a> {
    /// End (exclusive) in the input.
    end: usize,
    /// Separates words (else it vanishes: inline tags, comments).
    breaks: bool,
    /// The element tag it is, if it is one.
    tag: Option<Tag<'a>>,
    /// The input ended before the markup did: `end` is the end of the input.
    cut: bool,
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
/// quoted attribute value; `None` when the input ends first.
fn tag_end(b: &[u8], mut i: usize) -> Option<usize> {
    while i < b.len() {
        match b[i] {
            b'>' => return Some(i + 1),
            b'=' => {
                i += 1;
                while i < b.len() && b[i].is_ascii_whitespace() {
                    i += 1;
                }
                if i < b.len() && (b[i] == b'"' || b[i] == b'\'') {
                    let q = b[i];
                    i += b[i + 1..].iter().position(|&c| c == q)? + 2;
                }
            }
            _ => i += 1,
        }
    }
    None
}

/// Length of the tag name starting at `i`.
fn name_len(b: &[u8], i: usize) -> usize {
    b[i..]
        .iter()
        .position(|&c| c.is_ascii_whitespace() || c == b'/' || c == b'>')
        .unwrap_or(b.len() - i)
}

/// End of the raw-text element `name` whose body starts at `i`: after its close tag; `None` when
/// the input ends first.
fn raw_body_end(b: &[u8], mut i: usize, name: &[u8]) -> Option<usize> {
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
    None
}

/// Markup that ends at `end`, or is cut off by the end of `b`.
fn ends<'a>(b: &[u8], end: Option<usize>, breaks: bool, tag: Option<Tag<'a>>) -> Markup<'a> {
    Markup {
        end: end.unwrap_or(b.len()),
        breaks,
        tag,
        cut: end.is_none(),
    }
}

/// Parses markup at `b[i] == b'<'`; `None` when the `<` is plain text.
fn markup(b: &[u8], i: usize) -> Option<Markup<'_>> {
    let rest = &b[i..];
    let next = *rest.get(1)?;
    if rest.starts_with(b"<!--") {
        // `<!-->` and `<!--->` are (empty) comments too, hence the search from `<!`'s end.
        let end = find(b, i + 2, b"-->").map(|p| (p + 3).max(i + 4));
        return Some(ends(b, end, false, None));
    }
    if rest.starts_with(b"<![CDATA[") {
        let end = find(b, i + 9, b"]]>").map(|p| p + 3);
        return Some(ends(b, end, true, None));
    }
    match next {
        b'!' | b'?' => Some(ends(b, find(b, i + 2, b">").map(|p| p + 1), true, None)),
        b'/' => {
            let c = *rest.get(2)?;
            if c == b'>' {
                Some(ends(b, Some(i + 3), false, None))
            } else if c.is_ascii_alphabetic() {
                let n = name_len(b, i + 2);
                let name = &b[i + 2..i + 2 + n];
                let breaks = element(name) != Some(Kind::Inline);
                let tag = Tag {
                    name,
                    closing: true,
                };
                Some(ends(b, tag_end(b, i + 2 + n), breaks, Some(tag)))
            } else {
                // `</ x>` etc.: a bogus comment in HTML5.
                Some(ends(b, find(b, i + 2, b">").map(|p| p + 1), true, None))
            }
        }
        c if c.is_ascii_alphabetic() => {
            let n = name_len(b, i + 1);
            let name = &b[i + 1..i + 1 + n];
            let tag = Tag {
                name,
                closing: false,
            };
            let kind = element(name);
            let end = match (tag_end(b, i + 1 + n), kind) {
                (Some(end), Some(Kind::Raw)) => raw_body_end(b, end, name),
                (end, _) => end,
            };
            Some(ends(b, end, kind != Some(Kind::Inline), Some(tag)))
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

/// What a character reference stands for.
enum Reference {
    Char(char),
    Str(&'static str),
    /// A numeric reference to 0, a surrogate or a value past U+10FFFF.
    Invalid,
}

/// Decodes the entity at `b[i] == b'&'`: what it stands for and the end of the reference.
fn entity(s: &str, i: usize) -> Option<(Reference, usize)> {
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
        let r = match v {
            0x80..=0x9F => Reference::Char(c1_to_cp1252(v)),
            0 => Reference::Invalid,
            _ => char::from_u32(v).map_or(Reference::Invalid, Reference::Char),
        };
        return Some((r, j));
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
            .map(|k| (Reference::Str(t[k].1), j + 1));
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
    Some((Reference::Str(legacy), j))
}

/// What one reading of the markup does with each piece the scanner finds, in input order.
trait Sink {
    /// Whether markup cut off by the end of the input is text (else it swallows the rest).
    const CUT_MARKUP_IS_TEXT: bool;
    /// Text between tags, `s` starting at byte `orig` of the input.
    fn text(&mut self, s: &str, orig: usize);
    /// A character reference, written `raw` at byte `orig` of the input.
    fn reference(&mut self, r: Reference, raw: &str, orig: usize);
    /// Markup starting at byte `orig` of the input.
    fn markup(&mut self, m: &Markup<'_>, orig: usize);
    /// True once the sink needs nothing more: the scan stops.
    fn finished(&self) -> bool {
        false
    }
}

/// Feeds the text `s[from..to]` (a stretch between tags) to `out`, references apart.
fn push_text(out: &mut impl Sink, s: &str, from: usize, to: usize) {
    let b = s.as_bytes();
    let mut seg = from;
    let mut i = from;
    while i < to {
        if b[i] == b'&' {
            if let Some((r, end)) = entity(&s[..to], i) {
                out.text(&s[seg..i], seg);
                out.reference(r, &s[i..end], i);
                i = end;
                seg = end;
                continue;
            }
        }
        i += 1;
    }
    out.text(&s[seg..to], seg);
}

/// Reads the HTML `s` into `out`.
fn scan<S: Sink>(s: &str, out: &mut S) {
    let b = s.as_bytes();
    let mut text_start = 0;
    let mut i = 0;
    while i < b.len() {
        if b[i] != b'<' {
            i += 1;
            continue;
        }
        match markup(b, i) {
            // The rest of the input, this `<` included, is text.
            Some(m) if m.cut && S::CUT_MARKUP_IS_TEXT => break,
            Some(m) => {
                push_text(out, s, text_start, i);
                out.markup(&m, i);
                if out.finished() {
                    return;
                }
                i = m.end;
                text_start = m.end;
            }
            None => i += 1,
        }
    }
    push_text(out, s, text_start, b.len());
}

/// The canonicalizer's reading: separators are line breaks, ignorables go, every visible byte is
/// mapped back to the markup.
impl Sink for Builder {
    const CUT_MARKUP_IS_TEXT: bool = false;

    fn text(&mut self, s: &str, orig: usize) {
        self.push_filtered(s, orig);
    }

    fn reference(&mut self, r: Reference, raw: &str, orig: usize) {
        let mut tmp = [0u8; 4];
        let text = match r {
            Reference::Char(c) => &*c.encode_utf8(&mut tmp),
            Reference::Str(t) => t,
            Reference::Invalid => "\u{FFFD}",
        };
        let end = orig + raw.len();
        if text.chars().any(super::is_ignorable) {
            let kept: String = text.chars().filter(|&c| !super::is_ignorable(c)).collect();
            self.push_atomic(&kept, orig, end);
        } else {
            self.push_atomic(text, orig, end);
        }
    }

    fn markup(&mut self, m: &Markup<'_>, orig: usize) {
        if m.breaks {
            self.push_atomic("\n", orig, m.end);
        }
    }
}

/// Visible text of the HTML document `s`, as the canonicalizer reads it.
pub(crate) fn visible(s: &str) -> Visible<'_> {
    let mut out = Builder::with_capacity(s.len());
    scan(s, &mut out);
    out.finish()
}

/// Where the display reading puts what it shows.
trait Show {
    /// [`Sink::CUT_MARKUP_IS_TEXT`].
    const CUT_MARKUP_IS_TEXT: bool;
    /// Appends shown text.
    fn show(&mut self, s: &str);
    /// Follows an element tag.
    fn tag(&mut self, _tag: Tag<'_>) {}
    /// [`Sink::finished`].
    fn finished(&self) -> bool {
        false
    }
}

/// The display reading: text between tags as written, references decoded (an invalid one as
/// written), a space for each separating piece of markup.
struct Display<T>(T);

impl<T: Show> Sink for Display<T> {
    const CUT_MARKUP_IS_TEXT: bool = T::CUT_MARKUP_IS_TEXT;

    fn text(&mut self, s: &str, _: usize) {
        self.0.show(s);
    }

    fn reference(&mut self, r: Reference, raw: &str, _: usize) {
        match r {
            Reference::Char(c) => self.0.show(c.encode_utf8(&mut [0; 4])),
            Reference::Str(t) => self.0.show(t),
            Reference::Invalid => self.0.show(raw),
        }
    }

    fn markup(&mut self, m: &Markup<'_>, _: usize) {
        if let Some(tag) = m.tag {
            self.0.tag(tag);
        }
        if m.breaks {
            self.0.show(" ");
        }
    }

    fn finished(&self) -> bool {
        self.0.finished()
    }
}

impl Show for String {
    const CUT_MARKUP_IS_TEXT: bool = true;

    fn show(&mut self, s: &str) {
        self.push_str(s);
    }
}

/// The text a reader sees in the HTML `html`: comments, scripts, styles and tags removed, each
/// tag that separates words (see the module's notes) replaced by one space, character references
/// decoded. Everything between tags is kept as written, whitespace included: collapse it to show
/// it on one line. Text without `<` or `&` comes back unchanged.
///
/// It reads markup exactly as the canonicalizer does, except at two places where a display is
/// better served by showing than by hiding: markup that the end of the input cuts off is text
/// (an excerpt may end in the middle of a tag), and an invalid numeric reference such as
/// `&#0;` is kept as written instead of becoming U+FFFD.
///
/// Never panics; linear in the length of `html`.
///
/// # Example
/// ```
/// use uniqcheck::canonicalize::visible_text;
/// let html = "<p>Tea &amp; <b>co</b>ffee<!-- a note --></p><script>track()</script>";
/// assert_eq!(visible_text(html), " Tea & coffee  ");
/// assert_eq!(visible_text("if a < b &c"), "if a < b &c");
/// ```
pub fn visible_text(html: &str) -> String {
    let mut out = Display(String::with_capacity(html.len()));
    scan(html, &mut out);
    out.0
}

/// Where the scan is with one element of interest.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
enum Seen {
    #[default]
    No,
    Open,
    /// Closed; whether its text has anything but whitespace.
    Closed(bool),
}

/// The display text of the first element with a given name.
#[derive(Debug, Default)]
struct First {
    seen: Seen,
    text: String,
}

impl First {
    /// Follows a tag: the first opening tag of the element opens it, the next closing tag closes it.
    fn tag(&mut self, name: &[u8], tag: Tag<'_>) {
        if !tag.name.eq_ignore_ascii_case(name) {
            return;
        }
        match (self.seen, tag.closing) {
            (Seen::No, false) => self.seen = Seen::Open,
            (Seen::Open, true) => {
                self.seen = Seen::Closed(self.text.chars().any(|c| !c.is_whitespace()));
            }
            _ => {}
        }
    }

    fn push(&mut self, s: &str) {
        if self.seen == Seen::Open {
            self.text.push_str(s);
        }
    }
}

/// The display reading of the first `<title>` and the first `<h1>`.
#[derive(Debug, Default)]
struct Titles {
    title: First,
    h1: First,
}

impl Show for Titles {
    // An element cut off by the end of the input has no closing tag either way.
    const CUT_MARKUP_IS_TEXT: bool = false;

    fn show(&mut self, s: &str) {
        self.title.push(s);
        self.h1.push(s);
    }

    fn tag(&mut self, tag: Tag<'_>) {
        self.title.tag(b"title", tag);
        self.h1.tag(b"h1", tag);
    }

    fn finished(&self) -> bool {
        self.title.seen == Seen::Closed(true)
    }
}

/// The title of the HTML document `html`: the text of its first `<title>` element, or when that
/// is missing or blank, of its first `<h1>`; markup removed and references decoded as
/// [`visible_text`] does, whitespace runs collapsed to one space, no space at either end.
/// An element counts only with its closing tag. `None` when neither gives any text.
///
/// Never panics; linear in the length of `html`, and stops reading at the end of a non-blank
/// `<title>`.
///
/// # Example
/// ```
/// use uniqcheck::canonicalize::html_title;
/// let page = "<html><head><TITLE> Tea &amp;\n coffee </TITLE></head><h1>Other</h1>";
/// assert_eq!(html_title(page).as_deref(), Some("Tea & coffee"));
/// assert_eq!(html_title("<h1 class=x>Big <b>news</b></h1>").as_deref(), Some("Big news"));
/// assert_eq!(html_title("<p>No heading</p>"), None);
/// ```
pub fn html_title(html: &str) -> Option<String> {
    let mut titles = Display(Titles::default());
    scan(html, &mut titles);
    [titles.0.title, titles.0.h1]
        .into_iter()
        .find(|e| e.seen == Seen::Closed(true))
        .map(|e| e.text.split_whitespace().collect::<Vec<_>>().join(" "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn element_lists_are_sorted_lowercase_and_disjoint() {
        for list in [INLINE, RAW, BLOCK] {
            assert!(list.windows(2).all(|w| w[0] < w[1]));
            assert!(list
                .iter()
                .all(|n| n.len() <= 10 && !n.iter().any(u8::is_ascii_uppercase)));
        }
        assert_eq!(element(b"SPAN"), Some(Kind::Inline));
        assert_eq!(element(b"Script"), Some(Kind::Raw));
        assert_eq!(element(b"blockquote"), Some(Kind::Block));
        assert_eq!(element(b"h10"), None);
        assert_eq!(element(b"blockquotes"), None);
        assert_eq!(element(b""), None);
        let all = INLINE.len() + RAW.len() + BLOCK.len();
        let mut names: Vec<&[u8]> = [INLINE, RAW, BLOCK].concat();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), all);
    }

    #[test]
    fn visible_text_shows_what_a_reader_sees() {
        let html = "Title</title><style>p { color: red }</style></head><body><h1>Big</h1>\
            <p>Say &laquo;hi&raquo;&nbsp;to <b>bo</b>ld &#x41;&#66; &amp; &bogus; <!-- x --> end";
        let flat = visible_text(html)
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        assert_eq!(flat, "Title Big Say «hi» to bold AB & &bogus; end");
        // What the end of the input cuts off, and invalid references, are shown as written.
        assert_eq!(visible_text("a < b & c <unclosed"), "a < b & c <unclosed");
        assert_eq!(visible_text("&#xFFFFFFFF; &#; &"), "&#xFFFFFFFF; &#; &");
        assert_eq!(visible_text("a <!-- b &amp; c"), "a <!-- b & c");
        assert_eq!(visible_text("a<script>b</script>c"), "a c");
        // Ignorable characters stay: this is for showing, not for matching.
        assert_eq!(visible_text("при&shy;мер\u{200B}"), "при\u{AD}мер\u{200B}");
    }

    #[test]
    fn titles_from_the_title_element_else_the_first_h1() {
        let html = "<html><head><TITLE> Чай &amp; кофе </TITLE></head><body><h1>Other</h1>";
        assert_eq!(html_title(html).as_deref(), Some("Чай & кофе"));
        let h1 = "<body><h1 class=x>Big <b>news</b></h1><p>text</p>";
        assert_eq!(html_title(h1).as_deref(), Some("Big news"));
        assert_eq!(
            html_title("<title> \n </title><h1>Second</h1>").as_deref(),
            Some("Second")
        );
        assert!(html_title("<html><h10>x</h10>").is_none());
        // Only a closed element counts; only the first of each.
        assert!(html_title("<title>Never closed").is_none());
        assert!(html_title("<title></title><title>Second</title>").is_none());
        // Markup that hides text hides it here too.
        assert!(html_title("<!-- <title>x</title> --><script><h1>y</h1></script>").is_none());
    }
}
