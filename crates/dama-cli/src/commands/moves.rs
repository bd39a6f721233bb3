//! `dama moves <variant>`

use dama_engine::FenOptions;

use super::Ctx;
use crate::cli::Format;
use crate::exit::Exit;
use crate::out::{self, outln};

/// The most ways of playing one move that are listed: a variant on a large
/// board can have millions of capture paths for one move (the count is
/// still given in full).
const MAX_WAYS: usize = 100;

/// The most ways listed over all moves together: a position with hundreds of
/// thousands of moves lists each once (its first way) and counts the rest, so
/// the output stays linear in the number of moves (issue 38).
const MAX_WAYS_LISTED: usize = 10_000;

pub fn run(ctx: &Ctx, variant: &str, fen: Option<&str>, fen_options: FenOptions, format: Format) -> Exit {
    let loaded = match ctx.load_variant(variant) {
        Ok(l) => l,
        Err(e) => return e,
    };
    let r = &loaded.rules;
    let pos = match ctx.position_with(&loaded, fen, fen_options) {
        Ok(p) => p,
        Err(e) => return e,
    };
    let moves = r.legal_moves(&pos);
    // The paths of every move, found in one search: at most MAX_WAYS a move,
    // fewer when there are so many moves that the list would pass
    // MAX_WAYS_LISTED, and always the first by landing squares (the move's
    // full notation, and what it captures).
    let per_move = (MAX_WAYS_LISTED / moves.len().max(1)).clamp(1, MAX_WAYS);
    let all_paths = r.paths_of_moves(&pos, &moves, per_move);
    let mut rows = Vec::new();
    for ((m, &paths), all) in moves.iter().zip(moves.path_counts()).zip(all_paths) {
        let first = all.first().cloned();
        // `format_move_full` would search the move's paths again, for every
        // move: time quadratic in the moves.
        let notation = match &first {
            Some(p) => r.format_path(p, m.is_capture()),
            None => r.format_move_full(&pos, m),
        };
        let path: Vec<String> = first
            .as_ref()
            .map(|p| p.landings.iter().map(|s| r.square_name(*s)).collect())
            .unwrap_or_default();
        let captures: Vec<String> = first
            .as_ref()
            .map(|p| p.captures.iter().map(|s| r.square_name(*s)).collect())
            .unwrap_or_default();
        // Every way of playing the move, in full notation.
        let ways: Vec<String> = all.iter().map(|p| r.format_path(p, m.is_capture())).collect();
        rows.push((
            notation,
            r.square_name(m.from()),
            r.square_name(m.to()),
            path,
            captures,
            m.promotes(),
            paths,
            ways,
        ));
    }
    match format {
        Format::Json => {
            let v: Vec<_> = rows
                .iter()
                .map(|(n, f, t, p, c, pr, paths, ways)| {
                    serde_json::json!({"notation": n, "from": f, "to": t, "path": p, "captures": c, "promotes": pr, "paths": paths, "all_paths": ways})
                })
                .collect();
            outln!("{}", serde_json::to_string_pretty(&v).unwrap_or_default());
        }
        Format::Text => {
            if rows.is_empty() {
                outln!("{} has no legal move.", pos.side_to_move());
            }
            let mut budget = MAX_WAYS_LISTED;
            for (n, _, _, _, c, pr, paths, ways) in &rows {
                if out::failed() {
                    break;
                }
                let mut extra = Vec::new();
                if !c.is_empty() {
                    extra.push(format!("captures {}", c.join(" ")));
                }
                if *pr {
                    extra.push("promotes".into());
                }
                if *paths > 1 {
                    extra.push(format!("{paths} paths"));
                }
                if extra.is_empty() {
                    outln!("{n}");
                } else {
                    outln!("{n:<16} ({})", extra.join(", "));
                }
                // The other ways of playing it, when there are several, at
                // most MAX_WAYS_LISTED over all the moves.
                if *paths > 1 {
                    let others: Vec<&String> = ways.iter().filter(|w| *w != n).take(budget).collect();
                    budget -= others.len();
                    for w in &others {
                        outln!("  also {w}");
                    }
                    let more = (*paths as usize).saturating_sub(1 + others.len());
                    if more > 0 {
                        outln!("  and {more} more ways");
                    }
                }
            }
        }
    }
    Exit::Success
}
