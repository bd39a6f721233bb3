//! Snapshot files: a case's rendering stored next to it in insta's format.

use std::path::{Path, PathBuf};

/// Where the snapshot of a case lives: next to it, `<stem>.snap`. The file is
/// in insta's format (a `---` header, then the rendering), so the test
/// harness and `dama cases --check` read and write the same files.
pub fn snapshot_path(case_path: &Path) -> PathBuf {
    case_path.with_extension("snap")
}

/// The rendering stored in a snapshot file: the text after insta's `---`
/// header (the whole text when there is no header), without trailing blanks.
pub fn snapshot_body(file_text: &str) -> &str {
    let text = file_text.strip_prefix('\u{feff}').unwrap_or(file_text);
    let mut lines = text.split_inclusive('\n');
    let first = lines.next().unwrap_or("");
    if first.trim_end() != "---" {
        return text.trim_end();
    }
    let mut consumed = first.len();
    for l in lines {
        consumed += l.len();
        if l.trim_end() == "---" {
            return text[consumed..].trim_end();
        }
    }
    // An unterminated header: nothing after it.
    ""
}

/// The header of a snapshot file (through the closing `---` line), if it has one.
pub fn snapshot_header(file_text: &str) -> Option<&str> {
    let mut lines = file_text.split_inclusive('\n');
    let first = lines.next()?;
    if first.trim_end() != "---" {
        return None;
    }
    let mut consumed = first.len();
    for l in lines {
        consumed += l.len();
        if l.trim_end() == "---" {
            return Some(&file_text[..consumed]);
        }
    }
    None
}

/// A snapshot file for `body`: `header` when given (an existing file's, kept
/// so that rewriting does not churn), else a minimal insta-style header.
pub fn snapshot_file(header: Option<&str>, input_file: &str, body: &str) -> String {
    let header = match header {
        Some(h) => h.to_string(),
        None => format!("---\nsource: dama cases\ninput_file: {input_file}\n---\n"),
    };
    format!("{header}{}\n", body.trim_end())
}

/// Whether a rendering equals the body of a snapshot file.
pub fn snapshot_matches(file_text: &str, rendered: &str) -> bool {
    snapshot_body(file_text) == rendered.trim_end()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn snapshot_files_round_trip() {
        let f = snapshot_file(None, "x.toml", "a\nb\n\n");
        assert_eq!(snapshot_body(&f), "a\nb");
        assert!(snapshot_matches(&f, "a\nb\n"));
        assert_eq!(
            snapshot_header(&f),
            Some("---\nsource: dama cases\ninput_file: x.toml\n---\n")
        );
        assert_eq!(snapshot_body("plain\n"), "plain");
    }
}
