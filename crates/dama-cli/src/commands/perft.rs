//! `dama perft <variant> --depth N`

use std::time::Instant;

use dama_engine::{divide_parallel, perft_parallel, CountMode, FenOptions};

use super::Ctx;
use crate::cli::Count;
use crate::exit::Exit;
use crate::out::{self, outln};

pub fn run(
    ctx: &Ctx,
    variant: &str,
    (fen, fen_options): (Option<&str>, FenOptions),
    depth: u32,
    div: bool,
    count: Count,
    threads: usize,
) -> Exit {
    let loaded = match ctx.load_variant(variant) {
        Ok(l) => l,
        Err(e) => return e,
    };
    let r = &loaded.rules;
    let pos = match ctx.position_with(&loaded, fen, fen_options) {
        Ok(p) => p,
        Err(e) => return e,
    };
    let mode = match count {
        Count::Moves => CountMode::Moves,
        Count::Paths => CountMode::Paths,
        Count::Jumps => CountMode::Jumps,
    };
    if div {
        let t = Instant::now();
        let mut total = 0;
        let counts = divide_parallel(r, &pos, depth, mode, threads);
        let moves: Vec<_> = counts.iter().map(|&(m, _)| m).collect();
        for (text, (_, n)) in r.format_moves_full(&pos, &moves).into_iter().zip(counts) {
            if out::failed() {
                return Exit::Success;
            }
            outln!("{text:<16} {n}");
            total += n;
        }
        let secs = t.elapsed().as_secs_f64();
        outln!("\ntotal {total} nodes in {secs:.6} s");
        return Exit::Success;
    }
    outln!("{:>5} {:>16} {:>12} {:>14}", "depth", "nodes", "seconds", "nodes/s");
    for d in 1..=depth {
        // (issue 18) No deeper count once the output cannot be written.
        if out::failed() {
            break;
        }
        let t = Instant::now();
        let n = perft_parallel(r, &pos, d, mode, threads);
        let secs = t.elapsed().as_secs_f64();
        let nps = if secs > 0.0 { n as f64 / secs } else { 0.0 };
        outln!("{d:>5} {n:>16} {secs:>12.6} {nps:>14.0}");
    }
    Exit::Success
}
