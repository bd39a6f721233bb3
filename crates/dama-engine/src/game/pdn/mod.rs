//! Game records in PDN (Portable Draughts Notation).
//!
//! Writing ([`Game::to_pdn`](crate::Game::to_pdn)): the seven standard tags, `GameType` when the
//! variant declares one (`[pdn] game_type`), a `Variant` tag with our variant
//! id always, `VariantFile` for variants loaded from a file, `SetUp`/`FEN`
//! when the game did not start from the variant's initial position, the
//! movetext in the shortest unambiguous notation, and the result;
//! [`Game::to_pdn_annotated`](crate::Game::to_pdn_annotated) adds a NAG and
//! a comment after any move.
//!
//! Reading ([`read_games`]) is liberal: several games per file, comments
//! `{…}` and `;…`, variations `(…)` skipped, NAGs `$n`, move numbers `1.`
//! and `1...`, `x` or `:` separators or none, results `1-0 0-1 1/2-1/2 2-0
//! 0-2 1-1 0-0 *`, a byte-order mark, CRLF line ends. Reading checks only
//! the syntax; [`PdnGame::replay`] checks every move against the rules.
//! Every error gives a line and a column.
//!
//! ```
//! use dama_engine::{pdn, Game, Rules};
//!
//! let rules = Rules::builtin("dama").unwrap();
//! let mut game = Game::new(rules.clone());
//! game.play_text("d3-d4").unwrap();
//! let text = game.to_pdn(&pdn::PdnTags::default());
//! let games = pdn::read_games(&text).unwrap();
//! assert_eq!(games[0].tag("Variant"), Some("dama"));
//! let again = games[0].replay(rules).unwrap();
//! assert_eq!(again.position(), game.position());
//! ```

// Panic audit (rel, issue 7): this module reads user input, so it may not
// unwrap or index unchecked; tests may. See docs/reliability.md.
#![cfg_attr(not(test), deny(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing))]

mod read;
mod replay;
mod write;

pub use read::{games, read_games, Games};
pub use write::{game_type_tag, write_games};

use crate::game::{GameResult, Outcome};
use crate::notation::{FenError, MoveError};
use crate::variant::LoadError;

/// The tags a caller supplies when writing a game. Empty strings are written as `?`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PdnTags {
    /// `Event`.
    pub event: String,
    /// `Site`.
    pub site: String,
    /// `Date`, `YYYY.MM.DD` (`?` for unknown parts).
    pub date: String,
    /// `Round`.
    pub round: String,
    /// `White`: the player of the white pieces.
    pub white: String,
    /// `Black`.
    pub black: String,
    /// The variant file the rules were loaded from, for user-defined
    /// variants: written as `VariantFile` so that the game can be resumed.
    pub variant_file: Option<String>,
    /// Further tags, written after the standard ones in this order.
    pub extra: Vec<(String, String)>,
}

impl Default for PdnTags {
    fn default() -> PdnTags {
        PdnTags {
            event: "?".into(),
            site: "?".into(),
            date: "????.??.??".into(),
            round: "?".into(),
            white: "?".into(),
            black: "?".into(),
            variant_file: None,
            extra: Vec::new(),
        }
    }
}

/// What the writer adds after one move ([`Game::to_pdn_annotated`](crate::Game::to_pdn_annotated)):
/// a numeric annotation glyph and a comment.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct PdnAnnotation {
    /// The NAG, written `$n`: 1 `!`, 2 `?`, 3 `!!`, 4 `??`, 5 `!?`, 6 `?!`.
    pub nag: Option<u8>,
    /// The comment, written `{...}`.
    pub comment: Option<String>,
}

/// A tag pair read from a record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tag {
    /// The tag name, as written.
    pub name: String,
    /// The value, unescaped.
    pub value: String,
    /// 1-based line of the `[`.
    pub line: usize,
    /// 1-based column of the `[`.
    pub column: usize,
}

/// A move as written in a record, with where it was written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PdnMove {
    /// The move text, without move number or annotation marks.
    pub text: String,
    /// 1-based line.
    pub line: usize,
    /// 1-based column.
    pub column: usize,
}

/// The game termination marker as written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PdnResult {
    /// The token: `1-0`, `0-1`, `1/2-1/2`, `2-0`, `0-2`, `1-1`, `0-0` or `*`.
    pub text: String,
    /// 1-based line.
    pub line: usize,
    /// 1-based column.
    pub column: usize,
}

impl PdnResult {
    /// The result it states (`None` for `*` and `0-0`).
    pub fn result(&self) -> Option<GameResult> {
        GameResult::from_pdn(&self.text)
    }
}

/// One game read from a record (syntax only; see [`PdnGame::replay`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PdnGame {
    /// The tag pairs, in order.
    pub tags: Vec<Tag>,
    /// The moves of the main line, in order.
    pub moves: Vec<PdnMove>,
    /// The termination marker; `None` when the next game's tags began without one.
    pub result: Option<PdnResult>,
    /// 1-based line where the game begins.
    pub line: usize,
}

/// Where a replayed record went on past an end by the rules
/// ([`PdnGame::past_end`]): a warning, not an error.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PastEnd {
    /// 1-based line of the first move past the end.
    pub line: usize,
    /// 1-based column.
    pub column: usize,
    /// That move, as written.
    pub text: String,
    /// Its ply number, counting from 1.
    pub ply: usize,
    /// Its move number.
    pub move_number: u32,
    /// The end the rules gave before it.
    pub outcome: Outcome,
}

impl std::fmt::Display for PastEnd {
    /// `line 3, column 7: the rules ended the game before `38-43` (ply 115, move 58): Draw: threefold repetition; the record goes on`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "line {}, column {}: the rules ended the game before `{}` (ply {}, move {}): {}; the record goes on, replayed to its end",
            self.line, self.column, self.text, self.ply, self.move_number, self.outcome
        )
    }
}

/// A record that cannot be read or replayed. The message names the line and column.
#[derive(Debug, Clone, thiserror::Error)]
pub enum PdnError {
    /// The text is not PDN.
    #[error("line {line}, column {column}: {message}")]
    Syntax {
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
        /// What is wrong.
        message: String,
    },
    /// A move that is not legal (or not readable, or ambiguous) where it stands.
    #[error("line {line}, column {column}: {error}")]
    Move {
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
        /// Why.
        error: MoveError,
    },
    /// A move after the game has ended by the rules.
    #[error("line {line}, column {column}: `{text}` comes after the end of the game ({outcome})")]
    AfterEnd {
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
        /// The move text.
        text: String,
        /// How the game had ended.
        outcome: Outcome,
    },
    /// The `FEN` tag cannot be read.
    #[error("line {line}, column {column}: the FEN tag is not a position of this variant: {error}")]
    Fen {
        /// 1-based line of the tag.
        line: usize,
        /// 1-based column of the tag.
        column: usize,
        /// Why.
        error: FenError,
    },
    /// The variant named by the record (or the caller) cannot be loaded.
    #[error("line {line}, column {column}: {message}")]
    Variant {
        /// 1-based line of the tag (of the game, when no tag names the variant).
        line: usize,
        /// 1-based column.
        column: usize,
        /// What is wrong.
        message: String,
        /// The loader's diagnostics, when loading failed.
        load: Option<Box<LoadError>>,
    },
    /// The game has more moves than [`Game::MAX_PLIES`](crate::Game::MAX_PLIES).
    #[error("line {line}, column {column}: the game goes on past {limit} moves, far more than any game played; records this long are refused")]
    TooLong {
        /// 1-based line of the first move past the limit.
        line: usize,
        /// 1-based column.
        column: usize,
        /// The most moves a game may have.
        limit: usize,
    },
    /// The game is too long for the memory this process can have.
    #[error("line {line}, column {column}: the game does not fit in the memory this process may use ({moves} moves)")]
    OutOfMemory {
        /// 1-based line of the game.
        line: usize,
        /// 1-based column.
        column: usize,
        /// Its moves.
        moves: usize,
    },
    /// The record's result contradicts the end the rules give.
    #[error(
        "line {line}, column {column}: the record gives {recorded}, but by the rules the game ended {} ({outcome})",
        outcome.result.pdn()
    )]
    ResultMismatch {
        /// 1-based line of the result.
        line: usize,
        /// 1-based column.
        column: usize,
        /// The result token written.
        recorded: String,
        /// The end by the rules.
        outcome: Outcome,
    },
}

impl PdnError {
    /// `(line, column)` of the error.
    pub fn position(&self) -> (usize, usize) {
        match self {
            PdnError::Syntax { line, column, .. }
            | PdnError::Move { line, column, .. }
            | PdnError::AfterEnd { line, column, .. }
            | PdnError::Fen { line, column, .. }
            | PdnError::Variant { line, column, .. }
            | PdnError::OutOfMemory { line, column, .. }
            | PdnError::TooLong { line, column, .. }
            | PdnError::ResultMismatch { line, column, .. } => (*line, *column),
        }
    }
}
