//! Messages on standard error, for every command (issue 38).
//!
//! std's `eprint!` and `eprintln!` panic when stderr cannot be written
//! (`2>/dev/full`). This module, declared with `#[macro_use]` before every
//! other module of the crate, defines macros of the same names that ignore
//! the failure instead: they shadow std's everywhere in the crate (and
//! clippy's `disallowed_macros` refuses std's by path).

use std::fmt;
use std::io::{self, Write};

/// Writes formatted text on stderr, ignoring a failure: a message that
/// cannot be shown (stderr on a full disk, `2>/dev/full`) is no reason to
/// panic or to stop the command (issue 38; what [`eprint!`] and
/// [`eprintln!`] expand to).
pub fn write_err(args: fmt::Arguments<'_>) {
    let _ = io::stderr().lock().write_fmt(args);
}

/// Like std's `eprint!`, but a failed write is ignored instead of
/// panicking. Declared (with `#[macro_use]`) before every other module of
/// the crate, it shadows std's macro in all of them.
macro_rules! eprint {
    ($($arg:tt)*) => {
        $crate::stderr::write_err(format_args!($($arg)*))
    };
}

/// Like std's `eprintln!`, but a failed write is ignored instead of
/// panicking (see [`eprint!`]).
macro_rules! eprintln {
    () => {
        $crate::stderr::write_err(format_args!("\n"))
    };
    ($($arg:tt)*) => {
        $crate::stderr::write_err(format_args!("{}\n", format_args!($($arg)*)))
    };
}
