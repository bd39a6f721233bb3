//! # dama-engine
//!
//! Rules-driven move generation for the orthogonal draughts family
//! (Turkish *dama*, Armenian *tama*, Keny, Croda, Dameo) and any other
//! variant written as a TOML file.
//!
//! The spine is raw → compiled: TOML text → [`VariantSpec`] (plain serde)
//! → [`Rules::compile`] (validated, with precomputed tables) → the move
//! generator, which sees only [`Rules`].
//!
//! ```
//! use dama_engine::{Rules, perft, CountMode};
//!
//! let rules = Rules::builtin("dama").unwrap();
//! let start = rules.start_position();
//! let moves = rules.legal_moves(&start);
//! assert_eq!(moves.len(), 8);
//!
//! // Turkish perft from the start, as published with the kish engine.
//! assert_eq!(perft(&rules, &start, 4, CountMode::Paths), 7538);
//!
//! // Positions are PDN FEN; moves print with their full path.
//! let pos = rules.parse_fen("W:Wd6:Bd7,c8").unwrap();
//! let only = rules.legal_moves(&pos);
//! assert_eq!(rules.format_move_full(&pos, &only.as_slice()[0]), "d6xd8xb8");
//! ```

pub mod case;
pub mod color;
pub mod describe;
pub mod diagnostic;
pub mod eval;
pub mod fen;
pub mod game;
pub mod judge;
pub mod load;
pub mod movegen;
pub mod moves;
pub mod notation;
pub mod pdn;
pub mod perft;
pub mod position;
pub mod rules;
pub mod search;
pub mod spec;
pub mod square;
pub mod tables;

pub use color::Color;
pub use diagnostic::{Diagnostic, Location, Severity};
pub use fen::FenError;
pub use game::{EndReason, Game, GameResult, Outcome, PlayError, Ply};
pub use load::{load, load_text, LoadError, Loaded, SourceFile};
pub use moves::{Move, MoveList, MovePath};
pub use notation::{DirKind, IllegalReason, MoveError, MoveText};
pub use pdn::{read_games, PdnError, PdnGame, PdnTags};
pub use perft::{divide, divide_parallel, perft, perft_parallel, perft_with, CountMode};
pub use position::{Piece, Position};
pub use rules::Rules;
pub use spec::VariantSpec;
pub use square::{AbsDir, Square, Squares};
