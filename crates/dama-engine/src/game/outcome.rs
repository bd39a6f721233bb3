//! How a game ends: who won, and why.

use std::fmt;

use crate::board::Color;

/// Who won.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum GameResult {
    /// White won.
    WhiteWins,
    /// Black won.
    BlackWins,
    /// Nobody won.
    Draw,
}

impl GameResult {
    /// A win for `c`.
    pub const fn win_for(c: Color) -> GameResult {
        match c {
            Color::White => GameResult::WhiteWins,
            Color::Black => GameResult::BlackWins,
        }
    }

    /// The winner, if any.
    pub const fn winner(self) -> Option<Color> {
        match self {
            GameResult::WhiteWins => Some(Color::White),
            GameResult::BlackWins => Some(Color::Black),
            GameResult::Draw => None,
        }
    }

    /// The PDN result token (default result type): `1-0`, `0-1`, `1/2-1/2`.
    pub const fn pdn(self) -> &'static str {
        match self {
            GameResult::WhiteWins => "1-0",
            GameResult::BlackWins => "0-1",
            GameResult::Draw => "1/2-1/2",
        }
    }

    /// Reads a PDN result token, in the default (`1-0 0-1 1/2-1/2`) or the
    /// international (`2-0 0-2 1-1`) result type. `*`, `0-0` and anything
    /// else give `None`.
    pub fn from_pdn(token: &str) -> Option<GameResult> {
        match token.trim() {
            "1-0" | "2-0" => Some(GameResult::WhiteWins),
            "0-1" | "0-2" => Some(GameResult::BlackWins),
            "1/2-1/2" | "½-½" | "1-1" => Some(GameResult::Draw),
            _ => None,
        }
    }
}

impl fmt::Display for GameResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            GameResult::WhiteWins => "White wins",
            GameResult::BlackWins => "Black wins",
            GameResult::Draw => "Draw",
        })
    }
}

/// Why a game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum EndReason {
    /// The side to move has pieces but no legal move (`end.no_legal_move`).
    NoLegalMove(Color),
    /// The side to move has no pieces left (`end.no_legal_move`).
    NoPieces(Color),
    /// A lone king against a lone man (`end.lone_piece = "king_beats_lone_man"`).
    KingBeatsLoneMan,
    /// One piece each (`end.lone_piece = "one_each_draw"`).
    OneEach,
    /// One king each (`end.king_vs_king = "draw"`).
    KingVsKing,
    /// The same position with the same side to move for the third time
    /// (`end.threefold_repetition`).
    Threefold,
    /// This many plies in a row without a capture (`end.no_capture_draw_plies`).
    NoCapture(u32),
    /// This many plies in a row in which only kings moved and nothing was
    /// captured (`end.kings_only_draw_plies`).
    KingsOnly(u32),
    /// This many plies since the material on the board arose (the last
    /// capture or promotion), with a material that `end.material_draw` draws.
    Material(u32),
    /// Neither side can move: the side to move can only pass, and so could
    /// the other after it (`end.no_legal_move = "pass"`).
    BothBlocked,
    /// This side crowned a king first (`end.crowning = "wins"`).
    Crowned(Color),
    /// This side resigned.
    Resignation(Color),
    /// The players agreed to a draw.
    Agreement,
    /// This side ran out of time.
    TimeForfeit(Color),
    /// Adjudicated by a tool after this many plies (a match's game-length cap).
    PlyLimit(u32),
    /// The result was taken from a game record that gives no reason
    /// (a resignation or agreement the record does not spell out).
    Recorded,
}

impl fmt::Display for EndReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EndReason::NoLegalMove(c) => write!(f, "{c} has no legal move"),
            EndReason::NoPieces(c) => write!(f, "{c} has no pieces left"),
            EndReason::KingBeatsLoneMan => f.write_str("king against lone man"),
            EndReason::OneEach => f.write_str("one piece each"),
            EndReason::KingVsKing => f.write_str("king against king"),
            EndReason::Threefold => f.write_str("threefold repetition"),
            EndReason::NoCapture(n) => write!(f, "{n} plies without a capture"),
            EndReason::KingsOnly(n) => write!(f, "{n} plies of king moves without a capture"),
            EndReason::Material(n) => write!(f, "{n} plies with this material"),
            EndReason::BothBlocked => f.write_str("neither side can move"),
            EndReason::Crowned(c) => write!(f, "{c} crowned a king"),
            EndReason::Resignation(c) => write!(f, "{c} resigned"),
            EndReason::Agreement => f.write_str("draw by agreement"),
            EndReason::TimeForfeit(c) => write!(f, "{c} lost on time"),
            EndReason::PlyLimit(n) => write!(f, "adjudicated after {n} plies"),
            EndReason::Recorded => f.write_str("as recorded"),
        }
    }
}

/// How a game ended: the result and the reason.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Outcome {
    /// Who won.
    pub result: GameResult,
    /// Why the game ended.
    pub reason: EndReason,
}

impl Outcome {
    /// Builds an outcome.
    pub const fn new(result: GameResult, reason: EndReason) -> Outcome {
        Outcome { result, reason }
    }
    /// The winner, if any.
    pub const fn winner(&self) -> Option<Color> {
        self.result.winner()
    }
}

impl fmt::Display for Outcome {
    /// `White wins: Black has no legal move`, `Draw: threefold repetition`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.result, self.reason)
    }
}
