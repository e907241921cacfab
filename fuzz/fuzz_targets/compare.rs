//! Feeds arbitrary text, plain or HTML, through the whole pipeline on both sides of a comparison
//! (canonicalize, shingle, anchor, sketch, align, detections, report). It must never panic, and
//! every span it returns must be a range on char boundaries of the text it points into, with
//! uniqueness, resemblance and containment in range: the guarantees the WebAssembly module and
//! the page rely on.
//!
//! Input layout: byte 0 picks the formats (bit 0: draft HTML, bit 1: source HTML); the rest is
//! split at its first 0xFF byte (never valid UTF-8) into draft and source, each read lossily.
#![no_main]

use libfuzzer_sys::fuzz_target;
use uniqcheck::{compare, CheckOptions, Format, Params};

fn format(html: bool) -> Format {
    if html {
        Format::Html
    } else {
        Format::Plain
    }
}

fn in_text(text: &str, [start, end]: [usize; 2]) {
    assert!(start < end && end <= text.len(), "{start}..{end} of {}", text.len());
    assert!(text.is_char_boundary(start) && text.is_char_boundary(end));
}

fuzz_target!(|data: &[u8]| {
    let Some((&mode, rest)) = data.split_first() else {
        return;
    };
    let cut = rest.iter().position(|&b| b == 0xFF).unwrap_or(rest.len());
    let draft = String::from_utf8_lossy(&rest[..cut]);
    let source = String::from_utf8_lossy(rest.get(cut + 1..).unwrap_or_default());
    let opts = CheckOptions::default();
    let Ok(c) = compare(
        &draft,
        format(mode & 1 != 0),
        &source,
        format(mode & 2 != 0),
        &Params::default(),
        &opts,
    ) else {
        return;
    };
    assert!((0.0..=100.0).contains(&c.uniqueness), "{}", c.uniqueness);
    assert!((0.0..=1.0).contains(&c.resemblance) && (0.0..=1.0).contains(&c.containment));
    for f in &c.fragments {
        in_text(&draft, f.draft);
        if let Some(s) = f.source {
            in_text(&source, s);
        }
    }
    for d in &c.detections {
        in_text(&draft, d.draft);
        if let Some(s) = d.source {
            in_text(&source, s);
        }
    }
});
