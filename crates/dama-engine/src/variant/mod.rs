//! Variants by name or file: the built-in list, loading with `extends`, and
//! compiling with every check, including those that need the move generator.

mod compile;
mod load;

pub use load::*;
