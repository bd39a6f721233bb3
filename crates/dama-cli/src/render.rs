//! Rendering for people: diagnostics with source snippets, boards.

use std::io::IsTerminal;

use dama_engine::{Color, Diagnostic, Piece, Position, Rules, Severity, SourceFile, Square};

use crate::cli::ColorWhen;

/// Whether to color output on this stream.
pub fn use_color(when: ColorWhen, stream_is_tty: bool) -> bool {
    match when {
        ColorWhen::Always => true,
        ColorWhen::Never => false,
        ColorWhen::Auto => stream_is_tty && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty()),
    }
}

/// Whether stderr is a terminal.
pub fn stderr_tty() -> bool {
    std::io::stderr().is_terminal()
}

/// Whether stdout is a terminal.
pub fn stdout_tty() -> bool {
    std::io::stdout().is_terminal()
}

fn paint(s: &str, code: &str, color: bool) -> String {
    if color {
        format!("\x1b[{code}m{s}\x1b[0m")
    } else {
        s.to_string()
    }
}

/// Longest stretch of a source line shown in a snippet, in characters.
const SNIPPET_WIDTH: usize = 100;

/// A diagnostic as a compiler would print it: header, location, the source
/// line with a caret under the offending text, and the help. Long lines are
/// cut to a window around the caret; control characters are shown as `�`.
pub fn diagnostic(d: &Diagnostic, files: &[SourceFile], color: bool) -> String {
    let (label, code) = match d.severity {
        Severity::Error => ("error", "1;31"),
        Severity::Warning => ("warning", "1;33"),
    };
    let mut out = format!(
        "{}: {}\n",
        paint(&format!("{label}[{}]", d.code), code, color),
        d.message
    );
    let mut pad = String::from("  ");
    if let Some(loc) = &d.location {
        let snippet = files
            .iter()
            .find(|f| f.name == loc.file)
            .and_then(|f| Some((f, f.text.lines().nth(loc.line.checked_sub(1)?)?)));
        if snippet.is_some() {
            pad = " ".repeat(loc.line.to_string().len() + 1);
        }
        out.push_str(&format!("{}--> {}:{}:{}\n", &pad[1..], loc.file, loc.line, loc.column));
        if let Some((f, line)) = snippet {
            let chars: Vec<char> = line
                .chars()
                .map(|c| match c {
                    '\t' => ' ',
                    c if c.is_control() => '\u{fffd}',
                    c => c,
                })
                .collect();
            let col = loc.column.saturating_sub(1).min(chars.len());
            // The span's length in characters, kept to this line.
            let span_text = f.text.get(loc.span.clone()).unwrap_or("");
            let len = span_text.lines().next().map_or(0, |l| l.chars().count());
            let len = len.clamp(1, (chars.len() - col).max(1));
            let start = if chars.len() <= SNIPPET_WIDTH {
                0
            } else {
                col.saturating_sub(SNIPPET_WIDTH / 3).min(chars.len() - SNIPPET_WIDTH)
            };
            let end = (start + SNIPPET_WIDTH).min(chars.len());
            let mut shown: String = chars[start..end].iter().collect();
            let mut caret_at = col - start;
            if start > 0 {
                shown.insert(0, '…');
                caret_at += 1;
            }
            if end < chars.len() {
                shown.push('…');
            }
            let len = len.min(SNIPPET_WIDTH.saturating_sub(col - start)).max(1);
            let num = loc.line.to_string();
            out.push_str(&format!(
                "{pad}|\n{num} | {}\n{pad}| {}{}\n",
                shown.trim_end(),
                " ".repeat(caret_at),
                paint(&"^".repeat(len), code, color)
            ));
        }
    } else if let Some(k) = &d.key {
        out.push_str(&format!("{}--> key `{k}`\n", &pad[1..]));
    }
    if let Some(h) = &d.help {
        out.push_str(&format!("{pad}= help: {h}\n"));
    }
    out
}

/// Draws `pos` with coordinates. `marks` are squares to highlight (the last
/// move): they are bracketed, so the marking does not depend on color.
pub fn board(rules: &Rules, pos: &Position, marks: &[Square], color: bool) -> String {
    let (w, h) = (rules.width(), rules.height());
    let mut out = String::new();
    for r in (0..h).rev() {
        out.push_str(&format!("{:>2} ", r + 1));
        for f in 0..w {
            let Some(sq) = Square::new(f, r) else { continue };
            let playable = rules.board() & sq.bit() != 0;
            let ch = match pos.piece_at(sq) {
                Some(Piece::Man(Color::White)) => "w",
                Some(Piece::King(Color::White)) => "W",
                Some(Piece::Man(Color::Black)) => "b",
                Some(Piece::King(Color::Black)) => "B",
                None if playable => ".",
                None => " ",
            };
            let styled = match pos.piece_at(sq).map(|p| p.color()) {
                Some(Color::White) => paint(ch, "1;97", color),
                Some(Color::Black) => paint(ch, "1;31", color),
                None => paint(ch, "2", color),
            };
            if marks.contains(&sq) {
                out.push('[');
                out.push_str(&styled);
                out.push(']');
            } else {
                out.push(' ');
                out.push_str(&styled);
                out.push(' ');
            }
        }
        out.push('\n');
    }
    out.push_str("   ");
    for f in 0..w {
        out.push_str(&format!(" {} ", (b'a' + f) as char));
    }
    out.push('\n');
    out
}
