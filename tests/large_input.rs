//! 10 MB of input is handled in bounded memory (measured with a counting allocator) and without
//! quadratic blow-ups on repetitive text. Time is not asserted here (see the benchmarks); a
//! quadratic path would make this test run for hours instead of seconds.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};
use uniqcheck::{CheckOptions, Corpus, Format, Params, SourceInfo};

struct Counting;
static CURRENT: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let now = CURRENT.fetch_add(layout.size(), Relaxed) + layout.size();
        PEAK.fetch_max(now, Relaxed);
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        CURRENT.fetch_sub(layout.size(), Relaxed);
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// Deterministic pseudo-text from a vocabulary of Russian and English words.
fn text(bytes: usize, seed: u64) -> String {
    const VOCAB: [&str; 24] = [
        "сад",
        "листья",
        "компост",
        "весной",
        "деревья",
        "мороз",
        "кора",
        "розы",
        "почки",
        "земля",
        "инвентарь",
        "ржавчина",
        "garden",
        "leaves",
        "compost",
        "spring",
        "trees",
        "frost",
        "bark",
        "roses",
        "buds",
        "soil",
        "tools",
        "rust",
    ];
    let mut s = String::with_capacity(bytes + 32);
    let mut x = seed;
    while s.len() < bytes {
        x = x
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        s.push_str(VOCAB[(x >> 59) as usize % VOCAB.len()]);
        s.push(if (x >> 20) % 13 == 0 { '.' } else { ' ' });
        if (x >> 30) % 97 == 0 {
            s.push_str("\n\n");
        }
    }
    s
}

/// A corpus of `source` alone, and options to check a draft against it: both allow 16 MiB, above
/// the 10 MB these tests write.
fn one_source(info: SourceInfo, source: &str) -> (Corpus, CheckOptions) {
    const MAX_TEXT_BYTES: usize = 16 << 20;
    let mut corpus = Corpus::new(Params::default()).unwrap();
    corpus
        .add(info, source, Format::Plain, MAX_TEXT_BYTES)
        .unwrap();
    let opts = CheckOptions {
        max_text_bytes: MAX_TEXT_BYTES,
        ..Default::default()
    };
    (corpus, opts)
}

/// The first character boundary of `s` at or after byte `i`.
fn boundary_from(s: &str, mut i: usize) -> usize {
    while !s.is_char_boundary(i) {
        i += 1;
    }
    i
}

#[test]
fn ten_megabytes_in_bounded_memory() {
    let source = text(10 << 20, 1);
    let info = SourceInfo {
        id: "big".into(),
        ..Default::default()
    };
    let (corpus, opts) = one_source(info, &source);
    // The draft: a different 10 MB text with 1 MB of the source copied into its middle.
    let other = text(10 << 20, 2);
    let cut = boundary_from(&source, 5 << 20);
    let end = boundary_from(&source, cut + (1 << 20));
    let mid = boundary_from(&other, other.len() / 2);
    let draft = format!("{}{}{}", &other[..mid], &source[cut..end], &other[mid..]);
    let baseline = CURRENT.load(Relaxed);
    PEAK.store(baseline, Relaxed);
    let report = corpus.check(&draft, Format::Plain, &opts).unwrap();
    let peak = PEAK.load(Relaxed) - baseline;
    assert!(
        report.uniqueness < 100.0,
        "the copied megabyte must be found"
    );
    assert_eq!(report.sources.len(), 1);
    // Checking an 11 MB draft against a 10 MB source: words, shingles, sets and the alignment
    // index are all linear in the input.
    assert!(
        peak < 40 * draft.len(),
        "peak {} MB for {} MB of draft",
        peak >> 20,
        draft.len() >> 20
    );
}

#[test]
fn ten_megabytes_of_one_repeated_sentence_stay_linear() {
    let sentence = "Осенью сад требует не меньше внимания, чем весной, и садовник это знает. ";
    let text = sentence.repeat((10 << 20) / sentence.len());
    let (corpus, opts) = one_source(SourceInfo::default(), &text);
    let mut cut = 1 << 20;
    while !text.is_char_boundary(cut) {
        cut -= 1;
    }
    let report = corpus
        .check(
            text[..cut].trim_end_matches(|c: char| !c.is_whitespace()),
            Format::Plain,
            &opts,
        )
        .unwrap();
    assert!(report.uniqueness < 1.0, "{}", report.uniqueness);
    assert!(
        report.fragments.len() <= 3,
        "{} fragments",
        report.fragments.len()
    );
}

#[test]
fn a_megabyte_of_one_reworded_sentence_stays_linear() {
    // No exact run of four content words is shared, so the pair is not a verbatim copy and
    // every sentence of the draft resembles every sentence of the source: sentence-level
    // rewrite detection must not compare them all (15,000 × 150,000 pairs).
    let source = "Осенью сад требует не меньше внимания, чем весной, и садовник это знает. "
        .repeat((10 << 20) / 130);
    let draft =
        "Садовник знает: весной и осенью внимания сад требует не меньше. ".repeat((1 << 20) / 110);
    let (corpus, opts) = one_source(SourceInfo::default(), &source);
    let report = corpus.check(&draft, Format::Plain, &opts).unwrap();
    assert!(report.originality <= report.uniqueness);
}
