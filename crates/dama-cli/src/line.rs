//! Reading input lines with bounded memory: a hostile line without a
//! newline must not fill the memory of a program that reads commands
//! (`dama play`, `dama hub`).

use std::io::BufRead;

/// What [`read_line_bounded`] read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LineRead {
    /// Whether the line (its line end included) was longer than the bytes
    /// kept, so that only its beginning is in the buffer.
    pub cut: bool,
    /// Characters in the whole line, its line end (`\n` or `\r\n`) excluded
    /// (UTF-8 lead bytes: exact for UTF-8 text, a close count for other bytes).
    pub chars: u64,
    /// Bytes in the whole line, its line end excluded.
    pub bytes: u64,
}

/// Reads one line into `buf` as `read_until(b'\n')` does, but keeps at most
/// `keep` bytes of it: the rest, however long, is read and dropped up to the
/// line end or the end of input. `Ok(None)` at the end of input (nothing read).
pub fn read_line_bounded(
    input: &mut impl BufRead,
    buf: &mut Vec<u8>,
    keep: usize,
) -> std::io::Result<Option<LineRead>> {
    buf.clear();
    let mut read = LineRead {
        cut: false,
        chars: 0,
        bytes: 0,
    };
    let (mut any, mut ends_cr) = (false, false);
    loop {
        let chunk = match input.fill_buf() {
            Ok(c) => c,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if chunk.is_empty() {
            break;
        }
        any = true;
        let (part, done) = match chunk.iter().position(|&b| b == b'\n') {
            Some(i) => (chunk.get(..=i).unwrap_or(chunk), true),
            None => (chunk, false),
        };
        let room = keep.saturating_sub(buf.len());
        if part.len() > room {
            read.cut = true;
        }
        buf.extend_from_slice(part.get(..room.min(part.len())).unwrap_or_default());
        let text = part.strip_suffix(b"\n").unwrap_or(part);
        read.chars += text.iter().filter(|&&b| b & 0xC0 != 0x80).count() as u64;
        read.bytes += text.len() as u64;
        if let Some(&last) = text.last() {
            ends_cr = last == b'\r';
        }
        let used = part.len();
        input.consume(used);
        if done {
            break;
        }
    }
    // A CR before the line end is part of the line end.
    read.chars -= u64::from(ends_cr);
    read.bytes -= u64::from(ends_cr);
    Ok(any.then_some(read))
}

/// [`read_line_bounded`] as text: the kept bytes without their line end,
/// bytes that are not UTF-8 shown as U+FFFD (they then fail as commands).
pub fn read_text_line(
    input: &mut impl BufRead,
    buf: &mut Vec<u8>,
    keep: usize,
) -> std::io::Result<Option<(String, LineRead)>> {
    Ok(read_line_bounded(input, buf, keep)?.map(|read| {
        (
            String::from_utf8_lossy(buf).trim_end_matches(['\n', '\r']).to_string(),
            read,
        )
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::{BufReader, Cursor};

    const LIMIT: usize = 1024;
    const KEEP: usize = LIMIT + 8;

    /// Every line of `input`, read through a small buffer so lines span several reads.
    fn lines(input: &[u8]) -> Vec<(String, LineRead)> {
        let mut r = BufReader::with_capacity(7, Cursor::new(input));
        let mut buf = Vec::new();
        let mut out = Vec::new();
        while let Some(read) = read_line_bounded(&mut r, &mut buf, KEEP).unwrap() {
            assert!(buf.len() <= KEEP, "kept {} bytes", buf.len());
            out.push((String::from_utf8_lossy(&buf).into_owned(), read));
        }
        out
    }

    #[test]
    fn short_lines_are_read_whole() {
        let got = lines(b"d3-d4\r\nundo\n\nlast");
        let text: Vec<&str> = got.iter().map(|(t, _)| t.as_str()).collect();
        assert_eq!(text, ["d3-d4\r\n", "undo\n", "\n", "last"]);
        assert!(got.iter().all(|(_, r)| !r.cut));
        let chars: Vec<u64> = got.iter().map(|(_, r)| r.chars).collect();
        assert_eq!(chars, [5, 4, 0, 4]);
        let bytes: Vec<u64> = got.iter().map(|(_, r)| r.bytes).collect();
        assert_eq!(bytes, [5, 4, 0, 4]);
        assert!(lines(b"").is_empty());
    }

    #[test]
    fn a_long_line_is_cut_and_the_next_line_read() {
        let mut input = "é".repeat(3000).into_bytes();
        input.extend_from_slice(b"\r\nd3-d4\n");
        let got = lines(&input);
        assert_eq!(got.len(), 2);
        assert!(got[0].1.cut);
        assert_eq!((got[0].1.chars, got[0].1.bytes), (3000, 6000));
        assert_eq!(got[1].0, "d3-d4\n");
        assert!(!got[1].1.cut);
        // A line of exactly the limit is kept whole.
        let mut input = vec![b'x'; LIMIT];
        input.extend_from_slice(b"\r\n");
        let got = lines(&input);
        assert!(!got[0].1.cut && got[0].0.len() == LIMIT + 2);
    }

    #[test]
    fn a_long_line_without_a_line_end_is_one_line() {
        let got = lines(&vec![b'x'; 100_000]);
        assert_eq!(got.len(), 1);
        assert!(got[0].1.cut);
        assert_eq!(got[0].1.chars, 100_000);
        assert_eq!(got[0].0.len(), KEEP);
    }
}
