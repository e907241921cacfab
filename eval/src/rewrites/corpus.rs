//! Reading factRuEval-2016's texts and cutting them into sentences: the material the benchmark's
//! sources and the writer's own text are drawn from. The order is fixed (split, then file name),
//! so the benchmark built from it is too.

use crate::{EvalError, Result};
use std::ops::Range;
use std::path::Path;

/// One text of the corpus.
#[derive(Debug, Clone)]
pub struct Text {
    /// File name (`book_N.txt`).
    pub name: String,
    /// `dev` or `test`.
    pub split: String,
    /// The text.
    pub text: String,
    /// Byte ranges of its sentences, in order (paragraph breaks end a sentence).
    pub sentences: Vec<Range<usize>>,
}

/// Whether a sentence may end after `before` and start again at `after`: a full stop, `!`, `?`
/// or `…` (closing quotes and brackets after it allowed), then white space, then a capital
/// letter, a digit, an opening quote or a dash.
fn sentence_breaks(para: &str) -> Vec<usize> {
    let chars: Vec<(usize, char)> = para.char_indices().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        if matches!(chars[i].1, '.' | '!' | '?' | '…') {
            let mut j = i + 1;
            while j < chars.len() && matches!(chars[j].1, '.' | '!' | '?' | '…' | '»' | '"' | ')')
            {
                j += 1;
            }
            let end = chars.get(j).map_or(para.len(), |c| c.0);
            let mut k = j;
            while k < chars.len() && chars[k].1.is_whitespace() {
                k += 1;
            }
            if k > j
                && chars.get(k).is_some_and(|&(_, c)| {
                    c.is_uppercase() || c.is_ascii_digit() || matches!(c, '«' | '"' | '—' | '-')
                })
            {
                out.push(end);
                out.push(chars[k].0);
            }
            i = j;
        } else {
            i += 1;
        }
    }
    out
}

/// Splits `text` into sentences (byte ranges, trimmed, non-empty).
pub fn split_sentences(text: &str) -> Vec<Range<usize>> {
    let mut out = Vec::new();
    let mut line_start = 0;
    for line in text.split('\n') {
        let breaks = sentence_breaks(line);
        let mut start = 0;
        for pair in breaks.chunks(2) {
            out.push(line_start + start..line_start + pair[0]);
            start = pair[1];
        }
        out.push(line_start + start..line_start + line.len());
        line_start += line.len() + 1;
    }
    out.into_iter()
        .filter_map(|r| {
            let s = &text[r.clone()];
            let lead = s.len() - s.trim_start().len();
            let trail = s.len() - s.trim_end().len();
            let r = r.start + lead..r.end - trail;
            (r.start < r.end && text[r.clone()].chars().any(char::is_alphanumeric)).then_some(r)
        })
        .collect()
}

/// Reads `book_*.txt` under `dir/devset` and `dir/testset`, sorted by split and name.
///
/// Errors: neither folder, or an unreadable file.
pub fn read_corpus(dir: &Path) -> Result<Vec<Text>> {
    let mut texts = Vec::new();
    for (folder, split) in [("devset", "dev"), ("testset", "test")] {
        let d = dir.join(folder);
        if !d.is_dir() {
            continue;
        }
        let files = crate::sorted_paths(&d, |p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with("book_") && n.ends_with(".txt"))
        })?;
        for f in files {
            let text = crate::read_text(&f)?
                .trim_start_matches('\u{feff}')
                .replace("\r\n", "\n");
            texts.push(Text {
                name: f
                    .file_name()
                    .map(|n| n.to_string_lossy().into_owned())
                    .unwrap_or_default(),
                split: split.to_owned(),
                sentences: split_sentences(&text),
                text,
            });
        }
    }
    if texts.is_empty() {
        return Err(EvalError::NoFactRuEval {
            dir: dir.to_owned(),
        });
    }
    Ok(texts)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sentences_split_at_full_stops_before_capitals() {
        let t = "Он сказал: «Да». Потом ушёл… В 19 часов — всё. т. е. нет\nНовая строка";
        let s: Vec<&str> = split_sentences(t).into_iter().map(|r| &t[r]).collect();
        assert_eq!(
            s,
            vec![
                "Он сказал: «Да».",
                "Потом ушёл…",
                "В 19 часов — всё. т. е. нет",
                "Новая строка"
            ]
        );
    }
}
