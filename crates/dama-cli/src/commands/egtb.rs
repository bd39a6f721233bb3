//! `dama egtb build|probe|stats`: endgame tables (docs/endgames.md). The
//! engine builds, reads and judges; this file reads the arguments and
//! writes what it says.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Instant;

use dama_engine::{
    egtb, egtb::BuildProgress, egtb::EgtbError, egtb::Material, egtb::TableHeader, egtb::Tablebase, egtb::Wdl,
    egtb::ASSUMPTION, Color, Rules,
};

use super::Ctx;
use crate::error::CliError;
use crate::exit::Exit;
use crate::out::outln;
use crate::render;

/// The tables' folder: `--dir`, else `$DAMA_EGTB_DIR`, else
/// `$XDG_DATA_HOME/dama/egtb`, else `$HOME/.local/share/dama/egtb`, else
/// `./egtb`. A variant's tables are in its own subfolder, named by its id.
pub fn default_dir(dir: Option<PathBuf>) -> PathBuf {
    if let Some(d) = dir {
        return d;
    }
    let var = |k: &str| std::env::var_os(k).filter(|v| !v.is_empty()).map(PathBuf::from);
    if let Some(d) = var("DAMA_EGTB_DIR") {
        return d;
    }
    if let Some(d) = var("XDG_DATA_HOME") {
        return d.join("dama").join("egtb");
    }
    if let Some(d) = var("HOME") {
        return d.join(".local/share/dama/egtb");
    }
    PathBuf::from("egtb")
}

/// The memory available for a build, in bytes: what `/proc/meminfo` calls
/// available, where there is one.
fn available_memory() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

fn fail(e: &EgtbError) -> Exit {
    CliError::system(e.to_string()).report(None)
}

fn mib(b: u64) -> String {
    format!("{:.1} MiB", b as f64 / (1024.0 * 1024.0))
}

/// `dama egtb build VARIANT --pieces N`.
pub fn build(
    ctx: &Ctx,
    variant: &str,
    (pieces, material): (Option<u8>, Option<&str>),
    dir: Option<PathBuf>,
    max_memory_mib: Option<u64>,
) -> Exit {
    let loaded = match ctx.load_variant(variant) {
        Ok(l) => l,
        Err(e) => return e,
    };
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
        Some(m) => egtb::build_for(rules, &dir, &[m], limit, &progress),
        None => egtb::build(rules, &dir, pieces.unwrap_or(0), limit, &progress),
    };
    let what = match target {
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
    let (w, d, l) = report
        .tables
        .iter()
        .fold((0, 0, 0), |(w, d, l), h| (w + h.wins, d + h.draws, l + h.losses));
    outln!(
        "{}: {what} in {}",
        rules.id(),
        dama_engine::egtb::table_dir(&dir, rules).display()
    );
    outln!(
        "{} slices ({} built, {} read from their files), {} positions with the side to move: {w} wins, {d} draws, {l} losses",
        report.tables.len(),
        report.built,
        report.tables.len() - report.built,
        w + d + l
    );
    outln!("memory needed: {}", mib(report.memory_needed));
    outln!("assumption: {ASSUMPTION}");
    eprintln!("built in {secs:.1} s");
    Exit::Success
}

fn side_name(c: Color) -> &'static str {
    match c {
        Color::White => "White",
        Color::Black => "Black",
    }
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
    let us = side_name(pos.side_to_move());
    outln!("position: {}", rules.to_fen(&pos));
    match value.wdl {
        Wdl::Draw => outln!("result: draw"),
        _ => outln!("result: {value} for {us}, the side to move"),
    }
    if let Some(o) = tb.outcome(&pos) {
        outln!("the game is over: {o}");
    } else {
        // A draw goes on for ever: its first plies show how it holds.
        let max = if value.wdl == Wdl::Draw { 12 } else { 1_000 };
        let line = match tb.line(&pos, max) {
            Ok(l) => l,
            Err(e) => return fail(&e),
        };
        let mut cur = pos;
        let mut text = Vec::new();
        for m in &line {
            text.push(rules.format_move_full(&cur, m));
            cur = cur.after(m);
        }
        if let Some(first) = text.first() {
            outln!("best move: {first}");
        }
        outln!("line: {}", text.join(" "));
        match tb.outcome(&cur) {
            Some(o) => outln!("end: {o} ({})", rules.to_fen(&cur)),
            None => outln!(
                "end: none: a draw goes on for ever (the first {} plies shown)",
                line.len()
            ),
        }
    }
    outln!("assumption: {ASSUMPTION}");
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

fn longest(rules: &Rules, m: Material, h: &TableHeader) -> String {
    match h.longest_win {
        Some((d, e)) => match egtb::position(rules, m, e) {
            Some(p) => format!("{d:>4}  {}", rules.to_fen(&p)),
            None => format!("{d:>4}"),
        },
        None => format!("{:>4}", "-"),
    }
}

fn print_stats(rules: &Rules, dir: &Path, headers: &[TableHeader]) {
    outln!(
        "{}: tables in {} (positions counted with the side to move; results for the side to move)",
        rules.id(),
        dama_engine::egtb::table_dir(dir, rules).display()
    );
    outln!(
        "{:<14} {:>12} {:>12} {:>12} {:>12}  {:>4}  longest win",
        "material",
        "positions",
        "wins",
        "draws",
        "losses",
        "plies"
    );
    let max = headers.iter().map(|h| h.material.pieces()).max().unwrap_or(0);
    for n in 1..=max {
        let mut tot = (0u64, 0u64, 0u64, 0u64);
        let mut best: Option<&TableHeader> = None;
        for h in headers.iter().filter(|h| h.material.pieces() == n) {
            outln!(
                "{:<14} {:>12} {:>12} {:>12} {:>12}  {}",
                h.material.to_string(),
                h.positions(),
                h.wins,
                h.draws,
                h.losses,
                longest(rules, h.material, h)
            );
            tot = (tot.0 + h.positions(), tot.1 + h.wins, tot.2 + h.draws, tot.3 + h.losses);
            if h.longest_win.map(|l| l.0) > best.and_then(|b| b.longest_win.map(|l| l.0)) {
                best = Some(h);
            }
        }
        let long = best.map_or_else(|| format!("{:>4}", "-"), |b| longest(rules, b.material, b));
        outln!(
            "{:<14} {:>12} {:>12} {:>12} {:>12}  {}",
            format!("{n} pieces"),
            tot.0,
            tot.1,
            tot.2,
            tot.3,
            long
        );
    }
}

fn pct(n: u64, of: u64) -> String {
    if of == 0 {
        "-".into()
    } else {
        format!("{:.2}%", 100.0 * n as f64 / of as f64)
    }
}

fn print_summary(rules: &Rules, m: Material, sides: &[dama_engine::egtb::SideSummary; 2]) {
    outln!("{}: {m} (results for the side to move)", rules.id());
    for (s, c) in sides.iter().zip([Color::White, Color::Black]) {
        let n = s.wins + s.draws + s.losses;
        outln!("{} to move: {n} positions", side_name(c));
        outln!(
            "  all:             {} wins ({}), {} draws ({}), {} losses ({})",
            s.wins,
            pct(s.wins, n),
            s.draws,
            pct(s.draws, n),
            s.losses,
            pct(s.losses, n)
        );
        let (w, d, l) = s.without_capture;
        let k = w + d + l;
        outln!(
            "  without capture: {w} wins ({}), {d} draws ({}), {l} losses ({}); {} positions have a capture",
            pct(w, k),
            pct(d, k),
            pct(l, k),
            s.with_capture
        );
        match &s.longest_win {
            Some((d, p)) => outln!("  longest win:     {d} plies, {}", rules.to_fen(p)),
            None => outln!("  longest win:     none"),
        }
        match &s.a_draw {
            Some(p) => outln!("  a draw:          {}", rules.to_fen(p)),
            None => outln!("  a draw:          none"),
        }
    }
}
