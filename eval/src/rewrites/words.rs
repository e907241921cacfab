//! Words of a sentence with the punctuation around them, and the case and full-stop fixes a
//! sentence needs after its words are moved, replaced or dropped.

/// A word of a sentence with the punctuation around it: `prefix core suffix`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Token {
    pub(super) prefix: String,
    pub(super) core: String,
    pub(super) suffix: String,
}

/// The words of `sentence` (split at white space), each with its leading and trailing punctuation.
pub(super) fn tokens(sentence: &str) -> Vec<Token> {
    sentence
        .split_whitespace()
        .map(|t| {
            let start = t.find(char::is_alphanumeric).unwrap_or(t.len());
            let end = t.rfind(char::is_alphanumeric).map_or(start, |i| {
                i + t[i..].chars().next().map_or(1, char::len_utf8)
            });
            let end = end.max(start);
            Token {
                prefix: t[..start].to_owned(),
                core: t[start..end].to_owned(),
                suffix: t[end..].to_owned(),
            }
        })
        .collect()
}

/// The tokens written back as a sentence, one space between.
pub(super) fn join(tokens: &[Token]) -> String {
    let mut out = String::new();
    for t in tokens {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(&t.prefix);
        out.push_str(&t.core);
        out.push_str(&t.suffix);
    }
    out
}

/// `s` with its first letter upper-case.
pub(super) fn capitalize(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}

/// `s` with its first letter lower-case, unless it is an acronym.
pub(super) fn decapitalize(s: &str) -> String {
    let mut c = s.chars();
    match (c.next(), c.clone().next()) {
        // An acronym («СМИ») keeps its case.
        (Some(f), Some(second)) if !second.is_uppercase() => f.to_lowercase().chain(c).collect(),
        _ => s.to_owned(),
    }
}

/// Ends `s` with a full stop unless it ends with `.`, `!`, `?` or `…` already.
pub(super) fn terminate(s: &str) -> String {
    let t = s.trim_end_matches([',', ';', ':', ' ', '—', '-']);
    if t.ends_with(['.', '!', '?', '…']) {
        t.to_owned()
    } else {
        format!("{t}.")
    }
}
