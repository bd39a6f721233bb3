//! Text from users, made safe to quote in a message, to print on a
//! terminal or to put in a file name.

use std::borrow::Cow;

/// A character of text from a user or a peer as it is shown to a person:
/// a control character (an escape sequence's ESC, a bell, a carriage
/// return, ...) as `�`, so that the text cannot drive the terminal it is
/// printed on; every other character as it is. The one rule behind
/// [`clip`], [`printable`] and [`printable_lines`] (issue 38).
///
/// ```
/// assert_eq!(dama_engine::text::shown_char('\u{1b}'), '\u{fffd}');
/// assert_eq!(dama_engine::text::shown_char('é'), 'é');
/// ```
pub fn shown_char(c: char) -> char {
    if c.is_control() {
        '\u{fffd}'
    } else {
        c
    }
}

/// `s` safe to print on a terminal on one line: every control character,
/// line breaks included, shown as `�` (a peer's chat line, a name, a tag).
///
/// ```
/// assert_eq!(dama_engine::text::printable("a\u{1b}[2Jb\n"), "a\u{fffd}[2Jb\u{fffd}");
/// assert_eq!(dama_engine::text::printable("plain"), "plain");
/// ```
pub fn printable(s: &str) -> Cow<'_, str> {
    if s.chars().any(char::is_control) {
        Cow::Owned(s.chars().map(shown_char).collect())
    } else {
        Cow::Borrowed(s)
    }
}

/// `s` safe to print on a terminal as lines: as [`printable`], but the line
/// breaks (`\n`) stay and a tab is a space (a description, a rendered case).
///
/// ```
/// assert_eq!(dama_engine::text::printable_lines("a\tb\n\u{1b}]0;x\u{7}"), "a b\n\u{fffd}]0;x\u{fffd}");
/// ```
pub fn printable_lines(s: &str) -> Cow<'_, str> {
    if s.chars().any(|c| c.is_control() && c != '\n') {
        Cow::Owned(
            s.chars()
                .map(|c| match c {
                    '\n' => '\n',
                    '\t' => ' ',
                    c => shown_char(c),
                })
                .collect(),
        )
    } else {
        Cow::Borrowed(s)
    }
}

/// `s` shortened for a message (so that no hostile input is echoed back
/// whole: rel, issue 7), control characters shown as [`shown_char`] does.
pub fn clip(s: &str) -> String {
    const MAX: usize = 40;
    if s.chars().count() <= MAX {
        s.chars().map(shown_char).collect()
    } else {
        let head: String = s.chars().take(MAX).map(shown_char).collect();
        format!("{head}…")
    }
}

/// `name` as a file name part: every character that is not an ASCII
/// letter, a digit, `-` or `_` becomes `_` (a variant id in a table folder
/// or an autosave's name).
///
/// ```
/// assert_eq!(dama_engine::text::file_safe_name("dama/x y"), "dama_x_y");
/// ```
pub fn file_safe_name(name: &str) -> String {
    name.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect()
}
