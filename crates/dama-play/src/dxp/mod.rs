//! The DamExchange protocol (DXP; docs/dxp.md): its messages, read and
//! written, the mapping of its square numbers, positions and moves onto a
//! variant's board, and the game state machine of a session.

mod messages;
mod session;

pub use messages::{
    AcceptCode, BackAnswer, BackRequest, DxpBoard, DxpError, DxpMessage, DxpMove, DxpMoveError, DxpPosition,
    DxpPositionError, DxpVariantError, GameAccept, GameEnd, GameEndReason, GameRequest, DXP_MAX_MESSAGE,
    DXP_MAX_SQUARES, DXP_NAME_WIDTH, DXP_PORT,
};
pub use session::{DxpIncoming, DxpLink, DxpPlayed, DxpRole, DxpSession, DxpSessionError, DxpSettings};
