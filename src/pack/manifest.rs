//! The packs' manifest: which shard files make up one generation of sketch packs, and what their
//! sketches were made with.
//!
//! `manifest.json` sits next to the shards (`<16 hex digits>.uqp`, each one encoded [`Pack`](super::Pack)).
//! The server writes it (`uniqcheck pack`, `uniqcheck serve`); the npm package's loader reads it
//! through the WebAssembly facade (`Checker.fromManifest`), which refuses a manifest this engine
//! cannot use before a single shard is downloaded. One serde type serves both sides: its JSON field
//! names are part of the wire contract (`docs/FORMAT.md`, "The manifest").

use super::{check_sketches, PackError, FORMAT_VERSION};
use crate::Params;
use serde::{Deserialize, Serialize};

/// The manifest's file name in a pack directory.
pub const MANIFEST_FILE: &str = "manifest.json";

/// The extension of shard files.
pub const SHARD_EXTENSION: &str = "uqp";

/// Hex digits of a shard's SHA-256 in its file name.
const NAME_HEX_DIGITS: usize = 16;

/// [`Manifest`] and [`Shard`] in TypeScript, for the WebAssembly facade's `.d.ts`: keep in step.
#[cfg(target_arch = "wasm32")]
#[allow(dead_code)] // read by wasm-bindgen's custom section, which the lint cannot see
pub(crate) const TYPESCRIPT: &str = r#"
/** What `manifest.json` next to the packs says (written by `uniqcheck pack` / `uniqcheck serve`). */
export interface Manifest {
  /** The pack format version of every shard (`packFormatVersion()` must equal it). */
  format_version: number;
  /** Version of the uniqcheck that wrote them. */
  engine_version: string;
  /** Engine parameters of every sketch. */
  params: PackParams;
  /** Canonicalizer version of every sketch (`canonicalizerVersion()` must equal it). */
  canonicalizer: number;
  /** Documents in all shards. */
  documents: number;
  /** When the packs were written, unix seconds. */
  generated: number;
  /** The same instant in ISO 8601 (UTC). */
  generated_iso: string;
  /** The store's change counter when the packs were written. */
  changes: number;
  /** The shard files, in document-id order. */
  shards: ManifestShard[];
}

/** Engine parameters as packs record them (`CheckerOptions` spells them in camelCase). */
export interface PackParams {
  n: number;
  w: number;
  k: number;
  stop_words: boolean;
  stemming: boolean;
}

/** One shard file of a manifest. */
export interface ManifestShard {
  /** File name next to the manifest: 16 hex digits of its SHA-256, then `.uqp`. */
  name: string;
  bytes: number;
  documents: number;
  /** Hex SHA-256 of its bytes. */
  sha256: string;
}
"#;

/// The description of one generation of packs.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Manifest {
    /// [`FORMAT_VERSION`] of every shard.
    pub format_version: u16,
    /// Version of the uniqcheck that wrote them.
    pub engine_version: String,
    /// Engine parameters of every sketch.
    pub params: Params,
    /// [`CANONICALIZER_VERSION`](crate::canonicalize::CANONICALIZER_VERSION) of every sketch.
    pub canonicalizer: u16,
    /// Documents in all shards.
    pub documents: usize,
    /// When this generation was written, unix seconds.
    pub generated: i64,
    /// The same instant in ISO 8601 (UTC).
    pub generated_iso: String,
    /// The store's `changes` counter when its documents were read: packs are stale when the
    /// store's counter is larger.
    pub changes: i64,
    /// The shards, in document-id order.
    pub shards: Vec<Shard>,
}

/// One shard file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shard {
    /// File name in the pack directory ([`Shard::name_for`]).
    pub name: String,
    /// Size in bytes.
    pub bytes: u64,
    /// Documents in it.
    pub documents: usize,
    /// Hex SHA-256 of its bytes.
    pub sha256: String,
}

impl Shard {
    /// The file name of a shard whose bytes hash to `sha256`: the hash's first 8 bytes in hex,
    /// then `.uqp`. A name therefore always means the same bytes (cache them forever).
    ///
    /// # Example
    /// ```
    /// use uniqcheck::pack::Shard;
    /// let name = Shard::name_for(&[0xab; 32]);
    /// assert_eq!(name, "abababababababab.uqp");
    /// assert!(Shard::is_valid_name(&name));
    /// ```
    pub fn name_for(sha256: &[u8]) -> String {
        let hex: String = sha256
            .iter()
            .take(NAME_HEX_DIGITS / 2)
            .map(|b| format!("{b:02x}"))
            .collect();
        format!("{hex}.{SHARD_EXTENSION}")
    }

    /// Whether `name` is a shard name as [`Shard::name_for`] makes them (16 lowercase hex digits
    /// and `.uqp`): a manifest naming anything else (a path, a URL) is refused, so a client never
    /// fetches what a manifest should not point at.
    pub fn is_valid_name(name: &str) -> bool {
        name.strip_suffix(SHARD_EXTENSION)
            .and_then(|stem| stem.strip_suffix('.'))
            .is_some_and(|hex| {
                hex.len() == NAME_HEX_DIGITS
                    && hex.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
            })
    }
}

impl Manifest {
    /// Refuses packs that drafts analysed here with `params` cannot be checked against: another
    /// format version ([`PackError::Version`], checked first, so a newer generation says
    /// "upgrade"), a shard name that is not one ([`PackError::Manifest`]), another canonicalizer
    /// version or other parameters (as [`Pack::check_compatible`](super::Pack::check_compatible)).
    ///
    /// # Example
    /// ```
    /// use uniqcheck::pack::{Manifest, PackError, FORMAT_VERSION};
    /// use uniqcheck::canonicalize::CANONICALIZER_VERSION;
    /// use uniqcheck::Params;
    /// let manifest = Manifest {
    ///     format_version: FORMAT_VERSION + 1,
    ///     engine_version: "9.0.0".into(),
    ///     params: Params::default(),
    ///     canonicalizer: CANONICALIZER_VERSION,
    ///     documents: 0,
    ///     generated: 0,
    ///     generated_iso: "1970-01-01T00:00:00Z".into(),
    ///     changes: 0,
    ///     shards: Vec::new(),
    /// };
    /// let err = manifest.check_compatible(&Params::default()).unwrap_err();
    /// assert!(matches!(err, PackError::Version { .. }));
    /// assert_eq!(err.code(), "pack_version");
    /// ```
    pub fn check_compatible(&self, params: &Params) -> Result<(), PackError> {
        if self.format_version != FORMAT_VERSION {
            return Err(PackError::Version {
                expected: FORMAT_VERSION,
                found: self.format_version,
            });
        }
        if let Some(shard) = self.shards.iter().find(|s| !Shard::is_valid_name(&s.name)) {
            return Err(PackError::Manifest {
                what: format!(
                    "it names the shard {:?}, which is not 16 hex digits and .{SHARD_EXTENSION}",
                    shard.name
                ),
            });
        }
        check_sketches(self.canonicalizer, &self.params, params)
    }

    /// Total bytes of all shards.
    pub fn total_bytes(&self) -> u64 {
        self.shards.iter().map(|s| s.bytes).sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::canonicalize::CANONICALIZER_VERSION;

    fn manifest(shards: &[&str]) -> Manifest {
        Manifest {
            format_version: FORMAT_VERSION,
            engine_version: crate::VERSION.into(),
            params: Params::default(),
            canonicalizer: CANONICALIZER_VERSION,
            documents: shards.len(),
            generated: 0,
            generated_iso: "1970-01-01T00:00:00Z".into(),
            changes: 0,
            shards: shards
                .iter()
                .map(|name| Shard {
                    name: name.to_string(),
                    bytes: 10,
                    documents: 1,
                    sha256: String::new(),
                })
                .collect(),
        }
    }

    #[test]
    fn shard_names() {
        for good in ["0123456789abcdef.uqp", "ffffffffffffffff.uqp"] {
            assert!(Shard::is_valid_name(good), "{good}");
        }
        for bad in [
            "",
            ".uqp",
            "0123456789ABCDEF.uqp",
            "0123456789abcdef.UQP",
            "0123456789abcde.uqp",
            "0123456789abcdef0.uqp",
            "0123456789abcdefuqp",
            "../../etc/passwd",
            "https://evil.example/0123456789abcdef.uqp",
            "0123456789abcdef.uqp/",
            "0123456789abcdеf.uqp", // a Cyrillic е
        ] {
            assert!(!Shard::is_valid_name(bad), "{bad}");
        }
    }

    #[test]
    fn compatibility_is_checked_in_order_with_codes() {
        let params = Params::default();
        let ok = manifest(&["0123456789abcdef.uqp"]);
        assert_eq!(ok.check_compatible(&params), Ok(()));
        assert_eq!(ok.total_bytes(), 10);

        let bad_name = manifest(&["../secret.uqp"]);
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
