//! The packs' manifest: what one generation of packs holds, and what its words were
//! made with.
//!
//! `manifest.json` is the only file of a pack directory that changes: it names the page table
//! (`<16 hex>.uqt`, [`super::Table`]), the list of live records (`<16 hex>.uqa`) and, when the
//! packs publish one, the bilingual table (`<16 hex>.uqbl`, [`crate::bilingual`]), which are
//! named by their content; the index pages are named by the table's generation id and their
//! place, the records by their number. The server writes it
//! (`uniqcheck pack`, `uniqcheck serve`); the WebAssembly checker reads it (`Checker.open`) and
//! refuses a manifest this engine cannot use before a single other file is fetched. One serde
//! type serves both sides: its JSON field names are part of the wire contract (`docs/FORMAT.md`,
//! "The manifest").

use super::frame::FORMAT_VERSION;
use super::{check_analysis, Finished, PackError};
use crate::canonicalize::CANONICALIZER_VERSION;
use crate::Params;
use serde::{Deserialize, Serialize};

/// The manifest's file name in a pack directory.
pub const MANIFEST_FILE: &str = "manifest.json";

/// [`Manifest`] and [`FileRef`] in TypeScript, for the WebAssembly facade's `.d.ts` (the
/// `uniqcheck-wasm` crate): keep in step.
pub const TYPESCRIPT: &str = r#"
/** What `manifest.json` of a pack directory says (written by `uniqcheck pack` / `uniqcheck serve`). */
export interface Manifest {
  /** The pack format version of every file (`packFormatVersion()` must equal it). */
  format_version: number;
  /** Version of the uniqcheck that wrote them. */
  engine_version: string;
  /** Engine parameters of every document. */
  params: PackParams;
  /** Canonicalizer version of every document (`canonicalizerVersion()` must equal it). */
  canonicalizer: number;
  /** Winnowing window of the fingerprints: `params.w` (any shared run of `w + n - 1` content words shares one). */
  window: number;
  /** Documents in this generation. */
  documents: number;
  /** When the packs were written, unix seconds. */
  generated: number;
  /** The same instant in ISO 8601 (UTC). */
  generated_iso: string;
  /** The store's change counter when the packs were written. */
  changes: number;
  /** The page table: the generation id and the page count of each list (pages are named by them). */
  table: FileRef;
  /** The list of every live record (what "download everything" fetches). */
  records: FileRef;
  /** Bytes of all index pages. */
  index_bytes: number;
  /** Bytes of all records. */
  record_bytes: number;
  /** The English–Russian table (`<16 hex>.uqbl`) checks fetch to find translations, when the packs were written with one (`pack --bilingual`, `serve --bilingual`). */
  bilingual?: FileRef;
}

/** Engine parameters as packs record them (`CheckerOptions` spells them in camelCase). */
export interface PackParams {
  n: number;
  w: number;
  k: number;
  stop_words: boolean;
  stemming: boolean;
}

/** A file of a pack directory, named by its content. */
export interface FileRef {
  /** Path relative to the manifest. */
  name: string;
  bytes: number;
}
"#;

/// The description of one generation of packs.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Manifest {
    /// [`FORMAT_VERSION`] of every file.
    pub format_version: u16,
    /// Version of the uniqcheck that wrote them.
    pub engine_version: String,
    /// Engine parameters every document was analysed with.
    pub params: Params,
    /// [`CANONICALIZER_VERSION`](crate::canonicalize::CANONICALIZER_VERSION) of every document.
    pub canonicalizer: u16,
    /// Winnowing window of the fingerprints packs hold: `params.w`, as in every index
    /// ([`crate::keys`]).
    pub window: usize,
    /// Documents in this generation.
    pub documents: usize,
    /// When this generation was written, unix seconds.
    pub generated: i64,
    /// The same instant in ISO 8601 (UTC).
    pub generated_iso: String,
    /// The store's `changes` counter when its documents were read: packs are stale when the
    /// store's counter is larger.
    pub changes: i64,
    /// The page table ([`super::table_file`]).
    pub table: FileRef,
    /// The list of live records ([`super::records_file`]).
    pub records: FileRef,
    /// Bytes of all index pages.
    pub index_bytes: u64,
    /// Bytes of all records.
    pub record_bytes: u64,
    /// The English–Russian table ([`crate::bilingual`], `<16 hex>.uqbl`, named by its
    /// content) that checks through these packs fetch to find translations, when the operator
    /// wrote the packs with one. Absent from older manifests, which read as none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bilingual: Option<FileRef>,
}

/// `YYYY-MM-DDTHH:MM:SSZ` of unix seconds `t` (proleptic Gregorian, UTC).
pub fn iso8601(t: i64) -> String {
    let days = t.div_euclid(86_400);
    let secs = t.rem_euclid(86_400);
    // Howard Hinnant's civil_from_days.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z",
        secs / 3600,
        secs / 60 % 60,
        secs % 60
    )
}

/// A file of a pack directory.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FileRef {
    /// Path relative to the manifest.
    pub name: String,
    /// Size in bytes.
    pub bytes: u64,
}

/// Whether `name` is `<16 lowercase hex digits>.<extension>`, as content-named files are: a
/// manifest naming anything else (a path, a URL) is refused, so a client never fetches what a
/// manifest should not point at.
pub(crate) fn is_content_name(name: &str, extension: &str) -> bool {
    name.strip_suffix(extension)
        .and_then(|stem| stem.strip_suffix('.'))
        .is_some_and(|hex| {
            hex.len() == 16 && hex.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
        })
}

impl Manifest {
    /// The manifest of the generation `built`, written at `generated` (unix seconds) from a
    /// store whose `changes` counter was `changes`: this engine's versions, the parameters and
    /// window the generation was built with, and its files.
    pub fn new(built: &Finished, changes: i64, generated: i64) -> Manifest {
        Manifest {
            format_version: FORMAT_VERSION,
            engine_version: crate::VERSION.to_owned(),
            params: built.params,
            canonicalizer: CANONICALIZER_VERSION,
            window: built.window,
            documents: built.documents,
            generated,
            generated_iso: iso8601(generated),
            changes,
            table: built.table.clone(),
            records: built.records.clone(),
            index_bytes: built.index_bytes,
            record_bytes: built.record_bytes,
            bilingual: None,
        }
    }

    /// Refuses packs that drafts analysed here with `params` cannot be checked against: another
    /// format version ([`PackError::Version`], checked first, so a newer generation says
    /// "upgrade"), a table or record list that is not named as the writer names them
    /// ([`PackError::Manifest`]), another canonicalizer version or other parameters
    /// ([`PackError::Canonicalizer`], [`PackError::ParamsMismatch`]).
    pub fn check_compatible(&self, params: &Params) -> Result<(), PackError> {
        if self.format_version != FORMAT_VERSION {
            return Err(PackError::Version {
                expected: FORMAT_VERSION,
                found: self.format_version,
            });
        }
        let bilingual = self.bilingual.iter().map(|file| (file, "uqbl"));
        for (file, extension) in [(&self.table, "uqt"), (&self.records, "uqa")]
            .into_iter()
            .chain(bilingual)
        {
            if !is_content_name(&file.name, extension) {
                return Err(PackError::Manifest {
                    what: format!(
                        "it names the file {:?}, which is not 16 hex digits and .{extension}",
                        file.name
                    ),
                });
            }
        }
        // Every index winnows with `w` (crate::keys): a window of its own would be another
        // retrieval rule than the draft's.
        if self.window != self.params.w {
            return Err(PackError::Manifest {
                what: format!(
                    "its fingerprint window {} is not its w = {}",
                    self.window, self.params.w
                ),
            });
        }
        check_analysis(self.canonicalizer, &self.params, params)
    }

    /// Bytes of every file of this generation, the bilingual table included.
    pub fn total_bytes(&self) -> u64 {
        let bilingual = self.bilingual.as_ref().map_or(0, |f| f.bytes);
        self.table.bytes + self.records.bytes + self.index_bytes + self.record_bytes + bilingual
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn iso8601_of_known_instants() {
        assert_eq!(iso8601(0), "1970-01-01T00:00:00Z");
        assert_eq!(iso8601(951_782_400), "2000-02-29T00:00:00Z");
        assert_eq!(iso8601(1_700_000_000), "2023-11-14T22:13:20Z");
        assert_eq!(iso8601(-1), "1969-12-31T23:59:59Z");
    }

    fn manifest(table: &str) -> Manifest {
        Manifest {
            format_version: FORMAT_VERSION,
            engine_version: crate::VERSION.into(),
            params: Params::default(),
            canonicalizer: CANONICALIZER_VERSION,
            window: 16,
            documents: 1,
            generated: 0,
            generated_iso: "1970-01-01T00:00:00Z".into(),
            changes: 0,
            table: FileRef {
                name: table.into(),
                bytes: 10,
            },
            records: FileRef {
                name: "0123456789abcdef.uqa".into(),
                bytes: 5,
            },
            index_bytes: 100,
            record_bytes: 1000,
            bilingual: None,
        }
    }

    #[test]
    fn content_names() {
        for good in ["0123456789abcdef.uqt", "ffffffffffffffff.uqt"] {
            assert!(is_content_name(good, "uqt"), "{good}");
        }
        for bad in [
            "",
            ".uqt",
            "0123456789ABCDEF.uqt",
            "0123456789abcdef.UQT",
            "0123456789abcde.uqt",
            "0123456789abcdef0.uqt",
            "0123456789abcdefuqt",
            "../../etc/passwd",
            "https://evil.example/0123456789abcdef.uqt",
            "0123456789abcdef.uqt/",
            "0123456789abcdеf.uqt", // a Cyrillic е
            "0123456789abcdef.uqa",
        ] {
            assert!(!is_content_name(bad, "uqt"), "{bad}");
        }
    }

    #[test]
    fn compatibility_is_checked_in_order_with_codes() {
        let params = Params::default();
        let ok = manifest("0123456789abcdef.uqt");
        assert_eq!(ok.check_compatible(&params), Ok(()));
        assert_eq!(ok.total_bytes(), 1115);

        let with_table = Manifest {
            bilingual: Some(FileRef {
                name: "0123456789abcdef.uqbl".into(),
                bytes: 7,
            }),
            ..ok.clone()
        };
        assert_eq!(with_table.check_compatible(&params), Ok(()));
        assert_eq!(with_table.total_bytes(), 1122);
        // Its name is checked as the others are, and a manifest without it reads as none.
        let json = serde_json::to_string(&ok).unwrap();
        assert!(!json.contains("bilingual"));
        assert_eq!(serde_json::from_str::<Manifest>(&json).unwrap(), ok);
        for name in ["../0123456789abcdef.uqbl", "0123456789abcdef.uqt"] {
            let mut bad = with_table.clone();
            bad.bilingual.as_mut().unwrap().name = name.into();
            assert_eq!(
                bad.check_compatible(&params).unwrap_err().code(),
                "manifest_invalid"
            );
        }

        let bad_name = manifest("../secret.uqt");
        assert_eq!(
            bad_name.check_compatible(&params).unwrap_err().code(),
            "manifest_invalid"
        );
        let newer = Manifest {
            format_version: FORMAT_VERSION + 1,
            ..bad_name
        };
        assert_eq!(
            newer.check_compatible(&params).unwrap_err().code(),
            "pack_version"
        );
        let canon = Manifest {
            canonicalizer: CANONICALIZER_VERSION + 1,
            ..ok.clone()
        };
        assert_eq!(
            canon.check_compatible(&params).unwrap_err().code(),
            "pack_canonicalizer"
        );
        let other = Params { k: 64, ..params };
        let err = ok.check_compatible(&other).unwrap_err();
        assert_eq!(err.code(), "pack_params");
        assert!(
            err.to_string().contains("k = 128 in the pack, 64 here"),
            "{err}"
        );
    }
}
