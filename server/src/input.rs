//! Reading one input (a file, or standard input for `-`) into text the engine can take:
//! bytes → [`crate::decode`] → text, plus its [`Format`], and the wording of the errors about
//! it, so every subcommand names the offending file the same way.

use crate::decode::{decode, DecodeError, Decoded, Detection};
use crate::options::{FormatArg, TextArgs};
use anyhow::{anyhow, Context, Result};
use encoding_rs::Encoding;
use std::fs::File;
use std::io::{self, Read};
use std::path::{Path, PathBuf};
use uniqcheck::Format;

/// An input text, decoded.
#[derive(Debug, Clone)]
pub struct Input {
    /// How the input is named in messages and output: the path as given, or "standard input".
    pub name: String,
    /// The file, or `None` for standard input.
    pub path: Option<PathBuf>,
    /// The decoded text (offsets in output count in this text).
    pub text: String,
    /// How it is written.
    pub format: Format,
    /// The encoding it was decoded from.
    pub encoding: &'static Encoding,
}

/// The name of standard input in messages.
pub const STDIN_NAME: &str = "standard input";

/// True for the path `-`, which means standard input.
pub fn is_stdin(path: &Path) -> bool {
    path.as_os_str() == "-"
}

/// The largest raw input that could still decode to at most `max_text` bytes of UTF-8: UTF-16
/// halves ASCII text, nothing shrinks more. Anything larger is refused without being read whole.
fn raw_limit(max_text: usize) -> u64 {
    (max_text as u64).saturating_mul(2).saturating_add(4)
}

fn too_large(name: &str, size: u64, limit: usize) -> anyhow::Error {
    anyhow!("{name}: too large: {size} bytes, the limit is {limit} bytes (see --max-size)")
}

/// Reads and decodes `path` (or standard input for `-`).
///
/// Errors name the input: unreadable, too large, binary.
pub fn read(
    path: &Path,
    args: &TextArgs,
    forced: Option<&'static Encoding>,
    max_text: usize,
) -> Result<Input> {
    let stdin = is_stdin(path);
    let name = if stdin {
        STDIN_NAME.to_owned()
    } else {
        path.display().to_string()
    };
    let limit = raw_limit(max_text);
    let mut bytes = Vec::new();
    if stdin {
        io::stdin()
            .lock()
            .take(limit + 1)
            .read_to_end(&mut bytes)
            .with_context(|| format!("cannot read {name}"))?;
    } else {
        let file = File::open(path).with_context(|| format!("cannot open {name}"))?;
        let meta = file
            .metadata()
            .with_context(|| format!("cannot read {name}"))?;
        if meta.is_dir() {
            return Err(anyhow!("{name}: is a directory, not a text file"));
        }
        if meta.len() > limit {
            return Err(too_large(&name, meta.len(), max_text));
        }
        // `take` guards against files that grow while being read (logs, pipes, /dev/zero).
        file.take(limit + 1)
            .read_to_end(&mut bytes)
            .with_context(|| format!("cannot read {name}"))?;
    }
    if bytes.len() as u64 > limit {
        return Err(too_large(&name, bytes.len() as u64, max_text));
    }
    let Decoded {
        text,
        encoding,
        detection,
        lossy,
    } = decode(bytes, forced).map_err(|e| explain_decode(&name, e))?;
    if lossy {
        let how = match detection {
            Detection::Guessed => " (a guess: use --encoding if it is wrong)",
            _ => "",
        };
        crate::warn(format_args!(
            "{name}: some bytes are not valid {}{how} and were replaced with U+FFFD",
            encoding.name()
        ));
    }
    let format = match args.format {
        FormatArg::Plain => Format::Plain,
        FormatArg::Html => Format::Html,
        FormatArg::Auto => detect_format((!stdin).then_some(path), &text),
    };
    Ok(Input {
        name,
        path: (!stdin).then(|| path.to_owned()),
        text,
        format,
        encoding,
    })
}

fn explain_decode(name: &str, e: DecodeError) -> anyhow::Error {
    anyhow!("{name}: {e}")
}

/// Turns an engine error about the input `name` into a message that names it. With `detail`,
/// the engine's own explanation is kept as the cause (for the one input a command is about);
/// without, the message stands alone (for one-line warnings about skipped sources).
pub fn explain(name: &str, e: uniqcheck::Error, detail: bool) -> anyhow::Error {
    let head = match &e {
        uniqcheck::Error::Binary { .. } => format!("{name}: looks like binary data, not text"),
        uniqcheck::Error::Empty => return anyhow!("{name}: empty, there are no words to check"),
        uniqcheck::Error::TooLarge { size, limit } => {
            return anyhow!(
            "{name}: too large: {size} bytes of text, the limit is {limit} bytes (see --max-size)"
        )
        }
        uniqcheck::Error::InvalidParameter { .. } | uniqcheck::Error::InvalidOption { .. } => {
            return anyhow::Error::new(e)
        }
    };
    if detail {
        anyhow::Error::new(e).context(head)
    } else {
        anyhow!(head)
    }
}

/// How much of a text is looked at to tell HTML from plain text.
const FORMAT_SNIFF: usize = 64 * 1024;

/// Element names that make `<name>` a tag rather than a stray angle bracket in prose.
const HTML_TAGS: &[&str] = &[
    "a",
    "abbr",
    "article",
    "aside",
    "b",
    "blockquote",
    "body",
    "br",
    "caption",
    "cite",
    "code",
    "dd",
    "div",
    "dl",
    "dt",
    "em",
    "figcaption",
    "figure",
    "footer",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "head",
    "header",
    "hr",
    "html",
    "i",
    "img",
    "li",
    "link",
    "main",
    "meta",
    "nav",
    "ol",
    "p",
    "pre",
    "q",
    "s",
    "script",
    "section",
    "small",
    "span",
    "strong",
    "style",
    "sub",
    "sup",
    "table",
    "tbody",
    "td",
    "th",
    "thead",
    "title",
    "tr",
    "u",
    "ul",
];

/// HTML for .html/.htm files and for text that starts with a doctype or `<html>`, or has tags
/// throughout; plain text otherwise. Treating HTML as plain text would count tag names and
/// attributes as words, so doubtful cases with several real tags lean to HTML.
pub fn detect_format(path: Option<&Path>, text: &str) -> Format {
    let ext = path
        .and_then(|p| p.extension())
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase);
    if matches!(ext.as_deref(), Some("html" | "htm" | "xhtml")) {
        return Format::Html;
    }
    let mut end = text.len().min(FORMAT_SNIFF);
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    let head = &text[..end];
    let start = head.trim_start_matches(|c: char| c.is_whitespace() || c == '\u{FEFF}');
    let lead: String = start
        .chars()
        .take(9)
        .collect::<String>()
        .to_ascii_lowercase();
    if lead.starts_with("<!doctype") || lead.starts_with("<html") {
        return Format::Html;
    }
    let (tags, closing) = count_tags(head);
    // At least one closing tag (prose rarely has one), and on average a tag every 2 KB or closer.
    if tags >= 4 && closing >= 1 && tags * 2048 >= head.len() {
        Format::Html
    } else {
        Format::Plain
    }
}

/// Counts `<name …>` and `</name>` tags with a known element name: (all, closing).
fn count_tags(text: &str) -> (usize, usize) {
    let (mut tags, mut closing) = (0, 0);
    let bytes = text.as_bytes();
    let mut i = 0;
    while let Some(off) = bytes[i..].iter().position(|&b| b == b'<') {
        i += off + 1;
        let close = bytes.get(i) == Some(&b'/');
        let name_start = i + close as usize;
        let name_len = bytes[name_start.min(bytes.len())..]
            .iter()
            .take_while(|b| b.is_ascii_alphanumeric())
            .count();
        let name_end = name_start + name_len;
        let terminated = matches!(
            bytes.get(name_end),
            Some(b'>' | b' ' | b'/' | b'\t' | b'\n' | b'\r')
        );
        if name_len > 0 && terminated {
            let name = text[name_start..name_end].to_ascii_lowercase();
            if HTML_TAGS.contains(&name.as_str()) {
                tags += 1;
                closing += close as usize;
            }
        }
    }
    (tags, closing)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn html_by_extension_doctype_or_tags() {
        assert_eq!(
            detect_format(Some(Path::new("a/B.HTM")), "plain"),
            Format::Html
        );
        assert_eq!(detect_format(None, "\n  <!DOCTYPE html><p>x"), Format::Html);
        assert_eq!(detect_format(None, "<html lang=ru>"), Format::Html);
        let fragment = "<h1>Title</h1>\n<p>One <b>bold</b> word.</p>\n<ul><li>item</li></ul>";
        assert_eq!(
            detect_format(Some(Path::new("post.txt")), fragment),
            Format::Html
        );
    }

    #[test]
    fn prose_with_angle_brackets_stays_plain() {
        assert_eq!(
            detect_format(None, "if a < b and c > d then <nothing> happens"),
            Format::Plain
        );
        let md = "# Title\n\nUse the <b> tag for bold text, and `x < y`.\n".repeat(3);
        assert_eq!(
            detect_format(Some(Path::new("README.md")), &md),
            Format::Plain
        );
        assert_eq!(detect_format(None, ""), Format::Plain);
        assert_eq!(detect_format(None, "<"), Format::Plain);
        assert_eq!(detect_format(None, "</"), Format::Plain);
    }
}
