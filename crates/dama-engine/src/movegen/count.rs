//! How perft and the move counter count.

/// How moves are counted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, strum::Display, strum::EnumString, strum::VariantNames)]
#[strum(serialize_all = "lowercase")]
pub enum CountMode {
    /// One per distinct move (origin, destination, captured set).
    Moves,
    /// One per distinct capture path, as kish and most other engines count:
    /// a king that touches down on c3 or on d4 before taking the next piece
    /// along the same line makes two paths.
    Paths,
    /// One per distinct capture path, except that a king going on along
    /// the same line counts once, whichever square it touched down on in
    /// between (the squares where it turns, and where it stops, still tell
    /// paths apart). This is how dctl's test suite counts ("keep
    /// duplicates"); it differs from [`CountMode::Paths`] only where a
    /// flying king takes two pieces on one line with room between them.
    Jumps,
}

impl CountMode {
    /// How many leaves a move with `paths` paths (counted in this mode)
    /// stands for.
    #[inline(always)]
    pub fn weight(self, paths: u32) -> u64 {
        match self {
            CountMode::Moves => 1,
            CountMode::Paths | CountMode::Jumps => paths as u64,
        }
    }

    /// Whether paths are counted as [`CountMode::Jumps`] counts them.
    #[inline(always)]
    pub(crate) fn jumps(self) -> bool {
        self == CountMode::Jumps
    }
}
