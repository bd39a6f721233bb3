//! Squares of a board of up to 16×16.
//!
//! A square is stored as `rank * 16 + file` whatever the board's size, so
//! that it names itself (`a1` … `p16`) without knowing the board. The move
//! generator numbers the playable squares of each board its own way (see
//! [`crate::Geometry`]); that numbering never leaves the engine.

use std::fmt;

use crate::board::bits::{Bits, Ones};
use crate::board::Bitboard;

/// The most files or ranks a board has.
pub const MAX_SIDE: u8 = 16;

/// A square, `rank * 16 + file`, both counted from 0 at a1.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    /// Builds a square from a file and a rank (both from 0). Returns `None`
    /// off a 16×16 grid.
    pub const fn new(file: u8, rank: u8) -> Option<Square> {
        if file < MAX_SIDE && rank < MAX_SIDE {
            Some(Square(rank * MAX_SIDE + file))
        } else {
            None
        }
    }

    /// The square with this index (`rank * 16 + file`).
    pub const fn from_index(i: u8) -> Square {
        Square(i)
    }

    /// The index, `rank * 16 + file`.
    #[inline]
    pub const fn index(self) -> u8 {
        self.0
    }

    /// File, 0 = a.
    #[inline]
    pub const fn file(self) -> u8 {
        self.0 % MAX_SIDE
    }

    /// Rank, 0 = rank 1.
    #[inline]
    pub const fn rank(self) -> u8 {
        self.0 / MAX_SIDE
    }

    /// This square as a one-square set.
    #[inline]
    pub fn bit(self) -> Bitboard {
        Bitboard::bit(self.0)
    }

    /// Parses an algebraic name such as `d4` or `p16` (file letter, rank number).
    pub fn parse_algebraic(s: &str) -> Option<Square> {
        let b = s.as_bytes();
        if b.len() < 2 || b.len() > 3 || !b[1..].iter().all(u8::is_ascii_digit) {
            return None;
        }
        let file = b[0].to_ascii_lowercase().checked_sub(b'a')?;
        let rank: u8 = s.get(1..)?.parse().ok()?;
        if rank == 0 || b[1] == b'0' {
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

/// Iterates over the squares of a [`Bitboard`], a1 first, rank by rank.
#[derive(Debug, Clone, Copy)]
pub struct Squares(pub Bitboard);

impl Iterator for Squares {
    type Item = Square;
    #[inline]
    fn next(&mut self) -> Option<Square> {
        let mut it = Ones(self.0);
        let i = it.next()?;
        self.0 = it.0;
        Some(Square(i))
    }
}
