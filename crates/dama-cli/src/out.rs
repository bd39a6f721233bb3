//! Standard output, for every command (issue 18).
//!
//! Everything a command prints on stdout goes through [`out!`] and
//! [`outln!`] (clippy's `disallowed_macros` refuses `print!` and
//! `println!` in this crate). A write never panics: the first error is
//! recorded, every later write is skipped, commands that loop ask
//! [`failed`] and stop early (returning success: the output layer has the
//! last word), and [`finish`] (after the last flush, in `commands::run`)
//! turns the error into the exit code: a reader that went away (a broken
//! pipe, `dama moves dama | head -1`) is no error of ours and leaves the
//! command's own code, quietly; any other (a full disk) is reported on
//! stderr and ends with [`Exit::Failure`].
//!
//! The output stays line-buffered, as `println!` was: interactive commands
//! (`play`, `hub`) show each line at once, and lines keep their order
//! with stderr's when both go to the same file.

use std::fmt;
use std::io::{self, Write};
use std::sync::Mutex;

use crate::exit::Exit;

/// The first write error, if any.
static ERROR: Mutex<Option<io::Error>> = Mutex::new(None);

/// Runs `f` on stdout unless an earlier write failed; records its error.
fn with_stdout(f: impl FnOnce(&mut io::StdoutLock<'static>) -> io::Result<()>) {
    let mut error = ERROR.lock().unwrap_or_else(|e| e.into_inner());
    if error.is_some() {
        return;
    }
    if let Err(e) = f(&mut io::stdout().lock()) {
        *error = Some(e);
    }
}

/// Writes formatted text (what [`out!`] and [`outln!`] expand to).
pub fn write_fmt(args: fmt::Arguments<'_>) {
    with_stdout(|w| w.write_fmt(args));
}

/// Writes bytes as they are.
pub fn write_bytes(bytes: &[u8]) {
    with_stdout(|w| w.write_all(bytes));
}

/// Flushes what is buffered (before reading input, after a protocol line).
pub fn flush() {
    with_stdout(|w| w.flush());
}

/// Whether a write has failed: a command that loops stops then.
pub fn failed() -> bool {
    ERROR.lock().unwrap_or_else(|e| e.into_inner()).is_some()
}

/// Flushes, then the exit code: the command's `code` when every write
/// worked or the reader went away (a broken pipe), else [`Exit::Failure`]
/// after saying on stderr why the output could not be written.
pub fn finish(code: Exit) -> Exit {
    flush();
    let error = ERROR.lock().unwrap_or_else(|e| e.into_inner()).take();
    match error {
        None => code,
        Some(e) if e.kind() == io::ErrorKind::BrokenPipe => code,
        Some(e) => {
            // stderr may be full as well: nothing more can be said then.
            let _ = writeln!(io::stderr(), "dama: cannot write the output: {e}");
            Exit::Failure
        }
    }
}

/// Like `print!`, through this layer.
macro_rules! out {
    ($($arg:tt)*) => {
        $crate::out::write_fmt(format_args!($($arg)*))
    };
}

/// Like `println!`, through this layer.
macro_rules! outln {
    () => {
        $crate::out::write_fmt(format_args!("\n"))
    };
    ($($arg:tt)*) => {
        $crate::out::write_fmt(format_args!("{}\n", format_args!($($arg)*)))
    };
}

pub(crate) use {out, outln};
