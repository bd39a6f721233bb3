//! Why a move is not legal, in the game's terms.

use crate::board::Color;

/// A direction relative to the side that moves, as the explanations name it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DirKind {
    /// Straight ahead.
    Forward,
    /// Straight back.
    Backward,
    /// Left or right along the rank.
    Sideways,
    /// Any diagonal (used when the piece has no diagonal direction at all).
    Diagonal,
    /// Diagonally ahead.
    DiagonalForward,
    /// Diagonally back.
    DiagonalBackward,
}

impl std::fmt::Display for DirKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            DirKind::Forward => "forward",
            DirKind::Backward => "backward",
            DirKind::Sideways => "sideways",
            DirKind::Diagonal => "diagonally",
            DirKind::DiagonalForward => "diagonally forward",
            DirKind::DiagonalBackward => "diagonally backward",
        })
    }
}

/// Why move text names no legal move, in the game's terms. Every reason is
/// derived from the compiled rules, never from a variant's name. Squares
/// and moves are already written in the variant's notation.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum IllegalReason {
    /// The origin square is empty.
    NoPiece {
        /// The origin.
        square: String,
    },
    /// The origin holds an opponent's piece.
    NotYourPiece {
        /// The origin.
        square: String,
        /// Whose piece it is.
        owner: Color,
    },
    /// A capture is available and capturing is mandatory.
    CaptureMandatory {
        /// The legal captures.
        captures: Vec<String>,
    },
    /// A capture that takes fewer pieces than the majority rule demands.
    NotMaximum {
        /// The number of pieces the legal captures take.
        count: u32,
        /// The legal captures.
        captures: Vec<String>,
    },
    /// A capture the majority rule by value or the capture priorities
    /// (`capture.priority`) put behind others.
    NotPreferred {
        /// The rules' order of preference, in words.
        order: String,
        /// The legal captures.
        captures: Vec<String>,
    },
    /// The capture stops where the piece can (and so must) capture again.
    Unfinished {
        /// The legal moves that continue it.
        continuations: Vec<String>,
    },
    /// Men do not move (or capture) in that direction.
    ManDirection {
        /// The direction tried.
        kind: DirKind,
        /// Whether it was a capture.
        capture: bool,
    },
    /// Kings do not move (or capture) in that direction.
    KingDirection {
        /// The direction tried.
        kind: DirKind,
        /// Whether it was a capture.
        capture: bool,
        /// The lines kings do use, when they are all of one kind
        /// ("along ranks and files", "diagonally").
        only: Option<&'static str>,
    },
    /// The two squares are not on one rank, file or diagonal.
    NotALine {
        /// One end.
        from: String,
        /// The other end.
        to: String,
    },
    /// Further than the piece may go in one step.
    TooFar {
        /// Whether the piece is a king.
        king: bool,
        /// The most squares it may move.
        max: u32,
    },
    /// The destination (or a landing square) is occupied.
    Occupied {
        /// The square.
        square: String,
    },
    /// A piece stands in the way.
    Blocked {
        /// The first occupied square on the way.
        square: String,
    },
    /// A jump with no piece to capture.
    NothingToCapture {
        /// Where the jump starts.
        from: String,
        /// Where it lands.
        to: String,
    },
    /// A jump over one's own piece.
    OwnPiece {
        /// The square jumped.
        square: String,
    },
    /// A jump over two or more pieces at once.
    TwoPieces {
        /// Where the jump starts.
        from: String,
        /// Where it lands.
        to: String,
    },
    /// A man captures only an adjacent piece, landing right behind it.
    ManCaptureShape,
    /// Kings capture only adjacent pieces here.
    KingCaptureShort,
    /// Kings land only on the square right behind the captured piece here.
    KingLandingAdjacent,
    /// A 180° turn between two jumps.
    Reversal,
    /// A piece captured earlier in the move (end-of-move removal) still stands: it can be neither jumped nor passed.
    CapturedTwice {
        /// Its square.
        square: String,
    },
    /// A man crowned during a capture stops there in this variant.
    CrownedStops {
        /// Where it was crowned.
        square: String,
    },
    /// A step that does not leave its square.
    Stays {
        /// The square.
        square: String,
    },
    /// A friendly jump over something other than the man's own piece.
    FriendlyJump {
        /// The square jumped.
        square: String,
        /// Whether kings may be jumped too (else only men).
        over_kings: bool,
    },
    /// A linear move that does not leap an unbroken line of own men.
    LinearMove,
    /// A pass where it is not allowed.
    NoPass {
        /// Whether the variant has passes at all (then only a side with no
        /// other move passes).
        passing: bool,
    },
    /// Nothing more specific could be said: the piece's legal moves.
    Other {
        /// The piece, e.g. "man" or "king".
        piece: &'static str,
        /// Its square.
        square: String,
        /// Its legal moves (empty if it has none).
        moves: Vec<String>,
    },
}

impl std::fmt::Display for IllegalReason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        use IllegalReason as R;
        match self {
            R::NoPiece { square } => write!(f, "there is no piece of yours on {square}"),
            R::NotYourPiece { square, owner } => {
                write!(f, "the piece on {square} is {owner}'s, and it is {}'s turn", !*owner)
            }
            R::CaptureMandatory { captures } => write!(
                f,
                "a capture is available and capturing is mandatory: {}",
                captures.join(", ")
            ),
            R::NotPreferred { order, captures } => {
                write!(f, "the rules prefer other captures ({order}): {}", captures.join(", "))
            }
            R::NotMaximum { count, captures } => write!(
                f,
                "you must take the maximum, {count} piece{}: {}",
                if *count == 1 { "" } else { "s" },
                captures.join(", ")
            ),
            R::Unfinished { continuations } => {
                write!(f, "that capture is not finished: the piece can capture again")?;
                if !continuations.is_empty() {
                    write!(f, " ({})", continuations.join(", "))?;
                }
                Ok(())
            }
            R::ManDirection { kind, capture } => write!(
                f,
                "men do not {} {kind} in this variant",
                if *capture { "capture" } else { "move" }
            ),
            R::KingDirection { kind, capture, only } => {
                let verb = if *capture { "capture" } else { "move" };
                match only {
                    Some(lines) => write!(f, "kings {verb} only {lines} here"),
                    None => write!(f, "kings do not {verb} {kind} here"),
                }
            }
            R::NotALine { from, to } => write!(f, "{from} and {to} are not on one rank, file or diagonal"),
            R::TooFar { king, max } => write!(
                f,
                "a {} moves at most {max} square{} here",
                if *king { "king" } else { "man" },
                if *max == 1 { "" } else { "s" }
            ),
            R::Occupied { square } => write!(f, "{square} is occupied"),
            R::Blocked { square } => write!(f, "the way is blocked: {square} is occupied"),
            R::NothingToCapture { from, to } => write!(f, "there is no piece to capture between {from} and {to}"),
            R::OwnPiece { square } => write!(f, "the piece on {square} is your own: you cannot capture it"),
            R::TwoPieces { from, to } => write!(f, "a piece cannot jump two pieces at once (between {from} and {to})"),
            R::ManCaptureShape => f.write_str("a man captures an adjacent piece and lands right behind it"),
            R::KingCaptureShort => f.write_str("kings capture only adjacent pieces here"),
            R::KingLandingAdjacent => f.write_str("a king lands right behind the piece it captures here"),
            R::Reversal => f.write_str("a piece may not turn back 180° between two jumps in this variant"),
            R::CapturedTwice { square } => write!(
                f,
                "the piece on {square} was captured earlier in this move: it stays on the board until the move ends, \
                 and can be neither jumped again nor passed"
            ),
            R::CrownedStops { square } => write!(f, "the man is crowned on {square} and its move ends there"),
            R::Stays { square } => write!(f, "a move must leave {square}, not stay on it"),
            R::FriendlyJump { square, over_kings } => write!(
                f,
                "a man jumps only over {} of its own, and {square} holds none",
                if *over_kings { "a piece" } else { "a man" }
            ),
            R::LinearMove => f.write_str(
                "a man leaps only over an unbroken line of its own men, onto the empty square right behind it",
            ),
            R::NoPass { passing: true } => f.write_str("a player passes only when it has no other move"),
            R::NoPass { passing: false } => f.write_str("there is no passing in this variant"),
            R::Other { piece, square, moves } => {
                if moves.is_empty() {
                    write!(f, "the {piece} on {square} has no legal move")
                } else {
                    write!(
                        f,
                        "the {piece} on {square} cannot go there; its legal moves are {}",
                        moves.join(", ")
                    )
                }
            }
        }
    }
}
