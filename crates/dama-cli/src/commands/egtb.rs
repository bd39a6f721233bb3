//! `dama egtb build|probe|stats`: endgame tables (docs/endgames.md). The
//! engine builds, reads and judges; this file reads the arguments and
//! writes what it says.

use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

use dama_engine::{egtb, egtb::BuildProgress, egtb::EgtbError, egtb::Material, egtb::Tablebase};

use super::Ctx;
use crate::engine_setup::{available_memory, default_dir};
use crate::error::CliError;
use crate::exit::Exit;
use crate::render;
use crate::render::egtb::{fail, print_build, print_probe, print_stats, print_summary};

/// `dama egtb build VARIANT --pieces N`, `--material M [--only]`.
pub fn build(
    ctx: &Ctx,
    variant: &str,
    (pieces, material, only): (Option<u8>, Option<&str>, bool),
    dir: Option<PathBuf>,
    max_memory_mib: Option<u64>,
) -> Exit {
    let loaded = match ctx.load_variant(variant) {
        Ok(l) => l,
        Err(e) => return e,
    };
    if only && material.is_none() {
        return CliError::usage("--only builds the slice of --material: give --material M".to_string()).report(None);
    }
    let target = match material.map(str::parse::<Material>) {
        Some(Ok(m)) => Some(m),
        Some(Err(e)) => return CliError::usage(e.to_string()).report(None),
        None => None,
    };
    let rules = &loaded.rules;
    let dir = default_dir(dir);
    let limit = max_memory_mib.map(|m| m * 1024 * 1024).or_else(available_memory);
    let tty = render::stderr_tty();
    let start = Instant::now();
    let progress = |p: BuildProgress| {
        if !tty {
            return;
        }
        let frac = if p.total == 0 {
            1.0
        } else {
            p.done as f64 / p.total as f64
        };
        let filled = (frac * 30.0).round() as usize;
        let mut err = std::io::stderr().lock();
        let _ = write!(
            err,
            "\r[{}{}] {:5.1}%  slice {}/{} {:<12} {:>6.0} s ",
            "#".repeat(filled.min(30)),
            " ".repeat(30 - filled.min(30)),
            frac * 100.0,
            p.slice,
            p.slices,
            p.material.to_string(),
            start.elapsed().as_secs_f64()
        );
        let _ = err.flush();
    };
    let built = match target {
        Some(m) if only => egtb::build_only(rules, &dir, m, limit, &progress),
        Some(m) => egtb::build_for(rules, &dir, &[m], limit, &progress),
        None => egtb::build(rules, &dir, pieces.unwrap_or(0), limit, &progress),
    };
    let what = match target {
        Some(m) if only => format!("the table for {m} (the {} it leads to read)", m.dependencies().len()),
        Some(m) => format!("tables for {m} and the materials it leads to"),
        None => format!("tables up to {} pieces", pieces.unwrap_or(0)),
    };
    let report = match built {
        Ok(r) => r,
        Err(e) => return fail(&e),
    };
    if tty {
        eprintln!();
    }
    let secs = start.elapsed().as_secs_f64();
    print_build(rules, &dir, &what, &report);
    eprintln!("built in {secs:.1} s");
    Exit::Success
}

/// `dama egtb probe VARIANT --fen FEN`.
pub fn probe(ctx: &Ctx, variant: &str, fen: &str, dir: Option<PathBuf>) -> Exit {
    let loaded = match ctx.load_variant(variant) {
        Ok(l) => l,
        Err(e) => return e,
    };
    let pos = match ctx.position(&loaded, Some(fen)) {
        Ok(p) => p,
        Err(e) => return e,
    };
    let rules = &loaded.rules;
    let dir = default_dir(dir);
    let mut tb = Tablebase::open(rules, &dir);
    let value = match tb.probe(&pos) {
        Ok(v) => v,
        Err(e) => return fail(&e),
    };
    if let Err(e) = print_probe(rules, &pos, &mut tb, value) {
        return fail(&e);
    }
    Exit::Success
}

/// `dama egtb stats VARIANT`.
pub fn stats(ctx: &Ctx, variant: &str, material: Option<&str>, dir: Option<PathBuf>) -> Exit {
    let loaded = match ctx.load_variant(variant) {
        Ok(l) => l,
        Err(e) => return e,
    };
    let rules = &loaded.rules;
    let dir = default_dir(dir);
    if let Some(text) = material {
        let m: Material = match text.parse() {
            Ok(m) => m,
            Err(e) => return CliError::usage(e.to_string()).report(None),
        };
        return match egtb::summary(rules, &dir, m) {
            Ok(s) => {
                print_summary(rules, m, &s);
                Exit::Success
            }
            Err(e) => fail(&e),
        };
    }
    // Every table read whole: its header, its size and its checksum.
    let (mut headers, mut damaged) = (Vec::new(), Vec::new());
    for (_, table) in egtb::verify(rules, &dir) {
        match table {
            Ok(h) => headers.push(h),
            Err(e @ EgtbError::WrongRules { .. }) => return fail(&e),
            Err(e) => damaged.push(e),
        }
    }
    if headers.is_empty() && damaged.is_empty() {
        return CliError::system(format!(
            "no tables for {} in {} (build them with `dama egtb build`)",
            rules.id(),
            dama_engine::egtb::table_dir(&dir, rules).display()
        ))
        .report(None);
    }
    if !headers.is_empty() {
        print_stats(rules, &dir, &headers);
    }
    for e in &damaged {
        CliError::system(e.to_string()).report(None);
    }
    if damaged.is_empty() {
        Exit::Success
    } else {
        Exit::Failure
    }
}
