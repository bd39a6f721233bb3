//! Perft of every shipped variant: speed, and a regression table of counts.
//!
//! ```text
//! cargo bench -p dama-engine --bench variants            # speed: start positions, runs of 1–10 s
//! cargo bench -p dama-engine --bench variants -- only dama keny   # the same for some variants
//! cargo bench -p dama-engine --bench variants -- check   # counts: many positions, both count modes
//! cargo bench -p dama-engine --bench variants -- speed dama 9   # one variant at one depth
//! ```
//!
//! The `check` table is meant to be diffed before and after a change to the
//! move generator: every line must stay the same. It covers the start
//! position of every built-in variant, middlegame positions with kings on
//! both sides (capture-heavy), and synthetic variants that switch single
//! rule parameters.

use std::time::Instant;

use dama_engine::{load_text, perft, CountMode, Position, Rules};

#[path = "../tests/common/synthetic.rs"]
mod synthetic;
use synthetic::SYNTHETIC;

/// Middlegame positions on a full 8×8 board (orthogonal variants), with the
/// depth used in the check table.
const ORTHOGONAL: &[(&str, u32)] = &[
    (
        "W:Wa3,b3,c3,d2,e3,f3,g3,h3,b2,g2,Kd5:Ba6,b6,c6,e6,f6,g6,h6,b7,c7,g7,Ke1",
        5,
    ),
    ("B:Wa2,c3,d4,e3,f2,h3,Kb6:Bb7,d6,e7,f6,g7,h6,Kc1,Kg4", 6),
    ("W:Wb3,c2,f3,g2,Ka5,Kh1:Bb6,c7,f6,g7,Kd8,Ka1", 5),
    ("W:Wc4,d4,e4,d3,f5,Kb1:Bc5,d5,e5,d6,f6,c6,Kg8", 7),
    ("W:Wd6,Kb2:Bd7,c8,b7,e7,Kh1", 7),
];

/// Middlegame positions on the dark squares (diagonal variants).
const DIAGONAL: &[(&str, u32)] = &[
    ("W:Wa1,c1,e1,b2,f2,c3,g3,Kd4:Bb6,f6,h6,a7,c7,g7,Kh2", 6),
    ("B:Wa3,c3,e3,g3,b2,d2,Kf6:Bb6,d6,h6,a7,e7,g7,Kc1", 6),
    ("W:Wb2,d2,f2,h2,Ke5:Bd6,f6,b8,h8,Ka1", 6),
    ("W:Wc3,e3,g3,Kb4:Bd4,f4,d6,f6,b6,Kh8", 6),
];

/// The synthetic variants (`tests/common/synthetic.rs`) in the count table,
/// in its order. The table predates the last nine of that list; it keeps
/// these twenty so that it can still be diffed against older runs.
const CHECKED_SYNTHETIC: &[&str] = &[
    "dama-end-of-move",
    "dama-reversal",
    "dama-no-majority",
    "dama-stop",
    "dama-king-range-2",
    "dama-short-king",
    "dama-short-king-any-landing",
    "dama-adjacent-landing",
    "dama-must-continue",
    "dama-optional",
    "dama-promotion-rank-7",
    "keny-chain-any",
    "keny-chain",
    "keny-promote-and-continue",
    "croda-immediate",
    "dameo-friendly-chain",
    "all-eight",
    "dama-6x6",
    "diagonal-6x6-short",
    "diagonal-7x5-immediate",
];

/// Start-position depth for the check table.
fn check_depth(id: &str) -> u32 {
    match id {
        "dama" | "dama-one-each-draw" | "dama-promote-and-continue" => 7,
        "russian" | "brazilian" | "english" => 8,
        _ => 5,
    }
}

fn builtin_ids() -> Vec<&'static str> {
    dama_engine::source::BUILTIN.iter().map(|(id, _)| *id).collect()
}

fn is_diagonal(rules: &Rules) -> bool {
    rules.board().count() < (rules.width() as u32 * rules.height() as u32)
}

fn synthetic(id: &str, text: &str) -> Rules {
    let text = format!("id = \"{id}\"\nname = \"{id}\"\n{text}");
    match load_text(&format!("<bench:{id}>"), &text, None) {
        Ok(l) => l.rules,
        Err(e) => panic!("{id}: {e}"),
    }
}

fn check_line(id: &str, rules: &Rules, what: &str, pos: &Position, depth: u32) {
    let t = Instant::now();
    let paths = perft(rules, pos, depth, CountMode::Paths);
    let moves = perft(rules, pos, depth, CountMode::Moves);
    let secs = t.elapsed().as_secs_f64();
    println!("{id:<28} {what:<72} d{depth} paths {paths:>12} moves {moves:>12}");
    eprintln!("  ({secs:.2} s)");
}

fn check() {
    for id in builtin_ids() {
        let rules = Rules::builtin(id).unwrap_or_else(|e| panic!("{id}: {e}"));
        check_line(id, &rules, "start", &rules.start_position(), check_depth(id));
        let set = if is_diagonal(&rules) { DIAGONAL } else { ORTHOGONAL };
        for &(fen, depth) in set {
            match rules.parse_fen(fen) {
                Ok(pos) if rules.check_position(&pos).is_ok() => check_line(id, &rules, fen, &pos, depth),
                _ => println!("{id:<28} {fen:<72} (not a position of this variant)"),
            }
        }
    }
    for &id in CHECKED_SYNTHETIC {
        let text = SYNTHETIC
            .iter()
            .find(|(n, _)| *n == id)
            .map_or_else(|| panic!("{id} is not in tests/common/synthetic.rs"), |(_, t)| *t);
        let rules = synthetic(id, text);
        check_line(id, &rules, "start", &rules.start_position(), 5);
        if rules.width() == 8 && rules.height() == 8 {
            let set = if is_diagonal(&rules) { DIAGONAL } else { ORTHOGONAL };
            for &(fen, depth) in set {
                if let Ok(pos) = rules.parse_fen(fen) {
                    if rules.check_position(&pos).is_ok() {
                        check_line(id, &rules, fen, &pos, depth.saturating_sub(1));
                    }
                }
            }
        }
    }
}

/// The header of the speed table.
fn speed_header() {
    println!(
        "{:<28} {:>5} {:>14} {:>5} {:>9} {:>10}",
        "variant", "depth", "nodes", "runs", "seconds", "Mnodes/s"
    );
}

/// One row of the speed table: perft of the start position at `depth`, or
/// (without a depth) at the first depth whose run lasts at least a second.
/// When the next depth would take more than ten seconds the last one is run
/// again until the runs add up to a second; `seconds` is the time per run.
fn speed_line(id: &str, depth: Option<u32>) {
    let rules = Rules::builtin(id).unwrap_or_else(|e| panic!("{id}: {e}"));
    let pos = rules.start_position();
    let timed = |d: u32| {
        let t = Instant::now();
        let n = perft(&rules, &pos, d, CountMode::Paths);
        (n, t.elapsed().as_secs_f64())
    };
    let (depth, n, runs, secs) = match depth {
        Some(d) => {
            let (n, s) = timed(d);
            (d, n, 1, s)
        }
        None => {
            let (mut d, mut prev) = (1, 1e-9);
            loop {
                let (n, s) = timed(d);
                // The next depth costs about as many times more as this one did.
                let next = s * (s / prev).max(2.0);
                if s >= 1.0 || next > 10.0 {
                    let runs = (1.0 / s).ceil().max(1.0) as u32;
                    let total: f64 = (1..runs).map(|_| timed(d).1).sum::<f64>() + s;
                    break (d, n, runs, total / runs as f64);
                }
                (d, prev) = (d + 1, s);
            }
        }
    };
    println!(
        "{id:<28} {depth:>5} {n:>14} {runs:>5} {secs:>9.3} {:>10.1}",
        n as f64 / secs.max(1e-9) / 1e6
    );
}

fn main() {
    // `cargo bench` passes `--bench`; ignore flags.
    let args: Vec<String> = std::env::args().skip(1).filter(|a| !a.starts_with("--")).collect();
    match args.first().map(String::as_str) {
        Some("check") => check(),
        Some("speed") if args.len() >= 3 => {
            speed_header();
            let depth = args[2].parse().unwrap_or_else(|_| panic!("bad depth {}", args[2]));
            speed_line(&args[1], Some(depth));
        }
        _ => {
            speed_header();
            let only: Vec<&str> = args.iter().skip(1).map(String::as_str).collect();
            for id in builtin_ids() {
                if only.is_empty() || only.contains(&id) {
                    speed_line(id, None);
                }
            }
        }
    }
}
