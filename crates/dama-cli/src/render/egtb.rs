//! What `dama egtb` shows: a build's progress figures, a probe's answer,
//! the statistics of the tables.

use std::path::Path;

use dama_engine::egtb::{EgtbError, Material, TableHeader, Wdl, ASSUMPTION};
use dama_engine::{egtb, Color, Rules};

use crate::error::CliError;
use crate::exit::Exit;
use crate::out::outln;

pub(crate) fn fail(e: &EgtbError) -> Exit {
    CliError::system(e.to_string()).report(None)
}

pub(crate) fn mib(b: u64) -> String {
    format!("{:.1} MiB", b as f64 / (1024.0 * 1024.0))
}

pub(crate) fn side_name(c: Color) -> &'static str {
    match c {
        Color::White => "White",
        Color::Black => "Black",
    }
}

pub(crate) fn longest(rules: &Rules, m: Material, h: &TableHeader) -> String {
    match h.longest_win {
        Some((d, e)) => match egtb::position(rules, m, e) {
            Some(p) => format!("{d:>4}  {}", rules.to_fen(&p)),
            None => format!("{d:>4}"),
        },
        None => format!("{:>4}", "-"),
    }
}

pub(crate) fn print_stats(rules: &Rules, dir: &Path, headers: &[TableHeader]) {
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

pub(crate) fn pct(n: u64, of: u64) -> String {
    if of == 0 {
        "-".into()
    } else {
        format!("{:.2}%", 100.0 * n as f64 / of as f64)
    }
}

pub(crate) fn print_summary(rules: &Rules, m: Material, sides: &[dama_engine::egtb::SideSummary; 2]) {
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

/// What `dama egtb build` built (`what`: which tables) in `dir`: the slices,
/// the positions won, drawn and lost, the memory it needed.
pub(crate) fn print_build(rules: &Rules, dir: &Path, what: &str, report: &dama_engine::egtb::BuildReport) {
    let (w, d, l) = report
        .tables
        .iter()
        .fold((0, 0, 0), |(w, d, l), h| (w + h.wins, d + h.draws, l + h.losses));
    outln!(
        "{}: {what} in {}",
        rules.id(),
        dama_engine::egtb::table_dir(dir, rules).display()
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
}

/// What the tables say of `pos` (its `value`): the result for the side to
/// move, and the best line to the end (a draw's first plies).
pub(crate) fn print_probe(
    rules: &Rules,
    pos: &dama_engine::Position,
    tb: &mut dama_engine::egtb::Tablebase,
    value: dama_engine::egtb::TableValue,
) -> Result<(), EgtbError> {
    let pos = *pos;
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
        let line = tb.line(&pos, max)?;
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
    Ok(())
}
