//! Squares and absolute directions on a board of at most 8×8.
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

/// A direction on the board as seen from White's side.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum AbsDir {
    /// Up (towards rank 8).
    N = 0,
    /// Down.
    S = 1,
    /// Right (towards the h-file).
    E = 2,
    /// Left.
    W = 3,
    /// Up-right.
    NE = 4,
    /// Up-left.
    NW = 5,
    /// Down-right.
    SE = 6,
    /// Down-left.
    SW = 7,
}

impl AbsDir {
    /// All eight directions.
    pub const ALL: [AbsDir; 8] = [
        AbsDir::N,
        AbsDir::S,
        AbsDir::E,
        AbsDir::W,
        AbsDir::NE,
        AbsDir::NW,
        AbsDir::SE,
        AbsDir::SW,
    ];

    /// `(file delta, rank delta)`.
    pub const fn delta(self) -> (i8, i8) {
        match self {
            AbsDir::N => (0, 1),
            AbsDir::S => (0, -1),
            AbsDir::E => (1, 0),
            AbsDir::W => (-1, 0),
            AbsDir::NE => (1, 1),
            AbsDir::NW => (-1, 1),
            AbsDir::SE => (1, -1),
            AbsDir::SW => (-1, -1),
        }
    }

    /// The opposite direction.
    pub const fn opposite(self) -> AbsDir {
        match self {
            AbsDir::N => AbsDir::S,
            AbsDir::S => AbsDir::N,
            AbsDir::E => AbsDir::W,
            AbsDir::W => AbsDir::E,
            AbsDir::NE => AbsDir::SW,
            AbsDir::NW => AbsDir::SE,
            AbsDir::SE => AbsDir::NW,
            AbsDir::SW => AbsDir::NE,
        }
    }

    /// Index 0..8.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The direction with this index.
    pub const fn from_index(i: usize) -> AbsDir {
        AbsDir::ALL[i & 7]
    }

    /// Whether the direction runs along a rank or a file.
    pub const fn is_orthogonal(self) -> bool {
        (self as u8) < 4
    }
}

/// A set of absolute directions, one bit each.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Hash)]
pub struct DirSet(pub u8);

impl DirSet {
    /// The empty set.
    pub const EMPTY: DirSet = DirSet(0);

    /// Whether `d` is in the set.
    #[inline]
    pub const fn contains(self, d: AbsDir) -> bool {
        self.0 & (1 << d as u8) != 0
    }

    /// Adds `d`.
    pub fn insert(&mut self, d: AbsDir) {
        self.0 |= 1 << d as u8;
    }

    /// Whether the set is empty.
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The directions in the set.
    pub fn iter(self) -> impl Iterator<Item = AbsDir> {
        AbsDir::ALL.into_iter().filter(move |d| self.contains(*d))
    }
}

/// Shifts every square of `bb` one step in `dir` on the 8-wide grid,
/// dropping squares that would wrap round the a/h edge or leave the grid.
#[inline]
pub const fn shift(bb: u64, dir: AbsDir) -> u64 {
    const NOT_A: u64 = !0x0101_0101_0101_0101;
    const NOT_H: u64 = !0x8080_8080_8080_8080;
    match dir {
        AbsDir::N => bb << 8,
        AbsDir::S => bb >> 8,
        AbsDir::E => (bb << 1) & NOT_A,
        AbsDir::W => (bb >> 1) & NOT_H,
        AbsDir::NE => (bb << 9) & NOT_A,
        AbsDir::NW => (bb << 7) & NOT_H,
        AbsDir::SE => (bb >> 7) & NOT_A,
        AbsDir::SW => (bb >> 9) & NOT_H,
    }
}
