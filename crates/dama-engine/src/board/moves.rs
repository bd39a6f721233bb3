//! Moves: what a legal move changes, and what notation needs.

use crate::board::{Square, Squares};

/// A legal move, identified by its origin, destination and the set of
/// pieces it captures (rules.md A12: paths that differ only in the
/// intermediate landing squares are one move). 24 bytes, `Copy`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Move {
    captured: u64,
    captured_kings: u64,
    from: u8,
    to: u8,
    flags: u8,
}

const KING: u8 = 1;
const PROMOTES: u8 = 2;
const CAPTURE: u8 = 4;

impl Move {
    /// A non-capturing move.
    #[inline]
    pub fn quiet(from: u8, to: u8, king: bool, promotes: bool) -> Move {
        Move {
            captured: 0,
            captured_kings: 0,
            from,
            to,
            flags: (king as u8) | ((promotes as u8) << 1),
        }
    }

    /// A capturing move.
    #[inline]
    pub fn capture(from: u8, to: u8, king: bool, promotes: bool, captured: u64, captured_kings: u64) -> Move {
        Move {
            captured,
            captured_kings,
            from,
            to,
            flags: (king as u8) | ((promotes as u8) << 1) | CAPTURE,
        }
    }

    /// The origin square.
    #[inline]
    pub fn from(&self) -> Square {
        Square::from_index_masked(self.from)
    }
    /// The destination square.
    #[inline]
    pub fn to(&self) -> Square {
        Square::from_index_masked(self.to)
    }
    /// Origin as a raw index.
    #[inline]
    pub fn from_index(&self) -> u8 {
        self.from
    }
    /// Destination as a raw index.
    #[inline]
    pub fn to_index(&self) -> u8 {
        self.to
    }
    #[inline]
    pub(crate) fn origin_bit(self) -> u64 {
        1u64 << self.from
    }
    #[inline]
    pub(crate) fn dest_bit(self) -> u64 {
        1u64 << self.to
    }
    /// The captured pieces, as a bitboard.
    #[inline]
    pub fn captured(&self) -> u64 {
        self.captured
    }
    /// The captured kings, as a bitboard.
    #[inline]
    pub fn captured_kings(&self) -> u64 {
        self.captured_kings
    }
    /// The captured squares (in board order; see [`crate::MovePath`] for capture order).
    pub fn captured_squares(&self) -> impl Iterator<Item = Square> {
        Squares(self.captured)
    }
    /// Number of pieces captured.
    #[inline]
    pub fn capture_count(&self) -> u32 {
        self.captured.count_ones()
    }
    /// Whether the move captures.
    #[inline]
    pub fn is_capture(&self) -> bool {
        self.flags & CAPTURE != 0
    }
    /// Whether a king moves.
    #[inline]
    pub fn is_king_move(&self) -> bool {
        self.flags & KING != 0
    }
    /// Whether the moving man is crowned.
    #[inline]
    pub fn promotes(&self) -> bool {
        self.flags & PROMOTES != 0
    }
    /// The identity key: origin, destination, captured set.
    #[inline]
    pub fn same_identity(&self, o: &Move) -> bool {
        self.from == o.from && self.to == o.to && self.captured == o.captured
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
    /// Adds a capture, merging it with an equal move already listed.
    #[inline]
    pub(crate) fn push_dedup(&mut self, m: Move) {
        for (i, o) in self.moves.iter().enumerate() {
            if o.same_identity(&m) {
                self.paths[i] += 1;
                return;
            }
        }
        self.push(m, 1);
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
