//! [`SearchInfo`]: what a search found, as every front end reports it.

use dama_engine::search::score_text;
use dama_engine::{Position, Rules, SearchResult};
use serde::Serialize;

use super::{color_name, line_text, move_path, path_squares};

/// One report of a search (an iteration, or its end): the web page's
/// analysis stream and computer move, Python's `SearchResult.to_dict()`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SearchInfo {
    /// The last completed depth.
    pub depth: u32,
    /// The score for the side to move, in hundredths of a man (beyond the
    /// mate bound: a forced win or loss).
    pub score: i32,
    /// The score in words (`+0.35`, `win in 7`).
    pub score_text: String,
    /// Whom the score is for: the side to move, `white` or `black`.
    #[serde(rename = "for")]
    pub for_side: &'static str,
    /// Positions visited.
    pub nodes: u64,
    /// Time spent, in milliseconds.
    pub ms: u64,
    /// The expected line in short notation (at most the caller's bound).
    pub pv: Vec<String>,
    /// The move to play; `null` when there is no legal move.
    pub best: Option<BestMoveView>,
}

/// The best move of a [`SearchInfo`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct BestMoveView {
    /// The squares its first path visits, origin first, as indices
    /// (`rank * 16 + file`; [`path_squares`]).
    pub squares: Vec<u8>,
    /// The move in full notation.
    pub text: String,
}

impl SearchInfo {
    /// `r`, a search of `pos` under `rules`, with at most `max_pv` moves of
    /// its line.
    pub fn new(rules: &Rules, pos: &Position, r: &SearchResult, max_pv: usize) -> SearchInfo {
        SearchInfo {
            depth: r.depth,
            score: r.score,
            score_text: score_text(r.score),
            for_side: color_name(pos.side_to_move()),
            nodes: r.nodes,
            ms: u64::try_from(r.elapsed.as_millis()).unwrap_or(u64::MAX),
            pv: line_text(rules, pos, &r.pv, max_pv),
            best: r.best.map(|m| BestMoveView {
                squares: path_squares(&move_path(rules, pos, &m)),
                text: rules.format_move_full(pos, &m),
            }),
        }
    }
}
