//! What `dama moves` shows: every legal move of a position with its ways of
//! being played, as text or as JSON (each move the play tier's
//! [`MoveView`], with its counts of paths).

use dama_engine::{MovePath, Position, Rules};
use dama_play::view::MoveView;

use crate::cli::Format;
use crate::out::{self, outln};

/// The most ways of playing one move that are listed: a variant on a large
/// board can have millions of capture paths for one move (the count is
/// still given in full).
const MAX_WAYS: usize = 100;

/// The most ways listed over all moves together: a position with hundreds of
/// thousands of moves lists each once (its first way) and counts the rest, so
/// the output stays linear in the number of moves (issue 38).
const MAX_WAYS_LISTED: usize = 10_000;

/// Writes the legal moves of `pos` as `format` asks, each as it is made.
pub(crate) fn legal_moves(r: &Rules, pos: &Position, format: Format) {
    let pos = *pos;
    let moves = r.legal_moves(&pos);
    // The paths of every move, found in one search: at most MAX_WAYS a move,
    // fewer when there are so many moves that the list would pass
    // MAX_WAYS_LISTED, and always the first by landing squares (the move's
    // full notation, and what it captures).
    let per_move = (MAX_WAYS_LISTED / moves.len().max(1)).clamp(1, MAX_WAYS);
    let all_paths = r.paths_of_moves(&pos, &moves, per_move);
    // Each move is written as it is made (a position can have hundreds of
    // thousands): memory holds the moves and their kept paths, not the output.
    let rows = moves
        .iter()
        .zip(moves.path_counts())
        .zip(all_paths)
        .map(|((m, &paths), all)| {
            let first = all.first();
            // `format_move_full` would search the move's paths again, for every
            // move: time quadratic in the moves.
            let notation = match first {
                Some(p) => r.format_path(p, m.is_capture()),
                None => r.format_move_full(&pos, m),
            };
            // Without a path (a pass): no landing, nothing captured.
            let none = MovePath {
                from: m.from(),
                landings: Vec::new(),
                captures: Vec::new(),
            };
            Row {
                view: MoveView::with_path(r, m, first.unwrap_or(&none), notation),
                paths,
                // Every way of playing the move kept, in full notation.
                ways: all.iter().map(|p| r.format_path(p, m.is_capture())).collect(),
            }
        });
    match format {
        Format::Json => {
            // The layout of `serde_json::to_string_pretty` of the whole list.
            if moves.is_empty() {
                outln!("[]");
            } else {
                outln!("[");
                let last = moves.len() - 1;
                for (i, row) in rows.enumerate() {
                    if out::failed() {
                        break;
                    }
                    let v = serde_json::to_value(&row).unwrap_or_default();
                    let text = serde_json::to_string_pretty(&v).unwrap_or_default();
                    outln!("  {}{}", text.replace('\n', "\n  "), if i < last { "," } else { "" });
                }
                outln!("]");
            }
        }
        Format::Text => {
            if moves.is_empty() {
                outln!("{} has no legal move.", pos.side_to_move());
            }
            let mut budget = MAX_WAYS_LISTED;
            for row in rows {
                if out::failed() {
                    break;
                }
                let n = &row.view.notation;
                let mut extra = Vec::new();
                if !row.view.captures.is_empty() {
                    extra.push(format!("captures {}", row.view.captures.join(" ")));
                }
                if row.view.promotes {
                    extra.push("promotes".into());
                }
                if row.paths > 1 {
                    extra.push(format!("{} paths", row.paths));
                }
                if extra.is_empty() {
                    outln!("{n}");
                } else {
                    outln!("{n:<16} ({})", extra.join(", "));
                }
                // The other ways of playing it, when there are several, at
                // most MAX_WAYS_LISTED over all the moves.
                if row.paths > 1 {
                    let others: Vec<&String> = row.ways.iter().filter(|w| *w != n).take(budget).collect();
                    budget -= others.len();
                    for w in &others {
                        outln!("  also {w}");
                    }
                    let more = (row.paths as usize).saturating_sub(1 + others.len());
                    if more > 0 {
                        outln!("  and {more} more ways");
                    }
                }
            }
        }
    }
}

/// One move as `dama moves` shows it.
#[derive(serde::Serialize)]
struct Row {
    /// The move as every front end shows it (`dama_play::view::MoveView`).
    #[serde(flatten)]
    view: MoveView,
    /// How many paths play it.
    paths: u32,
    /// The paths kept, in full notation.
    #[serde(rename = "all_paths")]
    ways: Vec<String>,
}
