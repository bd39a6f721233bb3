//! The Hub protocol (Scan 3.x, the Hub GUI; docs/hub.md): its notation
//! (the standard order of the squares, position strings, move text) and
//! the engine side's session.

mod notation;
mod session;

pub use notation::{HubBoard, HubMoveError, HubNotation, HubPositionError};
pub use session::{HubFlow, HubIo, HubSession};
