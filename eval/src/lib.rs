//! Measuring detection quality on real corpora, apart from the CLI plumbing (`uniqcheck eval`).
//!
//! - [`measures`]: PAN's character-level precision, recall, granularity and plagdet;
//! - [`methods`]: the near-duplicate methods of the literature side by side on labelled pairs;
//! - [`pan`]: a PAN text-alignment corpus (layout, ground-truth XML) and the engine run over it;
//! - [`auc`]: ROC AUC by the rank-sum formula;
//! - [`ru`]: the Russian paraphrase and simplification corpora;
//! - [`rewrites`]: Russian rewrites made from factRuEval texts, and what the engine finds;
//! - [`retrieval`]: whether a check through an index finds those rewrites' sources, and what it
//!   marks of drafts that have none;
//! - [`synonymized`]: a PAN corpus checked through a synonym table;
//! - [`thesaurus`]: synonym classes from thesauri, for [`uniqcheck::synonyms`] tables.

pub mod auc;
pub mod measures;
pub mod methods;
pub mod pan;
pub mod retrieval;
pub mod rewrites;
pub mod ru;
pub mod synonymized;
pub mod thesaurus;
