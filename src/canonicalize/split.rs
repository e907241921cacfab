//! Word segmentation of the visible text: the words of Unicode's word-boundary algorithm (UAX #29,
//! as `unicode-segmentation` implements it, keeping the segments that hold a letter or a digit),
//! found by a splitter made for the scripts the engine meets, with the general algorithm for the
//! rest.
//!
//! The text is taken line by line: UAX #29 always breaks on both sides of a line feed, so lines
//! segment independently. A line made only of the characters in [`class`]'s table (ASCII, the
//! Latin-1 letters, Cyrillic, the common punctuation of Russian and English text: « » — – … “ ” ’
//! and the like) is split by [`split_simple`], which applies exactly the rules of UAX #29 that
//! can fire between those characters; any other line (an emoji, a combining accent, Greek, CJK…)
//! goes to `unicode-segmentation` whole. The output is the same either way; the tests prove the
//! table and the rules against `unicode-segmentation` (every character of the table in every
//! context the rules look at, random texts, and the test corpora), which stays the oracle.
//!
//! Why: the general algorithm decodes every character and looks its class up in large tables,
//! and has an ASCII-only fast path that a single `ё` or `—` in a line defeats.
//!
//! Each word comes out as a [`Token`] that also carries its word-cache set and whether it opens a
//! sentence: the splitter has the word's bytes and the gap before it at hand, where a later pass
//! would read them again. Both are exactly what `WordCache::slot` and `gap_opens_sentence` give
//! (tested on random texts and the corpora).

use unicode_segmentation::UnicodeSegmentation;

use super::cache::{SlotIndex, WordCache};

/// A character's word-break class, reduced to what distinguishes the characters of the table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Class {
    /// ALetter: a letter (alphabetic), joins letters, digits and `_`.
    Letter,
    /// Numeric: a digit, joins letters, digits and `_`.
    Digit,
    /// ExtendNumLet (`_`): joins letters, digits and itself; not alphanumeric.
    Underscore,
    /// MidLetter (`:`, `·`, `‧`): joins two letters.
    MidLetter,
    /// MidNumLet or Single_Quote (`.`, `'`, `‘`, `’`, `․`): joins two letters or two digits.
    MidNumLet,
    /// MidNum (`,`, `;`): joins two digits.
    MidNum,
    /// Everything else of the table (spaces, line ends, other punctuation and symbols): breaks
    /// on both sides and holds no letter or digit.
    Other,
}

/// ASCII classes by byte (every ASCII character is in the table).
const ASCII: [Class; 128] = {
    let mut t = [Class::Other; 128];
    let mut b = 0;
    while b < 128 {
        t[b] = match b as u8 {
            b'a'..=b'z' | b'A'..=b'Z' => Class::Letter,
            b'0'..=b'9' => Class::Digit,
            b'_' => Class::Underscore,
            b':' => Class::MidLetter,
            b'.' | b'\'' => Class::MidNumLet,
            b',' | b';' => Class::MidNum,
            _ => Class::Other,
        };
        b += 1;
    }
    t
};

/// What [`split_simple`] needs of an ASCII byte met between words, by byte: whether it starts a
/// word ([`STARTS`]: a letter, a digit or `_`), is a full stop ([`FULL_STOP`]: `.`, `!`, `?`) or
/// a line feed ([`LF`]). One load and a mask per gap byte, where a chain of comparisons (in
/// WebAssembly a jump table on the byte, badly predicted) and a class lookup stood: the gaps'
/// bytes were about a third of the splitter's time in V8.
const GAP: [u8; 128] = {
    let mut t = [0u8; 128];
    let mut b = 0;
    while b < 128 {
        t[b] = match ASCII[b] {
            Class::Letter | Class::Digit | Class::Underscore => STARTS,
            _ => match b as u8 {
                b'.' | b'!' | b'?' => FULL_STOP,
                b'\n' => LF,
                _ => 0,
            },
        };
        b += 1;
    }
    t
};
/// [`GAP`]: the byte starts a word.
const STARTS: u8 = 1;
/// [`GAP`]: the byte is a full stop.
const FULL_STOP: u8 = 2;
/// [`GAP`]: the byte is a line feed.
const LF: u8 = 4;

/// The class of `c` when it is in the table the fast splitter knows, `None` otherwise.
#[inline]
pub(crate) fn class(c: char) -> Option<Class> {
    let u = c as u32;
    if u < 0x80 {
        return Some(ASCII[u as usize]);
    }
    Some(match u {
        // Latin-1 letters (× and ÷ are symbols).
        0xC0..=0xD6 | 0xD8..=0xF6 | 0xF8..=0xFF => Class::Letter,
        // Latin-1 punctuation and symbols; not ª ² ³ µ ¹ º ¼ ½ ¾ (alphanumeric), the soft hyphen
        // (a format character), · (MidLetter) nor the spacing accents ¨ ¯ ´ ¸ (some of which
        // UAX #29 counts as letters).
        0xA0..=0xA7
        | 0xA9
        | 0xAB
        | 0xAC
        | 0xAE
        | 0xB0
        | 0xB1
        | 0xB6
        | 0xBB
        | 0xBF
        | 0xD7
        | 0xF7 => Class::Other,
        0xB7 => Class::MidLetter,
        // Latin Extended-A and -B.
        0x100..=0x24F => Class::Letter,
        // Cyrillic letters (not ҂ U+0482 nor the combining marks U+0483–U+0489).
        0x400..=0x481 | 0x48A..=0x52F => Class::Letter,
        // Dashes, quotation marks, bullets, the ellipsis, primes, angle quotes.
        0x2010..=0x2017 | 0x201A..=0x2023 | 0x2025 | 0x2026 | 0x2030..=0x203A => Class::Other,
        0x2018 | 0x2019 | 0x2024 => Class::MidNumLet,
        0x2027 => Class::MidLetter,
        // Currency signs, №, ™, minus.
        0x20A0..=0x20C0 | 0x2116 | 0x2122 | 0x2212 => Class::Other,
        _ => return None,
    })
}

/// Whether a word may continue from a character of class `last` over a `mid` character to a
/// character of class `next` (UAX #29 WB6/WB7, WB11/WB12).
#[inline]
fn bridges(last: Class, mid: Class, next: Class) -> bool {
    match mid {
        Class::MidLetter => last == Class::Letter && next == Class::Letter,
        Class::MidNumLet => {
            (last == Class::Letter && next == Class::Letter)
                || (last == Class::Digit && next == Class::Digit)
        }
        Class::MidNum => last == Class::Digit && next == Class::Digit,
        _ => false,
    }
}

/// The class and byte length of the character at byte `i` of `b` (valid UTF-8, `i` on a char
/// boundary), `None` when it is not in the table.
#[inline(always)]
fn class_at(b: &[u8], i: usize) -> Option<(Class, usize)> {
    let b0 = b[i];
    if b0 < 0x80 {
        return Some((ASCII[b0 as usize], 1));
    }
    let cont = |j: usize| u32::from(b[i + j] & 0x3F);
    let (u, len) = match b0 {
        0xC0..=0xDF => ((u32::from(b0 & 0x1F) << 6) | cont(1), 2),
        0xE0..=0xEF => ((u32::from(b0 & 0x0F) << 12) | (cont(1) << 6) | cont(2), 3),
        // Nothing of the table takes four bytes.
        _ => return None,
    };
    class(char::from_u32(u)?).map(|k| (k, len))
}

/// `v` in every byte of a word.
const fn bytes(v: u8) -> u64 {
    0x0101_0101_0101_0101 * v as u64
}

/// The high bit of each byte of `x` that is an ASCII letter or digit, in one pass over all eight
/// (portable SWAR: every sum below stays within its byte, so no carry crosses to the next).
#[inline(always)]
fn ascii_alnum_bits(x: u64) -> u64 {
    let y = x & bytes(0x7F);
    // High bit of `y + (0x80 - lo)`: `y >= lo`; of `y + (0x7F - hi)`: `y > hi`.
    let digit = (y + bytes(0x80 - b'0')) & !(y + bytes(0x7F - b'9'));
    let z = y | bytes(0x20);
    let letter = (z + bytes(0x80 - b'a')) & !(z + bytes(0x7F - b'z'));
    (digit | letter) & !x & bytes(0x80)
}

/// The end of the run of ASCII letters and digits at byte `i` of `b`.
#[inline(always)]
fn ascii_alnum_end(b: &[u8], mut i: usize) -> usize {
    while let Some(w) = b.get(i..i + 8) {
        let mut a = [0u8; 8];
        a.copy_from_slice(w);
        let stop = !ascii_alnum_bits(u64::from_le_bytes(a)) & bytes(0x80);
        if stop != 0 {
            return i + stop.trailing_zeros() as usize / 8;
        }
        i += 8;
    }
    while i < b.len() && b[i].is_ascii_alphanumeric() {
        i += 1;
    }
    i
}

/// A word of the visible text as the splitter hands it on: its byte range, and what the passes
/// after splitting would otherwise read the text again for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Token {
    /// Start byte offset in the visible text.
    pub start: u32,
    /// End byte offset (exclusive).
    pub end: u32,
    /// The word's set in the word cache ([`WordCache::slot`]).
    pub slot: SlotIndex,
    /// The gap before the word, since the end of the word before it (or the start of the text),
    /// opens a sentence ([`super::gap_opens_sentence`]).
    pub sentence: bool,
}

impl Token {
    #[inline(always)]
    fn new(text: &str, start: usize, end: usize, sentence: bool) -> Self {
        Token {
            start: start as u32,
            end: end as u32,
            slot: WordCache::slot(text, start, end),
            sentence,
        }
    }
}

/// Whether the character at byte `i` of `text` is an uppercase letter (ASCII without decoding).
#[inline]
fn upper_at(text: &str, i: usize) -> bool {
    let c = text.as_bytes()[i];
    if c < 0x80 {
        c.is_ascii_uppercase()
    } else {
        text[i..].chars().next().is_some_and(char::is_uppercase)
    }
}

/// Splits `text[from..]` into words, pushing each to `out`, as long as it meets only table
/// characters; `from` is 0 or just after a line feed. At the first character outside the table,
/// returns the start of its line and the length `out` had there: the words of that line pushed
/// so far are to be dropped. A word's sentence flag is read from the gap bytes this loop steps
/// over anyway; it is exact when the word before it (or the start of the text, `from` = 0) was
/// found by the same call, and left for [`words`] to settle otherwise.
pub(crate) fn split_simple(
    text: &str,
    from: usize,
    out: &mut Vec<Token>,
) -> Result<(), (usize, usize)> {
    let b = text.as_bytes();
    let n = b.len();
    let mut i = from;
    let mut line = from;
    let mut mark = out.len();
    // The gap since the last word: a full stop met, and line feeds counted.
    let mut stop = false;
    let mut newlines = 0u32;
    while i < n {
        // Between words: skip what cannot start one (ASCII first, as most text is).
        let c = b[i];
        let (k, len) = if c < 0x80 {
            let g = GAP[c as usize];
            if g & STARTS == 0 {
                stop |= g & FULL_STOP != 0;
                i += 1;
                if g & LF != 0 {
                    line = i;
                    mark = out.len();
                    newlines += 1;
                }
                continue;
            }
            (ASCII[c as usize], 1)
        } else {
            let (k, len) = class_at(b, i).ok_or((line, mark))?;
            // `…` (E2 80 A6), the one full stop outside ASCII.
            stop |= len == 3 && b[i..i + 3] == *"…".as_bytes();
            (k, len)
        };
        if !matches!(k, Class::Letter | Class::Digit | Class::Underscore) {
            i += len;
            continue;
        }
        // A run of letters, digits and underscores, bridged by mid characters: one segment.
        let start = i;
        let mut alnum = k != Class::Underscore;
        // The class of the character before `i` when it is not ASCII: an ASCII one's is read
        // from the byte where a mid character needs it, rather than after every run of ASCII
        // letters (a load that waited on the end of the run, for most words never used).
        let mut last = k;
        i += len;
        while i < n {
            // ASCII letters and digits, most of most words: eight bytes at a time.
            if b[i].is_ascii_alphanumeric() {
                i = ascii_alnum_end(b, i);
                alnum = true;
                continue;
            }
            let c = b[i];
            let (k, len) = if c < 0x80 {
                (ASCII[c as usize], 1)
            } else {
                class_at(b, i).ok_or((line, mark))?
            };
            match k {
                Class::Letter | Class::Digit => {
                    alnum = true;
                    last = k;
                    i += len;
                }
                Class::Underscore => i += len,
                Class::MidLetter | Class::MidNumLet | Class::MidNum if i + len < n => {
                    let (next, next_len) = class_at(b, i + len).ok_or((line, mark))?;
                    let before = b[i - 1];
                    let prev = if before < 0x80 {
                        ASCII[before as usize]
                    } else {
                        last
                    };
                    if !bridges(prev, k, next) {
                        break;
                    }
                    last = next;
                    i += len + next_len;
                }
                _ => break,
            }
        }
        if alnum {
            let sentence = stop | (newlines >= 2) | (newlines == 1 && upper_at(text, start));
            out.push(Token::new(text, start, i, sentence));
            stop = false;
            newlines = 0;
        }
    }
    Ok(())
}

/// The words of `text` by UAX #29, in order (see the module doc), each with its cache set and
/// whether it opens a sentence.
pub(crate) fn words(text: &str, out: &mut Vec<Token>) {
    let mut from = 0;
    // Tokens whose gap the simple splitter did not read whole: a general line's words, and the
    // word after them.
    let mut unsettled: Vec<(usize, usize)> = Vec::new();
    while let Err((line, mark)) = split_simple(text, from, out) {
        out.truncate(mark);
        let end = text[line..].find('\n').map_or(text.len(), |e| line + e);
        general(text, line, end, out);
        unsettled.push((mark, out.len() + 1));
        from = (end + 1).min(text.len());
    }
    for (from, to) in unsettled {
        for k in from..to.min(out.len()) {
            let gap = if k == 0 { 0 } else { out[k - 1].end as usize };
            out[k].sentence = super::gap_opens_sentence(text, gap, out[k].start as usize);
        }
    }
}

/// The words of the line `text[start..end]` by `unicode-segmentation` (their sentence flags are
/// settled by [`words`]).
fn general(text: &str, start: usize, end: usize, out: &mut Vec<Token>) {
    out.extend(
        text[start..end]
            .unicode_word_indices()
            .map(|(i, w)| Token::new(text, start + i, start + i + w.len(), false)),
    );
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The oracle: the segmentation the engine used before the fast splitter, line by line
    /// through `unicode-segmentation`.
    pub(crate) fn oracle(text: &str) -> Vec<(u32, u32)> {
        let mut out = Vec::new();
        let mut base = 0;
        for line in text.split('\n') {
            general(text, base, base + line.len(), &mut out);
            base += line.len() + 1;
        }
        out.iter().map(|t| (t.start, t.end)).collect()
    }

    fn fast(text: &str) -> Vec<(u32, u32)> {
        tokens(text).iter().map(|t| (t.start, t.end)).collect()
    }

    fn tokens(text: &str) -> Vec<Token> {
        let mut out = Vec::new();
        words(text, &mut out);
        out
    }

    /// The tokens' slots and sentence flags are what the word and its gap give when read
    /// afresh, as `segment` read them before the splitter did.
    fn check_tokens(text: &str) {
        let mut gap = 0;
        for t in tokens(text) {
            let (a, b) = (t.start as usize, t.end as usize);
            assert_eq!(t.slot, WordCache::slot(text, a, b), "{text:?} {a}..{b}");
            assert_eq!(
                t.sentence,
                crate::canonicalize::gap_opens_sentence(text, gap, a),
                "{text:?} {a}..{b}"
            );
            gap = b;
        }
    }

    /// Every character of the table.
    fn table() -> Vec<char> {
        (0..=0x2FFFu32)
            .filter_map(char::from_u32)
            .filter(|&c| class(c).is_some())
            .collect()
    }

    /// One character of each class.
    const REPS: [char; 9] = ['a', 'я', '7', '_', ':', '.', '\'', ',', ' '];

    #[test]
    fn the_splitter_takes_the_fast_path_on_table_lines() {
        let mut out = Vec::new();
        assert!(split_simple("Это «пример» — don’t 3.14, e.g. a_b\nline two", 0, &mut out).is_ok());
        assert_eq!(out.len(), 8);
        // The emoji's line starts at byte 4, where `out` held 10 words (8, then a and b).
        assert_eq!(split_simple("a b\nc d 😀 e\nf", 0, &mut out), Err((4, 10)));
        let before = out.len();
        assert_eq!(split_simple("e\u{301}", 0, &mut out), Err((0, before)));
    }

    /// The eight-at-a-time test is `is_ascii_alphanumeric` on every byte in every position.
    #[test]
    fn ascii_alnum_bits_test_every_byte() {
        for v in 0..=255u8 {
            for pos in 0..8 {
                for fill in [b'a', b' ', 0xFF, b'Z', 0x80] {
                    let mut w = [fill; 8];
                    w[pos] = v;
                    let bits = ascii_alnum_bits(u64::from_le_bytes(w));
                    for (j, &c) in w.iter().enumerate() {
                        assert_eq!(bits >> (8 * j + 7) & 1 == 1, c.is_ascii_alphanumeric());
                    }
                }
            }
        }
        let t = b"abc9Zq01xy z";
        assert_eq!(ascii_alnum_end(t, 0), 10);
        assert_eq!(ascii_alnum_end(t, 11), 12);
        assert_eq!(ascii_alnum_end(b"abcdefghijklmnop-", 0), 16);
    }

    #[test]
    fn table_classes_are_what_the_letters_and_digits_test_says() {
        for c in table() {
            let alnum = c.is_alphanumeric();
            let k = class(c).unwrap();
            assert_eq!(
                alnum,
                matches!(k, Class::Letter | Class::Digit),
                "{c:?} U+{:04X}",
                c as u32
            );
        }
    }

    /// Every character of the table splits like the representative of its class in every
    /// context of up to three more characters drawn from the representatives (the rules look at
    /// most two characters to either side of a break), and the representatives agree with the
    /// oracle on every string of up to six of them.
    #[test]
    fn every_table_character_segments_as_the_oracle_does_in_every_context() {
        let mut s = String::new();
        let mut wrong = std::collections::BTreeSet::new();
        let mut check = |s: &str| {
            if fast(s) != oracle(s) {
                wrong.insert(s.to_string());
            }
        };
        let reps: Vec<char> = REPS.iter().copied().chain(['\n']).collect();
        // All strings of up to 6 representatives.
        let mut idx = vec![];
        for len in 1..=6 {
            idx.clear();
            idx.resize(len, 0usize);
            loop {
                s.clear();
                s.extend(idx.iter().map(|&i| reps[i]));
                check(&s);
                let mut p = 0;
                while p < len && idx[p] + 1 == reps.len() {
                    idx[p] = 0;
                    p += 1;
                }
                if p == len {
                    break;
                }
                idx[p] += 1;
            }
        }
        // Each table character at every position of every 4-character context.
        for c in table() {
            for pos in 0..4 {
                for a in REPS {
                    for b in REPS {
                        for d in REPS {
                            let ctx = [a, b, d];
                            let mut chars = Vec::with_capacity(4);
                            chars.extend_from_slice(&ctx[..pos]);
                            chars.push(c);
                            chars.extend_from_slice(&ctx[pos..]);
                            s.clear();
                            s.extend(chars);
                            check(&s);
                        }
                    }
                }
            }
        }
        let some: Vec<_> = wrong.iter().take(20).collect();
        assert!(
            wrong.is_empty(),
            "{} strings split wrongly, e.g. {some:?}",
            wrong.len()
        );
    }

    #[test]
    fn examples() {
        let t = "Hello, world! 42 раза; can't 3.14 e.g. 1,000.5 a_b __ x:y ё «ёлка» don’t\n\
                 mp3 4ever 1.a a.1 a..b 😀 e\u{301}te\r\nCRLF";
        assert_eq!(fast(t), oracle(t));
        check_tokens(t);
        let spans: Vec<&str> = fast(t)
            .iter()
            .map(|&(a, b)| &t[a as usize..b as usize])
            .collect();
        assert_eq!(
            spans[..12],
            [
                "Hello", "world", "42", "раза", "can't", "3.14", "e.g", "1,000.5", "a_b", "x:y",
                "ё", "ёлка"
            ]
        );
    }

    /// The splitter against the oracle on every file of the test corpora, and on their visible
    /// text read as HTML. `cargo test --release --lib canonicalize::split -- --ignored`
    #[test]
    #[ignore]
    fn same_words_as_the_oracle_on_the_corpora() {
        let (mut files, mut words) = (0, 0);
        for p in crate::document::corpus_digest::corpus_files() {
            let text = String::from_utf8_lossy(&std::fs::read(&p).unwrap()).into_owned();
            for t in [text.clone(), crate::canonicalize::visible_text(&text)] {
                let w = fast(&t);
                assert!(w == oracle(&t), "{}", p.display());
                check_tokens(&t);
                words += w.len();
            }
            files += 1;
        }
        eprintln!("{files} files, {words} words: the same");
    }

    fn piece() -> impl Strategy<Value = String> {
        prop_oneof![
            4 => prop::sample::select(table()).prop_map(String::from),
            4 => prop::sample::select(REPS.to_vec()).prop_map(String::from),
            1 => any::<char>().prop_map(String::from),
            1 => prop::sample::select(vec![
                "\n", "\r\n", "e\u{301}", "😀", "👍🏽", "\u{200D}", "\u{AD}", "ﬁ", "Ａ", "漢字", "α",
                "\u{2060}", "\u{0488}", "ª", "²", "\u{0301}", "  ", "\t",
            ])
            .prop_map(String::from),
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(4096))]

        /// The splitter gives the oracle's words on any text: table characters, others, mixed.
        #[test]
        fn same_words_as_the_oracle(parts in prop::collection::vec(piece(), 0..48)) {
            let text = parts.concat();
            prop_assert_eq!(fast(&text), oracle(&text));
            check_tokens(&text);
        }

        #[test]
        fn same_words_as_the_oracle_on_any_string(text in "\\PC{0,64}") {
            prop_assert_eq!(fast(&text), oracle(&text));
            check_tokens(&text);
        }

        /// Sentence flags across full stops, blank lines, line breaks before capitals and lines
        /// the general algorithm splits.
        #[test]
        fn sentence_flags_as_the_gap_says(
            parts in prop::collection::vec(prop::sample::select(vec![
                "a", "A", "я", "Я", "Ж", "1", " ", "\n", ".", "!", "?", "…", ",", "_", "😀",
                "e\u{301}", "α", "Α", "«", "—", "\u{2025}", "3.5", "e.g", "ёЁ",
            ]), 0..40),
        ) {
            let text = parts.concat();
            prop_assert_eq!(fast(&text), oracle(&text));
            check_tokens(&text);
        }
    }
}
