//! A game from a start and moves: the initial position or a FEN, then each
//! move as text, checked as a player would play it.

use std::sync::Arc;

use dama_engine::{FenError, FenOptions, Game, PlayError, Rules};

use crate::codes::ErrorCode;

/// Why a game could not be started.
#[derive(Debug, Clone, thiserror::Error)]
pub enum StartError {
    /// The FEN is not a position of the variant.
    #[error("column {}: {}", .0.column, .0.message)]
    Fen(FenError),
    /// Move `number` (counted from 1) could not be played.
    #[error("move {number} ({text}): {error}")]
    Move {
        /// Which move, counted from 1.
        number: usize,
        /// The move as given (clipped for messages).
        text: String,
        /// Why it could not be played.
        error: PlayError,
    },
}

impl StartError {
    /// The stable code of this error.
    pub fn code(&self) -> ErrorCode {
        match self {
            StartError::Fen(_) => ErrorCode::Fen,
            StartError::Move { .. } => ErrorCode::MoveIllegal,
        }
    }
}

/// A game of `rules` from `fen` (read with `options`; the initial position
/// when `None` or blank), with `moves` played in order.
pub fn start_game<S: AsRef<str>>(
    rules: impl Into<Arc<Rules>>,
    fen: Option<&str>,
    options: FenOptions,
    moves: &[S],
) -> Result<Game, StartError> {
    let rules = rules.into();
    let mut game = match fen.filter(|f| !f.trim().is_empty()) {
        Some(f) => {
            let pos = rules.parse_fen_with(f, options).map_err(StartError::Fen)?;
            Game::from_position(rules, pos)
        }
        None => Game::new(rules),
    };
    play_moves(&mut game, moves)?;
    Ok(game)
}

/// Plays `moves` (as text) on `game`, in order, stopping at the first that
/// cannot be played; the game keeps the moves before it.
pub fn play_moves<S: AsRef<str>>(game: &mut Game, moves: &[S]) -> Result<(), StartError> {
    for (i, m) in moves.iter().enumerate() {
        let m = m.as_ref();
        game.play_text(m).map_err(|error| StartError::Move {
            number: i + 1,
            text: dama_engine::text::clip(m),
            error,
        })?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_game_starts_from_a_fen_and_moves() {
        let r = Rules::builtin("dama").unwrap();
        let g = start_game(r.clone(), Some("W:Wd6:Bd7,c8"), FenOptions::default(), &["d6xd8xb8"]).unwrap();
        assert!(g.is_over());
        let g = start_game(r.clone(), None, FenOptions::default(), &["d3-d4"]).unwrap();
        assert_eq!(g.plies().len(), 1);
    }

    #[test]
    fn the_error_says_which_move() {
        let r = Rules::builtin("dama").unwrap();
        let e = start_game(r.clone(), None, FenOptions::default(), &["d3-d4", "z9"]).unwrap_err();
        assert!(matches!(e, StartError::Move { number: 2, .. }), "{e}");
        assert_eq!(e.code(), ErrorCode::MoveIllegal);
        let e = start_game(r, Some("W:Wz9"), FenOptions::default(), &[] as &[&str]).unwrap_err();
        assert_eq!(e.code(), ErrorCode::Fen);
    }
}
