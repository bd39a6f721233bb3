//! The root of a search: a position and what the game says about its past.

use crate::board::{Color, Position};
use crate::engine::Zobrist;
use crate::game::Game;

/// A position to search, with the game history the draw rules need.
#[derive(Debug, Clone)]
pub struct SearchRoot {
    /// The position to move from.
    pub pos: Position,
    /// Keys ([`position_key`]) of the earlier positions since the last
    /// capture, oldest first (for repetitions).
    pub earlier: Vec<u64>,
    /// Plies played since the last capture.
    pub plies_since_capture: u32,
    /// Plies of king moves without capture, in a row, up to now.
    pub kings_only_plies: u32,
}

impl SearchRoot {
    /// A position without history.
    pub fn new(pos: Position) -> SearchRoot {
        SearchRoot {
            pos,
            earlier: Vec::new(),
            plies_since_capture: 0,
            kings_only_plies: 0,
        }
    }

    /// The last position of `positions` (every position of a game, in
    /// order), with the history derived from the earlier ones: a ply
    /// captured if the mover's opponent lost pieces, and was a king move if
    /// the men did not change.
    pub fn from_history(positions: &[Position]) -> Option<SearchRoot> {
        let (&pos, before) = positions.split_last()?;
        let z = Zobrist::get();
        let mut root = SearchRoot::new(pos);
        let mut after = pos;
        for &p in before.iter().rev() {
            let capture = p.occupied().count_ones() != after.occupied().count_ones();
            if capture {
                break;
            }
            root.earlier.push(z.key(&p));
            after = p;
        }
        root.earlier.reverse();
        root.plies_since_capture = root.earlier.len() as u32;
        let mut after = pos;
        for &p in before.iter().rev() {
            let capture = p.occupied().count_ones() != after.occupied().count_ones();
            let men_same = Color::ALL.iter().all(|&c| p.men(c) == after.men(c));
            if capture || !men_same {
                break;
            }
            root.kings_only_plies += 1;
            after = p;
        }
        Some(root)
    }

    /// The current position of `game`, with its history.
    pub fn from_game(game: &Game) -> SearchRoot {
        let z = Zobrist::get();
        let mut root = SearchRoot::new(*game.position());
        for p in game.plies().iter().rev() {
            if p.mv.is_capture() {
                break;
            }
            root.earlier.push(z.key(&p.before));
        }
        root.earlier.reverse();
        root.plies_since_capture = game.no_capture_plies();
        root.kings_only_plies = game.kings_only_plies();
        root
    }
}
