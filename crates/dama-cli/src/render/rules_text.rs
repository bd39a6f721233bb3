//! A variant's rules for the terminal (`dama show`): sentences wrapped to
//! the width of a line, values on one line.

use dama_engine::text::printable_lines;

/// `text` wrapped at 80 columns, the first line after `first`, the others after `rest`.
pub(crate) fn wrap(text: &str, first: &str, rest: &str) -> String {
    const WIDTH: usize = 80;
    let mut out = String::from(first);
    let mut col = first.chars().count();
    let mut line_start = true;
    for word in text.split_whitespace() {
        let len = word.chars().count();
        if !line_start && col + 1 + len > WIDTH {
            out.push('\n');
            out.push_str(rest);
            col = rest.chars().count();
            line_start = true;
        }
        if !line_start {
            out.push(' ');
            col += 1;
        }
        out.push_str(word);
        col += len;
        line_start = false;
    }
    out
}

/// A value as written, on one line and not too long.
pub(crate) fn one_line(v: &str) -> String {
    let flat: String = printable_lines(v).split_whitespace().collect::<Vec<_>>().join(" ");
    if flat.chars().count() > 70 {
        let head: String = flat.chars().take(70).collect();
        format!("{head}…")
    } else {
        flat
    }
}
