//! Moves: what a legal move changes, and what notation needs.

use crate::board::node::Ply;
use crate::board::{Bitboard, Square, Squares};

/// A legal move, identified by its origin, destination and the set of
/// pieces it captures (rules.md A12: paths that differ only in the
/// intermediate landing squares are one move). `Copy`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Move(pub(crate) Ply<Bitboard>);

impl Move {
    /// A non-capturing move.
    #[inline]
    pub fn quiet(from: Square, to: Square, king: bool, promotes: bool) -> Move {
        Move(Ply::quiet(from.index(), to.index(), king, promotes))
    }

    /// A capturing move.
    #[inline]
    pub fn capture(
        from: Square,
        to: Square,
        king: bool,
        promotes: bool,
        captured: Bitboard,
        captured_kings: Bitboard,
    ) -> Move {
        Move(Ply::capture(
            from.index(),
            to.index(),
            king,
            promotes,
            captured,
            captured_kings & captured,
        ))
    }

    /// A pass: the side to move, blocked, hands the turn to the other side
    /// (`end.no_legal_move = "pass"`). The generator lists it as the only
    /// legal move of such a position; it moves nothing, and its origin and
    /// destination are both a1, which names no piece.
    #[inline]
    pub fn pass() -> Move {
        Move(Ply::pass())
    }

    /// Whether this move is a pass ([`Move::pass`]).
    #[inline]
    pub fn is_pass(&self) -> bool {
        self.0.is_pass()
    }

    /// The origin square.
    #[inline]
    pub fn from(&self) -> Square {
        Square::from_index(self.0.from)
    }
    /// The destination square.
    #[inline]
    pub fn to(&self) -> Square {
        Square::from_index(self.0.to)
    }
    /// The captured pieces.
    #[inline]
    pub fn captured(&self) -> Bitboard {
        self.0.captured
    }
    /// The captured kings.
    #[inline]
    pub fn captured_kings(&self) -> Bitboard {
        self.0.captured_kings
    }
    /// The captured squares (in board order; see [`crate::MovePath`] for capture order).
    pub fn captured_squares(&self) -> impl Iterator<Item = Square> {
        Squares(self.0.captured)
    }
    /// Number of pieces captured.
    #[inline]
    pub fn capture_count(&self) -> u32 {
        self.0.captured.count()
    }
    /// Whether the move captures.
    #[inline]
    pub fn is_capture(&self) -> bool {
        self.0.is_capture()
    }
    /// Whether a king moves.
    #[inline]
    pub fn is_king_move(&self) -> bool {
        self.0.is_king_move()
    }
    /// Whether the moving man is crowned.
    #[inline]
    pub fn promotes(&self) -> bool {
        self.0.promotes()
    }
    /// The identity key: origin, destination, captured set.
    #[inline]
    pub fn same_identity(&self, o: &Move) -> bool {
        self.0.same_identity(&o.0)
    }
}

/// One way of playing a move: every landing square in order and every
/// captured square in the order taken.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct MovePath {
    /// Where the piece started.
    pub from: Square,
    /// Landing squares in order (the last one is the destination).
    pub landings: Vec<Square>,
    /// Captured squares, in capture order.
    pub captures: Vec<Square>,
}

/// A reusable list of moves, with how many distinct paths lead to each.
#[derive(Debug, Clone, Default)]
pub struct MoveList {
    moves: Vec<Move>,
    paths: Vec<u32>,
}

impl MoveList {
    /// An empty list.
    pub fn new() -> MoveList {
        MoveList {
            moves: Vec::with_capacity(64),
            paths: Vec::with_capacity(64),
        }
    }
    /// Empties the list, keeping its memory.
    #[inline]
    pub fn clear(&mut self) {
        self.moves.clear();
        self.paths.clear();
    }
    #[inline]
    pub(crate) fn push(&mut self, m: Move, paths: u32) {
        self.moves.push(m);
        self.paths.push(paths);
    }
    /// Number of distinct moves.
    #[inline]
    pub fn len(&self) -> usize {
        self.moves.len()
    }
    /// Whether there is no move.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.moves.is_empty()
    }
    /// The moves.
    #[inline]
    pub fn as_slice(&self) -> &[Move] {
        &self.moves
    }
    /// For each move, the number of distinct paths that play it.
    #[inline]
    pub fn path_counts(&self) -> &[u32] {
        &self.paths
    }
    /// Total number of paths.
    pub fn total_paths(&self) -> u64 {
        self.paths.iter().map(|&p| p as u64).sum()
    }
    /// Iterates over the moves.
    pub fn iter(&self) -> std::slice::Iter<'_, Move> {
        self.moves.iter()
    }
    /// Copies the moves into a vector.
    pub fn to_vec(&self) -> Vec<Move> {
        self.moves.clone()
    }
}

impl<'a> IntoIterator for &'a MoveList {
    type Item = &'a Move;
    type IntoIter = std::slice::Iter<'a, Move>;
    fn into_iter(self) -> Self::IntoIter {
        self.moves.iter()
    }
}
