//! Helpers shared by the server crate's integration tests, and by the store's (included by path).

/// Deterministic, distinct pseudo-prose: `words` words from a syllable alphabet.
pub fn prose(seed: u64, words: usize) -> String {
    const SYLLABLES: &[&str] = &[
        "ka", "lo", "mi", "ren", "tas", "vo", "pel", "dri", "son", "gu", "bar", "ne", "shi", "tor",
        "am", "el", "ox", "quin", "zu", "fa",
    ];
    let mut state = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let mut next = || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let mut out = String::new();
    for i in 0..words {
        let len = 2 + next() % 3;
        for _ in 0..len {
            out.push_str(SYLLABLES[(next() % SYLLABLES.len() as u64) as usize]);
        }
        out.push(if i % 12 == 11 { '.' } else { ' ' });
        if i % 12 == 11 {
            out.push(' ');
        }
    }
    out
}

/// Post `i` of a made-up site: `https://example.com/{i}`, titled `Post {i}`, [`prose`] of `i`.
#[allow(dead_code)] // the store's tests use it; the server's include this file for `prose`
pub fn new_doc(i: u64, words: usize) -> uniqcheck_store::NewDocument {
    uniqcheck_store::NewDocument {
        url: format!("https://example.com/{i}"),
        title: format!("Post {i}"),
        text: prose(i, words),
        format: uniqcheck::Format::Plain,
    }
}
