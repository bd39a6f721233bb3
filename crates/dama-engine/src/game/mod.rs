//! A game: its outcome types, the judge of the end rules, the game itself
//! with undo and redo, and PDN records.

#[allow(clippy::module_inception)]
mod game;
mod judge;
mod pdn;

pub use game::*;
pub use pdn::*;
