//! Move notation: writing moves in PDN style and reading what people type.
//!
//! Reading happens in two layers, as in shakmaty: [`MoveText::parse`]
//! checks the syntax only; [`Rules::resolve_move`] finds the legal move it
//! names, or says why there is none.

// Panic audit (rel, issue 7): this module reads user input, so it may not
// unwrap; tests may. See docs/reliability.md.
#![cfg_attr(not(test), deny(clippy::unwrap_used, clippy::expect_used))]

use crate::board::Color;
use crate::board::Position;
use crate::board::{AbsDir, DirSet, Square};
use crate::board::{Move, MovePath};
use crate::rules::{KingRange, Rules};
use crate::spec::{Majority, MidCapturePromotion, Removal};

/// Parsed move text: the squares named, in order, and whether it was written as a capture.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MoveText {
    /// The squares, origin first.
    pub squares: Vec<Square>,
    /// Whether `x` or `:` separated the squares.
    pub capture: bool,
}

/// Move text that does not name exactly one legal move.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MoveError {
    /// The text is not a move at all.
    #[error("cannot read `{text}` as a move: {reason}")]
    Syntax {
        /// What was typed.
        text: String,
        /// Why it cannot be read.
        reason: String,
    },
    /// No legal move matches; `reason` says why, in the game's terms.
    #[error("`{text}` is not a legal move here: {reason}")]
    Illegal {
        /// What was typed.
        text: String,
        /// Why it is not legal.
        reason: IllegalReason,
    },
    /// Several legal moves match.
    #[error("`{text}` is ambiguous: it could be {}", candidates.join(", "))]
    Ambiguous {
        /// What was typed.
        text: String,
        /// The matching moves, in full notation.
        candidates: Vec<String>,
    },
}

/// Longest move text read, in bytes: far more than the longest capture on any board.
const MAX_MOVE_TEXT: usize = 512;

impl MoveText {
    /// Reads `d3-d4`, `d3d4`, `d4xd6xf6`, `d4:d6`, `12-16`, `a3xe1`; a
    /// trailing `=K`, `+`, `!` or `?` is ignored.
    pub fn parse(rules: &Rules, text: &str) -> Result<MoveText, MoveError> {
        // (rel, issue 7) Messages quote at most a clipped copy of the text,
        // and no move is longer than MAX_MOVE_TEXT, so a hostile line is
        // never echoed back whole.
        let err = |reason: &str| MoveError::Syntax {
            text: crate::util::clip(text),
            reason: reason.to_string(),
        };
        let t = text.trim();
        if t.len() > MAX_MOVE_TEXT {
            return Err(err(&format!(
                "it is {} characters long; no move takes more than {MAX_MOVE_TEXT}",
                t.chars().count()
            )));
        }
        let t = t.trim_end_matches(['!', '?', '+', '*']);
        let t = t.strip_suffix("=K").or_else(|| t.strip_suffix("=k")).unwrap_or(t);
        if t.is_empty() {
            return Err(err("it is empty"));
        }
        let capture = t.contains(['x', 'X', ':']);
        let mut squares = Vec::new();
        let bytes = t.as_bytes();
        let mut i = 0;
        while i < bytes.len() {
            let c = bytes[i];
            if matches!(c, b'-' | b'x' | b'X' | b':' | b' ') {
                i += 1;
                continue;
            }
            let start = i;
            if c.is_ascii_alphabetic() {
                i += 1;
                while i < bytes.len() && bytes[i].is_ascii_digit() {
                    i += 1;
                }
            } else if c.is_ascii_digit() {
                while i < bytes.len() && bytes[i].is_ascii_digit() {
                    i += 1;
                }
            } else {
                let c = t[i..].chars().next().unwrap_or('?');
                return Err(err(&if c.is_control() {
                    format!("unexpected control character U+{:04X}", c as u32)
                } else {
                    format!("unexpected character `{c}`")
                }));
            }
            let name = &t[start..i];
            let sq = rules
                .parse_square(name)
                .ok_or_else(|| err(&rules.why_not_a_square(name)))?;
            squares.push(sq);
        }
        if squares.len() < 2 {
            return Err(err("a move names at least two squares, such as d3-d4"));
        }
        Ok(MoveText { squares, capture })
    }

    /// Whether this text describes `path`: same origin and destination, and
    /// every other square named is a landing square of the path, in order.
    pub fn matches_path(&self, path: &MovePath) -> bool {
        // `squares` is a public field: no length is assumed (panic audit, issue 7).
        let (Some((&first, rest)), Some((_, landed))) = (self.squares.split_first(), path.landings.split_last()) else {
            return false;
        };
        let Some((&last, inner)) = rest.split_last() else {
            return false;
        };
        if first != path.from || path.landings.last() != Some(&last) {
            return false;
        }
        let mut it = landed.iter();
        inner.iter().all(|s| it.any(|l| l == s))
    }
}

impl Rules {
    /// Why `name` is not a playable square of this board.
    fn why_not_a_square(&self, name: &str) -> String {
        let count = self.board().count_ones();
        if self.numeric_notation() && name.bytes().all(|b| b.is_ascii_digit()) {
            return format!("square {name} is not on the board (squares are numbered 1 to {count})");
        }
        match Square::parse_algebraic(name) {
            Some(sq) if sq.file() < self.width() && sq.rank() < self.height() => {
                format!("`{name}` is not one of the squares played on")
            }
            _ => format!("`{name}` is not a square of this board"),
        }
    }

    /// Writes one path of `m` with every landing square: `d3-d4`, `d4xd6xf6`.
    pub fn format_path(&self, path: &MovePath, capture: bool) -> String {
        let sep = if capture { "x" } else { "-" };
        let mut s = self.square_name(path.from);
        for l in &path.landings {
            s.push_str(sep);
            s.push_str(&self.square_name(*l));
        }
        s
    }

    /// The full-path notation of `m` (its first path, when several play it).
    pub fn format_move_full(&self, pos: &Position, m: &Move) -> String {
        let paths = self.move_paths(pos, m);
        match paths.first() {
            Some(p) => self.format_path(p, m.is_capture()),
            None => self.format_plain(m),
        }
    }

    fn format_plain(&self, m: &Move) -> String {
        let sep = if m.is_capture() { "x" } else { "-" };
        format!("{}{sep}{}", self.square_name(m.from()), self.square_name(m.to()))
    }

    /// The shortest unambiguous PDN notation of `m` among the legal moves of
    /// `pos`: origin and destination, plus the landing squares needed to tell
    /// it from other legal moves with the same ends.
    pub fn format_move_short(&self, pos: &Position, m: &Move) -> String {
        let legal = self.legal_moves(pos);
        let rivals: Vec<&Move> = legal
            .iter()
            .filter(|o| o.from() == m.from() && o.to() == m.to() && !o.same_identity(m))
            .collect();
        if rivals.is_empty() {
            return self.format_plain(m);
        }
        let paths = self.move_paths(pos, m);
        let Some(path) = paths.first() else {
            return self.format_plain(m);
        };
        let rival_paths: Vec<MovePath> = rivals.iter().flat_map(|r| self.move_paths(pos, r)).collect();
        // Add landing squares one at a time until no rival path matches.
        let mut squares = vec![path.from];
        let inner = &path.landings[..path.landings.len() - 1];
        let mut chosen: Vec<Square> = Vec::new();
        for &l in inner {
            let text = MoveText {
                squares: squares.iter().chain(chosen.iter()).copied().chain([m.to()]).collect(),
                capture: true,
            };
            if !rival_paths.iter().any(|rp| text.matches_path(rp)) {
                break;
            }
            chosen.push(l);
        }
        squares.extend(chosen);
        squares.push(m.to());
        let sep = if m.is_capture() { "x" } else { "-" };
        squares
            .iter()
            .map(|s| self.square_name(*s))
            .collect::<Vec<_>>()
            .join(sep)
    }

    /// Finds the legal move that `text` names.
    pub fn resolve_move(&self, pos: &Position, text: &str) -> Result<Move, MoveError> {
        let mt = MoveText::parse(self, text)?;
        let (Some(&first), Some(&last)) = (mt.squares.first(), mt.squares.last()) else {
            return Err(MoveError::Syntax {
                text: crate::util::clip(text),
                reason: "a move names at least two squares, such as d3-d4".into(),
            });
        };
        let legal = self.legal_moves(pos);
        let mut found: Vec<Move> = Vec::new();
        for m in &legal {
            if m.from() != first || m.to() != last {
                continue;
            }
            if mt.squares.len() == 2 || self.move_paths(pos, m).iter().any(|p| mt.matches_path(p)) {
                found.push(*m);
            }
        }
        // (rel, issue 7: found by tests/props.rs) Text that spells out a whole
        // path names that move even when other moves' paths pass through the
        // same squares: in Keny `g5xg1` (one jump) must not be "ambiguous"
        // with `g5xc5xc3xg3xg1`, or the printed full/short notation of the
        // one-jump move could never be typed back.
        if found.len() > 1 {
            let exact = |m: &Move| {
                self.move_paths(pos, m)
                    .iter()
                    .any(|p| p.from == first && mt.squares.get(1..) == Some(&p.landings[..]))
            };
            let mut exact: Vec<Move> = found.iter().copied().filter(exact).collect();
            if exact.len() > 1 {
                exact.retain(|m| m.is_capture() == mt.capture);
            }
            if let [only] = exact[..] {
                return Ok(only);
            }
        }
        match found.len() {
            1 => Ok(found[0]),
            0 => Err(MoveError::Illegal {
                text: text.trim().to_string(),
                reason: self.explain_illegal(pos, &mt),
            }),
            _ => Err(MoveError::Ambiguous {
                text: text.trim().to_string(),
                candidates: found.iter().map(|m| self.format_move_full(pos, m)).collect(),
            }),
        }
    }
}

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
        owner: crate::Color,
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

impl MoveText {
    /// Whether this text describes the path up to a landing square before its
    /// end (the capture stopped early).
    fn matches_path_prefix(&self, path: &MovePath) -> bool {
        (1..path.landings.len()).any(|k| {
            self.matches_path(&MovePath {
                from: path.from,
                landings: path.landings[..k].to_vec(),
                captures: path.captures[..k.min(path.captures.len())].to_vec(),
            })
        })
    }
}

/// The direction from `a` to `b` and the distance, if they share a rank, file or diagonal.
fn line_between(a: Square, b: Square) -> Option<(AbsDir, u32)> {
    let df = b.file() as i32 - a.file() as i32;
    let dr = b.rank() as i32 - a.rank() as i32;
    if (df == 0 && dr == 0) || !(df == 0 || dr == 0 || df.abs() == dr.abs()) {
        return None;
    }
    let d = AbsDir::ALL
        .into_iter()
        .find(|d| d.delta() == (df.signum() as i8, dr.signum() as i8))?;
    Some((d, df.abs().max(dr.abs()) as u32))
}

/// How the mover sees direction `d`, named against the directions it has.
fn dir_kind(d: AbsDir, us: Color, allowed: DirSet) -> DirKind {
    let (mut df, mut dr) = d.delta();
    if us == Color::Black {
        (df, dr) = (-df, -dr);
    }
    if df == 0 {
        return if dr > 0 { DirKind::Forward } else { DirKind::Backward };
    }
    if dr == 0 {
        return DirKind::Sideways;
    }
    if !allowed.iter().any(|a| !a.is_orthogonal()) {
        return DirKind::Diagonal;
    }
    if dr > 0 {
        DirKind::DiagonalForward
    } else {
        DirKind::DiagonalBackward
    }
}

/// "along ranks and files" / "diagonally" when every direction of `set` is of one kind.
fn only_lines(set: DirSet) -> Option<&'static str> {
    if set.is_empty() {
        None
    } else if set.iter().all(AbsDir::is_orthogonal) {
        Some("along ranks and files")
    } else if set.iter().all(|d| !d.is_orthogonal()) {
        Some("diagonally")
    } else {
        None
    }
}

fn union(a: DirSet, b: DirSet) -> DirSet {
    DirSet(a.0 | b.0)
}

impl Rules {
    /// These rules with a change to the spec (to ask "would it be legal if …?").
    fn relaxed(&self, change: impl FnOnce(&mut crate::spec::VariantSpec)) -> Option<Rules> {
        let mut spec = self.spec().clone();
        change(&mut spec);
        Rules::compile(&spec).ok().map(|(r, _)| r)
    }

    /// Whether `mt` names `m` in `pos` under these rules.
    fn text_names(&self, pos: &Position, mt: &MoveText, m: &Move) -> bool {
        m.from() == mt.squares[0]
            && Some(&m.to()) == mt.squares.last()
            && (mt.squares.len() == 2 || self.move_paths(pos, m).iter().any(|p| mt.matches_path(p)))
    }

    /// Whether `mt` stops early on a path of `m`.
    fn text_stops_on(&self, pos: &Position, mt: &MoveText, m: &Move) -> bool {
        m.from() == mt.squares[0] && m.is_capture() && self.move_paths(pos, m).iter().any(|p| mt.matches_path_prefix(p))
    }

    /// Why `mt`, which names no legal move of `pos`, is illegal, in the
    /// game's terms. Derived from the rules only: the text is compared with
    /// the moves the rules would allow without the majority rule or without
    /// compulsory capture, then checked step by step against the pieces'
    /// directions, ranges and capture rules.
    pub fn explain_illegal(&self, pos: &Position, mt: &MoveText) -> IllegalReason {
        use IllegalReason as R;
        let from = mt.squares[0];
        let us = pos.side_to_move();
        let piece = match pos.piece_at(from) {
            None => {
                return R::NoPiece {
                    square: self.square_name(from),
                }
            }
            Some(p) if p.color() != us => {
                return R::NotYourPiece {
                    square: self.square_name(from),
                    owner: p.color(),
                }
            }
            Some(p) => p,
        };
        let legal = self.legal_moves(pos);
        let captures: Vec<String> = legal
            .iter()
            .filter(|m| m.is_capture())
            .map(|m| self.format_move_full(pos, m))
            .collect();
        let max = legal.iter().map(Move::capture_count).max().unwrap_or(0);

        // A capture stopped where the piece can (must) go on.
        let continuations: Vec<String> = legal
            .iter()
            .filter(|m| self.text_stops_on(pos, mt, m))
            .map(|m| self.format_move_full(pos, m))
            .collect();
        if !continuations.is_empty() {
            return R::Unfinished { continuations };
        }
        // Legal but for the majority rule.
        if self.capture().majority != Majority::None && max > 0 {
            if let Some(r) = self.relaxed(|s| s.capture.majority = Majority::None) {
                let rl = r.legal_moves(pos);
                if rl
                    .iter()
                    .any(|m| r.text_names(pos, mt, m) || r.text_stops_on(pos, mt, m))
                {
                    return R::NotMaximum { count: max, captures };
                }
            }
        }
        // Legal but for compulsory capture.
        if self.capture().mandatory && !captures.is_empty() {
            if let Some(r) = self.relaxed(|s| {
                s.capture.mandatory = false;
                s.capture.majority = Majority::None;
            }) {
                let rl = r.legal_moves(pos);
                if rl.iter().any(|m| !m.is_capture() && r.text_names(pos, mt, m)) {
                    return R::CaptureMandatory { captures };
                }
            }
        }
        // Step by step.
        match self.explain_steps(pos, mt, piece.is_king()) {
            Err(reason) => return reason,
            Ok(Some(taken)) if taken > 0 => {
                if taken < max {
                    return R::NotMaximum { count: max, captures };
                }
                let cont: Vec<String> = legal
                    .iter()
                    .filter(|m| m.from() == from && m.is_capture())
                    .map(|m| self.format_move_full(pos, m))
                    .collect();
                if !cont.is_empty() && self.capture().mandatory {
                    return R::Unfinished { continuations: cont };
                }
            }
            Ok(_) => {
                if self.capture().mandatory && !captures.is_empty() {
                    return R::CaptureMandatory { captures };
                }
            }
        }
        R::Other {
            piece: if piece.is_king() { "king" } else { "man" },
            square: self.square_name(from),
            moves: legal
                .iter()
                .filter(|m| m.from() == from)
                .map(|m| self.format_move_full(pos, m))
                .collect(),
        }
    }

    /// Checks the text's steps against the pieces' powers. `Err` gives the
    /// first broken rule; `Ok(Some(n))` means a well-formed capture of `n`
    /// pieces, `Ok(None)` a well-formed quiet move.
    fn explain_steps(&self, pos: &Position, mt: &MoveText, king: bool) -> Result<Option<u32>, IllegalReason> {
        use IllegalReason as R;
        let us = pos.side_to_move();
        let side = *self.side(us);
        let from = mt.squares[0];
        let mut occ = pos.occupied() & !from.bit();
        let own = pos.pieces(us) & !from.bit();
        let mut enemy = pos.pieces(!us);
        let mut dead = 0u64;
        let immediate = self.capture().removal == Removal::Immediate;
        let mut king = king;
        let mut last: Option<AbsDir> = None;
        let name = |s: Square| self.square_name(s);
        let n_steps = mt.squares.len() - 1;
        for (i, w) in mt.squares.windows(2).enumerate() {
            let (a, b) = (w[0], w[1]);
            if a == b {
                return Err(R::Stays { square: name(a) });
            }
            let chain = !king && side.man_friendly_jumps.iter().next().is_some() && self.men().friendly_jump_chain;
            let Some((d, n)) = line_between(a, b) else {
                if chain && n_steps == 1 && !mt.capture {
                    return Ok(None);
                }
                return Err(R::NotALine {
                    from: name(a),
                    to: name(b),
                });
            };
            // The squares strictly between a and b.
            let mut between = Vec::new();
            let mut s = a.index();
            for _ in 1..n {
                s = self.step(s, d);
                if s == crate::board::OFF {
                    break;
                }
                between.push(Square::from_index_masked(s));
            }
            let enemies: Vec<Square> = between.iter().copied().filter(|q| enemy & q.bit() != 0).collect();
            if enemies.is_empty() && n_steps == 1 {
                // Nothing to capture on the way.
                let capture_dirs = if king { side.king_captures } else { side.man_captures };
                let capture_shape = capture_dirs.contains(d) && (n == 2 || (king && self.kings().capture_flying));
                if mt.capture && capture_shape {
                    if let Some(q) = between.iter().find(|q| own & q.bit() != 0) {
                        return Err(R::OwnPiece { square: name(*q) });
                    }
                    return Err(R::NothingToCapture {
                        from: name(a),
                        to: name(b),
                    });
                }
                self.explain_quiet(pos, a, b, d, n, king, occ, own)?;
                return Ok(None);
            }
            if occ & b.bit() != 0 {
                return Err(R::Occupied { square: name(b) });
            }
            if let Some(q) = between.iter().find(|q| dead & q.bit() != 0).filter(|_| !immediate) {
                return Err(R::CapturedTwice { square: name(*q) });
            }
            if let Some(q) = between.iter().find(|q| own & q.bit() != 0) {
                return Err(R::OwnPiece { square: name(*q) });
            }
            let v = match enemies.as_slice() {
                [] => {
                    return Err(R::NothingToCapture {
                        from: name(a),
                        to: name(b),
                    })
                }
                [v] => *v,
                _ => {
                    return Err(R::TwoPieces {
                        from: name(a),
                        to: name(b),
                    })
                }
            };
            if king {
                if !side.king_captures.contains(d) {
                    return Err(R::KingDirection {
                        kind: dir_kind(d, us, side.king_captures),
                        capture: true,
                        only: only_lines(side.king_captures),
                    });
                }
                if !self.kings().capture_flying && self.step(a.index(), d) != v.index() {
                    return Err(R::KingCaptureShort);
                }
                if !self.kings().landing_any && self.step(v.index(), d) != b.index() {
                    return Err(R::KingLandingAdjacent);
                }
            } else {
                if !side.man_captures.contains(d) {
                    return Err(R::ManDirection {
                        kind: dir_kind(d, us, side.man_captures),
                        capture: true,
                    });
                }
                if n != 2 {
                    return Err(R::ManCaptureShape);
                }
            }
            if self.capture().no_reversal && last == Some(d.opposite()) {
                return Err(R::Reversal);
            }
            last = Some(d);
            enemy &= !v.bit();
            dead |= v.bit();
            if immediate {
                occ &= !v.bit();
            }
            if !king && side.promotion & b.bit() != 0 {
                match self.capture().promote_mid_capture {
                    MidCapturePromotion::Stop if i + 1 < n_steps => {
                        return Err(R::CrownedStops { square: name(b) });
                    }
                    MidCapturePromotion::PromoteAndContinue => king = true,
                    _ => {}
                }
            }
        }
        Ok(Some(dead.count_ones()))
    }

    /// Checks a one-step quiet move.
    #[allow(clippy::too_many_arguments)]
    fn explain_quiet(
        &self,
        pos: &Position,
        a: Square,
        b: Square,
        d: AbsDir,
        n: u32,
        king: bool,
        occ: u64,
        own: u64,
    ) -> Result<(), IllegalReason> {
        use IllegalReason as R;
        let us = pos.side_to_move();
        let side = self.side(us);
        let name = |s: Square| self.square_name(s);
        let first_between = |occ: u64| {
            let mut s = a.index();
            for _ in 1..n {
                s = self.step(s, d);
                if s == crate::board::OFF {
                    return None;
                }
                if occ & (1u64 << s) != 0 {
                    return Some(Square::from_index_masked(s));
                }
            }
            None
        };
        if king {
            if !side.king_moves.contains(d) {
                return Err(R::KingDirection {
                    kind: dir_kind(d, us, side.king_moves),
                    capture: false,
                    only: only_lines(side.king_moves),
                });
            }
            if let KingRange::Steps(max) = self.kings().range {
                if n > max as u32 {
                    return Err(R::TooFar {
                        king: true,
                        max: max as u32,
                    });
                }
            }
            if occ & b.bit() != 0 {
                return Err(R::Occupied { square: name(b) });
            }
            if let Some(q) = first_between(occ) {
                return Err(R::Blocked { square: name(q) });
            }
            return Ok(());
        }
        let all = union(union(side.man_steps, side.man_linear), side.man_friendly_jumps);
        if !all.contains(d) {
            return Err(R::ManDirection {
                kind: dir_kind(d, us, all),
                capture: false,
            });
        }
        if occ & b.bit() != 0 {
            return Err(R::Occupied { square: name(b) });
        }
        if n == 1 {
            if !side.man_steps.contains(d) {
                return Err(R::ManDirection {
                    kind: dir_kind(d, us, side.man_steps),
                    capture: false,
                });
            }
            return Ok(());
        }
        if side.man_linear.contains(d) {
            return Err(R::LinearMove);
        }
        if side.man_friendly_jumps.contains(d) && n == 2 {
            let mid = Square::from_index_masked(self.step(a.index(), d));
            return Err(R::FriendlyJump {
                square: name(mid),
                over_kings: self.men().friendly_jump_over_kings,
            });
        }
        let _ = own;
        Err(R::TooFar { king: false, max: 1 })
    }
}
