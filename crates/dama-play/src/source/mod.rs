//! Game sources: where a variant comes from (a built-in id, a file, TOML
//! text, a variant pasted by a client that may read no files), how a FEN
//! and moves become a [`dama_engine::Game`], and which rules each game of a
//! PDN record is replayed under. The terminal, the web server and the
//! Python package start their games here instead of keeping their own
//! loaders (issue 31).

mod game;
mod record;
mod variant;

pub use game::{play_moves, start_game, StartError};
pub use record::RecordRules;
pub use variant::{VariantSource, PASTED};
