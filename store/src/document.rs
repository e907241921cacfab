//! Documents as every backend takes and gives them: what is indexed ([`NewDocument`]), what a
//! store knows of a URL ([`Known`]) and the one add-or-replace rule over it ([`decide`]), what
//! a write stores ([`Prepared`], computed without the store), what it did ([`Upsert`]) and what
//! a listing shows ([`StoredDocument`]).

use serde::Serialize;
use sha2::{Digest, Sha256};
use std::time::{SystemTime, UNIX_EPOCH};
use uniqcheck::pack::Record;
use uniqcheck::{Document, Format, Params, SourceInfo};

use crate::error::{Result, StoreError};

/// A document as listed by the store (no record).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct StoredDocument {
    /// Store id: stable, never reused.
    pub id: i64,
    /// Unique URL (or path) of the document.
    pub url: String,
    /// Title.
    pub title: String,
    /// [`text_hash`] of the indexed text.
    pub text_hash: String,
    /// Canonical content words.
    pub words: u32,
    /// When it was first indexed, unix seconds.
    pub added: i64,
    /// When its text or title last changed, unix seconds.
    pub updated: i64,
}

/// What [`Store::upsert`](crate::StoreOf::upsert) did.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(tag = "result", content = "id", rename_all = "lowercase")]
pub enum Upsert {
    /// A new URL: a document was added.
    Added(i64),
    /// A known URL whose text or title changed: its record and index rows were replaced.
    Updated(i64),
    /// A known URL with the same text and title: nothing was written.
    Unchanged(i64),
}

impl Upsert {
    /// The document's id.
    pub fn id(&self) -> i64 {
        match *self {
            Upsert::Added(id) | Upsert::Updated(id) | Upsert::Unchanged(id) => id,
        }
    }
}

/// A document to index.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewDocument {
    /// Unique URL (or path); re-indexing the same URL updates the document.
    pub url: String,
    /// Title shown with matches.
    pub title: String,
    /// The text.
    pub text: String,
    /// How the text is written.
    pub format: Format,
}

/// What the store knows about a URL: enough to tell that re-indexing it would change nothing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Known {
    /// Document id.
    pub id: i64,
    /// [`text_hash`] of its text.
    pub text_hash: String,
    /// Its title.
    pub title: String,
}

impl Known {
    /// True when indexing `doc` (whose [`text_hash`] is `hash`) would leave this document as is.
    pub fn unchanged(&self, doc: &NewDocument, hash: &str) -> bool {
        self.same(hash, &doc.title)
    }

    /// The one rule of [`Known::unchanged`], on a text hash and a title.
    fn same(&self, hash: &str, title: &str) -> bool {
        self.text_hash == hash && self.title == title
    }
}

/// A document ready to be written by [`Store::write_batch`](crate::StoreOf::write_batch): what
/// [`Store::prepare`](crate::StoreOf::prepare) computes from an analysed document (its text is
/// not kept).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Prepared {
    pub(crate) url: String,
    pub(crate) title: String,
    pub(crate) text_hash: String,
    pub(crate) words: i64,
    pub(crate) exact: i64,
    pub(crate) record: Vec<u8>,
    pub(crate) keys: Keys,
    pub(crate) params: Params,
}

impl Prepared {
    /// The document's URL.
    pub fn url(&self) -> &str {
        &self.url
    }

    /// What [`Store::prepare`](crate::StoreOf::prepare) documents: the text hash, the encoded
    /// record, the sorted keys of each list, for a store of `params`.
    pub(crate) fn new(new: NewDocument, doc: &Document, params: &Params) -> Result<Prepared> {
        if new.url.is_empty() {
            return Err(StoreError::InvalidDocument(format!(
                "a document without a URL cannot be indexed (title {:?})",
                new.title
            )));
        }
        if doc.sketch.mins.len() != params.k {
            return Err(StoreError::InvalidDocument(format!(
                "{} was analysed with other parameters (a sketch of {} values, the store's k is {})",
                new.url,
                doc.sketch.mins.len(),
                params.k
            )));
        }
        let record = Record::from_document(SourceInfo::default(), doc);
        let keys = Keys::of_record(&record, params);
        Ok(Prepared {
            text_hash: text_hash(&new.text, new.format),
            url: new.url,
            title: new.title,
            words: i64::from(u32::try_from(doc.content_words()).unwrap_or(u32::MAX)),
            exact: doc.exact as i64,
            record: record.encode(params),
            keys,
            params: *params,
        })
    }
}

/// A document's keys in each key list, each list sorted and without repeats; stored with the
/// document as its `keys` blob ([`Keys::encode`]), which is what an update or a delete removes
/// from the lists.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Keys {
    pub(crate) fingerprints: Vec<u32>,
    pub(crate) long_words: Vec<u32>,
    pub(crate) sentences: Vec<u32>,
}

impl Keys {
    /// What the store keeps for a record's document: the engine's retrieval keys
    /// ([`Record::keys`], the rule of every index) and its longest words, each list sorted and
    /// distinct. Migrations derive them from stored records with it, as indexing does.
    pub(crate) fn of_record(record: &Record, params: &Params) -> Keys {
        let keys = record.keys(params);
        let mut long_words = record.short.hashes.clone();
        long_words.sort_unstable();
        long_words.dedup();
        Keys {
            fingerprints: keys.fingerprints,
            long_words,
            sentences: keys.sentences,
        }
    }

    /// The lists in the order of the key lists' numbers ([`crate::lists`]).
    pub(crate) fn lists(&self) -> [&Vec<u32>; 3] {
        [&self.fingerprints, &self.long_words, &self.sentences]
    }

    /// The `keys` blob: the three list lengths, then the lists, each key a little-endian `u32`
    /// (random keys gain nothing from a variable-length code).
    pub(crate) fn encode(&self) -> Vec<u8> {
        let lists = self.lists();
        let mut out = Vec::with_capacity(12 + 4 * lists.iter().map(|l| l.len()).sum::<usize>());
        for list in lists {
            out.extend_from_slice(&(list.len() as u32).to_le_bytes());
        }
        for list in lists {
            for key in list {
                out.extend_from_slice(&key.to_le_bytes());
            }
        }
        out
    }

    /// Reads a `keys` blob; `None` when its lengths do not add up to its size.
    pub(crate) fn decode(blob: &[u8]) -> Option<Keys> {
        let words: Vec<u32> = blob
            .chunks_exact(4)
            .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        if blob.len() % 4 != 0 || words.len() < 3 {
            return None;
        }
        let (lens, mut rest) = words.split_at(3);
        let total = lens
            .iter()
            .try_fold(0usize, |t, &n| t.checked_add(n as usize))?;
        if total != rest.len() {
            return None;
        }
        let mut take = |n: u32| {
            let (list, tail) = rest.split_at(n as usize);
            rest = tail;
            list.to_vec()
        };
        Some(Keys {
            fingerprints: take(lens[0]),
            long_words: take(lens[1]),
            sentences: take(lens[2]),
        })
    }
}

/// What indexing a document does to the store.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Decision {
    /// A URL the store does not know: the document is added.
    Add,
    /// A known URL whose text or title changed: the document with this id is replaced.
    Replace(i64),
    /// A known URL with the same text and title: the document with this id is left as is.
    Unchanged(i64),
}

/// What indexing `doc` does, given what the store knows about its URL (`None`: nothing). The
/// text is hashed, not analysed, so an unchanged document costs no analysis. The one rule for
/// the CLI's `index`, the HTTP API and [`Store::upsert_batch`](crate::StoreOf::upsert_batch).
///
/// # Example
/// ```
/// use uniqcheck::Format;
/// use uniqcheck_store::{decide, text_hash, Decision, Known, NewDocument};
/// let doc = NewDocument { url: "u".into(), title: "T".into(), text: "Tea".into(), format: Format::Plain };
/// assert_eq!(decide(None, &doc), Decision::Add);
/// let known = Known { id: 7, text_hash: text_hash("Tea", Format::Plain), title: "T".into() };
/// assert_eq!(decide(Some(&known), &doc), Decision::Unchanged(7));
/// let known = Known { title: "Old".into(), ..known };
/// assert_eq!(decide(Some(&known), &doc), Decision::Replace(7));
/// ```
pub fn decide(known: Option<&Known>, doc: &NewDocument) -> Decision {
    match known {
        None => Decision::Add,
        Some(k) if k.unchanged(doc, &text_hash(&doc.text, doc.format)) => Decision::Unchanged(k.id),
        Some(k) => Decision::Replace(k.id),
    }
}

/// [`decide`] for a prepared document (its text already hashed).
pub(crate) fn decide_prepared(known: Option<&Known>, doc: &Prepared) -> Decision {
    match known {
        None => Decision::Add,
        Some(k) if k.same(&doc.text_hash, &doc.title) => Decision::Unchanged(k.id),
        Some(k) => Decision::Replace(k.id),
    }
}

/// Hex of the first 128 bits of SHA-256 over the format tag and the text's UTF-8 bytes: equal
/// exactly when re-indexing would produce the same record and keys.
pub fn text_hash(text: &str, format: Format) -> String {
    let mut h = Sha256::new();
    h.update(match format {
        Format::Plain => b"plain\n".as_slice(),
        Format::Html => b"html\n".as_slice(),
    });
    h.update(text.as_bytes());
    let digest = h.finalize();
    digest[..16].iter().map(|b| format!("{b:02x}")).collect()
}

/// Seconds since the Unix epoch.
pub fn unix_now() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64)
}
