//! Notation: FEN positions, move text (writing and reading), and the
//! explanation of a move that is not legal. (The Hub and DXP codecs are in
//! the play tier, dama-play.)

mod explain;
mod fen;
mod reason;
mod text;

pub use fen::{FenError, FenOptions};
pub use reason::{DirKind, IllegalReason};
pub use text::{is_pass_text, MoveError, MoveText, PASS_TEXT};
