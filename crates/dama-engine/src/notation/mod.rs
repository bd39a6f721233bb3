//! Notation: FEN positions, move text (writing and reading), and the
//! explanation of a move that is not legal.

mod fen;
mod text;

pub use fen::FenError;
pub use text::*;
