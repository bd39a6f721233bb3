//! Text from users, made safe to quote in a message or to put in a file name.

/// `s` shortened for a message (so that no hostile input is echoed back whole: rel, issue 7).
pub(crate) fn clip(s: &str) -> String {
    const MAX: usize = 40;
    if s.chars().count() <= MAX {
        s.chars().map(|c| if c.is_control() { '\u{fffd}' } else { c }).collect()
    } else {
        let head: String = s
            .chars()
            .take(MAX)
            .map(|c| if c.is_control() { '\u{fffd}' } else { c })
            .collect();
        format!("{head}…")
    }
}

/// `name` as a file name part: every character that is not an ASCII
/// letter, a digit, `-` or `_` becomes `_` (a variant id in a table folder
/// or an autosave's name).
///
/// ```
/// assert_eq!(dama_engine::file_safe_name("dama/x y"), "dama_x_y");
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
