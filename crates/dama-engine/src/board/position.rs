//! A position: who stands where, and whose turn it is.

use crate::board::Color;
use crate::board::Move;
use crate::board::{Square, Squares};

/// The pieces on the board and the side to move. Small and `Copy`: playing
/// a move is a few XORs, and undoing it is the same XORs again.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Position {
    white: u64,
    black: u64,
    kings: u64,
    side: Color,
}

/// What stands on a square.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Piece {
    /// An uncrowned piece.
    Man(Color),
    /// A crowned piece.
    King(Color),
}

impl Piece {
    /// The piece's side.
    pub fn color(self) -> Color {
        match self {
            Piece::Man(c) | Piece::King(c) => c,
        }
    }
    /// Whether it is a king.
    pub fn is_king(self) -> bool {
        matches!(self, Piece::King(_))
    }
}

impl Position {
    /// Builds a position from bitboards. `kings` marks which of the pieces are kings.
    pub const fn from_parts(white: u64, black: u64, kings: u64, side: Color) -> Position {
        Position {
            white,
            black,
            kings: kings & (white | black),
            side,
        }
    }

    /// The empty board with `side` to move.
    pub const fn empty(side: Color) -> Position {
        Position {
            white: 0,
            black: 0,
            kings: 0,
            side,
        }
    }

    /// The side to move.
    #[inline]
    pub fn side_to_move(&self) -> Color {
        self.side
    }
    /// Sets the side to move.
    pub fn set_side_to_move(&mut self, c: Color) {
        self.side = c;
    }
    /// All pieces of `c`.
    #[inline]
    pub fn pieces(&self, c: Color) -> u64 {
        match c {
            Color::White => self.white,
            Color::Black => self.black,
        }
    }
    /// Men of `c`.
    #[inline]
    pub fn men(&self, c: Color) -> u64 {
        self.pieces(c) & !self.kings
    }
    /// Kings of `c`.
    #[inline]
    pub fn kings(&self, c: Color) -> u64 {
        self.pieces(c) & self.kings
    }
    /// All kings.
    #[inline]
    pub fn all_kings(&self) -> u64 {
        self.kings
    }
    /// All occupied squares.
    #[inline]
    pub fn occupied(&self) -> u64 {
        self.white | self.black
    }

    /// The piece on `sq`, if any.
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        let b = sq.bit();
        let color = if self.white & b != 0 {
            Color::White
        } else if self.black & b != 0 {
            Color::Black
        } else {
            return None;
        };
        Some(if self.kings & b != 0 {
            Piece::King(color)
        } else {
            Piece::Man(color)
        })
    }

    /// Puts `piece` on `sq` (replacing what was there), or empties it.
    pub fn set_piece(&mut self, sq: Square, piece: Option<Piece>) {
        let b = sq.bit();
        self.white &= !b;
        self.black &= !b;
        self.kings &= !b;
        if let Some(p) = piece {
            match p.color() {
                Color::White => self.white |= b,
                Color::Black => self.black |= b,
            }
            if p.is_king() {
                self.kings |= b;
            }
        }
    }

    /// Number of pieces of `c`.
    pub fn count(&self, c: Color) -> u32 {
        self.pieces(c).count_ones()
    }

    /// Iterates over all pieces with their squares, a1 first.
    pub fn iter(&self) -> impl Iterator<Item = (Square, Piece)> + '_ {
        Squares(self.occupied()).filter_map(move |s| self.piece_at(s).map(|p| (s, p)))
    }

    /// XORs the changes `m` makes for `mover` into the bitboards.
    #[inline]
    fn toggle(&mut self, m: &Move, mover: Color) {
        let path = m.origin_bit() ^ m.dest_bit();
        let (us, them) = match mover {
            Color::White => (&mut self.white, &mut self.black),
            Color::Black => (&mut self.black, &mut self.white),
        };
        *us ^= path;
        *them ^= m.captured();
        let mut k = m.captured_kings();
        if m.is_king_move() {
            k ^= path;
        }
        if m.promotes() {
            k ^= m.dest_bit();
        }
        self.kings ^= k;
    }

    /// Plays `m` (which must be legal here).
    #[inline]
    pub fn play(&mut self, m: &Move) {
        self.toggle(m, self.side);
        self.side = !self.side;
    }

    /// Undoes `m`, which must be the move that led to this position.
    #[inline]
    pub fn undo(&mut self, m: &Move) {
        self.side = !self.side;
        self.toggle(m, self.side);
    }

    /// The position after `m`.
    #[inline]
    pub fn after(&self, m: &Move) -> Position {
        let mut p = *self;
        p.play(m);
        p
    }
}
