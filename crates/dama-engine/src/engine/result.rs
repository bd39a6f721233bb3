//! What a search found, and scores in words.

use std::time::Duration;

use crate::board::Move;
use crate::engine::search::{MATE, MATE_BOUND};

/// What a search found.
#[derive(Debug, Clone)]
pub struct SearchResult {
    /// The move to play (`None` when there is no legal move).
    pub best: Option<Move>,
    /// Its score for the side to move, in hundredths of a man
    /// (beyond ±[`MATE_BOUND`]: a forced win or loss).
    pub score: i32,
    /// The last completed iteration.
    pub depth: u32,
    /// The deepest ply reached (capture sequences and extensions included).
    pub seldepth: u32,
    /// Positions visited.
    pub nodes: u64,
    /// Positions the endgame tables answered (the root included), rather
    /// than searched ([`Engine::set_tables`](crate::Engine::set_tables)).
    pub table_hits: u64,
    /// The expected continuation, starting with `best`.
    pub pv: Vec<Move>,
    /// Time spent.
    pub elapsed: Duration,
}

impl SearchResult {
    /// Plies to a forced end: positive when the side to move wins, negative when it loses.
    pub fn mate_in(&self) -> Option<i32> {
        if self.score > MATE_BOUND {
            Some(MATE - self.score)
        } else if self.score < -MATE_BOUND {
            Some(-(MATE + self.score))
        } else {
            None
        }
    }

    /// The score in words: `+1.25`, `win in 7 plies`, `loss in 4 plies`.
    pub fn score_text(&self) -> String {
        score_text(self.score)
    }
}

/// A score in words: `+1.25` (in men), `win in 7 plies`, `loss in 4 plies`.
pub fn score_text(score: i32) -> String {
    let plies = |n: i32| {
        if n == 1 {
            "1 ply".to_string()
        } else {
            format!("{n} plies")
        }
    };
    if score > MATE_BOUND {
        format!("win in {}", plies(MATE - score))
    } else if score < -MATE_BOUND {
        format!("loss in {}", plies(MATE + score))
    } else {
        format!("{:+.2}", score as f64 / 100.0)
    }
}
