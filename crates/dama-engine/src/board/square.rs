//! Squares of a board of at most 8×8.
//!
//! A square is stored as `rank * 8 + file` whatever the board's width, so
//! that one `u64` holds any board up to 8×8 and a step is a fixed shift.

use std::fmt;

/// A square index, `rank * 8 + file`, both counted from 0 at a1.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    /// Builds a square from a file and a rank (both from 0). Returns `None`
    /// off an 8×8 grid.
    pub const fn new(file: u8, rank: u8) -> Option<Square> {
        if file < 8 && rank < 8 {
            Some(Square(rank * 8 + file))
        } else {
            None
        }
    }

    /// The square with this index (0..64).
    pub const fn from_index(i: u8) -> Option<Square> {
        if i < 64 {
            Some(Square(i))
        } else {
            None
        }
    }

    /// The square with index `i & 63`; for indices known to be in range.
    #[inline]
    pub(crate) const fn from_index_masked(i: u8) -> Square {
        Square(i & 63)
    }

    /// The index, `rank * 8 + file`.
    #[inline]
    pub const fn index(self) -> u8 {
        self.0
    }

    /// File, 0 = a.
    #[inline]
    pub const fn file(self) -> u8 {
        self.0 % 8
    }

    /// Rank, 0 = rank 1.
    #[inline]
    pub const fn rank(self) -> u8 {
        self.0 / 8
    }

    /// This square as a one-bit board.
    #[inline]
    pub const fn bit(self) -> u64 {
        1u64 << self.0
    }

    /// Parses an algebraic name such as `d4` (file letter, rank number).
    pub fn parse_algebraic(s: &str) -> Option<Square> {
        let b = s.as_bytes();
        if b.len() < 2 || b.len() > 3 {
            return None;
        }
        let file = b[0].to_ascii_lowercase().checked_sub(b'a')?;
        let rank: u8 = s.get(1..)?.parse().ok()?;
        if rank == 0 {
            return None;
        }
        Square::new(file, rank - 1)
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.file()) as char, self.rank() + 1)
    }
}

/// Iterates over the squares of a bitboard, lowest index first.
#[derive(Debug, Clone, Copy)]
pub struct Squares(pub u64);

impl Iterator for Squares {
    type Item = Square;
    #[inline]
    fn next(&mut self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            let i = self.0.trailing_zeros() as u8;
            self.0 &= self.0 - 1;
            Some(Square(i))
        }
    }
}
