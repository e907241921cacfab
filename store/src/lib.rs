//! # uniqcheck-store
//!
//! Where a site's published texts live between indexing and checking: one SQLite file of
//! document records and inverted indexes ([`Store`], a backend of the engine's
//! [`uniqcheck::Index`]), the pack files written from it for browsers ([`packs`]), and its
//! near-duplicate groups found through its own indexes ([`dedup`]).
//!
//! A library with typed errors ([`StoreError`], [`packs::PacksError`]) and no knowledge of command
//! lines or HTTP: the `uniqcheck` CLI and its server open stores, index into them, check drafts
//! against them and write packs through this crate, and say how to fix each error in their own
//! terms.
//!
//! # Example
//! ```
//! use uniqcheck::{CheckOptions, Format, Params};
//! use uniqcheck_store::{NewDocument, Store, Upsert};
//! let dir = tempfile::tempdir().unwrap();
//! let mut store = Store::open(&dir.path().join("site.db"), Params::default()).unwrap();
//! let text = "Заварочный чайник сначала ополаскивают кипятком, чтобы фарфор прогрелся и не \
//!     отнимал тепло у настоя. Чёрный чай раскрывается за три-пять минут, зелёный за две-три.";
//! let doc = NewDocument { url: "https://example.com/tea".into(), title: "Чай".into(),
//!                         text: text.into(), format: Format::Plain };
//! assert!(matches!(store.upsert(&doc, 1 << 20).unwrap(), Upsert::Added(_)));
//! let report = store.check(text, Format::Plain, &CheckOptions::default()).unwrap();
//! assert_eq!(report.uniqueness, 0.0);
//! assert_eq!(report.sources[0].info.url, "https://example.com/tea");
//! ```
#![deny(missing_docs)]

mod db;
pub mod dedup;
pub mod packs;
pub mod runs;

pub use db::*;
