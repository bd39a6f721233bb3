//! The DamExchange protocol (DXP, docs/dxp.md): its messages as typed
//! values, read from and written to their fixed-width text, and the
//! mapping of DXP's square numbers, positions and moves onto a variant's
//! board and legal moves.
//!
//! A DXP message is a string of 1 to 127 ASCII characters; its first
//! character names its type. On the wire each one is followed by a NUL
//! byte; that framing, the connection and the game loop belong to a front
//! end (`dama dxp`): everything here is pure data.
//!
//! ```
//! use dama_play::dxp::{DxpBoard, DxpMessage};
//! use dama_engine::Rules;
//!
//! let board = DxpBoard::new(Rules::builtin("international").unwrap()).unwrap();
//! let start = board.rules().start_position();
//! let DxpMessage::Move(mv) = DxpMessage::parse("M0012322800").unwrap() else { unreachable!() };
//! let m = board.resolve(&start, &mv).unwrap();
//! assert_eq!(board.rules().format_move_full(&start, &m), "32-28");
//! assert_eq!(DxpMessage::Move(board.encode_move(&m, 1).unwrap()).to_string(), "M0001322800");
//! ```

// Panic audit (rel, issue 7): this module reads what a peer sends, so it may
// not unwrap or index unchecked; tests may. See docs/reliability.md.
#![cfg_attr(not(test), deny(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing))]

use std::fmt;
use std::sync::Arc;

use crate::hub::{HubBoard, HubNotation};
use dama_engine::text::clip;
use dama_engine::{Bitboard, Color, Move, Piece, Position, Rules, Square};
use dama_engine::{IllegalReason, MoveText};

/// The longest message, in characters (the NUL that ends it on the wire not counted).
pub const DXP_MAX_MESSAGE: usize = 127;
/// The width of the program names of GAMEREQ and GAMEACC.
pub const DXP_NAME_WIDTH: usize = 32;
/// The TCP port DXP programs listen on unless told otherwise.
pub const DXP_PORT: u16 = 27531;
/// The most playable squares a board may have for DXP: a GAMEREQ with a
/// position (44 characters and one per square) must fit in
/// [`DXP_MAX_MESSAGE`] characters, and square numbers in two digits.
pub const DXP_MAX_SQUARES: usize = DXP_MAX_MESSAGE - GAMEREQ_POSITION_AT;

/// Where a GAMEREQ's position squares start (after `R`, the version, the
/// name, the colour, the time, the moves, `B` and the side to move).
const GAMEREQ_POSITION_AT: usize = 1 + 2 + DXP_NAME_WIDTH + 1 + 3 + 3 + 1 + 1;

/// A DXP message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DxpMessage {
    /// `R`: the initiator asks for a game.
    GameRequest(GameRequest),
    /// `A`: the follower's answer to a GAMEREQ.
    GameAccept(GameAccept),
    /// `M`: a move.
    Move(DxpMove),
    /// `E`: a player ends the game (or confirms the other's GAMEEND).
    GameEnd(GameEnd),
    /// `C`: free text.
    Chat(String),
    /// `B`: a request to take moves back.
    BackRequest(BackRequest),
    /// `K`: the answer to a BACKREQ.
    BackAccept(BackAnswer),
}

/// A GAMEREQ: the game the initiator proposes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameRequest {
    /// The protocol version (`01`).
    pub version: u8,
    /// The initiator's name (at most 32 characters, trailing blanks removed).
    pub initiator: String,
    /// The colour the follower is to play.
    pub follower_color: Color,
    /// Thinking time per player for the whole game, in minutes (0-999).
    pub minutes: u16,
    /// The number of moves for that time (0-999; 0 = no limit).
    pub moves: u16,
    /// The starting position, or `None` for the variant's initial position.
    pub position: Option<DxpPosition>,
}

/// A position as GAMEREQ carries it: the side to move and one character per
/// playable square in the standard order: `e` empty, `w` `z` white and
/// black men, `W` `Z` white and black kings.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DxpPosition {
    /// The side to move.
    pub to_move: Color,
    /// The squares, one character each (only `e`, `w`, `z`, `W`, `Z`).
    pub squares: String,
}

/// A GAMEACC: whether the follower plays the game asked for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameAccept {
    /// The follower's name (at most 32 characters, trailing blanks removed).
    pub follower: String,
    /// Accepted, or why not.
    pub code: AcceptCode,
}

/// The acceptance code of GAMEACC.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum AcceptCode {
    /// `0`: the game is accepted.
    Accepted,
    /// `1`: refused: not with this colour.
    RefusedColor,
    /// `2`: refused: not with this thinking time or number of moves.
    RefusedTime,
    /// `3`: refused: not from this position (or not this variant's board).
    RefusedPosition,
    /// `9`: refused, for no reason given.
    Refused,
}

impl AcceptCode {
    const CODES: [(char, AcceptCode); 5] = [
        ('0', AcceptCode::Accepted),
        ('1', AcceptCode::RefusedColor),
        ('2', AcceptCode::RefusedTime),
        ('3', AcceptCode::RefusedPosition),
        ('9', AcceptCode::Refused),
    ];

    /// The code's character.
    pub fn code(self) -> char {
        Self::CODES.iter().find(|(_, a)| *a == self).map_or('9', |(c, _)| *c)
    }

    fn from_code(c: char) -> Option<AcceptCode> {
        Self::CODES.iter().find(|(k, _)| *k == c).map(|(_, a)| *a)
    }
}

/// A MOVE: origin, destination and captured squares as numbers in the
/// standard order (1 = the top-left playable square seen from White).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DxpMove {
    /// The seconds the mover used (0-9999; for information only).
    pub seconds: u16,
    /// The origin square.
    pub from: u8,
    /// The destination square.
    pub to: u8,
    /// The captured squares, in any order (empty for a move that does not
    /// capture; some programs also leave them out of captures).
    pub captured: Vec<u8>,
}

/// Why a GAMEEND is sent (for information: the receiver judges for itself).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum GameEndReason {
    /// `0`: no reason given (always allowed; the confirmation of a GAMEEND).
    Unspecified,
    /// `1`: the sender gives up (loses).
    Resign,
    /// `2`: a draw.
    Draw,
    /// `3`: the sender wins.
    Win,
}

/// A GAMEEND: the end of the current game, or its confirmation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct GameEnd {
    /// Why.
    pub reason: GameEndReason,
    /// `true` (`1`): the sender wants no further game; `false` (`0`): it
    /// will play another.
    pub stop: bool,
}

/// A BACKREQ: go back to the position before move `move_number` of
/// `to_move` (move numbers count full moves, from 1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct BackRequest {
    /// The move number (0-999).
    pub move_number: u16,
    /// The side to move in the position to go back to.
    pub to_move: Color,
}

/// The answer to a BACKREQ.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BackAnswer {
    /// `0`: taken back.
    Accepted,
    /// `1`: taking back is not supported.
    NotSupported,
    /// `2`: refused: play goes on.
    Declined,
}

/// Text that is not a DXP message. Columns count from 1 (the type letter).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DxpError {
    /// Nothing between two NUL bytes.
    #[error("the message is empty")]
    Empty,
    /// More than [`DXP_MAX_MESSAGE`] characters.
    #[error("the message is {len} characters long; the longest DXP message is {DXP_MAX_MESSAGE}")]
    TooLong {
        /// Its length.
        len: usize,
    },
    /// A character outside ASCII 1-127.
    #[error("character {column} is not ASCII (DXP messages are ASCII characters 1-127)")]
    NotAscii {
        /// Where.
        column: usize,
    },
    /// The first character names no message type.
    #[error("`{}` is not a DXP message type (R, A, M, E, C, B or K)", shown(*found))]
    UnknownType {
        /// The character.
        found: char,
    },
    /// A message that is too short (cut off) or too long for its type.
    #[error("a {kind} message is {expected} characters long, this one {got}")]
    Length {
        /// The message type (`GAMEREQ`, ...).
        kind: &'static str,
        /// The length it should have (`43`, `at least 45`, ...).
        expected: String,
        /// Its length.
        got: usize,
    },
    /// A field that does not hold what it should.
    #[error("{kind}: the {field} at column {column} is `{found}`; expected {expected}")]
    Field {
        /// The message type.
        kind: &'static str,
        /// The field's name.
        field: &'static str,
        /// Where it starts.
        column: usize,
        /// What is there (clipped).
        found: String,
        /// What it should be.
        expected: &'static str,
    },
}

/// A variant that DXP cannot carry.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DxpVariantError {
    /// The board has too many playable squares.
    #[error(
        "DXP numbers squares with two digits and sends a position in one message: \
         at most {DXP_MAX_SQUARES} playable squares, and this board has {squares}"
    )]
    TooManySquares {
        /// The board's playable squares.
        squares: usize,
    },
    /// A blocked side passes, and DXP has no pass move.
    #[error("in this variant a blocked side passes, and a DXP MOVE cannot say `pass`")]
    Passes,
}

/// A GAMEREQ position that does not fit the board.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DxpPositionError {
    /// Not one character per playable square.
    #[error("the position has {got} squares; this board has {expected}")]
    Length {
        /// The board's playable squares.
        expected: usize,
        /// The characters given.
        got: usize,
    },
    /// The rules refuse the position (a man on its promotion rank).
    #[error("{0}")]
    Rejected(String),
}

/// A DXP move that names no legal move, or a move DXP cannot send.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DxpMoveError {
    /// A square number that is not on the board.
    #[error("square {number} is not on the board (squares 1-{squares})")]
    NoSquare {
        /// The number.
        number: u8,
        /// The board's playable squares.
        squares: usize,
    },
    /// A square captured twice.
    #[error("square {number} is captured twice")]
    Repeated {
        /// The number.
        number: u8,
    },
    /// No legal move goes from the origin to the destination.
    #[error("{from}-{to} is not a legal move here: {reason}")]
    Illegal {
        /// The origin.
        from: u8,
        /// The destination.
        to: u8,
        /// Why, in the game's terms.
        reason: IllegalReason,
    },
    /// Moves go from the origin to the destination, none taking exactly
    /// the squares named.
    #[error("no legal capture goes from {from} to {to} taking exactly {}", list(taken))]
    NoCapture {
        /// The origin.
        from: u8,
        /// The destination.
        to: u8,
        /// The squares named.
        taken: Vec<u8>,
    },
    /// The captured squares are left out and several captures go from the
    /// origin to the destination.
    #[error("{from}x{to} is ambiguous without its captured squares: it could take {}", candidates.join(" or "))]
    Ambiguous {
        /// The origin.
        from: u8,
        /// The destination.
        to: u8,
        /// The captured squares of each candidate.
        candidates: Vec<String>,
    },
    /// The move to send is a pass, which DXP cannot say.
    #[error("a pass cannot be sent in DXP")]
    Pass,
}

impl DxpMessage {
    /// Reads one message (without its NUL).
    ///
    /// ```
    /// use dama_play::dxp::{DxpError, DxpMessage, GameEndReason, GameEnd};
    ///
    /// assert_eq!(
    ///     DxpMessage::parse("E21"),
    ///     Ok(DxpMessage::GameEnd(GameEnd { reason: GameEndReason::Draw, stop: true }))
    /// );
    /// assert!(matches!(DxpMessage::parse("M00123238"), Err(DxpError::Length { .. })));
    /// ```
    pub fn parse(text: &str) -> Result<DxpMessage, DxpError> {
        let len = text.chars().count();
        if len > DXP_MAX_MESSAGE {
            return Err(DxpError::TooLong { len });
        }
        if let Some(i) = text.chars().position(|c| !c.is_ascii() || c == '\0') {
            return Err(DxpError::NotAscii { column: i + 1 });
        }
        // ASCII from here on: byte offsets are character offsets.
        let b = text.as_bytes();
        let Some(&kind) = b.first() else {
            return Err(DxpError::Empty);
        };
        let f = Fields { text, kind: "" };
        match kind {
            b'R' => Fields { kind: "GAMEREQ", ..f }.game_request(),
            b'A' => {
                let f = Fields { kind: "GAMEACC", ..f };
                f.length(&[1 + DXP_NAME_WIDTH + 1])?;
                let code = f.char_at(1 + DXP_NAME_WIDTH, "acceptance code", "0, 1, 2, 3 or 9")?;
                let code = AcceptCode::from_code(code)
                    .ok_or_else(|| f.bad(1 + DXP_NAME_WIDTH, 1, "acceptance code", "0, 1, 2, 3 or 9"))?;
                Ok(DxpMessage::GameAccept(GameAccept {
                    follower: f.name(1)?,
                    code,
                }))
            }
            b'M' => Fields { kind: "MOVE", ..f }.move_message(),
            b'E' => {
                let f = Fields { kind: "GAMEEND", ..f };
                f.length(&[3])?;
                let reason = match f.char_at(1, "reason", "0, 1, 2 or 3")? {
                    '0' => GameEndReason::Unspecified,
                    '1' => GameEndReason::Resign,
                    '2' => GameEndReason::Draw,
                    '3' => GameEndReason::Win,
                    _ => return Err(f.bad(1, 1, "reason", "0, 1, 2 or 3")),
                };
                let stop = match f.char_at(2, "stop code", "0 or 1")? {
                    '0' => false,
                    '1' => true,
                    _ => return Err(f.bad(2, 1, "stop code", "0 or 1")),
                };
                Ok(DxpMessage::GameEnd(GameEnd { reason, stop }))
            }
            b'C' => Ok(DxpMessage::Chat(text.get(1..).unwrap_or_default().to_string())),
            b'B' => {
                let f = Fields { kind: "BACKREQ", ..f };
                f.length(&[5])?;
                Ok(DxpMessage::BackRequest(BackRequest {
                    move_number: f.number(1, 3, "move number")?,
                    to_move: f.color(4, "colour to move")?,
                }))
            }
            b'K' => {
                let f = Fields { kind: "BACKACC", ..f };
                f.length(&[2])?;
                let answer = match f.char_at(1, "acceptance code", "0, 1 or 2")? {
                    '0' => BackAnswer::Accepted,
                    '1' => BackAnswer::NotSupported,
                    '2' => BackAnswer::Declined,
                    _ => return Err(f.bad(1, 1, "acceptance code", "0, 1 or 2")),
                };
                Ok(DxpMessage::BackAccept(answer))
            }
            other => Err(DxpError::UnknownType { found: other as char }),
        }
    }

    /// The message's name in the specification (`GAMEREQ`, `MOVE`, ...).
    pub fn kind(&self) -> &'static str {
        match self {
            DxpMessage::GameRequest(_) => "GAMEREQ",
            DxpMessage::GameAccept(_) => "GAMEACC",
            DxpMessage::Move(_) => "MOVE",
            DxpMessage::GameEnd(_) => "GAMEEND",
            DxpMessage::Chat(_) => "CHAT",
            DxpMessage::BackRequest(_) => "BACKREQ",
            DxpMessage::BackAccept(_) => "BACKACC",
        }
    }
}

/// Writes the message as sent (without its NUL). Names are cut or padded
/// to 32 characters, numbers to their widths (larger ones are capped), and
/// a chat is cut to fit; characters outside ASCII 1-127 become `?`.
impl fmt::Display for DxpMessage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DxpMessage::GameRequest(r) => {
                write!(
                    f,
                    "R{:02}{}{}{:03}{:03}",
                    r.version.min(99),
                    name_field(&r.initiator),
                    color_char(r.follower_color),
                    r.minutes.min(999),
                    r.moves.min(999)
                )?;
                match &r.position {
                    None => f.write_str("A"),
                    Some(p) => write!(f, "B{}{}", color_char(p.to_move), p.squares),
                }
            }
            DxpMessage::GameAccept(a) => write!(f, "A{}{}", name_field(&a.follower), a.code.code()),
            DxpMessage::Move(m) => {
                write!(
                    f,
                    "M{:04}{:02}{:02}{:02}",
                    m.seconds.min(9999),
                    m.from.min(99),
                    m.to.min(99),
                    m.captured.len().min(99)
                )?;
                for c in m.captured.iter().take(99) {
                    write!(f, "{:02}", c.min(&99))?;
                }
                Ok(())
            }
            DxpMessage::GameEnd(e) => {
                let reason = match e.reason {
                    GameEndReason::Unspecified => '0',
                    GameEndReason::Resign => '1',
                    GameEndReason::Draw => '2',
                    GameEndReason::Win => '3',
                };
                write!(f, "E{reason}{}", if e.stop { '1' } else { '0' })
            }
            DxpMessage::Chat(t) => {
                let t: String = t.chars().take(DXP_MAX_MESSAGE - 1).map(ascii).collect();
                write!(f, "C{t}")
            }
            DxpMessage::BackRequest(b) => write!(f, "B{:03}{}", b.move_number.min(999), color_char(b.to_move)),
            DxpMessage::BackAccept(a) => {
                let code = match a {
                    BackAnswer::Accepted => '0',
                    BackAnswer::NotSupported => '1',
                    BackAnswer::Declined => '2',
                };
                write!(f, "K{code}")
            }
        }
    }
}

/// A message being read: its text and its type's name for errors.
struct Fields<'a> {
    text: &'a str,
    kind: &'static str,
}

impl Fields<'_> {
    fn len(&self) -> usize {
        self.text.len()
    }

    /// Refuses a message whose length is none of `allowed`.
    fn length(&self, allowed: &[usize]) -> Result<(), DxpError> {
        if allowed.contains(&self.len()) {
            Ok(())
        } else {
            let expected: Vec<String> = allowed.iter().map(|n| n.to_string()).collect();
            Err(DxpError::Length {
                kind: self.kind,
                expected: expected.join(" or "),
                got: self.len(),
            })
        }
    }

    fn bad(&self, at: usize, width: usize, field: &'static str, expected: &'static str) -> DxpError {
        DxpError::Field {
            kind: self.kind,
            field,
            column: at + 1,
            found: clip(self.text.get(at..(at + width).min(self.len())).unwrap_or_default()),
            expected,
        }
    }

    fn char_at(&self, at: usize, field: &'static str, expected: &'static str) -> Result<char, DxpError> {
        self.text
            .as_bytes()
            .get(at)
            .map(|&b| b as char)
            .ok_or_else(|| self.bad(at, 1, field, expected))
    }

    /// A fixed-width decimal number (digits only, leading zeros).
    fn number(&self, at: usize, width: usize, field: &'static str) -> Result<u16, DxpError> {
        let expected = match width {
            2 => "two digits",
            3 => "three digits",
            _ => "four digits",
        };
        let s = self
            .text
            .get(at..at + width)
            .ok_or_else(|| self.bad(at, width, field, expected))?;
        if !s.bytes().all(|b| b.is_ascii_digit()) {
            return Err(self.bad(at, width, field, expected));
        }
        s.parse().map_err(|_| self.bad(at, width, field, expected))
    }

    fn color(&self, at: usize, field: &'static str) -> Result<Color, DxpError> {
        match self.char_at(at, field, "W (white) or Z (black)")? {
            'W' => Ok(Color::White),
            'Z' => Ok(Color::Black),
            _ => Err(self.bad(at, 1, field, "W (white) or Z (black)")),
        }
    }

    /// A 32-character name, trailing blanks removed.
    fn name(&self, at: usize) -> Result<String, DxpError> {
        let s = self
            .text
            .get(at..at + DXP_NAME_WIDTH)
            .ok_or_else(|| self.bad(at, DXP_NAME_WIDTH, "name", "32 characters"))?;
        Ok(s.trim_end().to_string())
    }

    fn game_request(&self) -> Result<DxpMessage, DxpError> {
        let base = GAMEREQ_POSITION_AT - 2;
        if self.len() < base + 1 {
            return Err(DxpError::Length {
                kind: self.kind,
                expected: format!("{} (or more, with a position)", base + 1),
                got: self.len(),
            });
        }
        let version = self.number(1, 2, "version")?;
        let initiator = self.name(3)?;
        let follower_color = self.color(3 + DXP_NAME_WIDTH, "follower colour")?;
        let minutes = self.number(36, 3, "thinking time")?;
        let moves = self.number(39, 3, "number of moves")?;
        let position = match self.char_at(base, "starting position", "A (initial) or B (given)")? {
            'A' => {
                self.length(&[base + 1])?;
                None
            }
            'B' => {
                if self.len() <= GAMEREQ_POSITION_AT {
                    return Err(DxpError::Length {
                        kind: self.kind,
                        expected: format!("at least {}", GAMEREQ_POSITION_AT + 1),
                        got: self.len(),
                    });
                }
                let to_move = self.color(base + 1, "colour to move")?;
                let squares = self.text.get(GAMEREQ_POSITION_AT..).unwrap_or_default();
                if let Some(i) = squares.bytes().position(|b| !b"ewzWZ".contains(&b)) {
                    return Err(self.bad(GAMEREQ_POSITION_AT + i, 1, "position", "e, w, z, W or Z"));
                }
                Some(DxpPosition {
                    to_move,
                    squares: squares.to_string(),
                })
            }
            _ => return Err(self.bad(base, 1, "starting position", "A (initial) or B (given)")),
        };
        Ok(DxpMessage::GameRequest(GameRequest {
            version: u8::try_from(version).unwrap_or(u8::MAX),
            initiator,
            follower_color,
            minutes,
            moves,
            position,
        }))
    }

    fn move_message(&self) -> Result<DxpMessage, DxpError> {
        if self.len() < 11 {
            return Err(DxpError::Length {
                kind: self.kind,
                expected: "at least 11".into(),
                got: self.len(),
            });
        }
        let seconds = self.number(1, 4, "time")?;
        let from = self.number(5, 2, "from field")?;
        let to = self.number(7, 2, "to field")?;
        let n = usize::from(self.number(9, 2, "number captured")?);
        self.length(&[11 + 2 * n])?;
        let mut captured = Vec::with_capacity(n);
        for i in 0..n {
            captured.push(self.number(11 + 2 * i, 2, "captured field")? as u8);
        }
        Ok(DxpMessage::Move(DxpMove {
            seconds,
            from: from as u8,
            to: to as u8,
            captured,
        }))
    }
}

/// A variant's board as DXP sees it: the squares numbered in the standard
/// order of [`HubBoard`] (for international draughts, 1-50 as in PDN).
#[derive(Debug, Clone)]
pub struct DxpBoard {
    hub: HubBoard,
}

impl DxpBoard {
    /// The board of `rules`, if DXP can carry the variant: at most
    /// [`DXP_MAX_SQUARES`] playable squares, and no passing.
    ///
    /// ```
    /// use dama_play::dxp::{DxpBoard, DxpVariantError};
    /// use dama_engine::Rules;
    ///
    /// assert!(DxpBoard::new(Rules::builtin("russian").unwrap()).is_ok());
    /// let big = DxpBoard::new(Rules::builtin("dama-10x10").unwrap()).unwrap_err();
    /// assert_eq!(big, DxpVariantError::TooManySquares { squares: 100 });
    /// ```
    pub fn new(rules: impl Into<Arc<Rules>>) -> Result<DxpBoard, DxpVariantError> {
        let hub = HubBoard::new(rules, HubNotation::Numeric);
        let squares = hub.order().len();
        if squares > DXP_MAX_SQUARES {
            return Err(DxpVariantError::TooManySquares { squares });
        }
        if hub.rules().end().passes() {
            return Err(DxpVariantError::Passes);
        }
        Ok(DxpBoard { hub })
    }

    /// The rules.
    pub fn rules(&self) -> &Rules {
        self.hub.rules()
    }

    /// The rules, shared.
    pub fn shared_rules(&self) -> Arc<Rules> {
        self.hub.shared_rules()
    }

    /// The number of playable squares.
    pub fn squares(&self) -> usize {
        self.hub.order().len()
    }

    /// A square's number (1 = first in the standard order).
    pub fn number(&self, sq: Square) -> u8 {
        self.hub
            .order()
            .iter()
            .position(|&s| s == sq)
            .map_or(0, |i| u8::try_from(i + 1).unwrap_or(0))
    }

    /// The square numbered `n`, if there is one.
    pub fn square(&self, n: u8) -> Option<Square> {
        self.hub.order().get(usize::from(n).checked_sub(1)?).copied()
    }

    /// `pos` as a GAMEREQ position.
    pub fn encode_position(&self, pos: &Position) -> DxpPosition {
        let squares = self
            .hub
            .order()
            .iter()
            .map(|&sq| match pos.piece_at(sq) {
                None => 'e',
                Some(Piece::Man(Color::White)) => 'w',
                Some(Piece::Man(Color::Black)) => 'z',
                Some(Piece::King(Color::White)) => 'W',
                Some(Piece::King(Color::Black)) => 'Z',
            })
            .collect();
        DxpPosition {
            to_move: pos.side_to_move(),
            squares,
        }
    }

    /// The position a GAMEREQ position names.
    pub fn decode_position(&self, p: &DxpPosition) -> Result<Position, DxpPositionError> {
        let got = p.squares.chars().count();
        if got != self.squares() {
            return Err(DxpPositionError::Length {
                expected: self.squares(),
                got,
            });
        }
        let mut pos = Position::empty(p.to_move);
        for (&sq, c) in self.hub.order().iter().zip(p.squares.chars()) {
            let piece = match c {
                'w' => Some(Piece::Man(Color::White)),
                'z' => Some(Piece::Man(Color::Black)),
                'W' => Some(Piece::King(Color::White)),
                'Z' => Some(Piece::King(Color::Black)),
                _ => None,
            };
            pos.set_piece(sq, piece);
        }
        self.rules().check_position(&pos).map_err(DxpPositionError::Rejected)?;
        Ok(pos)
    }

    /// The starting position of a GAMEREQ: the variant's initial position,
    /// or the one given.
    pub fn start_of(&self, request: &GameRequest) -> Result<Position, DxpPositionError> {
        match &request.position {
            None => Ok(self.rules().start_position()),
            Some(p) => self.decode_position(p),
        }
    }

    /// `m` as a DXP MOVE, with the captured squares in ascending order.
    pub fn encode_move(&self, m: &Move, seconds: u16) -> Result<DxpMove, DxpMoveError> {
        if m.is_pass() {
            return Err(DxpMoveError::Pass);
        }
        let mut captured: Vec<u8> = m.captured_squares().map(|s| self.number(s)).collect();
        captured.sort_unstable();
        Ok(DxpMove {
            seconds,
            from: self.number(m.from()),
            to: self.number(m.to()),
            captured,
        })
    }

    /// The legal move of `pos` that `mv` names: the one from its origin to
    /// its destination taking exactly its captured squares (legal moves
    /// differ in at least one of these, so at most one matches). A capture
    /// sent without its captured squares is accepted when it is the only
    /// move from the origin to the destination.
    pub fn resolve(&self, pos: &Position, mv: &DxpMove) -> Result<Move, DxpMoveError> {
        let square = |n: u8| {
            self.square(n).ok_or(DxpMoveError::NoSquare {
                number: n,
                squares: self.squares(),
            })
        };
        let (from, to) = (square(mv.from)?, square(mv.to)?);
        let mut taken = Bitboard::EMPTY;
        for &n in &mv.captured {
            let sq = square(n)?;
            if taken.contains(sq) {
                return Err(DxpMoveError::Repeated { number: n });
            }
            taken.insert(sq);
        }
        let legal = self.rules().legal_moves(pos);
        let ends: Vec<Move> = legal
            .iter()
            .filter(|m| !m.is_pass() && m.from() == from && m.to() == to)
            .copied()
            .collect();
        if ends.is_empty() {
            let text = MoveText {
                squares: vec![from, to],
                capture: !mv.captured.is_empty(),
            };
            return Err(DxpMoveError::Illegal {
                from: mv.from,
                to: mv.to,
                reason: self.rules().explain_illegal(pos, &text),
            });
        }
        if let Some(m) = ends.iter().find(|m| m.captured() == taken) {
            return Ok(*m);
        }
        if mv.captured.is_empty() {
            if let [only] = ends.as_slice() {
                return Ok(*only);
            }
            return Err(DxpMoveError::Ambiguous {
                from: mv.from,
                to: mv.to,
                candidates: ends
                    .iter()
                    .map(|m| {
                        let mut c: Vec<u8> = m.captured_squares().map(|s| self.number(s)).collect();
                        c.sort_unstable();
                        list(&c)
                    })
                    .collect(),
            });
        }
        Err(DxpMoveError::NoCapture {
            from: mv.from,
            to: mv.to,
            taken: mv.captured.clone(),
        })
    }
}

/// A name padded or cut to 32 characters, ASCII only.
fn name_field(name: &str) -> String {
    let s: String = name.chars().map(ascii).take(DXP_NAME_WIDTH).collect();
    format!("{s:<width$}", width = DXP_NAME_WIDTH)
}

/// `W` or `Z`.
fn color_char(c: Color) -> char {
    match c {
        Color::White => 'W',
        Color::Black => 'Z',
    }
}

/// A character DXP can carry: ASCII 1-127, else `?`.
fn ascii(c: char) -> char {
    if c.is_ascii() && c != '\0' {
        c
    } else {
        '?'
    }
}

/// Square numbers joined by commas.
fn list(n: &[u8]) -> String {
    n.iter().map(|n| n.to_string()).collect::<Vec<_>>().join(", ")
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

    fn round_trip(text: &str) -> DxpMessage {
        let m = DxpMessage::parse(text).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(m.to_string(), text);
        m
    }

    #[test]
    fn every_message_type_round_trips() {
        let name = format!("{:<32}", "Tornado voor Windows 4.0");
        let req = round_trip(&format!("R01{name}W060065A"));
        assert_eq!(
            req,
            DxpMessage::GameRequest(GameRequest {
                version: 1,
                initiator: "Tornado voor Windows 4.0".into(),
                follower_color: Color::White,
                minutes: 60,
                moves: 65,
                position: None,
            })
        );
        let pos = format!("{}{}{}", "z".repeat(20), "e".repeat(10), "w".repeat(20));
        let req = round_trip(&format!("R01{name}Z005000BW{pos}"));
        let DxpMessage::GameRequest(r) = req else { panic!() };
        assert_eq!(r.position.unwrap().to_move, Color::White);
        let acc = round_trip(&format!("A{:<32}0", "dama"));
        assert_eq!(
            acc,
            DxpMessage::GameAccept(GameAccept {
                follower: "dama".into(),
                code: AcceptCode::Accepted
            })
        );
        for code in ["1", "2", "3", "9"] {
            round_trip(&format!("A{:<32}{code}", "x"));
        }
        assert_eq!(
            round_trip("M001205250422122320"),
            DxpMessage::Move(DxpMove {
                seconds: 12,
                from: 5,
                to: 25,
                captured: vec![22, 12, 23, 20],
            })
        );
        round_trip("M0012061100");
        for e in ["E00", "E11", "E20", "E31"] {
            round_trip(e);
        }
        assert_eq!(
            round_trip("CWhat do you think about move 35?"),
            DxpMessage::Chat("What do you think about move 35?".into())
        );
        round_trip("C");
        assert_eq!(
            round_trip("B005Z"),
            DxpMessage::BackRequest(BackRequest {
                move_number: 5,
                to_move: Color::Black
            })
        );
        for k in ["K0", "K1", "K2"] {
            round_trip(k);
        }
    }

    #[test]
    fn bad_and_truncated_messages_give_typed_errors() {
        /// A message and the test its error must pass.
        type Case = (String, fn(&DxpError) -> bool);
        let name = format!("{:<32}", "x");
        let cases: Vec<Case> = vec![
            ("".into(), |e| matches!(e, DxpError::Empty)),
            ("X00".into(), |e| matches!(e, DxpError::UnknownType { found: 'X' })),
            ("\u{1}".into(), |e| matches!(e, DxpError::UnknownType { .. })),
            ("Mé".into(), |e| matches!(e, DxpError::NotAscii { column: 2 })),
            ("M\0".into(), |e| matches!(e, DxpError::NotAscii { column: 2 })),
            (format!("C{}", "x".repeat(127)), |e| {
                matches!(e, DxpError::TooLong { len: 128 })
            }),
            ("R01".into(), |e| matches!(e, DxpError::Length { kind: "GAMEREQ", .. })),
            (format!("R01{name}W060065"), |e| matches!(e, DxpError::Length { .. })),
            (format!("R01{name}W060065Ax"), |e| matches!(e, DxpError::Length { .. })),
            (format!("R01{name}X060065A"), |e| {
                matches!(e, DxpError::Field { column: 36, .. })
            }),
            (format!("R01{name}W0a0065A"), |e| {
                matches!(e, DxpError::Field { column: 37, .. })
            }),
            (format!("R01{name}W060065Q"), |e| {
                matches!(e, DxpError::Field { column: 43, .. })
            }),
            (format!("R01{name}W060065BW"), |e| matches!(e, DxpError::Length { .. })),
            (format!("R01{name}W060065BWeex"), |e| {
                matches!(e, DxpError::Field { column: 47, .. })
            }),
            (format!("Rx1{name}W060065A"), |e| {
                matches!(e, DxpError::Field { column: 2, .. })
            }),
            ("A".into(), |e| matches!(e, DxpError::Length { kind: "GAMEACC", .. })),
            (format!("A{name}5"), |e| matches!(e, DxpError::Field { column: 34, .. })),
            ("M".into(), |e| matches!(e, DxpError::Length { kind: "MOVE", .. })),
            ("M00123238".into(), |e| matches!(e, DxpError::Length { .. })),
            ("M001232380".into(), |e| matches!(e, DxpError::Length { .. })),
            ("M0012323801".into(), |e| matches!(e, DxpError::Length { .. })),
            ("M00123238012".into(), |e| matches!(e, DxpError::Length { .. })),
            ("M0012323801a2".into(), |e| {
                matches!(e, DxpError::Field { column: 12, .. })
            }),
            ("M0012-23800".into(), |e| matches!(e, DxpError::Field { column: 6, .. })),
            ("M00123238-1".into(), |e| {
                matches!(e, DxpError::Field { column: 10, .. })
            }),
            ("E".into(), |e| matches!(e, DxpError::Length { kind: "GAMEEND", .. })),
            ("E0".into(), |e| matches!(e, DxpError::Length { .. })),
            ("E40".into(), |e| matches!(e, DxpError::Field { column: 2, .. })),
            ("E02".into(), |e| matches!(e, DxpError::Field { column: 3, .. })),
            ("B01".into(), |e| matches!(e, DxpError::Length { kind: "BACKREQ", .. })),
            ("B001X".into(), |e| matches!(e, DxpError::Field { column: 5, .. })),
            ("K".into(), |e| matches!(e, DxpError::Length { kind: "BACKACC", .. })),
            ("K7".into(), |e| matches!(e, DxpError::Field { column: 2, .. })),
        ];
        for (text, ok) in cases {
            let e = DxpMessage::parse(&text).expect_err(&text);
            assert!(ok(&e), "{text:?}: {e:?}");
            assert!(!e.to_string().is_empty());
        }
        // Every prefix of a valid message is an error or a shorter valid message, never a panic.
        let full = format!("R01{name}W060065BW{}", "e".repeat(50));
        for i in 0..full.len() {
            let _ = DxpMessage::parse(&full[..i]);
        }
        assert_eq!(
            DxpMessage::parse("M00123238").unwrap_err().to_string(),
            "a MOVE message is at least 11 characters long, this one 9"
        );
        assert_eq!(
            DxpMessage::parse("M0012323801").unwrap_err().to_string(),
            "a MOVE message is 13 characters long, this one 11"
        );
    }

    #[test]
    fn writing_caps_and_pads_fields() {
        let long = "n".repeat(40);
        let text = DxpMessage::GameAccept(GameAccept {
            follower: format!("{long}é"),
            code: AcceptCode::Refused,
        })
        .to_string();
        assert_eq!(text.len(), 34);
        let chat = DxpMessage::Chat("é".repeat(200)).to_string();
        assert_eq!(chat.len(), DXP_MAX_MESSAGE);
        assert!(DxpMessage::parse(&chat).is_ok());
    }

    #[test]
    fn international_squares_positions_and_moves() {
        let board = DxpBoard::new(Rules::builtin("international").unwrap()).unwrap();
        assert_eq!(board.squares(), 50);
        let start = board.rules().start_position();
        let p = board.encode_position(&start);
        assert_eq!(
            p.squares,
            format!("{}{}{}", "z".repeat(20), "e".repeat(10), "w".repeat(20))
        );
        assert_eq!(p.to_move, Color::White);
        assert_eq!(board.decode_position(&p).unwrap(), start);
        assert!(matches!(
            board.decode_position(&DxpPosition {
                to_move: Color::White,
                squares: "e".repeat(32)
            }),
            Err(DxpPositionError::Length { expected: 50, got: 32 })
        ));
        // Every legal move of a few plies in goes out and comes back.
        let mut pos = start;
        for _ in 0..12 {
            let legal = board.rules().legal_moves(&pos);
            for m in legal.iter() {
                let d = board.encode_move(m, 0).unwrap();
                let text = DxpMessage::Move(d.clone()).to_string();
                let DxpMessage::Move(back) = DxpMessage::parse(&text).unwrap() else {
                    panic!()
                };
                assert_eq!(board.resolve(&pos, &back), Ok(*m));
            }
            let Some(m) = legal.iter().max_by_key(|m| m.capture_count()) else {
                break;
            };
            pos.play(m);
        }
        let mv = |from, to, captured: Vec<u8>| DxpMove {
            seconds: 0,
            from,
            to,
            captured,
        };
        assert!(matches!(
            board.resolve(&start, &mv(51, 28, vec![])),
            Err(DxpMoveError::NoSquare { number: 51, .. })
        ));
        assert!(matches!(
            board.resolve(&start, &mv(0, 28, vec![])),
            Err(DxpMoveError::NoSquare { .. })
        ));
        let e = board.resolve(&start, &mv(32, 23, vec![])).unwrap_err();
        assert!(matches!(e, DxpMoveError::Illegal { .. }), "{e:?}");
        assert!(e.to_string().starts_with("32-23 is not a legal move here: "), "{e}");
        assert!(matches!(
            board.resolve(&start, &mv(32, 28, vec![23])),
            Err(DxpMoveError::NoCapture { .. })
        ));
        assert!(matches!(
            board.resolve(&start, &mv(32, 28, vec![23, 23])),
            Err(DxpMoveError::Repeated { number: 23 })
        ));
    }

    #[test]
    fn captures_may_leave_out_their_squares_when_unambiguous() {
        let board = DxpBoard::new(Rules::builtin("international").unwrap()).unwrap();
        let pos = board.rules().parse_fen("W:W28:B23").unwrap();
        let legal = board.rules().legal_moves(&pos);
        let m = legal.as_slice()[0];
        assert!(m.is_capture());
        let mut d = board.encode_move(&m, 0).unwrap();
        d.captured.clear();
        assert_eq!(board.resolve(&pos, &d), Ok(m));
    }

    #[test]
    fn which_variants_dxp_carries() {
        for (id, _) in dama_engine::source::BUILTIN {
            let rules = Rules::builtin(id).unwrap();
            let squares = HubBoard::new(rules.clone(), HubNotation::Numeric).order().len();
            let passes = rules.end().passes();
            match DxpBoard::new(rules) {
                Ok(b) => assert!(b.squares() <= DXP_MAX_SQUARES && !passes, "{id}"),
                Err(DxpVariantError::TooManySquares { squares: n }) => assert_eq!(n, squares),
                Err(DxpVariantError::Passes) => assert!(passes, "{id}"),
            }
        }
        // A board numbered beyond 50: Turkish draughts on 8x8 uses all 64 squares.
        let dama = DxpBoard::new(Rules::builtin("dama").unwrap()).unwrap();
        assert_eq!(dama.squares(), 64);
        assert_eq!(dama.square(1).map(|s| s.to_string()), Some("a8".into()));
        let start = dama.rules().start_position();
        let p = dama.encode_position(&start);
        let name = format!("{:<32}", "dama");
        let text = DxpMessage::GameRequest(GameRequest {
            version: 1,
            initiator: "dama".into(),
            follower_color: Color::Black,
            minutes: 1,
            moves: 0,
            position: Some(p),
        })
        .to_string();
        assert!(text.starts_with(&format!("R01{name}Z001000BW")));
        assert!(text.len() <= DXP_MAX_MESSAGE);
        let DxpMessage::GameRequest(r) = DxpMessage::parse(&text).unwrap() else {
            panic!()
        };
        assert_eq!(dama.start_of(&r).unwrap(), start);
    }
}
