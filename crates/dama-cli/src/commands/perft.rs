//! `dama perft <variant> --depth N`

use std::time::Instant;

use dama_engine::{divide_parallel, perft_parallel, CountMode, FenOptions};

use super::Ctx;
use crate::cli::Count;
use crate::exit::Exit;
use crate::out;
use crate::render::perft as render;

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
            render::divide_row(&text, n);
            total += n;
        }
        let secs = t.elapsed().as_secs_f64();
        render::divide_total(total, secs);
        return Exit::Success;
    }
    render::header();
    for d in 1..=depth {
        // (issue 18) No deeper count once the output cannot be written.
        if out::failed() {
            break;
        }
        let t = Instant::now();
        let n = perft_parallel(r, &pos, d, mode, threads);
        render::depth_row(d, n, t.elapsed().as_secs_f64());
    }
    Exit::Success
}
