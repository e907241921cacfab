//! The visible text of a document and the map from its byte offsets back to the original text.
//!
//! Word segmentation runs on the visible text: plain text minus ignorable characters, or HTML
//! minus markup with entities decoded. Each visible byte comes from a *run*: either a stretch of
//! the original copied verbatim (linear: offsets shift by a constant) or a replacement (atomic:
//! a decoded entity or a block-tag separator, whose every char maps to the whole original
//! range). Plain text without ignorables is borrowed as is with no runs at all (identity map).

use std::borrow::Cow;

use super::is_ignorable;

/// A run of visible bytes starting at `vis` and lasting until the next run.
#[derive(Debug, Clone, Copy)]
struct Run {
    vis: u32,
    orig: u32,
    /// `u32::MAX` for a linear run, else the end of the original range of an atomic run.
    atomic_end: u32,
}

const LINEAR: u32 = u32::MAX;

/// Visible text plus its offset map.
pub(crate) struct Visible<'a> {
    pub text: Cow<'a, str>,
    /// Empty means identity.
    runs: Vec<Run>,
}

/// Builds a [`Visible`] by appending pieces in original-text order.
pub(crate) struct Builder {
    out: String,
    runs: Vec<Run>,
}

impl Builder {
    pub(crate) fn with_capacity(n: usize) -> Self {
        Self {
            out: String::with_capacity(n),
            runs: Vec::new(),
        }
    }

    /// Appends `s`, copied verbatim from original offset `orig`.
    pub(crate) fn push_linear(&mut self, s: &str, orig: usize) {
        if s.is_empty() {
            return;
        }
        let vis = self.out.len() as u32;
        let orig = orig as u32;
        let contiguous = self
            .runs
            .last()
            .is_some_and(|r| r.atomic_end == LINEAR && r.orig.wrapping_add(vis - r.vis) == orig);
        if !contiguous {
            self.runs.push(Run {
                vis,
                orig,
                atomic_end: LINEAR,
            });
        }
        self.out.push_str(s);
    }

    /// Appends `s`, which replaces the original range `orig..orig_end`.
    pub(crate) fn push_atomic(&mut self, s: &str, orig: usize, orig_end: usize) {
        if s.is_empty() {
            return;
        }
        self.runs.push(Run {
            vis: self.out.len() as u32,
            orig: orig as u32,
            atomic_end: orig_end as u32,
        });
        self.out.push_str(s);
    }

    /// Appends `s` (original offset `orig`) minus its ignorable characters.
    pub(crate) fn push_filtered(&mut self, s: &str, orig: usize) {
        if s.is_ascii() {
            self.push_linear(s, orig);
            return;
        }
        let mut seg = 0;
        for (i, c) in s.char_indices() {
            if is_ignorable(c) {
                self.push_linear(&s[seg..i], orig + seg);
                seg = i + c.len_utf8();
            }
        }
        self.push_linear(&s[seg..], orig + seg);
    }

    pub(crate) fn finish<'a>(self) -> Visible<'a> {
        Visible {
            text: Cow::Owned(self.out),
            runs: self.runs,
        }
    }
}

/// Whether `text` contains any ignorable character (a quick scan; pure ASCII never does).
fn has_ignorable(text: &str) -> bool {
    !text.is_ascii() && text.chars().any(|c| !c.is_ascii() && is_ignorable(c))
}

/// Visible text of plain `text`: borrowed when there is nothing to drop.
pub(crate) fn plain(text: &str) -> Visible<'_> {
    if !has_ignorable(text) {
        return Visible {
            text: Cow::Borrowed(text),
            runs: Vec::new(),
        };
    }
    let mut b = Builder::with_capacity(text.len());
    b.push_filtered(text, 0);
    b.finish()
}

impl Visible<'_> {
    pub(crate) fn mapper(&self) -> Mapper<'_> {
        Mapper {
            runs: &self.runs,
            cur: 0,
        }
    }
}

/// Maps visible byte ranges to original ones; queries must come in non-decreasing order.
pub(crate) struct Mapper<'r> {
    runs: &'r [Run],
    cur: usize,
}

impl Mapper<'_> {
    /// Index of the run containing visible byte `p`, moving the cursor forward.
    #[inline]
    fn seek(&mut self, p: u32) -> usize {
        while self.cur + 1 < self.runs.len() && self.runs[self.cur + 1].vis <= p {
            self.cur += 1;
        }
        self.cur
    }

    /// Original range of the non-empty visible range `a..b`.
    #[inline]
    pub(crate) fn map(&mut self, a: u32, b: u32) -> (u32, u32) {
        if self.runs.is_empty() {
            return (a, b);
        }
        let r = self.runs[self.seek(a)];
        let start = if r.atomic_end == LINEAR {
            r.orig + (a - r.vis)
        } else {
            r.orig
        };
        // The run holding the last byte of the range decides the end; later queries start at
        // or after `b`, so leaving the cursor there is safe.
        let r = self.runs[self.seek(b - 1)];
        let end = if r.atomic_end == LINEAR {
            r.orig + (b - r.vis)
        } else {
            r.atomic_end
        };
        (start, end)
    }
}
