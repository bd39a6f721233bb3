//! The notation of the Hub protocol (Scan 3.x, the Hub GUI; docs/hub.md):
//! the standard order of the playable squares, square numbers, position
//! strings and move text, for any board.
//!
//! A protocol front end (`dama hub`) reads and writes lines; everything
//! that names a square, a position or a move is here, so that it is the
//! same engine notation every other front end uses.
//!
//! ```
//! use dama_play::hub::{HubBoard, HubNotation};
//! use dama_engine::Rules;
//!
//! let board = HubBoard::new(Rules::builtin("russian").unwrap(), HubNotation::Numeric);
//! let start = board.parse_position("Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww").unwrap();
//! assert_eq!(start, board.rules().start_position());
//! let m = board.resolve(&start, "c3-d4").unwrap();
//! assert_eq!(board.format_move(&m), "22-18");
//! ```

// Panic audit (rel, issue 7): this module reads user input, so it may not
// unwrap or index unchecked; tests may. See docs/reliability.md.
#![cfg_attr(not(test), deny(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing))]

use std::sync::Arc;

use dama_engine::text::clip;
use dama_engine::{Bitboard, Color, Move, Piece, Position, Rules, Square};
use dama_engine::{FenError, IllegalReason, MoveError};

/// How squares are written in the moves sent (the `notation` parameter).
/// Moves are read in every form whatever it says.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum HubNotation {
    /// The variant's own notation (numbers for numeric variants, else a1-h8).
    Auto,
    /// Square numbers in the standard order (1 = top-left playable square).
    Numeric,
    /// Algebraic names, a1 bottom-left from White.
    Algebraic,
}

impl HubNotation {
    /// The names of the notations, as the protocol lists them.
    pub const NAMES: &'static str = "auto numeric algebraic";

    /// Reads a notation's name (any case); `None` for anything else.
    ///
    /// ```
    /// use dama_play::hub::HubNotation;
    ///
    /// assert_eq!(HubNotation::parse("Numeric"), Some(HubNotation::Numeric));
    /// assert_eq!(HubNotation::parse("roman"), None);
    /// ```
    pub fn parse(s: &str) -> Option<HubNotation> {
        match s.to_ascii_lowercase().as_str() {
            "auto" => Some(HubNotation::Auto),
            "numeric" => Some(HubNotation::Numeric),
            "algebraic" => Some(HubNotation::Algebraic),
            _ => None,
        }
    }

    /// The notation's name, one of [`HubNotation::NAMES`].
    pub fn name(self) -> &'static str {
        match self {
            HubNotation::Auto => "auto",
            HubNotation::Numeric => "numeric",
            HubNotation::Algebraic => "algebraic",
        }
    }
}

/// A position string (`pos=`) that could not be read. The messages do not
/// name the command; a front end adds that.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum HubPositionError {
    /// Text with a `:` is PDN FEN, and this one is not valid.
    #[error("{0}")]
    Fen(#[from] FenError),
    /// The string is empty.
    #[error("the position string is empty")]
    Empty,
    /// The first character is not `W` or `B`.
    #[error("the side to move is `W` or `B`, not `{}`", shown(*found))]
    Side {
        /// The character found instead.
        found: char,
    },
    /// There are neither one character per playable square nor one per
    /// square of the whole board.
    #[error(
        "expected the side to move and {playable} squares{}, got {got} squares",
        whole_board_text(*playable, *whole_board)
    )]
    Length {
        /// The number of playable squares.
        playable: usize,
        /// The number of squares of the whole board.
        whole_board: usize,
        /// The number of square characters given.
        got: usize,
    },
    /// A character that is not a piece or an empty square.
    #[error(
        "character {column} is `{}`; squares are w, b (men), W, B (kings) or e (empty)",
        shown(*found)
    )]
    Piece {
        /// Its place in the string, from 1 (the side to move is character 1).
        column: usize,
        /// The character.
        found: char,
    },
    /// A piece on a square that is not played on (in the whole-board form).
    #[error("character {column} puts a piece on a square that is not played on")]
    Unplayable {
        /// Its place in the string, from 1.
        column: usize,
    },
    /// The position is refused by the rules (a man on its promotion rank).
    #[error("{0}")]
    Rejected(String),
}

/// Move text that does not name exactly one legal move. The text quoted is
/// clipped to 40 characters.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum HubMoveError {
    /// Several legal moves match.
    #[error("`{text}` is ambiguous: it could be {}", candidates.join(", "))]
    Ambiguous {
        /// What was sent, clipped.
        text: String,
        /// The matching moves: in Hub syntax with the full path in
        /// brackets, or in full notation.
        candidates: Vec<String>,
    },
    /// An origin and a destination that name no legal move, for this reason.
    #[error("`{text}` is not a legal move here: {reason}")]
    Illegal {
        /// What was sent, clipped.
        text: String,
        /// Why it is not legal.
        reason: IllegalReason,
    },
    /// No legal move goes from the origin to the destination.
    #[error("`{text}` is not a legal move here: no legal move goes from {from} to {to}")]
    NoMove {
        /// What was sent, clipped.
        text: String,
        /// The origin, in the board's notation.
        from: String,
        /// The destination, in the board's notation.
        to: String,
    },
    /// No legal capture goes from the origin to the destination taking
    /// exactly the squares named.
    #[error(
        "`{text}` is not a legal move here: no legal capture goes from {from} to {to} taking exactly {}",
        taken.join(", ")
    )]
    NoCapture {
        /// What was sent, clipped.
        text: String,
        /// The origin, in the board's notation.
        from: String,
        /// The destination, in the board's notation.
        to: String,
        /// The captured squares named, in the board's notation.
        taken: Vec<String>,
    },
    /// Text that is not Hub syntax, refused by the usual move notation.
    #[error(transparent)]
    Notation(#[from] MoveError),
}

/// The board's playable squares in the standard order of the protocol:
/// from the top rank (Black's side) down, each rank from file a onwards.
/// For dark-square 8×8 boards this is PDN's numbering 1-32; for boards
/// where every square is played it is a8, b8, …, h8, a7, …, h1.
///
/// ```
/// use dama_play::hub::{HubBoard, HubNotation};
/// use dama_engine::Rules;
///
/// let board = HubBoard::new(Rules::builtin("dama").unwrap(), HubNotation::Numeric);
/// assert_eq!(board.order().len(), 64);
/// assert_eq!(board.square("1").map(|s| s.to_string()), Some("a8".to_string()));
/// assert_eq!(board.name(board.square("h1").unwrap()), "64");
/// ```
#[derive(Debug, Clone)]
pub struct HubBoard {
    rules: Arc<Rules>,
    order: Vec<Square>,
    notation: HubNotation,
}

impl HubBoard {
    /// The board of `rules`, writing squares in `notation`.
    pub fn new(rules: impl Into<Arc<Rules>>, notation: HubNotation) -> HubBoard {
        let rules = rules.into();
        let mut order = Vec::new();
        for r in (0..rules.height()).rev() {
            for f in 0..rules.width() {
                if let Some(sq) = Square::new(f, r) {
                    if rules.board().contains(sq) {
                        order.push(sq);
                    }
                }
            }
        }
        HubBoard { rules, order, notation }
    }

    /// The rules of the board.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The rules, shared.
    pub fn shared_rules(&self) -> Arc<Rules> {
        Arc::clone(&self.rules)
    }

    /// How squares are written.
    pub fn notation(&self) -> HubNotation {
        self.notation
    }

    /// Writes squares in `notation` from now on.
    pub fn set_notation(&mut self, notation: HubNotation) {
        self.notation = notation;
    }

    /// The playable squares in the standard order: square number `n` is
    /// `order()[n - 1]`.
    pub fn order(&self) -> &[Square] {
        &self.order
    }

    /// A square's name in the chosen notation.
    pub fn name(&self, sq: Square) -> String {
        match self.notation {
            HubNotation::Auto => self.rules.square_name(sq),
            HubNotation::Algebraic => sq.to_string(),
            HubNotation::Numeric => match self.order.iter().position(|&s| s == sq) {
                Some(i) => (i + 1).to_string(),
                None => sq.to_string(),
            },
        }
    }

    /// Reads a square: a number in the standard order, or an algebraic
    /// name of a playable square.
    pub fn square(&self, token: &str) -> Option<Square> {
        if !token.is_empty() && token.bytes().all(|b| b.is_ascii_digit()) {
            let n: usize = token.parse().ok()?;
            self.order.get(n.checked_sub(1)?).copied()
        } else {
            let sq = Square::parse_algebraic(token)?;
            (sq.file() < self.rules.width() && sq.rank() < self.rules.height() && self.rules.board().contains(sq))
                .then_some(sq)
        }
    }

    /// `m` in Hub syntax: `from-to`, or `from x to x captured x ...` with the
    /// captured squares in the standard order (ascending square numbers), as
    /// Scan writes them and as pydraughts expects them: one text per move.
    pub fn format_move(&self, m: &Move) -> String {
        if m.is_pass() {
            // No Hub engine knows a pass: the PDN null move (`resolve` reads it).
            return dama_engine::text::PASS_TEXT.to_string();
        }
        let (from, to) = (self.name(m.from()), self.name(m.to()));
        if !m.is_capture() {
            return format!("{from}-{to}");
        }
        let mut s = format!("{from}x{to}");
        for c in self.order.iter().filter(|c| m.captured().contains(*c)) {
            s.push('x');
            s.push_str(&self.name(*c));
        }
        s
    }

    /// Reads a position string: side to move, then one character per
    /// playable square in the standard order (or per square of the whole
    /// board, reading order, the unplayable ones empty); PDN FEN when it
    /// has a colon.
    ///
    /// ```
    /// use dama_play::hub::{HubBoard, HubNotation, HubPositionError};
    /// use dama_engine::{Color, Position, Rules};
    ///
    /// let board = HubBoard::new(Rules::builtin("russian").unwrap(), HubNotation::Auto);
    /// let empty = format!("B{}", "e".repeat(32));
    /// assert_eq!(board.parse_position(&empty), Ok(Position::empty(Color::Black)));
    /// let short = board.parse_position("Wbbb").unwrap_err();
    /// assert!(matches!(short, HubPositionError::Length { playable: 32, got: 3, .. }));
    /// ```
    pub fn parse_position(&self, text: &str) -> Result<Position, HubPositionError> {
        if text.contains(':') {
            return Ok(self.rules.parse_fen(text)?);
        }
        let mut chars = text.chars();
        let side = match chars.next() {
            Some('W' | 'w') => Color::White,
            Some('B' | 'b') => Color::Black,
            Some(c) => return Err(HubPositionError::Side { found: c }),
            None => return Err(HubPositionError::Empty),
        };
        let squares: Vec<char> = chars.collect();
        let (w, h) = (self.rules.width(), self.rules.height());
        let full = usize::from(w) * usize::from(h);
        let cells: Vec<(Option<Square>, char)> = if squares.len() == self.order.len() {
            self.order
                .iter()
                .copied()
                .map(Some)
                .zip(squares.iter().copied())
                .collect()
        } else if squares.len() == full {
            let mut all = Vec::with_capacity(full);
            for r in (0..h).rev() {
                for f in 0..w {
                    all.push(Square::new(f, r).filter(|s| self.rules.board().contains(s)));
                }
            }
            all.into_iter().zip(squares.iter().copied()).collect()
        } else {
            return Err(HubPositionError::Length {
                playable: self.order.len(),
                whole_board: full,
                got: squares.len(),
            });
        };
        let mut pos = Position::empty(side);
        for (i, (sq, c)) in cells.into_iter().enumerate() {
            let piece = match c {
                'w' => Some(Piece::Man(Color::White)),
                'b' => Some(Piece::Man(Color::Black)),
                'W' => Some(Piece::King(Color::White)),
                'B' => Some(Piece::King(Color::Black)),
                'e' | '.' | '-' => None,
                c => {
                    return Err(HubPositionError::Piece {
                        column: i + 2,
                        found: c,
                    })
                }
            };
            match (sq, piece) {
                (Some(sq), p) => pos.set_piece(sq, p),
                (None, None) => {}
                (None, Some(_)) => return Err(HubPositionError::Unplayable { column: i + 2 }),
            }
        }
        self.rules.check_position(&pos).map_err(HubPositionError::Rejected)?;
        Ok(pos)
    }

    /// Finds the legal move of `pos` that `text` names: Hub syntax first
    /// (`from-to`, `from x to x captured ...`, squares as numbers or names,
    /// the captured ones in any order), then the usual PDN notation
    /// (`d4xd6xf6`, every landing square) for text that is not Hub syntax.
    ///
    /// ```
    /// use dama_play::hub::{HubBoard, HubMoveError, HubNotation};
    /// use dama_engine::Rules;
    ///
    /// let board = HubBoard::new(Rules::builtin("dama").unwrap(), HubNotation::Auto);
    /// let start = board.rules().start_position();
    /// let m = board.resolve(&start, "d3-d4").unwrap();
    /// assert_eq!(board.format_move(&m), "d3-d4");
    /// assert!(matches!(board.resolve(&start, "d3-d5"), Err(HubMoveError::Illegal { .. })));
    /// ```
    pub fn resolve(&self, pos: &Position, text: &str) -> Result<Move, HubMoveError> {
        let t = text.trim();
        let capture = t.contains(['x', 'X', ':']);
        let tokens: Vec<&str> = t.split(['-', 'x', 'X', ':']).collect();
        let squares: Option<Vec<Square>> = tokens.iter().map(|s| self.square(s)).collect();
        let Some((&[from, to], taken)) = squares.as_deref().and_then(|s| s.split_first_chunk::<2>()) else {
            // Not Hub syntax at all: the usual notation, with its explanations.
            return Ok(self.rules.resolve_move(pos, t)?);
        };
        // From here on the text is square names and separators only, so
        // clipping it for a message only shortens it.
        let legal = self.rules.legal_moves(pos);
        let ends = |m: &&Move| m.from() == from && m.to() == to;
        let found: Vec<Move> = if taken.is_empty() {
            let all: Vec<Move> = legal.iter().filter(ends).copied().collect();
            let same_kind: Vec<Move> = all.iter().filter(|m| m.is_capture() == capture).copied().collect();
            if same_kind.is_empty() {
                all
            } else {
                same_kind
            }
        } else if capture {
            let set: Bitboard = taken.iter().copied().collect();
            if set.count() as usize != taken.len() {
                Vec::new()
            } else {
                legal
                    .iter()
                    .filter(ends)
                    .filter(|m| m.captured() == set)
                    .copied()
                    .collect()
            }
        } else {
            Vec::new()
        };
        match found.as_slice() {
            [m] => return Ok(*m),
            [] => {}
            _ => {
                return Err(HubMoveError::Ambiguous {
                    text: clip(t),
                    candidates: self.full_names(pos, &found),
                })
            }
        }
        // Not a Hub move: perhaps a full path in the usual notation.
        match self.rules.resolve_move(pos, t) {
            Ok(m) => Ok(m),
            Err(MoveError::Illegal { reason, .. }) if taken.is_empty() => {
                Err(HubMoveError::Illegal { text: clip(t), reason })
            }
            Err(MoveError::Ambiguous { candidates, .. }) => Err(HubMoveError::Ambiguous {
                text: clip(t),
                candidates,
            }),
            Err(_) if taken.is_empty() => Err(HubMoveError::NoMove {
                text: clip(t),
                from: self.name(from),
                to: self.name(to),
            }),
            Err(_) => Err(HubMoveError::NoCapture {
                text: clip(t),
                from: self.name(from),
                to: self.name(to),
                taken: taken.iter().map(|s| self.name(*s)).collect(),
            }),
        }
    }

    /// Moves that share their Hub text, told apart by their full paths.
    fn full_names(&self, pos: &Position, moves: &[Move]) -> Vec<String> {
        let full = self.rules.format_moves_full(pos, moves);
        moves
            .iter()
            .zip(full)
            .map(|(m, full)| format!("{} ({full})", self.format_move(m)))
            .collect()
    }
}

/// ` (or N, one per square of the whole board)` when that is another number.
fn whole_board_text(playable: usize, whole_board: usize) -> String {
    if whole_board == playable {
        String::new()
    } else {
        format!(" (or {whole_board}, one per square of the whole board)")
    }
}

/// A character as shown in a message.
fn shown(c: char) -> String {
    if c.is_control() {
        format!("U+{:04X}", c as u32)
    } else {
        c.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_in_every_accepted_form() {
        let dama = HubBoard::new(Arc::new(Rules::builtin("dama").unwrap()), HubNotation::Auto);
        let mut pos = dama.rules.start_position();
        for m in ["d3-d4", "d6-d5"] {
            let mv = dama.resolve(&pos, m).unwrap();
            pos.play(&mv);
        }
        let want = dama.resolve(&pos, "d4xd8xd7xd5").unwrap();
        assert_eq!(dama.format_move(&want), "d4xd8xd7xd5");
        // Captured squares in any order; the PDN path; origin and destination alone.
        for text in ["d4xd8xd5xd7", "d4xd6xd8", "d4xd8", "d4d8", " d4:d8:d5:d7 "] {
            assert_eq!(dama.resolve(&pos, text), Ok(want), "{text}");
        }
        for bad in [
            "d4xd8xd5",
            "d4xd8xd5xd5xd7",
            "d4xd8xd6xd7",
            "d4-d5",
            "",
            "x",
            "d4",
            "z9-d4",
        ] {
            assert!(dama.resolve(&pos, bad).is_err(), "{bad}");
        }
        let mut numeric = dama.clone();
        numeric.notation = HubNotation::Numeric;
        assert_eq!(numeric.format_move(&want), "36x4x12x28");
        assert_eq!(dama.resolve(&pos, "36x4x12x28"), Ok(want));

        let russian = HubBoard::new(Arc::new(Rules::builtin("russian").unwrap()), HubNotation::Auto);
        let start = russian.rules.start_position();
        let a = russian.resolve(&start, "22-18").unwrap();
        assert_eq!(russian.resolve(&start, "c3-d4"), Ok(a));
        assert_eq!(russian.format_move(&a), "c3-d4");
    }

    #[test]
    fn standard_order_and_positions() {
        let russian = HubBoard::new(Arc::new(Rules::builtin("russian").unwrap()), HubNotation::Auto);
        assert_eq!(russian.order.len(), 32);
        assert_eq!(russian.order[0].to_string(), "b8");
        assert_eq!(russian.order[31].to_string(), "g1");
        let english = HubBoard::new(Arc::new(Rules::builtin("english").unwrap()), HubNotation::Auto);
        // The standard order is the variant's own numbering where it has one.
        for (i, sq) in english.order.iter().enumerate() {
            assert_eq!(english.rules.square_name(*sq), (i + 1).to_string());
        }
        let dama = HubBoard::new(Arc::new(Rules::builtin("dama").unwrap()), HubNotation::Auto);
        assert_eq!(dama.order.len(), 64);
        assert_eq!(dama.order[0].to_string(), "a8");
        let start = dama.rules.start_position();
        let text = format!(
            "W{}{}{}{}",
            "e".repeat(8),
            "b".repeat(16),
            "e".repeat(16),
            "w".repeat(16)
        );
        let text = format!("{}{}", text, "e".repeat(8));
        assert_eq!(dama.parse_position(&text).unwrap(), start);
        assert!(dama.parse_position("W").is_err());
        // The full-board form is accepted for dark-square boards too.
        let full = format!("W{}", "e".repeat(64));
        assert_eq!(russian.parse_position(&full).unwrap(), Position::empty(Color::White));
        assert!(russian.parse_position(&format!("W{}", "w".repeat(64))).is_err());
        assert!(dama.parse_position(&text.replace('W', "X")).is_err());
    }

    #[test]
    fn messages_as_the_protocol_sends_them() {
        let russian = HubBoard::new(Rules::builtin("russian").unwrap(), HubNotation::Auto);
        let e = russian.parse_position("Wbbb").unwrap_err();
        assert_eq!(
            e.to_string(),
            "expected the side to move and 32 squares (or 64, one per square of the whole board), got 3 squares"
        );
        let dama = HubBoard::new(Rules::builtin("dama").unwrap(), HubNotation::Auto);
        let e = dama.parse_position("Wbbb").unwrap_err();
        assert_eq!(e.to_string(), "expected the side to move and 64 squares, got 3 squares");
        assert_eq!(
            dama.parse_position("\u{1}").unwrap_err().to_string(),
            "the side to move is `W` or `B`, not `U+0001`"
        );
        let bad = format!("W{}z", "e".repeat(63));
        assert_eq!(
            dama.parse_position(&bad).unwrap_err().to_string(),
            "character 65 is `z`; squares are w, b (men), W, B (kings) or e (empty)"
        );
        let start = dama.rules().start_position();
        assert_eq!(
            dama.resolve(&start, "a1-a2xb3").unwrap_err().to_string(),
            "`a1-a2xb3` is not a legal move here: no legal capture goes from a1 to a2 taking exactly b3"
        );
        assert_eq!(
            dama.resolve(&start, "d3-d5").unwrap_err().to_string(),
            "`d3-d5` is not a legal move here: a man moves at most 1 square here"
        );
        assert_eq!(
            dama.resolve(&start, "d3xd4xa1xa2xa3xa4xa5xa6xa7xa8xb1xb2xb3xb4")
                .unwrap_err()
                .to_string(),
            "`d3xd4xa1xa2xa3xa4xa5xa6xa7xa8xb1xb2xb3xb…` is not a legal move here: \
             no legal capture goes from d3 to d4 taking exactly a1, a2, a3, a4, a5, a6, a7, a8, b1, b2, b3, b4"
        );
    }
}
