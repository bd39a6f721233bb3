//! Notation: FEN positions, move text (writing and reading), and the
//! explanation of a move that is not legal; the Hub protocol's square
//! numbers, position strings and move text; the DamExchange protocol's
//! messages.

mod dxp;
mod explain;
mod fen;
mod hub;
mod reason;
mod text;

pub use dxp::{
    AcceptCode, BackAnswer, BackRequest, DxpBoard, DxpError, DxpMessage, DxpMove, DxpMoveError, DxpPosition,
    DxpPositionError, DxpVariantError, GameAccept, GameEnd, GameEndReason, GameRequest, DXP_MAX_MESSAGE,
    DXP_MAX_SQUARES, DXP_NAME_WIDTH, DXP_PORT,
};
pub use fen::{FenError, FenOptions};
pub use hub::{HubBoard, HubMoveError, HubNotation, HubPositionError};
pub use reason::{DirKind, IllegalReason};
pub use text::{is_pass_text, MoveError, MoveText, PASS_TEXT};
