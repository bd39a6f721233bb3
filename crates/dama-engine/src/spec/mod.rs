//! The variant format as written: plain serde structs that mirror the TOML
//! file, the table of its keys, and the diagnostics that report problems in it.

mod diagnostic;
mod format;
mod keys;

pub use diagnostic::{did_you_mean, Code, Diagnostic, Location, Severity};
pub use format::*;
pub use keys::*;
pub(crate) use keys::{keys_of, Kind};
