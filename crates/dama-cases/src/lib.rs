//! # dama-cases
//!
//! Rule cases: a position, a variant, and what the variant's rules make of
//! it, rendered as plain text so that a snapshot pins the behaviour.
//!
//! A case is a small TOML file:
//!
//! ```toml
//! variant = "dama"                 # a built-in id, or a path relative to this file
//! section = "4.6"                  # the rules-page section it illustrates
//! description = "A man crossing the last rank mid-capture goes on as a man."
//! fen = "W:Wd6:Bd7,c8"             # or: moves = ["d3-d4", "d6-d5"] from the start
//! play = []                        # moves to play first
//! show_after = "d6xd8xb8"          # also draw the position after this move
//! show_result = true               # and say whether the game is over
//! expect_moves = ["d6xd8xb8"]      # optional: the legal moves, as a source states them
//! ```
//!
//! [`RuleCase::render`] turns it into text: the board (`w b W B .`), the side
//! to move, every legal move with its full path, the captured squares in the
//! order taken, the promotion flag and the number of paths when more than one
//! path plays the move. `dama cases` and the test harness both use it.
//!
//! ```
//! use dama_cases::RuleCase;
//! use dama_engine::Rules;
//!
//! let case = RuleCase::parse("variant = \"dama\"\nfen = \"W:Wd6:Bd7,c8\"\n").unwrap();
//! let rules = Rules::builtin("dama").unwrap();
//! let out = case.render(&rules).unwrap();
//! assert!(out.text.contains("d6xd8xb8  captures d7, c8  promotes"));
//! assert!(out.failures.is_empty());
//! ```
//!
//! Besides the format and its rendering, the crate holds the tooling around
//! case files: finding them ([`find_toml_files`]), the snapshot file each
//! case keeps beside it ([`snapshot_path`] and friends, in insta's format)
//! and the parameter table of a variant's rules page ([`params_markdown`]).
//! It uses only the public API of `dama-engine`.

mod case; //     the case file: fields, parsing, reading (bounded), loading its variant
mod params; //   a variant's parameters as a Markdown table
mod render; //   a case as text: board, legal moves, expectations checked
mod snapshot; // the snapshot file beside each case (insta's format)
mod walk; //     finding case files under directories

pub use case::{classify, read_bounded, CaseError, FileKind, RuleCase, MAX_CASE_BYTES, MAX_SNAPSHOT_BYTES};
pub use params::params_markdown;
pub use render::{board_text, Rendered};
pub use snapshot::{snapshot_body, snapshot_file, snapshot_header, snapshot_matches, snapshot_path};
pub use walk::find_toml_files;
