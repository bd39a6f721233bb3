//! Text from users, made safe to quote in a message.

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
