//! The root of a search: a position and what the game says about its past.

use crate::board::Position;
use crate::engine::Zobrist;
use crate::game::{DrawClock, Game};

/// A position to search, with the game history the draw rules need.
#[derive(Debug, Clone)]
pub struct SearchRoot {
    /// The position to move from.
    pub pos: Position,
    /// Keys ([`position_key`](crate::position_key)) of the earlier positions
    /// that could still recur: those since the last capture or promotion
    /// ([`DrawClock::reversible`] of them), oldest first.
    pub earlier: Vec<u64>,
    /// The draw clock at `pos`, as the game keeps it.
    pub clock: DrawClock,
}

impl SearchRoot {
    /// A position without history.
    pub fn new(pos: Position) -> SearchRoot {
        SearchRoot {
            pos,
            earlier: Vec::new(),
            clock: DrawClock::START,
        }
    }

    /// The last position of `positions` (every position of a game, in
    /// order), with the history derived from the earlier ones
    /// ([`DrawClock::after_positions`]).
    pub fn from_history(positions: &[Position]) -> Option<SearchRoot> {
        let (&pos, _) = positions.split_last()?;
        let clock = positions
            .windows(2)
            .fold(DrawClock::START, |c, w| c.after_positions(&w[0], &w[1]));
        Some(SearchRoot::with_earlier(pos, clock, &positions[..positions.len() - 1]))
    }

    /// The current position of `game`, with its history.
    pub fn from_game(game: &Game) -> SearchRoot {
        let before: Vec<Position> = game.plies().iter().map(|p| p.before).collect();
        SearchRoot::with_earlier(*game.position(), game.clock(), &before)
    }

    /// `pos` with `clock`, and the keys of the last `clock.reversible` of `before`.
    fn with_earlier(pos: Position, clock: DrawClock, before: &[Position]) -> SearchRoot {
        let z = Zobrist::get();
        let back = (clock.reversible as usize).min(before.len());
        SearchRoot {
            pos,
            earlier: before[before.len() - back..].iter().map(|p| z.key(p)).collect(),
            clock,
        }
    }
}
