//! Canonicalization: text (plain or HTML) → words in canonical form, each with its span in the
//! ORIGINAL text.
//!
//! Stages, in order:
//! 1. **Visible text.** Plain text minus ignorable characters (see [`is_ignorable`]); HTML minus
//!    tags, comments, scripts and styles, with entities decoded (see the `html` submodule for
//!    which tags split words). An offset map remembers where every visible byte came from. Plain
//!    text with nothing to drop is not copied.
//! 2. **Words.** Unicode word boundaries (UAX #29) over the visible text; a segment is a word when
//!    it contains a letter or digit (numbers are words). The `split` submodule finds them with a
//!    splitter made for Latin, Cyrillic, digits and common punctuation, and hands any other line
//!    to `unicode-segmentation`: the same words either way.
//! 3. **Canonical form** of each word ([`canonical_form`]): NFKC, lowercase (`char::to_lowercase`),
//!    `ё → е`, typographic apostrophes → `'`, look-alike folding in mixed Cyrillic/Latin words,
//!    then Snowball stemming (Russian for mostly-Cyrillic words, English for mostly-Latin ones,
//!    none otherwise). The stop-word test uses the form before stemming.
//!
//! The same HTML reading is public for the CLI and the server, so that no one reads HTML twice:
//! [`visible_text`] (what a reader sees, for quotes), [`html_title`] (a document's title) and
//! [`detect_format`] (HTML or plain text, for inputs that do not say).
//!
//! Guarantees, for any `&str` input: no panic; every [`Word`]'s `start..end` is a non-empty range
//! on char boundaries of the original text covering the word as written (inline tags, entities
//! and ignorables inside it included); spans are strictly increasing and do not overlap;
//! `content` holds increasing valid indices into `words`.
//!
//! Cost: no allocation per word in the common case (scratch buffers are reused), and a bounded
//! thread-local cache remembers the results of frequent surface forms, which matters because
//! stemming dominates and word frequencies are Zipfian.

use std::cell::RefCell;

use serde::{Deserialize, Serialize};
mod cache;
mod detect;
mod fold;
mod html;
mod quotes;
mod split;
mod stopwords;
mod visible;

pub use detect::detect_format;
pub use html::{html_title, visible_text};
pub(crate) use quotes::merged as merged_ranges;
pub use quotes::quoted_words;

/// Version of the canonicalization rules; bumped whenever a text's canonical words, or what is
/// recorded of them, could change. 2: sentence starts ([`Word::sentence`]), kept in records.
pub const CANONICALIZER_VERSION: u16 = 2;

/// How the input text is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Format {
    /// Plain text: every character is content.
    #[default]
    Plain,
    /// HTML: tags, comments, scripts and styles are skipped; entities are decoded.
    Html,
}

/// Canonicalizer switches (a projection of [`crate::Params`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct CanonOptions {
    /// Mark Russian and English stop words.
    pub stop_words: bool,
    /// Stem with Snowball.
    pub stemming: bool,
}

/// One word of the text in canonical form.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Word {
    /// CRC32 (`crc32fast`) of the UTF-8 canonical form, as [`canonical_form`] returns it.
    pub hash: u32,
    /// Start byte offset in the original text (for HTML: in the markup), on a char boundary.
    pub start: u32,
    /// End byte offset (exclusive) in the original text, on a char boundary.
    pub end: u32,
    /// Length of the canonical form in characters (saturating).
    pub len: u16,
    /// Stop word (only ever set when [`CanonOptions::stop_words`] is on).
    pub stop: bool,
    /// The word opens a sentence ([`opens_sentence`]): the first word, or one after a full stop.
    pub sentence: bool,
}

/// A canonicalized text.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Canonical {
    /// All words in text order.
    pub words: Vec<Word>,
    /// Indices into `words` of the content (non-stop) words.
    pub content: Vec<u32>,
}

/// Whether `c` is dropped before word segmentation: it neither splits nor joins words.
///
/// Zero-width space/joiners (U+200B–U+200D), word joiner and invisible math operators
/// (U+2060–U+2064), BOM / zero-width no-break space (U+FEFF) and the soft hyphen (U+00AD) are
/// the usual ways to make a copied text look different to a checker. The other invisible format
/// characters that are abused the same way go too: bidi marks, embeddings and isolates (U+200E,
/// U+200F, U+202A–U+202E, U+2066–U+206F, U+061C), the Mongolian vowel separator and free
/// variation selectors (U+180B–U+180F), the combining grapheme joiner (U+034F), variation
/// selectors (U+FE00–U+FE0F, U+E0100–U+E01EF) and tag characters (U+E0000–U+E007F).
pub fn is_ignorable(c: char) -> bool {
    matches!(
        c,
        '\u{00AD}'
            | '\u{034F}'
            | '\u{061C}'
            | '\u{180B}'..='\u{180F}'
            | '\u{200B}'..='\u{200F}'
            | '\u{202A}'..='\u{202E}'
            | '\u{2060}'..='\u{2064}'
            | '\u{2066}'..='\u{206F}'
            | '\u{FE00}'..='\u{FE0F}'
            | '\u{FEFF}'
            | '\u{E0000}'..='\u{E007F}'
            | '\u{E0100}'..='\u{E01EF}'
    )
}

/// The canonical form of one word (what [`Word::hash`] is the CRC32 of): NFKC, lowercase,
/// `ё → е`, apostrophe and look-alike folding, stemming when `opts.stemming`. Ignorable characters
/// are dropped. `word` is expected to be a single word; it is not segmented.
pub fn canonical_form(word: &str, opts: CanonOptions) -> String {
    fold::WordCanon::new().form(word, opts.stemming)
}

thread_local! {
    /// Shared by the calls on one thread (see the `cache` submodule for why). `thread_local!`
    /// works on wasm32 too, where it is a plain static.
    static CACHE: RefCell<cache::WordCache> = const { RefCell::new(cache::WordCache::new()) };
}

/// Canonicalizes `text`: all its words in order with spans in `text`, and the content words.
pub fn canonicalize(text: &str, format: Format, opts: CanonOptions) -> Canonical {
    let vis = match format {
        Format::Plain => visible::plain(text),
        Format::Html => html::visible(text),
    };
    let run = |cache: Option<&mut cache::WordCache>| segment(&vis, opts, cache);
    // Without the cache (thread being torn down, or re-entered) the result is the same, only
    // slower.
    CACHE
        .try_with(|c| match c.try_borrow_mut() {
            Ok(mut m) => run(Some(&mut m)),
            Err(_) => run(None),
        })
        .unwrap_or_else(|_| run(None))
}

/// Whether `word`, after the visible text `gap` since the previous word, opens a sentence: the
/// gap holds a full stop (`.`, `!`, `?`, `…`), a blank line, or a line break before a capital
/// letter (a heading, a list item, a paragraph of an HTML block). A line wrapped inside a sentence
/// continues it; an abbreviation's full stop ("Dr. Smith") splits, which the sentence-level
/// alignment tolerates: it joins sentences of fewer than three content words to the next.
pub fn opens_sentence(gap: &str, word: &str) -> bool {
    // On bytes: `.`, `!`, `?` and `\n` are ASCII, which UTF-8 never uses inside another
    // character; the gap is most often one space.
    let mut newlines = 0;
    for &b in gap.as_bytes() {
        match b {
            b'.' | b'!' | b'?' => return true,
            b'\n' => newlines += 1,
            _ => {}
        }
    }
    (!gap.is_ascii() && gap.contains('…'))
        || newlines >= 2
        || (newlines == 1 && word.chars().next().is_some_and(char::is_uppercase))
}

/// [`opens_sentence`] for the gap `text[gap..word]` before the word starting at byte `word` of
/// `text`, without cutting either out of the text: the same bytes read, in place. The splitter
/// reads it on the way for most words; this settles the others and is its oracle in the tests.
#[inline]
fn gap_opens_sentence(text: &str, gap: usize, word: usize) -> bool {
    let t = text.as_bytes();
    let mut newlines = 0;
    let mut ascii = true;
    for &b in &t[gap..word] {
        match b {
            b'.' | b'!' | b'?' => return true,
            b'\n' => newlines += 1,
            _ => ascii &= b < 0x80,
        }
    }
    // `…` is E2 80 A6, and no other character holds those three bytes in a row.
    (!ascii && t[gap..word].windows(3).any(|w| w == "…".as_bytes()))
        || newlines >= 2
        || (newlines == 1 && text[word..].chars().next().is_some_and(char::is_uppercase))
}

/// What a disguise hides: why [`disguises`] reports a stretch of the text.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum DisguiseKind {
    /// A word mixing Cyrillic and Latin letters (`cлово` with a Latin `c`): look-alikes the
    /// canonical form folds into one alphabet; or Greek look-alikes with either (`cοpy` with a
    /// Greek `ο`), which it does not fold.
    MixedScript,
    /// A run of invisible characters ([`is_ignorable`]: zero-width spaces and joiners, soft
    /// hyphens, bidi marks, variation selectors…) that the canonical form drops.
    Invisible,
}

/// A stretch of the original text the canonicalizer folds silently, for a reader to see.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Disguise {
    /// Start byte offset in the original text, on a char boundary.
    pub start: u32,
    /// End byte offset (exclusive), on a char boundary.
    pub end: u32,
    /// What is there.
    pub kind: DisguiseKind,
}

/// Where `text` (canonicalized into `canonical`) hides look-alike letters or invisible
/// characters: every word mixing Cyrillic and Latin letters (its whole span) and every maximal
/// run of invisible characters, ordered by start (an invisible run inside a mixed word overlaps
/// it). What the check folds, so a text doctored to fool a checker can be told from an honest
/// one. In HTML, markup inside a word is not read as its letters, and invisible characters are
/// found where they are written as characters (not as entities).
pub fn disguises(text: &str, format: Format, canonical: &Canonical) -> Vec<Disguise> {
    let mut out = Vec::new();
    // Plain ASCII holds no Cyrillic letter and no invisible character: most English text is
    // settled by one pass over its bytes instead of a test a word (in HTML an ASCII entity may
    // still stand for either).
    if format == Format::Plain && text.is_ascii() {
        return out;
    }
    for w in &canonical.words {
        let span = &text[w.start as usize..w.end as usize];
        let mixed = match format {
            // ASCII holds no Cyrillic letter (a quick test on most words of most texts).
            Format::Plain => !span.is_ascii() && fold::mixed_script(span),
            // Letters of an inline tag (`<b>`) inside a word are not the word's.
            Format::Html => fold::mixed_script(&visible_text(span)),
        };
        if mixed {
            out.push(Disguise {
                start: w.start,
                end: w.end,
                kind: DisguiseKind::MixedScript,
            });
        }
    }
    let mut run: Option<(usize, usize)> = None;
    for (i, c) in ignorables(text) {
        let end = i + c.len_utf8();
        run = match run {
            Some((s, e)) if e == i => Some((s, end)),
            Some((s, e)) => {
                push_invisible(&mut out, s, e);
                Some((i, end))
            }
            None => Some((i, end)),
        };
    }
    if let Some((s, e)) = run {
        push_invisible(&mut out, s, e);
    }
    out.sort_by_key(|d| (d.start, d.end));
    out
}

/// The ignorable characters of `text` and their offsets, found without decoding the others:
/// every ignorable character starts with one of seven lead bytes.
fn ignorables(text: &str) -> impl Iterator<Item = (usize, char)> + '_ {
    text.as_bytes()
        .iter()
        .enumerate()
        .filter(|&(_, &b)| matches!(b, 0xC2 | 0xCD | 0xD8 | 0xE1 | 0xE2 | 0xEF | 0xF3))
        // A lead byte starts a character, so `i` is a char boundary.
        .filter_map(|(i, _)| text[i..].chars().next().map(|c| (i, c)))
        .filter(|&(_, c)| is_ignorable(c))
}

fn push_invisible(out: &mut Vec<Disguise>, start: usize, end: usize) {
    out.push(Disguise {
        start: start as u32,
        end: end as u32,
        kind: DisguiseKind::Invisible,
    });
}

/// How many words ahead [`segment`] asks for a word's cache slot.
const PREFETCH: usize = 8;

/// Segments the visible text into words and canonicalizes them.
fn segment(
    vis: &visible::Visible<'_>,
    opts: CanonOptions,
    mut cache: Option<&mut cache::WordCache>,
) -> Canonical {
    let vt: &str = &vis.text;
    let mut canon = fold::WordCanon::new();
    let mut map = vis.mapper();
    let mut prev_end = 0u32;
    // The splitter hands each word on with its cache set and sentence flag, read while its
    // bytes were at hand, so that this loop does not read the text again but for the lookups.
    let mut tokens = Vec::with_capacity(vt.len() / 5);
    split::words(vt, &mut tokens);
    // Where the lookups below cannot prefetch (WebAssembly), their sets are read first, all at
    // once.
    #[cfg(not(target_arch = "x86_64"))]
    if let Some(c) = cache.as_deref() {
        c.touch(tokens.iter().map(|t| t.slot));
    }
    let mut out = Canonical {
        words: Vec::with_capacity(tokens.len()),
        content: Vec::with_capacity(tokens.len()),
    };
    for (i, t) in tokens.iter().enumerate() {
        let (a, b) = (t.start, t.end);
        let e = match cache.as_deref_mut() {
            Some(c) => {
                if let Some(ahead) = tokens.get(i + PREFETCH) {
                    c.prefetch(ahead.slot);
                }
                c.get_at(
                    t.slot,
                    vt,
                    (a as usize, b as usize),
                    opts.stemming,
                    &mut canon,
                )
            }
            None => canon.entry(&vt[a as usize..b as usize], opts.stemming),
        };
        let sentence = out.words.is_empty() | t.sentence;
        let (mut start, end) = map.map(a, b);
        // Unreachable with real entities (none decodes to two words), kept so that spans
        // never overlap whatever the entity table holds.
        if start < prev_end {
            if end <= prev_end {
                continue;
            }
            start = prev_end;
        }
        prev_end = end;
        let stop = opts.stop_words & e.stop;
        // Every word is written and only a content word kept: stop words come unpredictably,
        // and a branch on them was mispredicted about as often as taken.
        let kept = out.content.len() + usize::from(!stop);
        out.content.push(out.words.len() as u32);
        out.content.truncate(kept);
        let (hash, len) = e.form(opts.stemming);
        out.words.push(Word {
            hash,
            start,
            end,
            len,
            stop,
            sentence,
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    const ALL: CanonOptions = CanonOptions {
        stop_words: true,
        stemming: true,
    };
    const NONE: CanonOptions = CanonOptions {
        stop_words: false,
        stemming: false,
    };

    fn h(s: &str) -> u32 {
        crc32fast::hash(s.as_bytes())
    }

    /// (span text, hash) of every word.
    fn words(text: &str, format: Format, opts: CanonOptions) -> Vec<(&str, u32)> {
        canonicalize(text, format, opts)
            .words
            .iter()
            .map(|w| (&text[w.start as usize..w.end as usize], w.hash))
            .collect()
    }

    fn spans(text: &str, format: Format) -> Vec<&str> {
        words(text, format, NONE).into_iter().map(|w| w.0).collect()
    }

    fn same(a: &str, b: &str, opts: CanonOptions) {
        assert_eq!(
            canonical_form(a, opts),
            canonical_form(b, opts),
            "{a:?} vs {b:?}"
        );
    }

    #[test]
    fn plain_words_numbers_and_spans() {
        let t = "Hello, world! 42 раза; can't 3.14";
        assert_eq!(
            words(t, Format::Plain, NONE),
            vec![
                ("Hello", h("hello")),
                ("world", h("world")),
                ("42", h("42")),
                ("раза", h("раза")),
                ("can't", h("can't")),
                ("3.14", h("3.14")),
            ]
        );
        let c = canonicalize(t, Format::Plain, NONE);
        assert_eq!(c.words[1].len, 5);
        assert_eq!(c.content, vec![0, 1, 2, 3, 4, 5]);
        assert!(canonicalize("", Format::Plain, ALL).words.is_empty());
        assert!(canonicalize(" ,.- ", Format::Html, ALL).words.is_empty());
    }

    #[test]
    fn plain_without_ignorables_is_borrowed() {
        assert!(matches!(
            visible::plain("plain текст").text,
            std::borrow::Cow::Borrowed(_)
        ));
        assert!(matches!(
            visible::plain("pl\u{200B}ain").text,
            std::borrow::Cow::Owned(_)
        ));
    }

    #[test]
    fn html_entities_decoded_and_spanned() {
        let t =
            "caf&eacute; &#1087;&#x440;&#X438;вет AT&amp;T a & b &zzz; x&nbsp;y &#8212;q &#1087";
        assert_eq!(
            words(t, Format::Html, NONE),
            vec![
                ("caf&eacute;", h("café")),
                ("&#1087;&#x440;&#X438;вет", h("привет")),
                ("AT", h("at")),
                ("T", h("t")),
                ("a", h("a")),
                ("b", h("b")),
                ("zzz", h("zzz")),
                ("x", h("x")),
                ("y", h("y")),
                ("q", h("q")),
                ("&#1087", h("п")),
            ]
        );
        // Entities are only decoded in HTML.
        assert_eq!(spans("caf&eacute;", Format::Plain), vec!["caf", "eacute"]);
        // Out-of-range and C1 numeric references.
        assert_eq!(
            words("&#0;a &#xFFFFFFFFF;b &#150;c", Format::Html, NONE),
            vec![("a", h("a")), ("b", h("b")), ("c", h("c"))]
        );
    }

    #[test]
    fn inline_tags_do_not_split_words() {
        let t = "wo<b>rd</b> <span class=\"x\">pri</span><I>me</I> <a href='/'>link</a>ed";
        assert_eq!(
            words(t, Format::Html, NONE),
            vec![
                ("wo<b>rd", h("word")),
                ("pri</span><I>me", h("prime")),
                ("link</a>ed", h("linked")),
            ]
        );
        // Comments are invisible too.
        assert_eq!(spans("a<!-- b -->c", Format::Html), vec!["a<!-- b -->c"]);
    }

    #[test]
    fn block_tags_separate_words() {
        for t in [
            "<p>one</p><p>two</p>",
            "one<br>two",
            "one<br/>two",
            "one<DIV>two",
            "one<td>two",
            "one<img src=x>two",
            "one<custom-el>two",
            "one<!DOCTYPE html>two",
            "one<![CDATA[x]]>two",
        ] {
            assert_eq!(spans(t, Format::Html), vec!["one", "two"], "{t}");
        }
    }

    #[test]
    fn scripts_styles_comments_skipped() {
        let t = "<!DOCTYPE html><html><head><style>p { color: red }</style>\
                 <script>var s = '<p>hidden</p>';</script></head>\
                 <body>text<SCRIPT type=x>y</ScRiPt >z<noscript>n</noscript>\
                 <template><p>t</p></template><!-- c --></body></html>";
        assert_eq!(spans(t, Format::Html), vec!["text", "z"]);
        let q = "<a title=\"x>y\" data-x='>'>link</a>";
        assert_eq!(spans(q, Format::Html), vec!["link"]);
    }

    #[test]
    fn malformed_html() {
        assert_eq!(spans("a < b <3 x<", Format::Html), vec!["a", "b", "3", "x"]);
        assert_eq!(spans("a <!-- b c", Format::Html), vec!["a"]);
        assert_eq!(spans("a <p title=\"b c", Format::Html), vec!["a"]);
        assert_eq!(spans("a <script>b c", Format::Html), vec!["a"]);
        assert_eq!(spans("a </ b> c </> d", Format::Html), vec!["a", "c", "d"]);
        assert_eq!(spans("&", Format::Html), Vec::<&str>::new());
        assert_eq!(spans("&#", Format::Html), Vec::<&str>::new());
        assert_eq!(spans("&#x;", Format::Html), vec!["x"]);
    }

    #[test]
    fn ignorables_neither_split_nor_join() {
        let t = "при\u{200B}мер пере\u{AD}нос a\u{200B} b \u{FEFF}x\u{200D}\u{2060}y\u{200E}";
        assert_eq!(
            words(t, Format::Plain, NONE),
            vec![
                ("при\u{200B}мер", h("пример")),
                ("пере\u{AD}нос", h("перенос")),
                ("a", h("a")),
                ("b", h("b")),
                ("x\u{200D}\u{2060}y", h("xy")),
            ]
        );
        // The same inside HTML, also via entities.
        let t = "<p>при&shy;мер при&#8203;мер</p>";
        assert_eq!(
            words(t, Format::Html, NONE),
            vec![("при&shy;мер", h("пример")), ("при&#8203;мер", h("пример"))]
        );
    }

    #[test]
    fn homoglyphs_folded_both_ways() {
        for opts in [NONE, ALL] {
            same("прuмeр", "пример", opts); // Latin u, e
            same("cлово", "слово", opts); // Latin c
            same("HОМЕР", "номер", opts); // Latin H in a Cyrillic word
            same("BОДА", "вода", opts); // Latin B
            same("pаypal", "paypal", opts); // Cyrillic а
            same("НELLO", "hello", opts); // Cyrillic Н
            same("аpplе", "apple", opts); // 2 Cyrillic vs 3 Latin letters
                                          // Letters without a twin settle the script even when twins are the majority.
            same("caд", "сад", opts); // Latin c, a; Cyrillic д
            same("пoкpoeтcя", "покроется", opts); // five Latin twins, but я has none
            same("gооd", "good", opts); // Cyrillic о о, Latin g, d
        }
        // Single-script words are never folded.
        assert_eq!(canonical_form("pyc", NONE), "pyc");
        assert_eq!(canonical_form("рус", NONE), "рус");
        // A tie goes to Cyrillic.
        assert_eq!(canonical_form("оo", NONE), "оо");
        // Through the whole pipeline.
        let a = canonicalize("Это прuмeр текста", Format::Plain, ALL);
        let b = canonicalize("Это пример текста", Format::Plain, ALL);
        assert_eq!(
            a.words.iter().map(|w| w.hash).collect::<Vec<_>>(),
            b.words.iter().map(|w| w.hash).collect::<Vec<_>>()
        );
    }

    #[test]
    fn yo_folded() {
        same("ёлка", "елка", NONE);
        same("ЁЛКА", "елка", NONE);
        same("всё", "все", NONE);
        assert!(canonicalize("всё", Format::Plain, ALL).words[0].stop);
    }

    #[test]
    fn nfkc_and_case() {
        assert_eq!(canonical_form("ＡＢＣ", NONE), "abc");
        assert_eq!(canonical_form("ﬁle", NONE), "file");
        assert_eq!(canonical_form("e\u{301}te\u{301}", NONE), "été");
        assert_eq!(canonical_form("don’t", NONE), "don't");
        assert_eq!(
            words("ＡＢＣ ﬁle", Format::Plain, NONE),
            vec![("ＡＢＣ", h("abc")), ("ﬁle", h("file"))]
        );
    }

    #[test]
    fn stop_words_marked_only_when_on() {
        let t = "The book и книга don’t";
        let on = canonicalize(t, Format::Plain, ALL);
        assert_eq!(
            on.words.iter().map(|w| w.stop).collect::<Vec<_>>(),
            vec![true, false, true, false, true]
        );
        assert_eq!(on.content, vec![1, 3]);
        let off = canonicalize(
            t,
            Format::Plain,
            CanonOptions {
                stop_words: false,
                stemming: true,
            },
        );
        assert!(off.words.iter().all(|w| !w.stop));
        assert_eq!(off.content, vec![0, 1, 2, 3, 4]);
    }

    #[test]
    fn sentences_open_after_full_stops_blank_lines_and_headings() {
        fn starts(text: &str, format: Format) -> Vec<&str> {
            let c = canonicalize(text, format, NONE);
            c.words
                .iter()
                .filter(|w| w.sentence)
                .map(|w| &text[w.start as usize..w.end as usize])
                .collect()
        }
        let text = "First one. Second one\nstill second? Third\n\nfourth after a blank\nline\nHeading\nBody";
        assert_eq!(
            starts(text, Format::Plain),
            ["First", "Second", "Third", "fourth", "Heading", "Body"]
        );
        assert_eq!(
            starts("3.5 litres… then more", Format::Plain),
            ["3.5", "then"]
        );
        assert_eq!(
            starts(
                "<h2>Заголовок</h2><p>Первый абзац.</p><p>Второй</p>",
                Format::Html
            ),
            ["Заголовок", "Первый", "Второй"]
        );
    }

    #[test]
    fn stemming() {
        let st = CanonOptions {
            stop_words: false,
            stemming: true,
        };
        same("книгами", "книги", st);
        assert_eq!(canonical_form("connected", st), "connect");
        assert_eq!(canonical_form("connection", st), "connect");
        assert_eq!(canonical_form("Connections", st), "connect");
        assert_eq!(canonical_form("2024", st), "2024");
        assert_eq!(canonical_form("漢字", st), "漢字");
        assert_ne!(
            canonical_form("книгами", NONE),
            canonical_form("книги", NONE)
        );
        assert_ne!(
            canonical_form("connected", NONE),
            canonical_form("connection", NONE)
        );
        let c = canonicalize("connections", Format::Plain, st);
        assert_eq!((c.words[0].hash, c.words[0].len), (h("connect"), 7));
    }

    #[test]
    fn html_spans_show_the_visible_word() {
        let t = "<div class=\"post\"><h1>Caf&eacute; <em>in</em>ter<b>na</b>tional</h1>\n\
                 <p>при&shy;мер&nbsp;текста, «цитата»<br>конец</p><script>x()</script></div>";
        assert_eq!(
            spans(t, Format::Html),
            vec![
                "Caf&eacute;",
                "in</em>ter<b>na</b>tional",
                "при&shy;мер",
                "текста",
                "цитата",
                "конец"
            ]
        );
    }

    fn check_invariants(text: &str, format: Format, opts: CanonOptions) {
        let c = canonicalize(text, format, opts);
        let mut prev_end = 0u32;
        for w in &c.words {
            assert!(w.start < w.end && w.end as usize <= text.len());
            assert!(w.start >= prev_end, "overlap in {text:?}");
            assert!(text.is_char_boundary(w.start as usize));
            assert!(text.is_char_boundary(w.end as usize));
            assert!(w.stop <= opts.stop_words);
            prev_end = w.end;
        }
        assert!(c.content.windows(2).all(|p| p[0] < p[1]));
        assert!(c.content.iter().all(|&i| (i as usize) < c.words.len()));
        let stops = c.words.iter().filter(|w| w.stop).count();
        assert_eq!(c.content.len() + stops, c.words.len());
    }

    fn piece() -> impl Strategy<Value = String> {
        prop_oneof![
            prop::sample::select(vec![
                "<",
                ">",
                "&",
                ";",
                "#",
                "x",
                "/",
                "!",
                "-",
                "\"",
                "'",
                "=",
                " ",
                "\n",
                "<b>",
                "</b>",
                "<p>",
                "<script>",
                "</script>",
                "<style>",
                "<!--",
                "-->",
                "&amp;",
                "&#1087;",
                "&#x",
                "&shy;",
                "&#8203;",
                "<![CDATA[",
                "]]>",
                "<!DOCTYPE",
                "word",
                "слово",
                "ёЁ",
                "\u{200B}",
                "\u{AD}",
                "\u{FEFF}",
                "\u{301}",
                "e\u{301}",
                "😀",
                "👍🏽",
                "ﬁ",
                "Ａ",
                "42",
                "3.14",
                "’",
                "pаypal",
                "прuмeр",
                "漢字",
                "\u{0338}",
                "&NotEqualTilde;",
                "&fjlig;",
                "&ThickSpace;",
                "<a title='>'>",
            ])
            .prop_map(String::from),
            any::<char>().prop_map(String::from),
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(512))]

        #[test]
        fn never_panics_and_spans_are_sound(
            parts in prop::collection::vec(piece(), 0..40),
            raw in "\\PC{0,40}",
            stop in any::<bool>(),
            stem in any::<bool>(),
        ) {
            let opts = CanonOptions { stop_words: stop, stemming: stem };
            let text = parts.concat();
            for t in [text.as_str(), raw.as_str()] {
                check_invariants(t, Format::Plain, opts);
                check_invariants(t, Format::Html, opts);
            }
        }

        #[test]
        fn html_reading_never_panics_and_leaves_plain_text_alone(
            parts in prop::collection::vec(piece(), 0..40),
            raw in "\\PC{0,40}",
            ext in prop::option::of("[a-zA-Z.]{0,6}"),
        ) {
            let text = parts.concat();
            for t in [text.as_str(), raw.as_str()] {
                let _ = visible_text(t);
                let _ = html_title(t);
                let _ = detect_format(ext.as_deref(), t);
                if !t.contains(['<', '&']) {
                    prop_assert_eq!(visible_text(t), t);
                }
            }
        }

        #[test]
        fn canonical_form_never_panics(s in "\\PC{0,20}") {
            let _ = canonical_form(&s, ALL);
            let _ = canonical_form(&s, NONE);
        }
    }

    #[test]
    fn every_ignorable_starts_with_a_listed_lead_byte() {
        for c in (0..=0x10FFFFu32)
            .filter_map(char::from_u32)
            .filter(|&c| is_ignorable(c))
        {
            let s = c.to_string();
            assert_eq!(ignorables(&s).collect::<Vec<_>>(), [(0, c)], "{c:?}");
        }
    }

    proptest! {
        #[test]
        fn ignorables_are_found_as_by_decoding(text in "\\PC{0,40}|[a\u{00AD}\u{200B}\u{FEFF}\u{E0001}\u{2060}ё€]{0,20}") {
            let by_chars: Vec<(usize, char)> =
                text.char_indices().filter(|&(_, c)| is_ignorable(c)).collect();
            prop_assert_eq!(ignorables(&text).collect::<Vec<_>>(), by_chars);
        }
    }

    /// The definition [`opens_sentence`] had before it read bytes, as the oracle.
    fn opens_sentence_by_chars(gap: &str, word: &str) -> bool {
        let stop = gap.contains(['.', '!', '?', '…']);
        let newline = gap.contains('\n');
        stop || (newline
            && (gap.matches('\n').nth(1).is_some()
                || word.chars().next().is_some_and(char::is_uppercase)))
    }

    proptest! {
        #[test]
        fn the_gap_is_read_in_place_as_cut_out(
            gap in "[ \n.!?…a,\t\u{2026}\u{2025}\u{0085}\u{2028}]{0,6}",
            word in "[aA\u{0416}\u{0436}1_]{1,3}",
        ) {
            let text = format!("x{gap}{word} tail");
            let at = 1 + gap.len();
            prop_assert_eq!(gap_opens_sentence(&text, 1, at), opens_sentence(&gap, &word));
        }

        #[test]
        fn opens_sentence_reads_bytes_as_it_read_chars(
            gap in "[ \n.!?…a,\t\u{2026}\u{2025}\u{0085}\u{2028}]{0,6}",
            word in "[aA\u{0416}\u{0436}1_]{1,3}",
        ) {
            prop_assert_eq!(opens_sentence(&gap, &word), opens_sentence_by_chars(&gap, &word));
        }

        /// The cache changes nothing, through its growth too: a fresh cache, a warm one and none
        /// give the same words.
        #[test]
        fn the_cache_changes_nothing(words in prop::collection::vec("[a-zа-я]{1,12}|[a-z]{30,40}", 1..400)) {
            let text = words.join(" ");
            let vis = visible::plain(&text);
            let mut cache = cache::WordCache::new();
            let cold = segment(&vis, ALL, Some(&mut cache));
            let warm = segment(&vis, ALL, Some(&mut cache));
            let none = segment(&vis, ALL, None);
            prop_assert_eq!(&cold, &none);
            prop_assert_eq!(&warm, &none);
            prop_assert_eq!(segment(&vis, NONE, Some(&mut cache)), segment(&vis, NONE, None));
        }
    }

    #[test]
    fn the_cache_grows_and_still_changes_nothing() {
        // More distinct words than the smallest tables hold, twice over, short and long.
        let text: String = (0..70_000u32).map(|i| format!("w{i} longer{i} ")).collect();
        let vis = visible::plain(&text);
        let mut cache = cache::WordCache::new();
        let first = segment(&vis, ALL, Some(&mut cache));
        let (short, long) = cache.slots();
        assert!(short > 1 << 14 && long > 1 << 14, "{short} {long}");
        assert_eq!(first, segment(&vis, ALL, None));
        assert_eq!(segment(&vis, ALL, Some(&mut cache)), first);
    }

    /// Throughput on 20 Newsgroups (each post canonicalized on its own, as the engine does).
    /// `cargo test --release --lib canonicalize::tests::throughput -- --ignored --nocapture`
    #[test]
    #[ignore]
    fn throughput() {
        use crate::document::corpus_digest::{data_dir, files, skip_without_data};
        let dir = data_dir().join("20news-bydate/20news-bydate-train");
        let docs: Vec<String> = files(&dir)
            .iter()
            .filter_map(|p| std::fs::read(p).ok())
            .map(|b| String::from_utf8_lossy(&b).into_owned())
            .collect();
        if docs.is_empty() {
            return skip_without_data(&dir);
        }
        let bytes: usize = docs.iter().map(String::len).sum();
        for (name, opts, fmt) in [
            ("plain, stem+stop", ALL, Format::Plain),
            ("plain, no stem/stop", NONE, Format::Plain),
            (
                "plain, stem only",
                CanonOptions {
                    stop_words: false,
                    stemming: true,
                },
                Format::Plain,
            ),
            ("html parser on plain text, stem+stop", ALL, Format::Html),
        ] {
            let mut best = f64::MAX;
            let mut n = 0;
            for _ in 0..3 {
                let t = std::time::Instant::now();
                n = docs
                    .iter()
                    .map(|d| canonicalize(d, fmt, opts).words.len())
                    .sum::<usize>();
                best = best.min(t.elapsed().as_secs_f64());
            }
            println!(
                "{name}: {} docs, {:.1} MB, {n} words, {:.1} MB/s",
                docs.len(),
                bytes as f64 / 1e6,
                bytes as f64 / 1e6 / best
            );
        }
        let all = docs.concat();
        let t = std::time::Instant::now();
        let n = canonicalize(&all, Format::Plain, ALL).words.len();
        let s = t.elapsed().as_secs_f64();
        println!(
            "one text, stem+stop: {n} words, {:.1} MB/s",
            bytes as f64 / 1e6 / s
        );
    }

    fn disguised(text: &str, format: Format) -> Vec<(&str, DisguiseKind)> {
        disguises(text, format, &canonicalize(text, format, ALL))
            .iter()
            .map(|d| (&text[d.start as usize..d.end as usize], d.kind))
            .collect()
    }

    #[test]
    fn disguises_report_mixed_words_and_invisible_runs_where_written() {
        use DisguiseKind::*;
        // A Latin "c" in "cлово", a Cyrillic "а" in "pаypal", two zero-width spaces in a row, a
        // soft hyphen; honest words in either alphabet are not reported.
        let text = "Это cлово и pаypal, a не\u{200B}\u{200B}видимо; пере\u{00AD}нос. Plain English, русский.";
        assert_eq!(
            disguised(text, Format::Plain),
            [
                ("cлово", MixedScript),
                ("pаypal", MixedScript),
                ("\u{200B}\u{200B}", Invisible),
                ("\u{00AD}", Invisible),
            ]
        );
        // A Greek look-alike in a Latin or a Cyrillic word is a disguise; Greek of its own, or a
        // Greek letter that mixes with Latin in honest writing (μm), is not.
        assert_eq!(
            disguised("a cοpy, a сοбака, 5 μm of αβγ.", Format::Plain),
            [("cοpy", MixedScript), ("сοбака", MixedScript)]
        );
        // The run inside a mixed word overlaps it; both are reported, in order of start.
        assert_eq!(
            disguised("xо\u{200D}д", Format::Plain),
            [("xо\u{200D}д", MixedScript), ("\u{200D}", Invisible)]
        );
        // An inline tag's Latin letters inside a Cyrillic word do not make it mixed.
        assert_eq!(
            disguised("<p>сло<b>во</b> и <i>текст</i></p>", Format::Html),
            []
        );
        assert_eq!(disguised("Just honest text.", Format::Plain), []);
        // ASCII HTML can still spell a Cyrillic letter as an entity.
        assert_eq!(
            disguised("<p>p&#1072;ypal</p>", Format::Html),
            [("p&#1072;ypal", MixedScript)]
        );
    }

    proptest! {
        #[test]
        fn disguises_are_ordered_char_ranges(text in "[a-cа-в\u{200B}\u{00AD} .]{0,60}") {
            let ds = disguises(&text, Format::Plain, &canonicalize(&text, Format::Plain, ALL));
            for d in &ds {
                prop_assert!(d.start < d.end && text.is_char_boundary(d.start as usize) && text.is_char_boundary(d.end as usize));
            }
            prop_assert!(ds.windows(2).all(|w| w[0].start <= w[1].start));
        }
    }
}
