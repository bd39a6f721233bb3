//! `dama validate <file>...`: every problem of every file, then a verdict.
//!
//! A FILE may be a variant file, a directory (its `*.toml` files are
//! checked), a built-in id, or `-` for standard input. Exit 0 when every
//! file is valid (warnings allowed), 1 otherwise. Text output goes to
//! stderr; `--format json` prints one array on stdout with, per file,
//! `file`, `valid` and `diagnostics` (`severity`, `code`, `message`, `key`,
//! `location` {`file`, `line`, `column`}, `help`; absent fields are null).

use std::io::Write;

use super::Ctx;
use crate::cli::Format;
use crate::exit::Exit;
use crate::out::outln;
use crate::render;
use crate::variant_files::{check, expand};

pub fn run(ctx: &Ctx, files: &[String], format: Format) -> Exit {
    let mut failed = false;
    let mut json = Vec::new();
    let mut err = std::io::stderr().lock();
    for f in expand(files) {
        let (ok, diags, sources) = check(&f);
        failed |= !ok;
        match format {
            Format::Json => json.push(serde_json::json!({"file": f, "valid": ok, "diagnostics": diags})),
            Format::Text => {
                // Write errors (a closed pipe) are ignored: the exit code still tells.
                for d in &diags {
                    let _ = write!(err, "{}", render::diagnostic(d, &sources, ctx.color_err));
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
        }
    }
    if format == Format::Json {
        let text = serde_json::to_string_pretty(&json).unwrap_or_default();
        outln!("{text}");
    }
    if failed {
        Exit::Failure
    } else {
        Exit::Success
    }
}
