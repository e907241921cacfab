//! Align stage: a draft against one source, from matched shingles and similar sentences to
//! fragments, rewritten passages and detections.
//!
//! Four steps, one file each:
//! - [`seeds`]: each draft shingle found in the source is a seed; seeds close on both sides merge
//!   into fragments ([`align()`]) against every shingle of the source ([`ShingleIndex`]).
//! - [`chain`]: fragments along one diagonal are chained into detections, one per reused passage
//!   however reworded, and the fragments of the detections that count are the highlight
//!   ([`against_words`]).
//! - [`rewrite`]: passages rewritten from the source (synonyms, reordering, merged or shortened
//!   sentences), found sentence by sentence and joined with the detections ([`rewrite::combine`]).
//! - [`translate`]: passages translated from a source in the other language (English, Russian):
//!   the draft carried into the source's words through a bilingual table, then aligned as a rewrite.
//! - `coverage`: which draft words stronger detections already cover, to resolve overlaps.
//! - `probe`: the same seeds from the draft's side, for a check: the draft's shingles indexed once,
//!   each source's windows looked up in them.
//!
//! Alignment reads content words as [`Words`]: hashes folded to the 16 bits a stored record keeps,
//! with the sentence starts, so a source known by its text and one known by its record align
//! alike.
//!
//! Everything here works in content-word indices; [`crate::pair`] turns the result into spans of
//! the original texts for one draft–source pair.

pub mod chain;
mod coverage;
pub(crate) mod probe;
pub mod rewrite;
pub mod seeds;
pub mod translate;
pub mod words;

pub use chain::against_words;
pub use seeds::{align, Match, ShingleIndex, SourceIndex, MAX_OCCURRENCES};
pub use words::Words;
