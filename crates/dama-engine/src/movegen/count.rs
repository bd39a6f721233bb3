//! How perft and the move counter count.

/// How moves are counted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, strum::Display, strum::EnumString, strum::VariantNames)]
#[strum(serialize_all = "lowercase")]
pub enum CountMode {
    /// One per distinct move (origin, destination, captured set).
    Moves,
    /// One per distinct capture path, as kish and most other engines count.
    Paths,
}
