//! Notation: FEN positions, move text (writing and reading), and the
//! explanation of a move that is not legal.

mod explain;
mod fen;
mod reason;
mod text;

pub use fen::FenError;
pub use reason::{DirKind, IllegalReason};
pub use text::{MoveError, MoveText};
