//! Rendering for people: diagnostics with source snippets, boards.

use std::io::IsTerminal;

use dama_engine::pdn::PdnError;
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
                    c => dama_engine::text::shown_char(c),
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

/// `head` and then `words`, separated by spaces and wrapped before `width`
/// columns, never inside a word; continuation lines are indented.
pub fn wrapped(head: &str, words: &[String], width: usize) -> String {
    let mut out = String::from(head);
    let mut col = head.chars().count();
    for w in words {
        let len = w.chars().count();
        if col + 1 + len > width && col > 2 {
            out.push_str("\n ");
            col = 1;
        }
        out.push(' ');
        out.push_str(w);
        col += 1 + len;
    }
    out.push('\n');
    out
}

/// Draws `pos` with coordinates. `marks` are squares to highlight (the last
/// move): they are bracketed, so the marking does not depend on color; the
/// empty squares of `captured` (where the last move took pieces) show `x`.
/// In color, White's pieces are in reverse video and Black's in red, which
/// read on light and dark terminals alike.
pub fn board(rules: &Rules, pos: &Position, marks: &[Square], captured: &[Square], color: bool) -> String {
    let (w, h) = (rules.width(), rules.height());
    let mut out = String::new();
    for r in (0..h).rev() {
        out.push_str(&format!("{:>2} ", r + 1));
        for f in 0..w {
            let Some(sq) = Square::new(f, r) else { continue };
            let playable = rules.board().contains(sq);
            let ch = match pos.piece_at(sq) {
                Some(Piece::Man(Color::White)) => "w",
                Some(Piece::King(Color::White)) => "W",
                Some(Piece::Man(Color::Black)) => "b",
                Some(Piece::King(Color::Black)) => "B",
                None if playable && captured.contains(&sq) => "x",
                None if playable => ".",
                None => " ",
            };
            let styled = match pos.piece_at(sq).map(|p| p.color()) {
                Some(Color::White) => paint(ch, "1;7", color),
                Some(Color::Black) => paint(ch, "1;31", color),
                None if ch == "x" => paint(ch, "33", color),
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

/// At most 100 characters of `src` around 1-based `column` (cut ends marked
/// `…`, control characters shown as `�`), and the column within that window.
fn window(src: &str, column: usize) -> (String, usize) {
    const WIDTH: usize = 100;
    let chars: Vec<char> = src.chars().map(dama_engine::text::shown_char).collect();
    let col = column.saturating_sub(1).min(chars.len());
    if chars.len() <= WIDTH {
        return (chars.into_iter().collect(), column);
    }
    let start = col.saturating_sub(WIDTH / 3).min(chars.len() - WIDTH);
    let end = start + WIDTH;
    let mut shown: String = chars[start..end].iter().collect();
    let mut at = col - start + 1;
    if start > 0 {
        shown.insert(0, '…');
        at += 1;
    }
    if end < chars.len() {
        shown.push('…');
    }
    (shown, at)
}

/// A PDN error with the line of the record and a caret under the column:
/// the message once, then `--> file:line:column` (the message's own
/// "line L, column C: " prefix is not repeated).
pub fn pdn_error(name: &str, text: &str, e: &PdnError, color: bool) -> String {
    use std::fmt::Write as _;
    let mut out = String::new();
    let (line, column) = e.position();
    let label = if color { "\x1b[1;31merror\x1b[0m" } else { "error" };
    // The message without its own "line L, column C: " prefix.
    let msg = e.to_string();
    let msg = msg.split_once(": ").map_or(msg.as_str(), |(_, m)| m);
    let _ = writeln!(out, "{label}: {msg}");
    let _ = writeln!(out, "  --> {name}:{line}:{column}");
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    if let Some(src) = text.lines().nth(line.saturating_sub(1)) {
        let src = src.trim_end_matches('\r');
        // (rel, issue 7) A hostile record can be one 10 MB line: show a
        // window of it around the column, as render::diagnostic does.
        let (src, column) = window(src, column);
        let src = src.as_str();
        let num = line.to_string();
        let pad = " ".repeat(num.len());
        let width = match e {
            PdnError::Move { .. } | PdnError::AfterEnd { .. } => src
                .chars()
                .skip(column.saturating_sub(1))
                .take_while(|c| !c.is_whitespace())
                .count()
                .max(1),
            _ => 1,
        };
        let caret = "^".repeat(width);
        let caret = if color {
            format!("\x1b[1;31m{caret}\x1b[0m")
        } else {
            caret
        };
        let _ = writeln!(
            out,
            "{pad} |\n{num} | {src}\n{pad} | {}{caret}",
            " ".repeat(column.saturating_sub(1))
        );
    }
    out
}
pub mod analysis;
pub mod diagram;
pub mod egtb;
pub mod match_report;
pub mod moves;
pub mod perft;
pub mod replay;
pub mod rules_text;
pub mod show;
pub mod tune;
pub mod validate;
pub mod variants;
