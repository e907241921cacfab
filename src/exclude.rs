//! Exclusions: sources and quotations a check leaves out, as text.ru, Advego and Copyleaks let a
//! writer do (their own site, the client's page being rewritten, quoted passages).
//!
//! Guarantees:
//! - **Excluded sources are never aligned**: [`crate::check::check_document`] passes over them
//!   among the candidates, so they are in no fragment, share or figure; the report counts them
//!   ([`Excluded::sources`]).
//! - **URLs** match after [`normalize_url`]: the scheme (`http`, `https`, none), a leading `www.`,
//!   the host's case, a default port, userinfo, a `#fragment` and trailing slashes are ignored;
//!   the path and query are compared as written.
//! - **Domains** match their subdomains: `example.com` excludes `blog.example.com`, not
//!   `myexample.com`. A domain may be written as a URL (its host is taken). Internationalised
//!   domains match written either way: a host's punycode labels (`xn--d1acufc.xn--p1ai`) are
//!   read as the Unicode they encode (`домен.рф`), on the list and in the sources' URLs alike.
//! - **A writer's list never breaks checking** ([`Exclusions::from_list`]): each line is taken
//!   or refused whole, a refused one is named with why, and the rest apply; a list
//!   [`Exclusions::from_list`] takes always passes [`Exclusions::validate`].
//! - **Quotations** (the rule: [`crate::canonicalize::quoted_words`]): the draft's words inside
//!   closed quotation marks (and, in HTML, inside `<q>` and `<blockquote>`) count as not copied.
//!   Fragments and rewrites are cut there, so uniqueness and originality count quoted words as
//!   the writer's own, and the report says how many content words that was
//!   ([`Excluded::quoted_words`]).

use crate::Error;
use serde::{Deserialize, Serialize};

/// What a check leaves out ([`crate::CheckOptions::exclude`]). Empty by default.
///
/// # Example
/// ```
/// use uniqcheck::exclude::Exclusions;
/// let e = Exclusions { domains: vec!["example.com".into()], ..Default::default() };
/// assert!(e.excludes("https://blog.Example.com/post"));
/// assert!(!e.excludes("https://myexample.com/"));
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Exclusions {
    /// Sources published at these URLs ([`normalize_url`]).
    pub urls: Vec<String>,
    /// Sources published on these domains or their subdomains.
    pub domains: Vec<String>,
    /// The draft's quotations count as not copied.
    pub quotes: bool,
    /// Passages the caller knows to be quotations though the text has no marks for them: an
    /// editor's block quotes, a `<q>` in a `contenteditable`. Each `[start, end)` is an offset
    /// pair in the draft's text: bytes in Rust ([`Exclusions::quoted_to_bytes`] converts from
    /// the unit of another interface: UTF-16 code units in JavaScript, the request's `units`
    /// over HTTP). Used only with [`Exclusions::quotes`]; a word wholly inside one counts as
    /// quoted, as one inside quotation marks does. Ranges past the text are cut at its end.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub quoted: Vec<[usize; 2]>,
}

/// At most this many [`Exclusions::quoted`] passages: an editor's quotations, not a word list.
pub const MAX_QUOTED: usize = 10_000;

/// At most this many URLs and domains together: a list of a writer's own sites, not a filter of
/// the web (each candidate is matched against every entry).
pub const MAX_EXCLUSIONS: usize = 1000;

impl Exclusions {
    /// Whether nothing is excluded.
    pub fn is_empty(&self) -> bool {
        self.urls.is_empty() && self.domains.is_empty() && !self.quotes
    }

    /// The exclusions a writer's list names, as an interface's settings box takes it: entries one
    /// a line, or separated by spaces, commas or semicolons. An entry with a path or a query
    /// after its host (`site.ru/page`, `https://site.ru/?p=2`) is one page ([`Exclusions::urls`]);
    /// one without (`site.ru`, `https://www.site.ru/`, `site.ru#top`) is a whole site with its
    /// subdomains ([`Exclusions::domains`]). Entries are kept as written.
    ///
    /// A line is taken whole or refused whole: one entry that names no site or page
    /// (`не домен !!!`, the `мой` of `мой сайт.рф/блог`) refuses its line, which is named in
    /// [`ListRefusal`] and left out, so a typo never makes every check fail and never half-applies
    /// a line the writer meant otherwise. Past [`MAX_EXCLUSIONS`] entries, lines are refused as too
    /// many. What is taken passes [`Exclusions::validate`].
    ///
    /// # Example
    /// ```
    /// use uniqcheck::exclude::{Exclusions, Refusal};
    /// let list = Exclusions::from_list("my-site.ru\nне домен !!!\nhttps://client.ru/brief/, сайт.рф");
    /// assert_eq!(list.exclusions.urls, ["https://client.ru/brief/"]);
    /// assert_eq!(list.exclusions.domains, ["my-site.ru", "сайт.рф"]);
    /// assert_eq!(list.refused.len(), 1);
    /// assert_eq!((list.refused[0].line, list.refused[0].entry.as_str()), (2, "не"));
    /// assert_eq!(list.refused[0].reason, Refusal::NotAnAddress);
    /// ```
    pub fn from_list(list: &str) -> ParsedList {
        let mut out = ParsedList::default();
        let mut taken = 0;
        for (number, line) in list.lines().enumerate() {
            let entries: Vec<&str> = line
                .split(|c: char| c.is_whitespace() || c == ',' || c == ';')
                .filter(|e| !e.is_empty())
                .collect();
            if entries.is_empty() {
                continue;
            }
            let refuse = |entry: &str, reason| ListRefusal {
                line: number + 1,
                text: line.trim().to_owned(),
                entry: entry.to_owned(),
                reason,
            };
            if let Some(bad) = entries.iter().find(|e| entry_kind(e).is_none()) {
                out.refused.push(refuse(bad, Refusal::NotAnAddress));
                continue;
            }
            if taken + entries.len() > MAX_EXCLUSIONS {
                out.refused.push(refuse(entries[0], Refusal::TooMany));
                continue;
            }
            taken += entries.len();
            for entry in entries {
                match entry_kind(entry) {
                    Some(Kind::Page) => out.exclusions.urls.push(entry.to_owned()),
                    _ => out.exclusions.domains.push(entry.to_owned()),
                }
            }
        }
        out
    }

    /// Checks that every URL and domain names something (a URL may have no host: `file:///a.txt`).
    ///
    /// Errors: [`Error::InvalidOption`] naming `exclude.urls` or `exclude.domains`.
    pub fn validate(&self) -> Result<(), Error> {
        let fail = |name, value: &str, allowed| Err(invalid(name, value.to_owned(), allowed));
        if self.urls.len() + self.domains.len() > MAX_EXCLUSIONS {
            let n = (self.urls.len() + self.domains.len()).to_string();
            return fail("exclude", &n, "at most 1000 URLs and domains");
        }
        self.validate_quoted()?;
        for u in &self.urls {
            if normalize_url(u).is_empty() || host(u).is_some_and(|h| !valid_host(&h)) {
                return fail("exclude.urls", u, "URLs, e.g. https://example.com/page");
            }
        }
        for d in &self.domains {
            if !host(d).is_some_and(|h| valid_host(&h)) {
                return fail("exclude.domains", d, "domain names, e.g. example.com");
            }
        }
        Ok(())
    }

    /// The part of [`Exclusions::validate`] about [`Exclusions::quoted`]: not too many, none
    /// reversed (in any unit: converting keeps the order).
    fn validate_quoted(&self) -> Result<(), Error> {
        if self.quoted.len() > MAX_QUOTED {
            let n = self.quoted.len().to_string();
            return Err(invalid("exclude.quoted", n, "at most 10000 passages"));
        }
        if let Some(&[start, end]) = self.quoted.iter().find(|r| r[0] > r[1]) {
            let value = format!("[{start}, {end}]");
            return Err(invalid(
                "exclude.quoted",
                value,
                "[start, end] pairs with start <= end",
            ));
        }
        Ok(())
    }

    /// Converts [`Exclusions::quoted`] from offsets in `unit` of `text` (the draft) to byte
    /// offsets, as the engine takes them.
    ///
    /// Errors: [`Error::InvalidOption`] naming `exclude.quoted` for a pair that is reversed,
    /// ends past the text or falls inside a character (between the halves of a surrogate pair),
    /// or for more than [`MAX_QUOTED`] pairs.
    pub fn quoted_to_bytes(&mut self, text: &str, unit: crate::Unit) -> Result<(), Error> {
        if self.quoted.is_empty() {
            return Ok(());
        }
        self.validate_quoted()?;
        let offsets = crate::OffsetConverter::new(text, unit);
        for r in &mut self.quoted {
            let (Some(start), Some(end)) = (offsets.to_byte(r[0]), offsets.to_byte(r[1])) else {
                let value = format!("[{}, {}]", r[0], r[1]);
                let allowed = "offsets within the text, between characters";
                return Err(invalid("exclude.quoted", value, allowed));
            };
            *r = [start, end];
        }
        Ok(())
    }

    /// Whether the source at `url` ([`crate::SourceInfo::url`]) is excluded: its URL is one of
    /// [`Exclusions::urls`], or its host is one of [`Exclusions::domains`] or under one. A source
    /// without a URL is never excluded.
    pub fn excludes(&self, url: &str) -> bool {
        if self.urls.is_empty() && self.domains.is_empty() {
            return false;
        }
        let normalized = normalize_url(url);
        if normalized.is_empty() {
            return false;
        }
        if self.urls.iter().any(|u| normalize_url(u) == normalized) {
            return true;
        }
        let Some(source_host) = host(url) else {
            return false;
        };
        self.domains.iter().filter_map(|d| host(d)).any(|d| {
            source_host == d
                || source_host
                    .strip_suffix(d.as_str())
                    .is_some_and(|rest| rest.ends_with('.'))
        })
    }
}

/// A writer's list as [`Exclusions::from_list`] reads it: what applies, and the lines left out.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct ParsedList {
    /// The URLs and domains of the lines taken (no quotations: the list holds none).
    pub exclusions: Exclusions,
    /// The lines left out, in order.
    pub refused: Vec<ListRefusal>,
}

/// A line of a writer's list left out, and why: for the interface to name it in its language.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ListRefusal {
    /// The line's number, from 1.
    pub line: usize,
    /// The line as typed, trimmed.
    pub text: String,
    /// The entry of the line that refused it (its first, when there are too many).
    pub entry: String,
    /// Why.
    pub reason: Refusal,
}

/// Why a line of a list was left out.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Refusal {
    /// An entry names no site or page: no host of labels of letters, digits and hyphens with a
    /// dot between two of them, and not a URL without a host (`file:///a.txt`, `/page`).
    NotAnAddress,
    /// More than [`MAX_EXCLUSIONS`] entries before it.
    TooMany,
}

/// What an entry of a list names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// A whole site with its subdomains.
    Site,
    /// One page.
    Page,
}

/// What `entry` names, or `None` when it names nothing: the rule of [`Exclusions::from_list`],
/// and of [`Exclusions::validate`] for the entry's own list.
fn entry_kind(entry: &str) -> Option<Kind> {
    let host = host(entry);
    // A page's normal form is its host followed by what names the page: nothing follows a site's.
    if normalize_url(entry) == host.clone().unwrap_or_default() {
        host.filter(|h| valid_host(h)).map(|_| Kind::Site)
    } else {
        // A page may have no host (`file:///a.txt`), but one it has must be a host.
        host.is_none_or(|h| valid_host(&h)).then_some(Kind::Page)
    }
}

/// Whether `host` ([`host`]'s form) is a domain name (or an IPv4 address): at least two labels of
/// letters (any script: IDN), digits, hyphens and underscores (which DNS refuses in host names but
/// real sites use in subdomains), none empty, starting or ending with a hyphen, or longer than 63
/// characters.
fn valid_host(host: &str) -> bool {
    let mut labels = 0;
    for label in host.split('.') {
        labels += 1;
        let ok = !label.is_empty()
            && label.chars().count() <= 63
            && !label.starts_with('-')
            && !label.ends_with('-')
            && label
                .chars()
                .all(|c| c.is_alphanumeric() || c == '-' || c == '_');
        if !ok {
            return false;
        }
    }
    labels >= 2
}

/// The host of a URL (or of a bare `host/path`), lowercase, without `www.`, userinfo, port or a
/// final dot, its punycode labels decoded ([`punycode_label`]); `None` when there is nothing
/// before the path.
fn host(url: &str) -> Option<String> {
    let rest = after_scheme(url.trim());
    let end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    let authority = &rest[..end];
    let authority = authority.rsplit_once('@').map_or(authority, |(_, h)| h);
    let h = match authority.rfind(':') {
        Some(i) if authority[i + 1..].bytes().all(|b| b.is_ascii_digit()) => &authority[..i],
        _ => authority,
    };
    let h = h.trim_end_matches('.').to_lowercase();
    let h = if h.contains("xn--") {
        let labels: Vec<String> = h
            .split('.')
            .map(|l| punycode_label(l).unwrap_or_else(|| l.to_owned()))
            .collect();
        labels.join(".")
    } else {
        h
    };
    let h = h.strip_prefix("www.").map(str::to_owned).unwrap_or(h);
    (!h.is_empty()).then_some(h)
}

/// The Unicode of a punycode label (`xn--…`, RFC 3492's bootstring with its parameters), lowercase;
/// `None` for any other label or one that does not decode. Written here rather than taken from the
/// `idna` crate: matching hosts needs only the decoding, not UTS 46's mapping tables, which would
/// weigh on the WebAssembly module.
fn punycode_label(label: &str) -> Option<String> {
    const BASE: u32 = 36;
    const TMIN: u32 = 1;
    const TMAX: u32 = 26;
    const SKEW: u32 = 38;
    const DAMP: u32 = 700;
    let encoded = label.strip_prefix("xn--")?;
    let (basic, deltas) = match encoded.rfind('-') {
        Some(i) => (&encoded[..i], &encoded[i + 1..]),
        None => ("", encoded),
    };
    if !basic.is_ascii() {
        return None;
    }
    let mut out: Vec<char> = basic.chars().collect();
    let adapt = |delta: u32, points: u32, first: bool| {
        let mut delta = if first { delta / DAMP } else { delta / 2 };
        delta += delta / points;
        let mut k = 0;
        while delta > ((BASE - TMIN) * TMAX) / 2 {
            delta /= BASE - TMIN;
            k += BASE;
        }
        k + (BASE - TMIN + 1) * delta / (delta + SKEW)
    };
    let (mut n, mut i, mut bias) = (128u32, 0u32, 72u32);
    let mut digits = deltas.bytes().peekable();
    while digits.peek().is_some() {
        let old = i;
        let mut w = 1u32;
        let mut k = BASE;
        loop {
            let digit = match digits.next()? {
                b @ b'a'..=b'z' => u32::from(b - b'a'),
                b @ b'0'..=b'9' => u32::from(b - b'0') + 26,
                _ => return None,
            };
            i = i.checked_add(digit.checked_mul(w)?)?;
            let t = k.saturating_sub(bias).clamp(TMIN, TMAX);
            if digit < t {
                break;
            }
            w = w.checked_mul(BASE - t)?;
            k += BASE;
        }
        let points = out.len() as u32 + 1;
        bias = adapt(i - old, points, old == 0);
        n = n.checked_add(i / points)?;
        i %= points;
        out.insert(i as usize, char::from_u32(n)?);
        i += 1;
    }
    Some(out.into_iter().collect::<String>().to_lowercase())
}

/// `url` without `scheme://` (any scheme), or as given when it has none.
fn after_scheme(url: &str) -> &str {
    match url.find("://") {
        Some(i)
            if url[..i]
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b"+-.".contains(&b)) =>
        {
            &url[i + 3..]
        }
        _ => url,
    }
}

/// The form in which two URLs of one page compare equal: host (lowercase, no `www.`, port or
/// userinfo) + path and query as written, without the scheme, a `#fragment` or trailing slashes.
///
/// # Example
/// ```
/// use uniqcheck::exclude::normalize_url;
/// assert_eq!(normalize_url("https://www.Example.com:443/a/b/?q=1#top"), "example.com/a/b?q=1");
/// assert_eq!(normalize_url("http://example.com/a/b/"), normalize_url("example.com/a/b"));
/// assert_ne!(normalize_url("example.com/A"), normalize_url("example.com/a"));
/// ```
pub fn normalize_url(url: &str) -> String {
    let rest = after_scheme(url.trim());
    let rest = rest.split('#').next().unwrap_or_default();
    let (rest, query) = rest
        .split_once('?')
        .map_or((rest, None), |(r, q)| (r, Some(q)));
    let path = rest.find('/').map_or("", |i| &rest[i..]);
    let mut out = host(rest).unwrap_or_default();
    // "/a/" and "/a" are one page.
    out.push_str(path.trim_end_matches('/'));
    if let Some(q) = query {
        out.push('?');
        out.push_str(q);
    }
    out
}

/// What a check left out, for the interface to tell the writer.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Excluded {
    /// Candidate sources passed over because their URL or domain is excluded.
    pub sources: usize,
    /// Content words of the draft inside quotation marks, counted as not copied (0 unless
    /// quotations are excluded).
    pub quoted_words: usize,
}

/// The error of an exclusion that is not allowed.
fn invalid(name: &'static str, value: String, allowed: &'static str) -> Error {
    Error::InvalidOption {
        name,
        value,
        allowed,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{CheckOptions, Corpus, Format, Params, SourceInfo};

    const MINE: &str = "Шинглы — это последовательности слов фиксированной длины, по которым \
        поисковые системы находят почти одинаковые документы в интернете и считают их копиями.";
    const THEIRS: &str = "Уникальность текста показывает, какая доля слов черновика не \
        встречается в опубликованных источниках, найденных проверкой по всему индексу.";

    #[test]
    fn a_list_names_pages_by_their_path_or_query_and_sites_by_their_host() {
        let list = "site.ru  https://www.Site.ru/ site.ru#top, site.ru:8080/; user@site.ru\n\
            site.ru/page https://site.ru/a/b/ site.ru/?p=2 site.ru?p=2 file:///a.txt /page\r\n";
        let parsed = Exclusions::from_list(list);
        assert!(parsed.refused.is_empty(), "{:?}", parsed.refused);
        let e = parsed.exclusions;
        let domains = "site.ru https://www.Site.ru/ site.ru#top site.ru:8080/ user@site.ru";
        assert_eq!(e.domains, domains.split(' ').collect::<Vec<_>>());
        let urls = "site.ru/page https://site.ru/a/b/ site.ru/?p=2 site.ru?p=2 file:///a.txt /page";
        assert_eq!(e.urls, urls.split(' ').collect::<Vec<_>>());
        assert!(!e.quotes && e.quoted.is_empty());
        assert_eq!(Exclusions::from_list(" \n,; "), ParsedList::default());
        // What each kind then excludes: a site its subdomains, a page only itself.
        let e = Exclusions::from_list("site.ru\nother.ru/page").exclusions;
        assert!(e.excludes("https://blog.site.ru/x"));
        assert!(e.excludes("http://www.other.ru/page/"));
        assert!(!e.excludes("https://other.ru/another"));
    }

    /// A corpus of the writer's own page and another site's, and a draft copying both.
    fn corpus() -> (Corpus, String) {
        let mut corpus = Corpus::new(Params::default()).unwrap();
        for (id, url, text) in [
            ("mine", "https://www.mysite.ru/shingles/", MINE),
            ("theirs", "https://other.com/uniq", THEIRS),
        ] {
            let info = SourceInfo {
                id: id.into(),
                url: url.into(),
                title: id.into(),
            };
            corpus.add(info, text, Format::Plain, 1 << 20).unwrap();
        }
        let draft = format!(
            "Мой собственный вводный абзац о проверке текстов для заказчика. {MINE} Дальше \
             своими словами о работе копирайтера и его ежедневных задачах. «{THEIRS}» Конец."
        );
        (corpus, draft)
    }

    fn opts(exclude: Exclusions) -> CheckOptions {
        CheckOptions {
            short_threshold: 0,
            exclude,
            ..Default::default()
        }
    }

    #[test]
    fn excluding_the_top_source_raises_the_figure_by_its_share() {
        let (corpus, draft) = corpus();
        let all = corpus
            .check(&draft, Format::Plain, &opts(Exclusions::default()))
            .unwrap();
        assert_eq!(all.sources.len(), 2);
        let top = &all.sources[0];
        assert_eq!(top.info.id, "mine");
        for exclude in [
            Exclusions {
                domains: vec!["mysite.ru".into()],
                ..Default::default()
            },
            Exclusions {
                urls: vec!["http://mysite.ru/shingles".into()],
                ..Default::default()
            },
        ] {
            let r = corpus.check(&draft, Format::Plain, &opts(exclude)).unwrap();
            assert_eq!(r.sources.len(), 1);
            assert_eq!(r.sources[0].info.id, "theirs");
            assert_eq!(
                r.excluded,
                Excluded {
                    sources: 1,
                    quoted_words: 0
                }
            );
            let raised = r.uniqueness - all.uniqueness;
            assert!(
                (raised - 100.0 * top.share).abs() < 0.11,
                "{raised} vs {}",
                top.share
            );
            assert!(r.fragments.iter().all(|f| f.sources == ["theirs"]));
        }
    }

    #[test]
    fn excluding_quotes_removes_quoted_copies() {
        let (corpus, draft) = corpus();
        let all = corpus
            .check(&draft, Format::Plain, &opts(Exclusions::default()))
            .unwrap();
        let quotes = Exclusions {
            quotes: true,
            ..Default::default()
        };
        let r = corpus
            .check(&draft, Format::Plain, &opts(quotes.clone()))
            .unwrap();
        let ids: Vec<&str> = r.sources.iter().map(|s| s.info.id.as_str()).collect();
        assert_eq!(ids, ["mine"]);
        let theirs = all.sources.iter().find(|s| s.info.id == "theirs").unwrap();
        assert_eq!(r.excluded.sources, 0);
        assert_eq!(r.excluded.quoted_words, theirs.words);
        let raised = r.uniqueness - all.uniqueness;
        assert!((raised - 100.0 * theirs.share).abs() < 0.11, "{raised}");
        // Nothing highlighted inside the quotation.
        let open = draft.find('«').unwrap();
        assert!(r.fragments.iter().all(|f| f.end <= open));
        // compare() leaves quotations out the same way.
        let c = crate::compare(
            &draft,
            Format::Plain,
            THEIRS,
            Format::Plain,
            &Params::default(),
            &opts(quotes),
        )
        .unwrap();
        assert!(c.fragments.is_empty() && c.uniqueness == 100.0, "{c:?}");
    }

    #[test]
    fn an_html_blockquote_is_a_quotation() {
        let (corpus, draft) = corpus();
        let (before, _) = draft.split_once('«').unwrap();
        let html = format!("<p>{before}</p><blockquote><p>{THEIRS}</p></blockquote><p>Конец.</p>");
        let quotes = opts(Exclusions {
            quotes: true,
            ..Default::default()
        });
        let all = corpus
            .check(&html, Format::Html, &opts(Exclusions::default()))
            .unwrap();
        let theirs = all.sources.iter().find(|s| s.info.id == "theirs").unwrap();
        let r = corpus.check(&html, Format::Html, &quotes).unwrap();
        let ids: Vec<&str> = r.sources.iter().map(|s| s.info.id.as_str()).collect();
        assert_eq!(ids, ["mine"]);
        assert_eq!(r.excluded.quoted_words, theirs.words);
        let open = html.find("<blockquote>").unwrap();
        assert!(r.fragments.iter().all(|f| f.end <= open));
    }

    #[test]
    fn passages_given_as_quotations_count_as_quoted() {
        let (corpus, draft) = corpus();
        let (before, _) = draft.split_once('«').unwrap();
        // An editor's block quote: the passage has no quotation marks of its own.
        let text = format!("{before}\n\n{THEIRS}\n\nКонец.");
        let at = text.find(THEIRS).unwrap();
        let given = |quotes| {
            opts(Exclusions {
                quotes,
                quoted: vec![[at, at + THEIRS.len()]],
                ..Default::default()
            })
        };
        let all = corpus.check(&text, Format::Plain, &given(false)).unwrap();
        let theirs = all.sources.iter().find(|s| s.info.id == "theirs").unwrap();
        let r = corpus.check(&text, Format::Plain, &given(true)).unwrap();
        let ids: Vec<&str> = r.sources.iter().map(|s| s.info.id.as_str()).collect();
        assert_eq!(ids, ["mine"]);
        assert_eq!(r.excluded.quoted_words, theirs.words);
        assert!(r.fragments.iter().all(|f| f.end <= at));
        // From UTF-16 offsets (JavaScript's) to the same bytes; a word cut by the passage's
        // edge is not inside it.
        let utf16 = |b: usize| text[..b].encode_utf16().count();
        let mut e = Exclusions {
            quotes: true,
            quoted: vec![[utf16(at), utf16(at + THEIRS.len())]],
            ..Default::default()
        };
        e.quoted_to_bytes(&text, crate::Unit::Utf16).unwrap();
        assert_eq!(e.quoted, [[at, at + THEIRS.len()]]);
        let cut = opts(Exclusions {
            quotes: true,
            quoted: vec![[at + 1, at + THEIRS.len()]],
            ..Default::default()
        });
        let r = corpus.check(&text, Format::Plain, &cut).unwrap();
        assert_eq!(r.excluded.quoted_words, theirs.words - 1);
    }

    #[test]
    fn quoted_passages_outside_the_text_are_refused() {
        let text = "Жёлтый 😀 текст";
        let units = text.encode_utf16().count();
        let emoji = text.find('😀').unwrap();
        let utf16_emoji = text[..emoji].encode_utf16().count();
        for (pair, unit) in [
            ([0, units + 1], crate::Unit::Utf16),
            ([utf16_emoji + 1, units], crate::Unit::Utf16),
            ([3, 1], crate::Unit::Chars),
            ([1, 2], crate::Unit::Bytes),
        ] {
            let mut e = Exclusions {
                quotes: true,
                quoted: vec![pair],
                ..Default::default()
            };
            let err = e.quoted_to_bytes(text, unit).unwrap_err();
            assert_eq!(err.code(), "invalid_option", "{pair:?} {unit:?}");
        }
        let reversed = Exclusions {
            quoted: vec![[5, 2]],
            ..Default::default()
        };
        assert_eq!(reversed.validate().unwrap_err().code(), "invalid_option");
    }

    #[test]
    fn bad_exclusions_are_refused_by_every_check() {
        let (corpus, draft) = corpus();
        let bad = opts(Exclusions {
            domains: vec!["".into()],
            ..Default::default()
        });
        let err = corpus.check(&draft, Format::Plain, &bad).unwrap_err();
        assert_eq!(err.code(), "invalid_option");
    }

    #[test]
    fn urls_match_whatever_the_scheme_www_case_and_trailing_slash() {
        let e = Exclusions {
            urls: vec!["https://www.Client.ru/page/".into()],
            ..Default::default()
        };
        assert!(e.excludes("http://client.ru/page"));
        assert!(e.excludes("https://CLIENT.RU/page/#part"));
        assert!(e.excludes("client.ru/page"));
        assert!(!e.excludes("https://client.ru/page/2"));
        assert!(!e.excludes("https://client.ru/Page"));
        assert!(!e.excludes("https://blog.client.ru/page"));
        assert!(!e.excludes(""));
        // Files have URLs without a host.
        let file = Exclusions {
            urls: vec!["file:///home/me/a.txt".into()],
            ..Default::default()
        };
        assert!(file.excludes("file:///home/me/a.txt"));
        assert!(!file.excludes("file:///home/me/b.txt"));
    }

    #[test]
    fn a_domain_excludes_its_subdomains_only() {
        let e = Exclusions {
            domains: vec!["https://www.mysite.ru/".into(), "пример.рф".into()],
            ..Default::default()
        };
        assert!(e.excludes("https://mysite.ru/a"));
        assert!(e.excludes("http://blog.mysite.ru:8080/a?b"));
        assert!(e.excludes("https://www.mysite.ru"));
        assert!(e.excludes("https://ПРИМЕР.рф/статья"));
        assert!(!e.excludes("https://notmysite.ru/a"));
        assert!(!e.excludes("https://mysite.ru.evil.com/a"));
        assert!(!e.excludes("file:///home/mysite.ru/a.txt"));
    }

    /// The page's settings box, tried as a new user would: junk lines are named and left out, the
    /// rest apply, and what is taken always validates.
    #[test]
    fn a_junk_line_is_refused_whole_and_the_rest_apply() {
        let list = "мой-сайт.рф\nне домен !!!\n\n  мой сайт.рф/блог  \nclient.ru/brief, !!\nhttps://xn--d1acufc.xn--p1ai/о-нас";
        let parsed = Exclusions::from_list(list);
        assert_eq!(parsed.exclusions.domains, ["мой-сайт.рф"]);
        assert_eq!(
            parsed.exclusions.urls,
            ["https://xn--d1acufc.xn--p1ai/о-нас"]
        );
        let refused: Vec<(usize, &str, &str)> = parsed
            .refused
            .iter()
            .map(|r| (r.line, r.text.as_str(), r.entry.as_str()))
            .collect();
        assert_eq!(
            refused,
            [
                (2, "не домен !!!", "не"),
                (4, "мой сайт.рф/блог", "мой"),
                (5, "client.ru/brief, !!", "!!")
            ]
        );
        assert!(parsed
            .refused
            .iter()
            .all(|r| r.reason == Refusal::NotAnAddress));
        assert!(parsed.exclusions.validate().is_ok());
        // Too many: the lines past the bound are named, the first ones apply.
        let many: String = (0..MAX_EXCLUSIONS + 2)
            .map(|i| format!("site{i}.ru\n"))
            .collect();
        let parsed = Exclusions::from_list(&many);
        assert_eq!(parsed.exclusions.domains.len(), MAX_EXCLUSIONS);
        assert_eq!(parsed.refused.len(), 2);
        assert_eq!(parsed.refused[0].line, MAX_EXCLUSIONS + 1);
        assert_eq!(parsed.refused[0].reason, Refusal::TooMany);
        assert!(parsed.exclusions.validate().is_ok());
    }

    #[test]
    fn internationalised_domains_match_in_unicode_and_in_punycode() {
        assert_eq!(punycode_label("xn--p1ai").as_deref(), Some("рф"));
        assert_eq!(punycode_label("xn--d1acufc").as_deref(), Some("домен"));
        assert_eq!(punycode_label("xn--mnchen-3ya").as_deref(), Some("münchen"));
        assert_eq!(punycode_label("example"), None);
        for junk in ["xn--", "xn--!!", "xn--99999999999999", "xn--ф-"] {
            let _ = punycode_label(junk); // never panics
        }
        let unicode = Exclusions::from_list("домен.рф").exclusions;
        assert!(unicode.excludes("https://xn--d1acufc.xn--p1ai/page"));
        assert!(unicode.excludes("https://блог.ДОМЕН.РФ/"));
        let puny = Exclusions::from_list("xn--d1acufc.xn--p1ai").exclusions;
        assert!(puny.excludes("https://домен.рф/page"));
        assert!(!puny.excludes("https://другой.рф/"));
    }

    #[test]
    fn validation_names_what_is_wrong() {
        assert!(Exclusions::default().validate().is_ok());
        let bad = |urls: &[&str], domains: &[&str]| {
            Exclusions {
                urls: urls.iter().map(|s| s.to_string()).collect(),
                domains: domains.iter().map(|s| s.to_string()).collect(),
                ..Default::default()
            }
            .validate()
            .unwrap_err()
            .to_string()
        };
        assert!(bad(&[" /"], &[]).contains("exclude.urls"));
        assert!(bad(&[], &["https:///x"]).contains("exclude.domains"));
        assert!(bad(&[], &["localhost"]).contains("exclude.domains"));
        assert!(bad(&[], &[" "]).contains("exclude.domains"));
        assert!(bad(&[], &["!!!.ru"]).contains("exclude.domains"));
        assert!(bad(&["!!!/page"], &[]).contains("exclude.urls"));
    }

    #[test]
    fn words_between_two_quotations_are_not_a_copy_of_their_own() {
        let mut corpus = Corpus::new(Params::default()).unwrap();
        let info = SourceInfo {
            id: "theirs".into(),
            ..Default::default()
        };
        corpus.add(info, THEIRS, Format::Plain, 1 << 20).unwrap();
        // One passage quoted in two halves, "пишет автор" between them: copied are the halves,
        // word for word, not the two words the gap between them holds.
        let (first, second) = THEIRS.split_at(THEIRS.find(" не ").unwrap());
        let draft = format!(
            "Свой абзац о работе. «{first}», — пишет автор, — «{}»",
            second.trim()
        );
        let all = corpus
            .check(&draft, Format::Plain, &opts(Exclusions::default()))
            .unwrap();
        let between = draft.find("пишет").unwrap();
        assert!(!all.fragments.is_empty());
        assert!(
            all.fragments
                .iter()
                .all(|f| f.end <= between || f.start > between),
            "a copy holds the words between the halves: {:?}",
            all.fragments
        );
        let quotes = opts(Exclusions {
            quotes: true,
            ..Default::default()
        });
        let r = corpus.check(&draft, Format::Plain, &quotes).unwrap();
        assert_eq!(r.fragments, [], "nothing copied outside the quotations");
        assert_eq!(r.uniqueness, 100.0);
    }
}
