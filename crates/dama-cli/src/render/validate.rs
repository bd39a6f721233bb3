//! What `dama validate` shows of each file: its findings with their
//! snippets and a verdict on stderr, or the file's entry of the JSON array.

use std::io::Write;

use dama_engine::{Diagnostic, SourceFile};

use crate::render;

/// A file's findings and its verdict, written to stderr (a write error, a
/// closed pipe, is ignored: the exit code still tells).
pub(crate) fn file_text(f: &str, ok: bool, diags: &[Diagnostic], sources: &[SourceFile], color: bool) {
    let mut err = std::io::stderr().lock();
    for d in diags {
        let _ = write!(err, "{}", render::diagnostic(d, sources, color));
    }
    let errors = diags.iter().filter(|d| d.is_error() && d.code != "E0005").count();
    let warnings = diags.iter().filter(|d| !d.is_error()).count();
    // E0005 notes that the report was cut short.
    let more = if diags.iter().any(|d| d.code == "E0005") {
        "+"
    } else {
        ""
    };
    let plural = |n: usize, w: &str| format!("{n} {w}{}", if n == 1 { "" } else { "s" });
    let errors = if more.is_empty() {
        plural(errors, "error")
    } else {
        format!("{errors}{more} errors")
    };
    let verdict = match (ok, warnings) {
        (true, 0) => "ok".to_string(),
        (true, w) => format!("ok ({})", plural(w, "warning")),
        (false, 0) => format!("invalid ({errors})"),
        (false, w) => format!("invalid ({errors}, {})", plural(w, "warning")),
    };
    let _ = writeln!(err, "{f}: {verdict}");
}

/// A file's entry in `--format json`'s array.
pub(crate) fn file_json(f: &str, ok: bool, diags: &[Diagnostic]) -> serde_json::Value {
    serde_json::json!({"file": f, "valid": ok, "diagnostics": diags})
}
