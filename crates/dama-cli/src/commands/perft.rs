//! `dama perft <variant> --depth N`

use std::time::Instant;

use dama_engine::{divide_parallel, perft_parallel, CountMode, FenOptions};

use super::Ctx;
use crate::cli::Count;
use crate::exit::Exit;

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
    };
    if div {
        let t = Instant::now();
        let mut total = 0;
        for (m, n) in divide_parallel(r, &pos, depth, mode, threads) {
            println!("{:<16} {n}", r.format_move_full(&pos, &m));
            total += n;
        }
        let secs = t.elapsed().as_secs_f64();
        println!("\ntotal {total} nodes in {secs:.3} s");
        return Exit::Success;
    }
    println!("{:>5} {:>16} {:>10} {:>14}", "depth", "nodes", "seconds", "nodes/s");
    for d in 1..=depth {
        let t = Instant::now();
        let n = perft_parallel(r, &pos, d, mode, threads);
        let secs = t.elapsed().as_secs_f64();
        let nps = if secs > 0.0 { n as f64 / secs } else { 0.0 };
        println!("{d:>5} {n:>16} {secs:>10.3} {nps:>14.0}");
    }
    Exit::Success
}
