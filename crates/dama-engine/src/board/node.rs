//! The generator's own position and move: [`Node`] and [`Ply`], in the
//! board's bit numbering (see [`crate::board::Layout`]) and the word it
//! is compiled for. [`crate::Position`] and [`crate::Move`] are the same
//! thing over the 256-bit [`crate::Bitboard`] of squares.

use crate::board::bits::Bits;
use crate::board::Color;

/// Who stands where, and whose turn it is. Playing a move is a few XORs,
/// and undoing it is the same XORs again.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct Node<B> {
    pub(crate) white: B,
    pub(crate) black: B,
    pub(crate) kings: B,
    pub(crate) side: Color,
}

const KING: u8 = 1;
const PROMOTES: u8 = 2;
const CAPTURE: u8 = 4;
const PASS: u8 = 8;

/// A move: its origin, destination and the set of pieces it captures
/// (rules.md A12: paths that differ only in the intermediate landing
/// squares are one move).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct Ply<B> {
    pub(crate) captured: B,
    pub(crate) captured_kings: B,
    pub(crate) from: u8,
    pub(crate) to: u8,
    pub(crate) flags: u8,
}

impl<B: Bits> Ply<B> {
    /// A non-capturing move.
    #[inline(always)]
    pub(crate) fn quiet(from: u8, to: u8, king: bool, promotes: bool) -> Ply<B> {
        Ply {
            captured: B::ZERO,
            captured_kings: B::ZERO,
            from,
            to,
            flags: (king as u8) | ((promotes as u8) << 1),
        }
    }

    /// A capturing move.
    #[inline(always)]
    pub(crate) fn capture(from: u8, to: u8, king: bool, promotes: bool, captured: B, captured_kings: B) -> Ply<B> {
        Ply {
            captured,
            captured_kings,
            from,
            to,
            flags: (king as u8) | ((promotes as u8) << 1) | CAPTURE,
        }
    }

    /// A pass (`end.no_legal_move = "pass"`): the turn goes to the other
    /// side and nothing moves. Its origin and destination are the same
    /// square (bit 0), so playing it toggles no piece: only the side to
    /// move changes, and no other code needs to know it is special.
    #[inline(always)]
    pub(crate) fn pass() -> Ply<B> {
        Ply {
            captured: B::ZERO,
            captured_kings: B::ZERO,
            from: 0,
            to: 0,
            flags: PASS,
        }
    }

    /// Whether this is a pass.
    #[inline(always)]
    pub(crate) fn is_pass(&self) -> bool {
        self.flags & PASS != 0
    }

    #[inline(always)]
    pub(crate) fn is_capture(&self) -> bool {
        self.flags & CAPTURE != 0
    }
    #[inline(always)]
    pub(crate) fn is_king_move(&self) -> bool {
        self.flags & KING != 0
    }
    #[inline(always)]
    pub(crate) fn promotes(&self) -> bool {
        self.flags & PROMOTES != 0
    }
    /// The identity key: origin, destination, captured set.
    #[inline(always)]
    pub(crate) fn same_identity(&self, o: &Ply<B>) -> bool {
        self.from == o.from && self.to == o.to && self.captured == o.captured
    }
}

impl<B: Bits> Node<B> {
    #[inline(always)]
    pub(crate) fn side_to_move(&self) -> Color {
        self.side
    }
    #[inline(always)]
    pub(crate) fn pieces(&self, c: Color) -> B {
        match c {
            Color::White => self.white,
            Color::Black => self.black,
        }
    }
    #[inline(always)]
    pub(crate) fn men(&self, c: Color) -> B {
        self.pieces(c) & !self.kings
    }
    #[inline(always)]
    pub(crate) fn kings(&self, c: Color) -> B {
        self.pieces(c) & self.kings
    }
    #[inline(always)]
    pub(crate) fn all_kings(&self) -> B {
        self.kings
    }
    #[inline(always)]
    pub(crate) fn occupied(&self) -> B {
        self.white | self.black
    }

    /// XORs the changes `m` makes for `mover` into the sets.
    #[inline(always)]
    fn toggle(&mut self, m: &Ply<B>, mover: Color) {
        let path = B::bit(m.from) ^ B::bit(m.to);
        let (us, them) = match mover {
            Color::White => (&mut self.white, &mut self.black),
            Color::Black => (&mut self.black, &mut self.white),
        };
        *us ^= path;
        *them ^= m.captured;
        let mut k = m.captured_kings;
        if m.is_king_move() {
            k ^= path;
        }
        if m.promotes() {
            k ^= B::bit(m.to);
        }
        self.kings ^= k;
    }

    /// Plays `m` (which must be legal here).
    #[inline(always)]
    pub(crate) fn play(&mut self, m: &Ply<B>) {
        self.toggle(m, self.side);
        self.side = !self.side;
    }

    /// Undoes `m`, which must be the move that led to this position.
    #[inline(always)]
    pub(crate) fn undo(&mut self, m: &Ply<B>) {
        self.side = !self.side;
        self.toggle(m, self.side);
    }

    /// The position after `m`.
    #[inline(always)]
    pub(crate) fn after(&self, m: &Ply<B>) -> Node<B> {
        let mut p = *self;
        p.play(m);
        p
    }
}

/// A reusable list of moves, with how many distinct paths lead to each.
#[derive(Debug, Clone, Default)]
pub(crate) struct PlyList<B> {
    moves: Vec<Ply<B>>,
    paths: Vec<u32>,
}

impl<B: Bits> PlyList<B> {
    pub(crate) fn new() -> PlyList<B> {
        PlyList {
            moves: Vec::with_capacity(64),
            paths: Vec::with_capacity(64),
        }
    }
    #[inline(always)]
    pub(crate) fn clear(&mut self) {
        self.moves.clear();
        self.paths.clear();
    }
    #[inline(always)]
    pub(crate) fn push(&mut self, m: Ply<B>, paths: u32) {
        self.moves.push(m);
        self.paths.push(paths);
    }
    /// Adds a capture, merging it with an equal move already listed.
    #[inline(always)]
    pub(crate) fn push_dedup(&mut self, m: Ply<B>) {
        for (i, o) in self.moves.iter().enumerate() {
            if o.same_identity(&m) {
                self.paths[i] += 1;
                return;
            }
        }
        self.push(m, 1);
    }
    #[inline(always)]
    pub(crate) fn len(&self) -> usize {
        self.moves.len()
    }
    #[inline(always)]
    pub(crate) fn is_empty(&self) -> bool {
        self.moves.is_empty()
    }
    #[inline(always)]
    pub(crate) fn as_slice(&self) -> &[Ply<B>] {
        &self.moves
    }
    /// Moves and path counts together.
    #[inline(always)]
    pub(crate) fn iter(&self) -> impl Iterator<Item = (&Ply<B>, u32)> {
        self.moves.iter().zip(self.paths.iter().copied())
    }
}
