//! Exit codes, in one place.

/// What the process reports to the shell.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Exit {
    /// Everything worked.
    Success = 0,
    /// The input was checked and found wanting (invalid variant, illegal move, failed check).
    Failure = 1,
    /// The command line itself was wrong.
    Usage = 2,
}
