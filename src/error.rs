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
    /// A check-time option is outside its allowed values.
    #[error("option {name} = {value} is out of range: allowed {allowed}")]
    InvalidOption {
        /// The option's name as the CLI and the JS API spell it.
        name: &'static str,
        /// The value that was given.
        value: String,
        /// What is allowed, in words.
        allowed: &'static str,
    },
}
