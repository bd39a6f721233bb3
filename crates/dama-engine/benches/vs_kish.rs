//! Our perft against kish's, side by side, on the same Turkish positions.
//!
//! ```text
//! cargo bench -p dama-engine --bench vs_kish            # full table
//! cargo bench -p dama-engine --bench vs_kish -- quick   # one round, shallower
//! ```
//!
//! kish 1.1.7 is a hand-written Turkish draughts engine; its `Board::perft`
//! counts one node per capture path and uses bulk counting at the last ply.
//! Ours reads the rules from `variants/dama.toml` and counts with
//! [`CountMode::Paths`], the same convention. One difference: kish counts a
//! position with no legal move as 1 node at any depth, ours counts such a
//! position only at depth 0. The positions and depths below are chosen so
//! that no such position occurs before the last ply, and the benchmark
//! checks that both engines return the same count before it times anything.
//!
//! Both engines run in this process, one thread each, alternately. A small
//! tree is searched several times in a row (`runs`) so that each timing lasts
//! about a second; each figure is the best of five rounds, which filters out
//! the noise of a shared machine. `-- fen <FEN> <depth>` compares the two
//! counts on any position, depth by depth.

use std::time::Instant;

use dama_engine::{perft, Bitboard, CountMode, MoveList, Position, Rules};
use kish::{Board, State, Team};

/// (name, FEN, depth, quick depth). Kings on both sides in every
/// middlegame; at these depths kish's count and ours agree (checked below).
const POSITIONS: &[(&str, &str, u32, u32)] = &[
    ("start", "start", 8, 7),
    (
        "middlegame 1",
        "W:Wa2,b2,c2,d2,e2,f2,g2,h2,a3,c3,f3,h3,Kd4:Ba7,b7,c7,d7,e7,f7,g7,h7,a6,c6,f6,h6,Ke5",
        8,
        7,
    ),
    (
        "middlegame 2",
        "W:Wa2,b3,c2,d3,e3,f2,g3,h2,Kh5:Ba7,b6,c7,d6,e6,f7,g6,h7,Ka4",
        7,
        6,
    ),
    (
        "middlegame 3",
        "W:Wa3,b2,c3,d2,e3,f2,g3,h2,Ka1,Kh1:Ba6,b7,c6,d7,e6,f7,g6,h7,Ka8,Kh8",
        4,
        4,
    ),
    (
        "kings open",
        "B:Wa2,b3,c2,d3,e2,f3,g2,h3,b4,Kg1:Ba7,b6,c7,d6,e7,f6,g7,h6,g5,Kb8",
        4,
        3,
    ),
];

fn kish_board(pos: &Position) -> Board {
    let turn = match pos.side_to_move() {
        dama_engine::Color::White => Team::White,
        dama_engine::Color::Black => Team::Black,
    };
    let white = word(pos.pieces(dama_engine::Color::White));
    let black = word(pos.pieces(dama_engine::Color::Black));
    Board::new(turn, State::new([white, black], word(pos.all_kings())))
}

/// A set of squares of the 8×8 board as kish's word: bit `rank * 8 + file`.
fn word(b: Bitboard) -> u64 {
    b.iter().fold(0, |w, s| {
        assert!(s.file() < 8 && s.rank() < 8, "{s} is off the 8×8 board");
        w | 1u64 << (s.rank() * 8 + s.file())
    })
}

/// Our perft with kish's convention: a position without a legal move counts 1
/// at any depth. Used only to explain a difference between the two counts.
fn perft_kish_convention(rules: &Rules, pos: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut list = MoveList::new();
    rules.generate(pos, &mut list);
    if list.is_empty() {
        return 1;
    }
    list.as_slice()
        .iter()
        .zip(list.path_counts())
        .map(|(m, &n)| n as u64 * perft_kish_convention(rules, &pos.after(m), depth - 1))
        .sum()
}

fn time<F: FnMut() -> u64>(mut f: F) -> (u64, f64) {
    let t = Instant::now();
    let n = f();
    (n, t.elapsed().as_secs_f64())
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).filter(|a| !a.starts_with("--")).collect();
    let quick = args.iter().any(|a| a == "quick");
    let rounds = if quick { 1 } else { 5 };
    let rules = Rules::builtin("dama").expect("the built-in Turkish rules load");
    if let [cmd, fen, depth, ..] = args.as_slice() {
        if cmd == "ours" || cmd == "kish" {
            // One engine alone, for a profiler: `-- ours|kish <FEN|start> <depth>`.
            let pos = if fen == "start" {
                rules.start_position()
            } else {
                rules.parse_fen(fen).expect("a valid FEN")
            };
            let depth: u32 = depth.parse().expect("a depth");
            let (n, s) = if cmd == "ours" {
                time(|| perft(&rules, &pos, depth, CountMode::Paths))
            } else {
                time(|| kish_board(&pos).perft(depth as u64))
            };
            println!("{cmd}: {n} nodes in {s:.3} s");
            return;
        }
        if cmd == "fen" {
            // Compare the two engines on one position: `-- fen <FEN> <depth>`.
            let pos = rules.parse_fen(fen).expect("a valid FEN");
            let depth: u32 = depth.parse().expect("a depth");
            for d in 1..=depth {
                let ours = perft(&rules, &pos, d, CountMode::Paths);
                let theirs = kish_board(&pos).perft(d as u64);
                let conv = perft_kish_convention(&rules, &pos, d);
                println!("depth {d}: ours {ours} kish {theirs} ours-with-kish-convention {conv}");
            }
            return;
        }
    }

    println!(
        "{:<14} {:>5} {:>14} {:>5} {:>10} {:>10} {:>10} {:>10} {:>6}",
        "position", "depth", "nodes", "runs", "ours s", "kish s", "ours Mn/s", "kish Mn/s", "ratio"
    );
    let target = if quick { 0.2 } else { 1.0 };
    let mut all_agree = true;
    for &(name, fen, depth, quick_depth) in POSITIONS {
        let depth = if quick { quick_depth } else { depth };
        let pos = if fen == "start" {
            rules.start_position()
        } else {
            rules.parse_fen(fen).expect("benchmark FENs are valid")
        };
        let board = kish_board(&pos);
        // First runs: the counts must agree; their times set the repetitions.
        let (n_ours, s_ours) = time(|| perft(&rules, &pos, depth, CountMode::Paths));
        let (n_kish, s_kish) = time(|| board.perft(depth as u64));
        if n_ours != n_kish {
            all_agree = false;
            let conv = perft_kish_convention(&rules, &pos, depth);
            let why = if conv == n_kish {
                "only because kish counts positions without a legal move as 1 node at every depth"
            } else {
                "and not only by the no-move convention"
            };
            println!("{name:<14} {depth:>5} ours {n_ours} but kish {n_kish}: the counts differ, {why}");
            continue;
        }
        let runs = (target / s_ours.max(s_kish)).ceil().max(1.0) as u32;
        let (mut best_ours, mut best_kish) = (f64::INFINITY, f64::INFINITY);
        for _ in 0..rounds {
            let (_, s) = time(|| (0..runs).map(|_| perft(&rules, &pos, depth, CountMode::Paths)).sum());
            best_ours = best_ours.min(s / runs as f64);
            let (_, s) = time(|| (0..runs).map(|_| board.perft(depth as u64)).sum());
            best_kish = best_kish.min(s / runs as f64);
        }
        let ours = n_ours as f64 / best_ours / 1e6;
        let theirs = n_kish as f64 / best_kish / 1e6;
        println!(
            "{name:<14} {depth:>5} {n_ours:>14} {runs:>5} {best_ours:>10.4} {best_kish:>10.4} {ours:>10.1} {theirs:>10.1} {:>6.2}",
            ours / theirs
        );
    }
    if !all_agree {
        std::process::exit(1);
    }
}
