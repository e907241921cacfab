//! Turning what arrives into documents to index, the same way for the CLI and the HTTP API: a
//! file's decoded text ([`from_file`]), a line of a `.jsonl` file ([`from_jsonl_line`]) and the
//! body of `POST /api/documents` ([`from_api`]) each become a [`NewDocument`] (url, title, text,
//! format); [`uniqcheck_store::decide`] then tells what indexing it would do to the store.
//!
//! Guarantees:
//! - Every document has a non-blank URL and exactly one of a plain text or an HTML text; anything
//!   else is an [`IngestError`], never a panic.
//! - Titles follow one set of rules ([`title_of`]): HTML titles come from the engine's own HTML
//!   reading ([`uniqcheck::canonicalize::html_title`]), never from a second parser here.
//! - The add-or-replace decision is the store's ([`uniqcheck_store::decide`], one rule for the
//!   CLI, the API and the store's own writes): a URL the store knows with the same text and
//!   title is left alone, without analysing the text again.

use serde::Deserialize;
use std::path::Path;
use uniqcheck::canonicalize::{html_title, visible_text};
use uniqcheck::Format;
use uniqcheck_store::NewDocument;

/// Longest derived or JSONL title kept, in characters.
pub const TITLE_CHARS: usize = 120;
/// Longest accepted `url` of an API body, in bytes.
pub const MAX_URL_BYTES: usize = 2048;
/// Longest accepted `title` of an API body, in bytes.
pub const MAX_TITLE_BYTES: usize = 1024;

/// Why something cannot become a document. The messages name the JSON fields, since both the
/// JSONL lines and the API bodies are JSON objects.
#[derive(Debug, thiserror::Error)]
pub enum IngestError {
    /// A JSONL line that is not JSON.
    #[error("invalid JSON: {0}")]
    InvalidJson(serde_json::Error),
    /// A JSONL line that is JSON but not a document object.
    #[error("not a document object: {0}")]
    NotADocument(serde_json::Error),
    /// The URL is missing or blank.
    #[error("no \"url\"")]
    NoUrl,
    /// Both a plain text and an HTML text.
    #[error("both \"text\" and \"html\": give one")]
    BothTexts,
    /// Neither a plain text nor an HTML text.
    #[error("no \"text\" or \"html\"")]
    NoText,
    /// An API body's URL over [`MAX_URL_BYTES`].
    #[error("\"url\" is {0} bytes long, the limit is {MAX_URL_BYTES}")]
    UrlTooLong(usize),
    /// An API body's title over [`MAX_TITLE_BYTES`].
    #[error("\"title\" is {0} bytes long, the limit is {MAX_TITLE_BYTES}")]
    TitleTooLong(usize),
    /// Control characters in an API body's URL or title.
    #[error("\"url\" and \"title\" must not contain control characters")]
    ControlCharacters,
}

/// A line of a `.jsonl` file.
#[derive(Debug, Deserialize)]
struct JsonDocument {
    url: Option<String>,
    title: Option<String>,
    text: Option<String>,
    html: Option<String>,
}

/// The URL, when it is not blank.
fn url_of(url: Option<String>) -> Result<String, IngestError> {
    url.filter(|u| !u.trim().is_empty())
        .ok_or(IngestError::NoUrl)
}

/// The one text given, and its format.
fn text_of(text: Option<String>, html: Option<String>) -> Result<(String, Format), IngestError> {
    match (text, html) {
        (Some(text), None) => Ok((text, Format::Plain)),
        (None, Some(html)) => Ok((html, Format::Html)),
        (Some(_), Some(_)) => Err(IngestError::BothTexts),
        (None, None) => Err(IngestError::NoText),
    }
}

/// The document in a file: `text` is its decoded text in `format`, `url` where it is published.
/// Its title comes from the text ([`title_of`]; a `.md` or `.markdown` file's first `# ` heading
/// counts), else it is the file's name, else the URL.
///
/// # Example
/// ```
/// use std::path::Path;
/// use uniqcheck::Format;
/// use uniqcheck_cli::ingest::from_file;
/// let doc = from_file(Path::new("blog/tea.md"), "https://x/tea".into(), "# Tea\n\nGreen.".into(), Format::Plain);
/// assert_eq!(doc.title, "Tea");
/// let doc = from_file(Path::new("blog/empty.txt"), "https://x/e".into(), " \n".into(), Format::Plain);
/// assert_eq!(doc.title, "empty.txt");
/// ```
pub fn from_file(path: &Path, url: String, text: String, format: Format) -> NewDocument {
    let markdown = path
        .extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| e.eq_ignore_ascii_case("md") || e.eq_ignore_ascii_case("markdown"));
    let title = title_of(&text, format, markdown).unwrap_or_else(|| {
        path.file_name()
            .map_or_else(|| url.clone(), |n| n.to_string_lossy().into_owned())
    });
    NewDocument {
        url,
        title,
        text,
        format,
    }
}

/// The document on one line of a `.jsonl` file: an object with a `url`, an optional `title`
/// (trimmed, at most [`TITLE_CHARS`] characters; when missing or blank, taken from the text as
/// [`title_of`] does, else the URL) and exactly one of `text` (plain) and `html`.
///
/// # Example
/// ```
/// use uniqcheck::Format;
/// use uniqcheck_cli::ingest::from_jsonl_line;
/// let doc = from_jsonl_line(r#"{"url": "u1", "html": "<title>Tea</title><p>Green.</p>"}"#).unwrap();
/// assert_eq!((doc.title.as_str(), doc.format), ("Tea", Format::Html));
/// assert!(from_jsonl_line(r#"{"url": "u2"}"#).is_err());
/// ```
pub fn from_jsonl_line(line: &str) -> Result<NewDocument, IngestError> {
    let doc: JsonDocument = serde_json::from_str(line).map_err(|e| {
        if e.is_data() {
            IngestError::NotADocument(e)
        } else {
            IngestError::InvalidJson(e)
        }
    })?;
    let url = url_of(doc.url)?;
    let (text, format) = text_of(doc.text, doc.html)?;
    let title = match doc.title {
        Some(t) if !t.trim().is_empty() => cut(t.trim()),
        _ => title_of(&text, format, false).unwrap_or_else(|| url.clone()),
    };
    Ok(NewDocument {
        url,
        title,
        text,
        format,
    })
}

/// The document in the body of `POST /api/documents`: a non-blank `url` of at most
/// [`MAX_URL_BYTES`], a `title` of at most [`MAX_TITLE_BYTES`] kept as sent (an API client says
/// what it means, even an empty title), neither with control characters, and exactly one of
/// `text` (plain) and `html`.
///
/// # Example
/// ```
/// use uniqcheck::Format;
/// use uniqcheck_cli::ingest::from_api;
/// let doc = from_api("https://x/a".into(), "A".into(), None, Some("<p>Tea</p>".into())).unwrap();
/// assert_eq!((doc.title.as_str(), doc.format), ("A", Format::Html));
/// assert!(from_api("https://x/a".into(), "A\n".into(), Some("Tea".into()), None).is_err());
/// ```
pub fn from_api(
    url: String,
    title: String,
    text: Option<String>,
    html: Option<String>,
) -> Result<NewDocument, IngestError> {
    let url = url_of(Some(url))?;
    if url.len() > MAX_URL_BYTES {
        return Err(IngestError::UrlTooLong(url.len()));
    }
    if title.len() > MAX_TITLE_BYTES {
        return Err(IngestError::TitleTooLong(title.len()));
    }
    if url.chars().chain(title.chars()).any(char::is_control) {
        return Err(IngestError::ControlCharacters);
    }
    let (text, format) = text_of(text, html)?;
    Ok(NewDocument {
        url,
        title,
        text,
        format,
    })
}

/// A document's title from its text: the `<title>`, else the first `<h1>`, of HTML
/// ([`html_title`]); the first `# ` heading of Markdown; else the first non-empty line of the
/// visible text. At most [`TITLE_CHARS`] characters; `None` when the text shows nothing.
///
/// # Example
/// ```
/// use uniqcheck::Format;
/// use uniqcheck_cli::ingest::title_of;
/// assert_eq!(title_of("<h1>Big <b>news</b></h1>", Format::Html, false).unwrap(), "Big news");
/// assert_eq!(title_of("Intro\n# Heading #", Format::Plain, true).unwrap(), "Heading");
/// assert_eq!(title_of("\n  first  \nsecond", Format::Plain, false).unwrap(), "first");
/// ```
pub fn title_of(text: &str, format: Format, markdown: bool) -> Option<String> {
    if format == Format::Html {
        return match html_title(text) {
            Some(title) => Some(cut(&title)),
            None => first_line(&visible_text(text)),
        };
    }
    if markdown {
        let heading = text.lines().find_map(|l| {
            let h = l.trim_start().strip_prefix("# ")?;
            let h = h.trim().trim_end_matches('#').trim();
            (!h.is_empty()).then_some(h)
        });
        if let Some(h) = heading {
            return Some(cut(h));
        }
    }
    first_line(text)
}

fn first_line(text: &str) -> Option<String> {
    text.lines()
        .map(|l| l.trim_matches(|c: char| c.is_whitespace() || c == '\u{FEFF}'))
        .find(|l| !l.is_empty())
        .map(cut)
}

/// The first [`TITLE_CHARS`] characters of `s`, without trailing whitespace.
fn cut(s: &str) -> String {
    s.chars()
        .take(TITLE_CHARS)
        .collect::<String>()
        .trim_end()
        .to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn titles_from_html_markdown_and_plain_text() {
        let html = "<html><head><TITLE> Чай &amp; кофе </TITLE></head><body><h1>Other</h1>";
        assert_eq!(title_of(html, Format::Html, false).unwrap(), "Чай & кофе");
        let h1 = "<body><h1 class=x>Big <b>news</b></h1><p>text</p>";
        assert_eq!(title_of(h1, Format::Html, false).unwrap(), "Big news");
        let md = "Intro line\n\n# Heading one #\n\ntext";
        assert_eq!(title_of(md, Format::Plain, true).unwrap(), "Heading one");
        assert_eq!(title_of(md, Format::Plain, false).unwrap(), "Intro line");
        assert_eq!(
            title_of("\n\n  first  \nsecond", Format::Plain, false).unwrap(),
            "first"
        );
        let long = "слово ".repeat(100);
        assert_eq!(
            title_of(&long, Format::Plain, false)
                .unwrap()
                .chars()
                .count(),
            119
        );
        assert!(title_of(" \n ", Format::Plain, false).is_none());
        // Without a title or h1, the first line of what a reader sees.
        assert_eq!(
            title_of("<p>One <b>t</b>wo three</p>\n<p>four", Format::Html, false).unwrap(),
            "One two three"
        );
    }

    #[test]
    fn jsonl_lines_are_validated() {
        let ok =
            from_jsonl_line(r#"{"url":"u1","html":"<title>T</title><p>Body text</p>"}"#).unwrap();
        assert_eq!((ok.title.as_str(), ok.format), ("T", Format::Html));
        let msg = |l: &str| from_jsonl_line(l).unwrap_err().to_string();
        assert!(msg("{not json").starts_with("invalid JSON"));
        assert!(msg("[1, 2]").starts_with("not a document object"));
        assert!(msg(r#"{"title":"x","text":"y"}"#).starts_with("no \"url\""));
        assert!(msg(r#"{"url":"u","text":"a","html":"b"}"#).starts_with("both"));
        assert!(msg(r#"{"url":"u"}"#).starts_with("no \"text\""));
        let titled = from_jsonl_line(r#"{"url":"u","title":"  T  ","text":"x"}"#).unwrap();
        assert_eq!(titled.title, "T");
        let untitled = from_jsonl_line(r#"{"url":"u","title":" ","text":" "}"#).unwrap();
        assert_eq!(untitled.title, "u");
    }

    #[test]
    fn api_bodies_are_validated() {
        let api = |url: &str, title: &str, text: Option<&str>, html: Option<&str>| {
            from_api(
                url.into(),
                title.into(),
                text.map(Into::into),
                html.map(Into::into),
            )
        };
        let ok = api("u", "", Some("words"), None).unwrap();
        assert_eq!((ok.title.as_str(), ok.format), ("", Format::Plain));
        let err = |r: Result<NewDocument, IngestError>| r.unwrap_err();
        assert!(matches!(
            err(api(" ", "t", Some("w"), None)),
            IngestError::NoUrl
        ));
        assert!(matches!(
            err(api(&"x".repeat(2049), "t", Some("w"), None)),
            IngestError::UrlTooLong(2049)
        ));
        assert!(matches!(
            err(api("u", &"t".repeat(1025), Some("w"), None)),
            IngestError::TitleTooLong(1025)
        ));
        assert!(matches!(
            err(api("u\u{7}", "t", Some("w"), None)),
            IngestError::ControlCharacters
        ));
        assert!(matches!(
            err(api("u", "t", Some("a"), Some("<p>a</p>"))),
            IngestError::BothTexts
        ));
        assert!(matches!(
            err(api("u", "t", None, None)),
            IngestError::NoText
        ));
    }
}
