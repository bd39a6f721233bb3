//! Absolute directions on the board, and sets of them.

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

    /// The direction seen in a mirror along the files (left and right
    /// swapped: E and W, NE and NW, SE and SW).
    pub const fn mirrored(self) -> AbsDir {
        match self {
            AbsDir::N => AbsDir::N,
            AbsDir::S => AbsDir::S,
            AbsDir::E => AbsDir::W,
            AbsDir::W => AbsDir::E,
            AbsDir::NE => AbsDir::NW,
            AbsDir::NW => AbsDir::NE,
            AbsDir::SE => AbsDir::SW,
            AbsDir::SW => AbsDir::SE,
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

    /// The set seen in a mirror along the files ([`AbsDir::mirrored`]).
    pub fn mirrored(self) -> DirSet {
        let mut out = DirSet::EMPTY;
        for d in self.iter() {
            out.insert(d.mirrored());
        }
        out
    }

    /// The directions in the set.
    pub fn iter(self) -> impl Iterator<Item = AbsDir> {
        AbsDir::ALL.into_iter().filter(move |d| self.contains(*d))
    }
}
