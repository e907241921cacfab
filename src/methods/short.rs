//! `short`: the short-text method, the 15 longest words ([`crate::short`]), as the engine judges
//! short drafts (named `longwords` on the command line before; that name is still read).
//!
//! Source: a 2009 Habr post on fuzzy duplicates of classified ads (DESIGN.md): the 15 longest
//! distinct canonical words of 4+ letters, CRC32 each; similarity = shared words / the shorter
//! list's length; a duplicate at 80 % or more. The engine already uses it for short drafts.
//!
//! Known weaknesses: it ignores order and all but 15 words, so two long texts on one topic that
//! share their rare long terms (names, jargon) look alike while a long text with one paragraph
//! copied does not; dividing by the shorter list makes a text of five long words a "duplicate" of
//! anything containing them.

use super::{NearDuplicate, Text};
use crate::short::ShortSignature;

/// The short-text method: the 15 longest words ([`super::Kind::Short`]).
#[derive(Debug, Clone, Copy, Default)]
pub struct Short;

impl NearDuplicate for Short {
    type Signature = ShortSignature;

    fn default_threshold(&self) -> f64 {
        0.8
    }

    fn signature(&self, text: &Text) -> ShortSignature {
        text.short.clone()
    }

    fn similarity(&self, a: &ShortSignature, b: &ShortSignature) -> f64 {
        a.similarity(b)
    }
}
