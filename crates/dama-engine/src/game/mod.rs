//! A game: how it ends (outcome types, the judge of the position-level end
//! rules, the draw clock of the history-dependent ones), the game itself
//! with undo and redo, and PDN records.

mod clock;
#[allow(clippy::module_inception)]
mod game;
mod judge;
mod outcome;
mod pdn;

pub use clock::DrawClock;
pub use game::{Game, PassedEnd, PlayError, Ply};
pub use outcome::{EndReason, GameResult, Outcome};
pub use pdn::*;
