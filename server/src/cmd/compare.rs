//! `uniqcheck compare A B`: how much of text A is found in text B.
//!
//! Both texts are known, so every fragment carries a span in A and a span in B. JSON offsets are
//! counted in each file's decoded text, in `--units` (characters by default).
//!
//! `--method NAME` also judges the pair with a near-duplicate method ([`uniqcheck::methods`]): its
//! similarity and decision are printed after the comparison, and added to the JSON as `verdict`.

use crate::input::{self, is_stdin, Input};
use crate::options::{EngineArgs, MethodArgs, OutputArgs, TextArgs, UsageError};
use crate::output::{self, Paint};
use anyhow::Result;
use clap::Args;
use serde::Serialize;
use std::io::{self, Write};
use std::path::PathBuf;
use uniqcheck::methods::{Text, Verdict};
use uniqcheck::{
    compare, CheckOptions, ComparedText, Comparison, Document, OffsetConverter, Params, Unit,
};

/// Flags of `compare`.
#[derive(Debug, Args)]
pub struct CompareArgs {
    /// The text being checked (`-` for standard input)
    #[arg(value_name = "A")]
    pub a: PathBuf,
    /// The text it is checked against (`-` for standard input)
    #[arg(value_name = "B")]
    pub b: PathBuf,
    #[command(flatten)]
    pub output: OutputArgs,
    #[command(flatten)]
    pub text: TextArgs,
    #[command(flatten)]
    pub engine: EngineArgs,
    #[command(flatten)]
    pub method: MethodArgs,
    /// Also find A translated from B (English and Russian) through this table
    /// (data/bilingual/en-ru.uqbl)
    #[arg(long, value_name = "FILE")]
    pub bilingual: Option<PathBuf>,
}

/// The JSON answer: the engine's comparison (field names are part of the CLI's interface, shared
/// with the WebAssembly `compare`), with offsets in `units`.
#[derive(Debug, Serialize)]
struct CompareJson<'a> {
    #[serde(flatten)]
    comparison: &'a Comparison,
    units: Unit,
    /// With --method: its similarity and decision.
    #[serde(skip_serializing_if = "Option::is_none")]
    verdict: Option<Verdict>,
}

/// Runs `compare`.
pub fn run(args: CompareArgs) -> Result<()> {
    let params = args.engine.params()?;
    let opts = args.engine.check_options();
    let forced = args.text.encoding()?;
    if is_stdin(&args.a) && is_stdin(&args.b) {
        return Err(UsageError::new("A and B cannot both be standard input (-)").into());
    }
    let a = input::read(&args.a, &args.text, forced, opts.max_text_bytes)?;
    let b = input::read(&args.b, &args.text, forced, opts.max_text_bytes)?;
    let opts = CheckOptions {
        bilingual: input::bilingual(args.bilingual.as_deref(), &params)?,
        ..opts
    };
    let mut comparison = compare(&a.text, a.format, &b.text, b.format, &params, &opts)
        .map_err(|e| blame(e, &a, &b, &params, &opts))?;
    let verdict = match args.method.method(&params)? {
        Some(m) => {
            // Both texts analysed fine just above, so these cannot fail.
            let text = |t: &Input| Text::analyze(&t.text, t.format, &params, opts.max_text_bytes);
            let (ta, tb) = (text(&a)?, text(&b)?);
            Some(m.compare(&ta, &tb))
        }
        None => None,
    };

    let mut stdout = io::stdout().lock();
    if !args.output.json {
        output::print_compare(&mut stdout, Paint::for_stdout(), &a, &b, &comparison)?;
        if let Some(v) = &verdict {
            print_verdict(&mut stdout, v)?;
        }
        return Ok(());
    }
    let unit = Unit::from(args.output.units);
    let (ca, cb) = (
        OffsetConverter::new(&a.text, unit),
        OffsetConverter::new(&b.text, unit),
    );
    comparison.map_offsets(|o| ca.convert(o), |o| cb.convert(o));
    let json = CompareJson {
        comparison: &comparison,
        units: unit,
        verdict,
    };
    output::print_json(&mut stdout, &json)?;
    Ok(())
}

/// The method's line under the comparison, e.g. `simhash: similarity 0.953 ≥ 0.922: duplicate`.
pub fn print_verdict(w: &mut dyn Write, v: &Verdict) -> io::Result<()> {
    let (sign, what) = if v.duplicate {
        ("≥", "duplicate")
    } else {
        ("<", "not a duplicate")
    };
    writeln!(
        w,
        "{}: similarity {:.3} {sign} {:.3}: {what}",
        v.method.name(),
        v.similarity,
        v.threshold
    )
}

/// The file an engine's error is about. An empty text is named by the engine; its other errors
/// do not say which text they are about, and on this (rare) path analysing A alone tells.
fn blame(
    e: uniqcheck::Error,
    a: &Input,
    b: &Input,
    params: &Params,
    opts: &CheckOptions,
) -> anyhow::Error {
    let culprit = match &e {
        uniqcheck::Error::EmptyInComparison {
            side: ComparedText::Draft,
        } => a,
        uniqcheck::Error::EmptyInComparison {
            side: ComparedText::Source,
        } => b,
        _ => match Document::analyze(&a.text, a.format, params, opts.max_text_bytes) {
            Err(ea) if ea == e => a,
            _ => b,
        },
    };
    input::explain(&culprit.name, e, true)
}
