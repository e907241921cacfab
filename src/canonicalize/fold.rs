//! Canonical form of one word: NFKC, lowercase, `ё → е`, apostrophe folding, look-alike folding
//! in mixed-script words, stop-word test, Snowball stemming chosen by script.
//!
//! ## Look-alike ("homoglyph") folding
//! Replacing a few letters of a word with their twins from the other alphabet (`cлово` with a
//! Latin `c`, `pаypal` with a Cyrillic `а`) makes the word look unchanged to a reader and
//! different to a naive checker. A word that mixes Cyrillic and Latin letters is almost never
//! legitimate, so such a word is folded into one script. The script is settled by the letters that
//! have NO twin in the other alphabet (`д`, `ж`, `я`; `d`, `f`, `g`): a disguise can only swap
//! letters that have a twin, so whichever side has more twinless letters is the real one (`caд`
//! with Latin `c` and `a` is Cyrillic because of `д`, although two of its three letters are
//! Latin). Only when the twinless letters do not decide (none, or as many on each side) does the
//! majority of all letters decide, a tie going to Cyrillic, the main language of the product.
//! Only letters with a twin are mapped; a letter without one is kept as is. Words in a single
//! script are never touched.
//!
//! Folding runs after lowercasing, so the tables hold the lowercase forms of both lowercase and
//! uppercase look-alikes: a Latin `B` inside a Cyrillic word became `b` and is folded to `в`
//! (`В` looks like `B`), `H → н`, `M → м`, `T → т`, `K → к`. Two italic/handwritten look-alikes
//! are included because they are used in practice: `u ↔ и` and `n ↔ п`. Digits (`3` for `з`,
//! `0` for `о`) are not folded: a digit inside a word is too often meaningful (`mp3`, `4ever`).
//! Greek look-alikes are not folded (the engine's languages are Russian and English, and a
//! canonical form that folded them would change every index), but a word mixing one with Latin or
//! Cyrillic letters (`cοpy` with a Greek `ο`) is reported as a disguise all the same
//! ([`mixed_script`]).

use std::borrow::Cow;

use rust_stemmers::{Algorithm, Stemmer};
use unicode_normalization::{is_nfkc_quick, IsNormalized, UnicodeNormalization};

use super::stopwords;

/// Latin letter (lowercase) → Cyrillic twin, used inside mostly-Cyrillic words.
fn latin_to_cyrillic(c: char) -> char {
    match c {
        'a' => 'а',
        'b' => 'в', // from capital B ≈ В
        'c' => 'с',
        'e' | 'ë' => 'е',
        'h' => 'н', // from capital H ≈ Н
        'i' => 'і',
        'j' => 'ј',
        'k' => 'к',
        'm' => 'м', // from capital M ≈ М
        'n' => 'п', // italic п
        'o' => 'о',
        'p' => 'р',
        's' => 'ѕ',
        't' => 'т', // from capital T ≈ Т
        'u' => 'и', // italic и
        'x' => 'х',
        'y' => 'у',
        _ => c,
    }
}

/// Cyrillic letter (lowercase) → Latin twin, used inside mostly-Latin words.
fn cyrillic_to_latin(c: char) -> char {
    match c {
        'а' => 'a',
        'в' => 'b', // from capital В ≈ B
        'с' => 'c',
        'ԁ' => 'd',
        'е' => 'e',
        'н' | 'һ' => 'h', // Н ≈ H; һ (shha) ≈ h
        'і' => 'i',
        'ј' => 'j',
        'к' => 'k', // from capital К ≈ K
        'ӏ' => 'l', // palochka
        'м' => 'm', // from capital М ≈ M
        'п' => 'n', // italic п
        'о' => 'o',
        'р' => 'p',
        'ԛ' => 'q',
        'ѕ' => 's',
        'т' => 't', // from capital Т ≈ T
        'и' => 'u', // italic и
        'ԝ' => 'w',
        'х' => 'x',
        'у' | 'ү' => 'y',
        _ => c,
    }
}

#[inline]
fn is_cyrillic(c: char) -> bool {
    matches!(c, '\u{0400}'..='\u{052F}' | '\u{1C80}'..='\u{1C8F}' | '\u{2DE0}'..='\u{2DFF}' | '\u{A640}'..='\u{A69F}')
        && c.is_alphabetic()
}

#[inline]
fn is_latin(c: char) -> bool {
    c.is_ascii_alphabetic()
        || (matches!(c, '\u{00C0}'..='\u{024F}' | '\u{1E00}'..='\u{1EFF}')
            && c != '\u{00D7}'
            && c != '\u{00F7}')
}

/// Greek letters that pass for Latin or Cyrillic ones (`ο`, `α`, `ρ`, `Η`…): inside a Latin or
/// Cyrillic word, a disguise. Other Greek letters (`μ` of `μm`, `λ`, `π`) mix with Latin in
/// honest writing and are not counted.
fn is_greek_look_alike(c: char) -> bool {
    "αγεικνορτυχΑΒΕΖΗΙΚΜΝΟΡΤΥΧ".contains(c)
}

/// Whether `word` mixes Cyrillic and Latin letters (the disguise look-alike folding undoes), or
/// Greek look-alikes with either: reported to the reader by [`super::disguises`].
pub(crate) fn mixed_script(word: &str) -> bool {
    let (mut cyr, mut lat, mut greek) = (false, false, false);
    for c in word.chars() {
        cyr |= is_cyrillic(c);
        lat |= is_latin(c);
        greek |= is_greek_look_alike(c);
        if (cyr && lat) || (greek && (cyr || lat)) {
            return true;
        }
    }
    false
}

/// Canonicalization result of one surface form, for both stemming settings.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Entry {
    /// CRC32 and char length of the unstemmed form.
    pub plain: (u32, u16),
    /// CRC32 and char length of the stemmed form, once computed.
    pub stemmed: Option<(u32, u16)>,
    /// Russian or English stop word (always computed: it is cheap).
    pub stop: bool,
}

impl Entry {
    /// Hash and length for the given stemming switch (`stemmed` must be set when stemming).
    #[inline]
    pub(crate) fn form(&self, stemming: bool) -> (u32, u16) {
        match self.stemmed {
            Some(s) if stemming => s,
            _ => self.plain,
        }
    }
}

fn hash_len(form: &str) -> (u32, u16) {
    let len = if form.is_ascii() {
        form.len()
    } else {
        form.chars().count()
    };
    (
        crc32fast::hash(form.as_bytes()),
        u16::try_from(len).unwrap_or(u16::MAX),
    )
}

/// Word canonicalizer: owns the stemmers and the scratch buffers reused across words,
/// so that canonicalizing a word allocates nothing in the common case.
pub(crate) struct WordCanon {
    en: Stemmer,
    ru: Stemmer,
    /// Lowercased, folded (unstemmed) form of the current word.
    buf: String,
    /// Scratch for look-alike folding.
    tmp: String,
    cyr: u32,
    lat: u32,
}

impl WordCanon {
    pub(crate) fn new() -> Self {
        Self {
            en: Stemmer::create(Algorithm::English),
            ru: Stemmer::create(Algorithm::Russian),
            buf: String::with_capacity(64),
            tmp: String::with_capacity(64),
            cyr: 0,
            lat: 0,
        }
    }

    #[inline]
    fn push_lower(&mut self, c: char) {
        if c.is_ascii() {
            let l = c.to_ascii_lowercase();
            self.lat += u32::from(l.is_ascii_alphabetic());
            self.buf.push(l);
            return;
        }
        if super::is_ignorable(c) {
            return;
        }
        for l in c.to_lowercase() {
            let l = match l {
                'ё' => 'е',
                // Typographic apostrophes (UAX #29 keeps `don’t` as one word) fold to ASCII so
                // that `don’t` and `don't` are the same word.
                '\u{2018}' | '\u{2019}' | '\u{02BC}' => '\'',
                _ => l,
            };
            if is_cyrillic(l) {
                self.cyr += 1;
            } else if is_latin(l) {
                self.lat += 1;
            }
            self.buf.push(l);
        }
    }

    /// Fills `buf` with the lowercased, `ё`-folded, look-alike-folded form of `raw`.
    fn fold(&mut self, raw: &str) {
        self.buf.clear();
        self.cyr = 0;
        self.lat = 0;
        if raw.is_ascii() {
            // NFKC is the identity on ASCII and there is nothing to fold.
            for &b in raw.as_bytes() {
                let l = b.to_ascii_lowercase();
                self.lat += u32::from(l.is_ascii_alphabetic());
                self.buf.push(char::from(l));
            }
            return;
        }
        if is_nfkc_quick(raw.chars()) == IsNormalized::Yes {
            for c in raw.chars() {
                self.push_lower(c);
            }
        } else {
            for c in raw.nfkc() {
                self.push_lower(c);
            }
        }
        if self.cyr > 0 && self.lat > 0 {
            let (mut cyr_only, mut lat_only) = (0u32, 0u32);
            for c in self.buf.chars() {
                if is_cyrillic(c) && cyrillic_to_latin(c) == c {
                    cyr_only += 1;
                } else if is_latin(c) && latin_to_cyrillic(c) == c {
                    lat_only += 1;
                }
            }
            let to_cyrillic = if cyr_only != lat_only {
                cyr_only > lat_only
            } else {
                self.cyr >= self.lat
            };
            self.tmp.clear();
            let (mut cyr, mut lat) = (0, 0);
            for c in self.buf.chars() {
                let m = if to_cyrillic {
                    latin_to_cyrillic(c)
                } else {
                    cyrillic_to_latin(c)
                };
                if is_cyrillic(m) {
                    cyr += 1;
                } else if is_latin(m) {
                    lat += 1;
                }
                self.tmp.push(m);
            }
            std::mem::swap(&mut self.buf, &mut self.tmp);
            self.cyr = cyr;
            self.lat = lat;
        }
    }

    /// The stemmed canonical form of the word currently in `buf`.
    fn stemmed(&self) -> Cow<'_, str> {
        if self.cyr > 0 && self.cyr >= self.lat {
            self.ru.stem(&self.buf)
        } else if self.lat > 0 {
            self.en.stem(&self.buf)
        } else {
            // Digits, CJK, other scripts: no stemmer applies.
            Cow::Borrowed(self.buf.as_str())
        }
    }

    /// Canonicalizes one word (as segmented from the visible text); the stemmed form only when
    /// `stem`.
    pub(crate) fn entry(&mut self, raw: &str, stem: bool) -> Entry {
        self.fold(raw);
        let stop = is_stop_candidate(&self.buf) && stopwords::is_stop(&self.buf);
        Entry {
            plain: hash_len(&self.buf),
            stemmed: stem.then(|| hash_len(&self.stemmed())),
            stop,
        }
    }

    /// The canonical form of one word as a string.
    pub(crate) fn form(&mut self, raw: &str, stem: bool) -> String {
        self.fold(raw);
        if stem {
            self.stemmed().into_owned()
        } else {
            self.buf.clone()
        }
    }
}

/// Cheap pre-filter: no stop word is longer than 14 bytes.
#[inline]
fn is_stop_candidate(w: &str) -> bool {
    w.len() <= stopwords::MAX_LEN
}
