//! `uniqcheck study DATA --x METHOD --y METHOD`: the seed's threshold study.
//!
//! For a dataset's labelled pairs plus randomly sampled pairs of its texts
//! ([`uniqcheck_eval::methods::study`]), two methods' similarities are binned on a grid and drawn
//! as a heatmap (SVG): x is the first method's similarity, y the second's, a cell's colour the
//! number of pairs in it on a logarithmic scale (1 pair is dark purple, the fullest cell yellow),
//! so that the few thousand near-duplicates stay visible beside the mass of unrelated pairs.
//! Each method's default threshold (or `--x-threshold` / `--y-threshold`) is drawn as a red line;
//! a good threshold runs through the empty band between the two clouds. The table printed
//! counts, per kind of pair, how many fall on each side of each threshold.
//!
//! `uniqcheck study --db FILE` studies an operator's own store instead: the candidate pairs that
//! `dedup` would score (each document looked up in the store's indexes, its best candidates
//! kept; [`crate::store::dedup::survey`]), up to `--random` of them sampled with a fixed seed, so
//! that the operator sees where their duplicates separate before choosing `dedup --threshold`.
//! The pairs carry no labels: the table counts them by side of the thresholds.

use crate::options::{parse_method, store_error, UsageError};
use crate::store::dedup::{survey, DedupError};
use crate::store::Store;
use anyhow::{anyhow, Context, Result};
use clap::{Args, ValueEnum};
use plotters::prelude::*;
use std::io::{self, Write};
use std::path::PathBuf;
use uniqcheck::methods::{AnyMethod, Kind};
use uniqcheck::{CheckOptions, Params};
use uniqcheck_eval::methods::{self as dup_methods, StudyPoint};

/// Which labelled pairs the study starts from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum StudyData {
    /// 20 Newsgroups posts and their perturbed copies (the store benchmark's perturbation)
    Newsgroups,
    /// 20 Newsgroups posts and lightly edited copies (one word in 20 replaced)
    NewsgroupsLight,
    /// PAN 2013 training pairs
    Pan,
    /// ParaPhraser's Russian headline pairs
    Paraphrases,
}

/// Flags of `study`.
#[derive(Debug, Args)]
pub struct StudyArgs {
    /// The shared data folder (with 20news-bydate/, pan13-train/, ru/paraphrases_train.tsv)
    #[arg(
        value_name = "DATA",
        required_unless_present = "db",
        conflicts_with = "db"
    )]
    pub data: Option<PathBuf>,
    /// Study a store made by `uniqcheck index` instead: its own candidate pairs, as `dedup`
    /// finds them
    #[arg(long, value_name = "FILE")]
    pub db: Option<PathBuf>,
    /// With --db: candidates looked up per document (as `dedup --max-candidates`)
    #[arg(long, value_name = "N", default_value_t = 100, requires = "db")]
    pub max_candidates: usize,
    /// Which pairs to start from
    #[arg(long, value_enum, default_value_t = StudyData::Newsgroups)]
    pub dataset: StudyData,
    /// The method along x
    #[arg(long, value_name = "METHOD", value_parser = parse_method, default_value = "shingles")]
    pub x: Kind,
    /// The method along y
    #[arg(long, value_name = "METHOD", value_parser = parse_method, default_value = "simhash")]
    pub y: Kind,
    /// Threshold marked on x (default: the method's)
    #[arg(long, value_name = "T")]
    pub x_threshold: Option<f64>,
    /// Threshold marked on y (default: the method's)
    #[arg(long, value_name = "T")]
    pub y_threshold: Option<f64>,
    /// Random pairs of the dataset's texts added to its labelled pairs (with --db: candidate
    /// pairs sampled)
    #[arg(long, value_name = "N", default_value_t = 20_000)]
    pub random: usize,
    /// 20 Newsgroups posts to copy
    #[arg(long, value_name = "N", default_value_t = 2000)]
    pub posts: usize,
    /// Cells per axis
    #[arg(long, value_name = "N", default_value_t = 50)]
    pub bins: usize,
    /// The SVG file to write
    #[arg(long, value_name = "FILE", default_value = "study.svg")]
    pub out: PathBuf,
}

/// Runs `study`.
pub fn run(args: StudyArgs) -> Result<()> {
    if !(2..=400).contains(&args.bins) {
        return Err(UsageError::new("--bins must be between 2 and 400").into());
    }
    let threshold = |t: Option<f64>, k: Kind| -> Result<f64, UsageError> {
        match t {
            Some(t) if !(0.0..=1.0).contains(&t) => Err(UsageError::new(format!(
                "a threshold must be between 0 and 1, not {t}"
            ))),
            Some(t) => Ok(t),
            None => Ok(AnyMethod::new(k, &Params::default()).threshold()),
        }
    };
    let (tx, ty) = (
        threshold(args.x_threshold, args.x)?,
        threshold(args.y_threshold, args.y)?,
    );
    let (name, labelled, points) = match (&args.db, &args.data) {
        (Some(db), _) => {
            let (name, points) = store_points(&args, db)?;
            (name, 0, points)
        }
        (None, Some(d)) => {
            let data = match args.dataset {
                StudyData::Newsgroups | StudyData::NewsgroupsLight => {
                    let edit = if args.dataset == StudyData::Newsgroups {
                        dup_methods::Edit::Benchmark
                    } else {
                        dup_methods::Edit::Light
                    };
                    dup_methods::newsgroups(&d.join("20news-bydate"), args.posts.max(2), edit)?.0
                }
                StudyData::Pan => dup_methods::pan(&d.join("pan13-train"), None)?,
                StudyData::Paraphrases => {
                    dup_methods::paraphrases(&d.join("ru").join("paraphrases_train.tsv"))?
                }
            };
            let points = dup_methods::study(&data, args.x, args.y, args.random);
            (data.name, data.pairs.len(), points)
        }
        (None, None) => return Err(UsageError::new("give the data folder or --db FILE").into()),
    };
    draw(&args, &name, &points, tx, ty)
        .with_context(|| format!("cannot draw {}", args.out.display()))?;
    let mut out = io::stdout().lock();
    writeln!(
        out,
        "{name}: {} pairs ({labelled} labelled, {} {}); wrote {}",
        points.len(),
        points.len() - labelled,
        if args.db.is_some() {
            "candidate"
        } else {
            "random"
        },
        args.out.display()
    )?;
    writeln!(
        out,
        "pairs by side of the thresholds ({} ≥ {tx:.3}, {} ≥ {ty:.3}):",
        args.x.name(),
        args.y.name()
    )?;
    writeln!(
        out,
        "| pairs | both | {} only | {} only | neither |",
        args.x.name(),
        args.y.name()
    )?;
    writeln!(out, "|---|---|---|---|---|")?;
    for (label, which) in [
        ("duplicates", Some(true)),
        ("non-duplicates", Some(false)),
        (
            if args.db.is_some() {
                "candidate pairs"
            } else {
                "random"
            },
            None,
        ),
    ] {
        // A store's pairs carry no labels: only its candidates' row.
        if args.db.is_some() && which.is_some() {
            continue;
        }
        let mut q = [0usize; 4];
        for p in points.iter().filter(|p| p.duplicate == which) {
            q[usize::from(p.x < tx) * 2 + usize::from(p.y < ty)] += 1;
        }
        writeln!(
            out,
            "| {label} | {} | {} | {} | {} |",
            q[0], q[1], q[2], q[3]
        )?;
    }
    Ok(())
}

/// The points of a store's study: its candidate pairs (as `dedup` proposes them), up to
/// `args.random` of them sampled with a fixed seed, scored by both methods; and the chart's name.
fn store_points(args: &StudyArgs, db: &std::path::Path) -> Result<(String, Vec<StudyPoint>)> {
    for kind in [args.x, args.y] {
        if kind.needs_characters() {
            return Err(UsageError::new(format!(
                "{} reads the text's characters, and a store keeps only word hashes: choose another method",
                kind.name()
            ))
            .into());
        }
    }
    let store = Store::open_existing(db).map_err(store_error)?;
    // The store's parameters: shingles of the store's length.
    let (mx, my) = (
        AnyMethod::new(args.x, store.params()),
        AnyMethod::new(args.y, store.params()),
    );
    let (docs, mut pairs) = survey(
        &store,
        &CheckOptions::default(),
        args.max_candidates,
        &mut |text| (mx.signature(text), my.signature(text)),
        &mut |_| {},
    )
    .map_err(|e| match e {
        DedupError::Store(e) => store_error(e),
        e => e.into(),
    })?;
    if pairs.len() > args.random {
        uniqcheck_eval::rewrites::Rng::new(0x57D1, "study --db").shuffle(&mut pairs);
        pairs.truncate(args.random);
    }
    let points = pairs
        .iter()
        .map(|&(a, b)| StudyPoint {
            x: mx.similarity(&docs[a].1 .0, &docs[b].1 .0),
            y: my.similarity(&docs[a].1 .1, &docs[b].1 .1),
            duplicate: None,
        })
        .collect();
    let name = db.file_name().map_or_else(
        || db.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    );
    Ok((name, points))
}

/// Viridis, piecewise linear through five of its colours: `t` in [0, 1].
fn viridis(t: f64) -> RGBColor {
    const STOPS: [(u8, u8, u8); 5] = [
        (68, 1, 84),
        (59, 82, 139),
        (33, 145, 140),
        (94, 201, 98),
        (253, 231, 37),
    ];
    let t = t.clamp(0.0, 1.0) * (STOPS.len() - 1) as f64;
    let i = (t.floor() as usize).min(STOPS.len() - 2);
    let f = t - i as f64;
    let mix = |a: u8, b: u8| (f64::from(a) + (f64::from(b) - f64::from(a)) * f).round() as u8;
    let (a, b) = (STOPS[i], STOPS[i + 1]);
    RGBColor(mix(a.0, b.0), mix(a.1, b.1), mix(a.2, b.2))
}

/// Pair counts per cell: `counts[i][j]`, i along x, j along y.
fn bin(points: &[StudyPoint], bins: usize) -> Vec<Vec<u64>> {
    let mut counts = vec![vec![0u64; bins]; bins];
    let cell = |v: f64| ((v.clamp(0.0, 1.0) * bins as f64) as usize).min(bins - 1);
    for p in points {
        counts[cell(p.x)][cell(p.y)] += 1;
    }
    counts
}

fn draw(args: &StudyArgs, name: &str, points: &[StudyPoint], tx: f64, ty: f64) -> Result<()> {
    let err = |e: &dyn std::fmt::Display| anyhow!("{e}");
    let counts = bin(points, args.bins);
    let max = counts.iter().flatten().copied().max().unwrap_or(1).max(2);
    let top = (max as f64).log10();
    let root = SVGBackend::new(&args.out, (860, 720)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| err(&e))?;
    let (left, right) = root.split_horizontally(730);
    let mut chart = ChartBuilder::on(&left)
        .caption(
            format!("{name}: {} pairs, log colour scale", points.len()),
            ("sans-serif", 20),
        )
        .margin(12)
        .x_label_area_size(45)
        .y_label_area_size(55)
        .build_cartesian_2d(0f64..1f64, 0f64..1f64)
        .map_err(|e| err(&e))?;
    chart
        .configure_mesh()
        .disable_mesh()
        .label_style(("sans-serif", 13))
        .axis_desc_style(("sans-serif", 15))
        .x_desc(format!("{} similarity", args.x.name()))
        .y_desc(format!("{} similarity", args.y.name()))
        .draw()
        .map_err(|e| err(&e))?;
    let w = 1.0 / args.bins as f64;
    let cells = counts.iter().enumerate().flat_map(|(i, col)| {
        col.iter()
            .enumerate()
            .filter(|(_, &c)| c > 0)
            .map(move |(j, &c)| {
                let t = (c as f64).log10() / top;
                let (x, y) = (i as f64 * w, j as f64 * w);
                Rectangle::new([(x, y), (x + w, y + w)], viridis(t).filled())
            })
    });
    chart.draw_series(cells).map_err(|e| err(&e))?;
    let red = RED.stroke_width(2);
    chart
        .draw_series([
            PathElement::new(vec![(tx, 0.0), (tx, 1.0)], red),
            PathElement::new(vec![(0.0, ty), (1.0, ty)], red),
        ])
        .map_err(|e| err(&e))?;
    // The colour scale: pair counts from 1 to the fullest cell, logarithmic.
    let mut legend = ChartBuilder::on(&right)
        .margin_top(40)
        .margin_bottom(57)
        .margin_right(10)
        .y_label_area_size(65)
        .build_cartesian_2d(0f64..1f64, 0f64..top)
        .map_err(|e| err(&e))?;
    legend
        .configure_mesh()
        .disable_mesh()
        .disable_x_axis()
        .label_style(("sans-serif", 13))
        .axis_desc_style(("sans-serif", 15))
        .y_desc("pairs in a cell")
        .y_label_formatter(&|v| format!("{:.0}", 10f64.powf(*v)))
        .draw()
        .map_err(|e| err(&e))?;
    let steps = 100;
    legend
        .draw_series((0..steps).map(|k| {
            let (a, b) = (k as f64 / steps as f64, (k + 1) as f64 / steps as f64);
            Rectangle::new([(0.0, a * top), (1.0, b * top)], viridis(a).filled())
        }))
        .map_err(|e| err(&e))?;
    root.present().map_err(|e| err(&e))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bins_clamp_and_count() {
        let p = |x, y| StudyPoint {
            x,
            y,
            duplicate: None,
        };
        let c = bin(&[p(0.0, 0.0), p(1.0, 1.0), p(0.99, 1.0), p(0.5, 0.26)], 4);
        assert_eq!(c[0][0], 1);
        assert_eq!(c[3][3], 2);
        assert_eq!(c[2][1], 1);
        assert_eq!(viridis(0.0), RGBColor(68, 1, 84));
        assert_eq!(viridis(1.0), RGBColor(253, 231, 37));
    }
}
