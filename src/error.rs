//! The engine's one error type.
//!
//! Every failure a caller can cause (empty or oversized text, binary data, parameters out of range)
//! is a variant with the data needed to explain it. The engine never panics on input; these errors
//! are what the CLI prints and what the WebAssembly facade turns into JS exceptions.

/// Why the engine refused a text or a set of parameters.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum Error {
    /// The text has no words at all (empty, whitespace, punctuation or markup only).
    #[error("the text is empty: it contains no words to check")]
    Empty,
    /// One of the two texts of [`crate::compare()`] has no words (as [`Error::Empty`]): which one.
    #[error("the {side} is empty: it contains no words to compare")]
    EmptyInComparison {
        /// The text that is empty.
        side: ComparedText,
    },
    /// The text is larger than the configured limit.
    #[error("the text is too large: {size} bytes, the limit is {limit} bytes")]
    TooLarge {
        /// Size of the text in bytes (UTF-8).
        size: usize,
        /// The limit in force ([`crate::CheckOptions::max_text_bytes`]).
        limit: usize,
    },
    /// The text looks like binary data rather than writing.
    #[error(
        "the input looks like binary data, not text: {control} of the first {sampled} characters \
         are control characters or U+FFFD replacement characters"
    )]
    Binary {
        /// How many suspicious characters were seen in the sample.
        control: usize,
        /// How many characters were sampled.
        sampled: usize,
    },
    /// A parameter is outside its allowed range.
    #[error("parameter {name} = {value} is out of range: allowed {min}..={max}")]
    InvalidParameter {
        /// The parameter's name as the CLI and the pack format spell it.
        name: &'static str,
        /// The value that was given.
        value: u64,
        /// Smallest allowed value.
        min: u64,
        /// Largest allowed value.
        max: u64,
    },
    /// A check-time option is outside its allowed values. An empty value (or one of spaces
    /// only: an empty line of a list) is said to be empty, since `x =  is out of range` shows
    /// nothing the caller could look for.
    #[error("{}", option_message(name, value, allowed))]
    InvalidOption {
        /// The option's name as the CLI and the JS API spell it.
        name: &'static str,
        /// The value that was given.
        value: String,
        /// What is allowed, in words.
        allowed: &'static str,
    },
}

/// One of the two texts of [`crate::compare()`], in the caller's words: `compare(draft, source)`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ComparedText {
    /// The first text, the one being checked (A).
    Draft,
    /// The second text, the one it is checked against (B).
    Source,
}

impl ComparedText {
    /// `"draft"` or `"source"`, as a comparison's spans are named.
    pub fn name(self) -> &'static str {
        match self {
            ComparedText::Draft => "draft",
            ComparedText::Source => "source",
        }
    }

    /// `"first"` or `"second"`: where the text is among the arguments.
    pub fn position(self) -> &'static str {
        match self {
            ComparedText::Draft => "first",
            ComparedText::Source => "second",
        }
    }
}

/// `draft (the first text)`, `source (the second text)`.
impl std::fmt::Display for ComparedText {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} (the {} text)", self.name(), self.position())
    }
}

/// The message of [`Error::InvalidOption`].
fn option_message(name: &str, value: &str, allowed: &str) -> String {
    if value.trim().is_empty() {
        format!("option {name} has an empty entry: allowed {allowed}")
    } else {
        format!("option {name} = {value} is out of range: allowed {allowed}")
    }
}

/// Declares the stable error codes once: an associated constant of [`Error`] per code, the list
/// [`Error::CODES`], and the TypeScript union `ErrorCode` of the WebAssembly facade's types.
macro_rules! error_codes {
    ($($(#[doc = $doc:literal])+ $name:ident = $code:literal,)+) => {
        /// # Error codes
        ///
        /// Every error uniqcheck reports has a stable, machine-readable code besides its message:
        /// [`Error::code`], [`PackError::code`](crate::pack::PackError::code), the `code` property of
        /// the JS `Error`s the WebAssembly module and the npm package throw. A code, once published,
        /// keeps its meaning; messages may be reworded at any time, so branch on codes, never on
        /// messages.
        impl Error {
            $($(#[doc = $doc])+ pub const $name: &'static str = $code;)+
            /// Every code, in the order of the table in the npm package's README.
            pub const CODES: &'static [&'static str] = &[$($code),+];
            /// `export type ErrorCode = …`: the union of [`Error::CODES`] in TypeScript, for the
            /// WebAssembly facade's `.d.ts` (the `uniqcheck-wasm` crate).
            pub const CODES_TYPESCRIPT: &'static str = concat!(
                "/** Why uniqcheck refused: the stable `code` of every error it throws. */\n",
                "export type ErrorCode =",
                $("\n  | \"", $code, "\"",)+
                ";\n"
            );
        }
    };
}

error_codes! {
    /// `empty_text`: the text has no words ([`Error::Empty`], or
    /// [`Error::EmptyInComparison`] for one of two compared texts).
    EMPTY_TEXT = "empty_text",
    /// `binary_text`: the input looks like binary data ([`Error::Binary`]).
    BINARY_TEXT = "binary_text",
    /// `text_too_large`: the text is over the size limit ([`Error::TooLarge`]).
    TEXT_TOO_LARGE = "text_too_large",
    /// `invalid_parameter`: an engine parameter (n, w, k) is out of range
    /// ([`Error::InvalidParameter`]).
    INVALID_PARAMETER = "invalid_parameter",
    /// `invalid_option`: a check option is out of range ([`Error::InvalidOption`]), or a JS options
    /// object has an unknown field or a field of the wrong type.
    INVALID_OPTION = "invalid_option",
    /// `invalid_argument`: a JS argument of the wrong type (a number or `null` where a string is
    /// needed, anything but a `Uint8Array` for pack bytes, a non-object for options).
    INVALID_ARGUMENT = "invalid_argument",
    /// `pack_magic`: the bytes are not a pack file
    /// ([`PackError::NotAPack`](crate::pack::PackError::NotAPack)).
    PACK_MAGIC = "pack_magic",
    /// `pack_version`: packs in another format version
    /// ([`PackError::Version`](crate::pack::PackError::Version)).
    PACK_VERSION = "pack_version",
    /// `pack_truncated`: the pack ends early
    /// ([`PackError::Truncated`](crate::pack::PackError::Truncated)).
    PACK_TRUNCATED = "pack_truncated",
    /// `pack_checksum`: the pack's CRC32 does not match
    /// ([`PackError::Checksum`](crate::pack::PackError::Checksum)), or a content-named file's
    /// SHA-256 does not match its name
    /// ([`PackError::NameMismatch`](crate::pack::PackError::NameMismatch)), or an index page is
    /// of another generation than its name says
    /// ([`PackError::Generation`](crate::pack::PackError::Generation)).
    PACK_CHECKSUM = "pack_checksum",
    /// `pack_corrupt`: the checksum matches but the content breaks the format
    /// ([`PackError::Corrupt`](crate::pack::PackError::Corrupt)).
    PACK_CORRUPT = "pack_corrupt",
    /// `pack_params`: packs built with other engine parameters
    /// ([`PackError::ParamsMismatch`](crate::pack::PackError::ParamsMismatch)).
    PACK_PARAMS = "pack_params",
    /// `pack_canonicalizer`: packs built by another version of the canonicalization rules
    /// ([`PackError::Canonicalizer`](crate::pack::PackError::Canonicalizer)).
    PACK_CANONICALIZER = "pack_canonicalizer",
    /// `manifest_invalid`: the pack manifest is not JSON of the manifest's shape, or names an
    /// invalid shard ([`PackError::Manifest`](crate::pack::PackError::Manifest)).
    MANIFEST_INVALID = "manifest_invalid",
    /// `pack_missing`: a check needed a pack file that was not fetched and added yet
    /// ([`PackError::Missing`](crate::pack::PackError::Missing)).
    PACK_MISSING = "pack_missing",
    /// `fetch_failed`: the npm package's loader could not reach the server (network down, or a
    /// cross-origin server that does not allow this origin).
    FETCH_FAILED = "fetch_failed",
    /// `http_status`: the npm package's loader got an HTTP error status for the manifest or a shard.
    HTTP_STATUS = "http_status",
    /// `worker_failed`: the npm package's Web Worker died (its script could not load, or crashed).
    WORKER_FAILED = "worker_failed",
    /// `internal`: a bug in uniqcheck (an answer that could not be handed to JavaScript); please
    /// report it with the message.
    INTERNAL = "internal",
}

impl Error {
    /// This error's stable machine-readable code (one of [`Error::CODES`]).
    ///
    /// # Example
    /// ```
    /// assert_eq!(uniqcheck::Error::Empty.code(), "empty_text");
    /// assert_eq!(uniqcheck::Error::Empty.code(), uniqcheck::Error::EMPTY_TEXT);
    /// ```
    pub fn code(&self) -> &'static str {
        match self {
            Error::Empty | Error::EmptyInComparison { .. } => Error::EMPTY_TEXT,
            Error::TooLarge { .. } => Error::TEXT_TOO_LARGE,
            Error::Binary { .. } => Error::BINARY_TEXT,
            Error::InvalidParameter { .. } => Error::INVALID_PARAMETER,
            Error::InvalidOption { .. } => Error::INVALID_OPTION,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pack::PackError;

    #[test]
    fn an_empty_option_value_is_said_to_be_empty() {
        let domains = |value: &str| Error::InvalidOption {
            name: "exclude.domains",
            value: value.into(),
            allowed: "domain names, e.g. example.com",
        };
        for empty in ["", " ", "\t"] {
            assert_eq!(
                domains(empty).to_string(),
                "option exclude.domains has an empty entry: allowed domain names, e.g. example.com"
            );
        }
        assert_eq!(
            domains("localhost").to_string(),
            "option exclude.domains = localhost is out of range: allowed domain names, e.g. \
             example.com"
        );
    }

    #[test]
    fn codes_are_unique_snake_case_and_cover_every_variant() {
        let mut seen = std::collections::HashSet::new();
        for code in Error::CODES {
            assert!(seen.insert(code), "{code} twice");
            assert!(
                !code.is_empty() && code.bytes().all(|b| b.is_ascii_lowercase() || b == b'_'),
                "{code}"
            );
        }
        let engine = [
            Error::Empty,
            Error::EmptyInComparison {
                side: ComparedText::Source,
            },
            Error::TooLarge { size: 2, limit: 1 },
            Error::Binary {
                control: 1,
                sampled: 1,
            },
            Error::InvalidParameter {
                name: "n",
                value: 1,
                min: 2,
                max: 10,
            },
            Error::InvalidOption {
                name: "gap",
                value: "x".into(),
                allowed: "0..",
            },
        ];
        let pack = [
            PackError::NotAPack { found: vec![] },
            PackError::Version {
                expected: 1,
                found: 2,
            },
            PackError::Truncated {
                offset: 0,
                needed: 1,
            },
            PackError::Checksum {
                expected: 0,
                found: 1,
            },
            PackError::NameMismatch {
                file: "x".into(),
                expected: 0,
                found: 1,
            },
            PackError::Generation {
                file: "x".into(),
                expected: 0,
                found: 1,
            },
            PackError::Corrupt {
                offset: 0,
                what: "x".into(),
            },
            PackError::ParamsMismatch {
                differences: Vec::new(),
            },
            PackError::Manifest { what: "x".into() },
            PackError::Missing { file: "x".into() },
            PackError::Canonicalizer {
                expected: 1,
                found: 2,
            },
        ];
        let codes: Vec<&str> = engine
            .iter()
            .map(Error::code)
            .chain(pack.iter().map(PackError::code))
            .collect();
        for code in &codes {
            assert!(Error::CODES.contains(code), "{code} is not listed");
        }
        let distinct: std::collections::HashSet<_> = codes.iter().collect();
        // One code per variant, but for the three ways a file's bytes are not what they should
        // be (a CRC32, a SHA-256 name or a page's generation that does not match), which one
        // fix answers.
        // And an empty text, one checked or one of two compared, is one `empty_text`.
        assert_eq!(distinct.len(), codes.len() - 3, "one code per variant");
        assert_eq!(engine[0].code(), engine[1].code());
        assert_eq!(pack[3].code(), pack[4].code());
        assert_eq!(pack[3].code(), pack[5].code());
    }
}
