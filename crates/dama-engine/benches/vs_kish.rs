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
//! Both engines run in this process, one thread each, alternately; each
//! figure is the best of several rounds, which filters out the noise of a
//! shared machine.

use std::time::Instant;

use dama_engine::{perft, CountMode, MoveList, Position, Rules};
use kish::{Board, State, Team};

/// (name, FEN, depth, quick depth)
const POSITIONS: &[(&str, &str, u32, u32)] = &[
    ("start", "start", 8, 7),
    (
        "middlegame 1",
        "W:Wa3,b3,c3,d2,e3,f3,g3,h3,b2,g2,Kd5:Ba6,b6,c6,e6,f6,g6,h6,b7,c7,g7,Ke1",
        6,
        5,
    ),
    ("middlegame 2", "W:Wb3,c2,f3,g2,Ka5,Kh1:Bb6,c7,f6,g7,Kd8,Ka1", 6, 5),
    (
        "middlegame 3",
        "B:Wa2,c3,d4,e3,f2,h3,Kb6:Bb7,d6,e7,f6,g7,h6,Kc1,Kg4",
        8,
        7,
    ),
];

fn kish_board(pos: &Position) -> Board {
    let turn = match pos.side_to_move() {
        dama_engine::Color::White => Team::White,
        dama_engine::Color::Black => Team::Black,
    };
    let white = pos.pieces(dama_engine::Color::White);
    let black = pos.pieces(dama_engine::Color::Black);
    Board::new(turn, State::new([white, black], pos.all_kings()))
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
    let rounds = if quick { 1 } else { 3 };
    let rules = Rules::builtin("dama").expect("the built-in Turkish rules load");
    if let [cmd, fen, depth, ..] = args.as_slice() {
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
        "{:<14} {:>5} {:>14} {:>10} {:>10} {:>12} {:>12} {:>7}",
        "position", "depth", "nodes", "ours s", "kish s", "ours Mn/s", "kish Mn/s", "ratio"
    );
    let mut all_agree = true;
    for &(name, fen, depth, quick_depth) in POSITIONS {
        let depth = if quick { quick_depth } else { depth };
        let pos = if fen == "start" {
            rules.start_position()
        } else {
            rules.parse_fen(fen).expect("benchmark FENs are valid")
        };
        let board = kish_board(&pos);
        let (mut best_ours, mut best_kish) = (f64::INFINITY, f64::INFINITY);
        let (mut n_ours, mut n_kish) = (0, 0);
        for _ in 0..rounds {
            let (n, s) = time(|| perft(&rules, &pos, depth, CountMode::Paths));
            n_ours = n;
            best_ours = best_ours.min(s);
            let (n, s) = time(|| board.perft(depth as u64));
            n_kish = n;
            best_kish = best_kish.min(s);
        }
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
        let ours = n_ours as f64 / best_ours / 1e6;
        let theirs = n_kish as f64 / best_kish / 1e6;
        println!(
            "{name:<14} {depth:>5} {n_ours:>14} {best_ours:>10.3} {best_kish:>10.3} {ours:>12.1} {theirs:>12.1} {:>7.2}",
            ours / theirs
        );
    }
    if !all_agree {
        std::process::exit(1);
    }
}
