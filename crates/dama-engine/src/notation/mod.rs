//! Notation: FEN positions, move text (writing and reading), and the
//! explanation of a move that is not legal; the Hub protocol's square
//! numbers, position strings and move text.

mod explain;
mod fen;
mod hub;
mod reason;
mod text;

pub use fen::{FenError, FenOptions};
pub use hub::{HubBoard, HubMoveError, HubNotation, HubPositionError};
pub use reason::{DirKind, IllegalReason};
pub use text::{is_pass_text, MoveError, MoveText, PASS_TEXT};
