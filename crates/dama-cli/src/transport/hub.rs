//! The Hub protocol over standard input and output for `dama hub`: lines
//! read with bounded memory, answers written and flushed at once.

use std::io::BufRead;

use crate::exit::Exit;
use crate::line::read_line_bounded;
use crate::out::{self, outln};

/// Longest line read, in bytes (a `pos` with a whole game's moves fits many times over).
pub(crate) const MAX_LINE: usize = 64 * 1024;

/// A warning for the person on stderr (text from files shown printable).
pub(crate) fn warn(text: &str) {
    eprintln!("{}", dama_engine::text::printable_lines(text));
}

/// Writes one line and flushes it. Standard output closed means the GUI is
/// gone: quit quietly, as the protocol asks; any other write error (a full
/// disk) is reported, with exit code 1 (issue 18).
pub(crate) fn send(line: &str) {
    outln!("{line}");
    out::flush();
    if out::failed() {
        std::process::exit(out::finish(Exit::Success) as i32);
    }
}

/// A line read from standard input.
pub(crate) enum Line {
    Text(String),
    /// A line longer than [`MAX_LINE`] bytes (this many), read and dropped.
    TooLong(usize),
}

/// Reads one line, keeping at most [`MAX_LINE`] bytes of it in memory (the
/// rest of a longer line is read and dropped). `Ok(None)` at the end of input.
pub(crate) fn read_line(input: &mut impl BufRead, buf: &mut Vec<u8>) -> std::io::Result<Option<Line>> {
    let Some(read) = read_line_bounded(input, buf, MAX_LINE + 2)? else {
        return Ok(None);
    };
    let text = String::from_utf8_lossy(buf);
    let text = text.trim_end_matches(['\n', '\r']);
    if read.cut || text.len() > MAX_LINE {
        return Ok(Some(Line::TooLong(usize::try_from(read.bytes).unwrap_or(usize::MAX))));
    }
    Ok(Some(Line::Text(text.to_string())))
}
