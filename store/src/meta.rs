//! The meta values every store keeps, whatever its database: the engine parameters,
//! canonicalizer and pack format its records and keys were made with (checked at every opening,
//! so a store is never silently compared with other ones), and its counters (`changes`, which
//! grows with every write; `revs`, the last record number given).

use uniqcheck::canonicalize::CANONICALIZER_VERSION;
use uniqcheck::pack::FORMAT_VERSION;
use uniqcheck::Params;

use crate::backend::Storage;
use crate::document::unix_now;
use crate::error::{Result, StoreError};

/// The meta values of a new store of `params`, which a backend writes with its schema.
pub(crate) fn initial(params: &Params) -> [(&'static str, String); 11] {
    [
        ("n", params.n.to_string()),
        ("w", params.w.to_string()),
        ("k", params.k.to_string()),
        ("stop_words", params.stop_words.to_string()),
        ("stemming", params.stemming.to_string()),
        ("canonicalizer", CANONICALIZER_VERSION.to_string()),
        ("format_version", FORMAT_VERSION.to_string()),
        ("engine_version", uniqcheck::VERSION.to_owned()),
        ("created", unix_now().to_string()),
        ("changes", "0".to_owned()),
        ("revs", "0".to_owned()),
    ]
}

/// The meta value of `key`, parsed; [`StoreError::NotAStore`] when it is missing or not valid.
pub(crate) fn number<T: std::str::FromStr>(db: &impl Storage, key: &str) -> Result<T> {
    let value = db.meta(key)?.ok_or_else(|| StoreError::NotAStore {
        path: db.name().to_owned(),
        why: format!("its meta table has no {key}"),
    })?;
    value.parse().map_err(|_| StoreError::NotAStore {
        path: db.name().to_owned(),
        why: format!("its meta value {key} = {value:?} is not valid"),
    })
}

/// The parameters recorded in the store, after checking its canonicalizer and format versions.
pub(crate) fn stored_params(db: &impl Storage) -> Result<Params> {
    for (what, key, expected) in [
        ("canonicalizer", "canonicalizer", CANONICALIZER_VERSION),
        ("pack format", "format_version", FORMAT_VERSION),
    ] {
        let found: u16 = number(db, key)?;
        if found != expected {
            return Err(StoreError::Version {
                path: db.name().to_owned(),
                what,
                expected,
                found,
            });
        }
    }
    let params = Params {
        n: number(db, "n")?,
        w: number(db, "w")?,
        k: number(db, "k")?,
        stop_words: number(db, "stop_words")?,
        stemming: number(db, "stemming")?,
    };
    params.validate().map_err(|e| StoreError::NotAStore {
        path: db.name().to_owned(),
        why: format!("its parameters are invalid: {e}"),
    })?;
    Ok(params)
}
