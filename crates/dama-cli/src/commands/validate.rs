//! `dama validate <file>...`: every problem of every file, then a verdict.
//!
//! A FILE may be a variant file, a directory (its `*.toml` files are
//! checked), a built-in id, or `-` for standard input. Exit 0 when every
//! file is valid (warnings allowed), 1 otherwise. Text output goes to
//! stderr; `--format json` prints one array on stdout with, per file,
//! `file`, `valid` and `diagnostics` (`severity`, `code`, `message`, `key`,
//! `location` {`file`, `line`, `column`}, `help`; absent fields are null).

use std::io::Write;
use std::path::Path;

use dama_engine::source::read_text;
use dama_engine::{load, load_text, Diagnostic, LoadError, SourceFile};

use super::Ctx;
use crate::cli::Format;
use crate::exit::Exit;
use crate::out::outln;
use crate::render;

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

/// Directories stand for the `.toml` files in them, in name order.
fn expand(args: &[String]) -> Vec<String> {
    let mut out = Vec::new();
    for a in args {
        let p = Path::new(a);
        if a != "-" && p.is_dir() {
            let mut found: Vec<String> = std::fs::read_dir(p)
                .into_iter()
                .flatten()
                .flatten()
                .map(|e| e.path())
                .filter(|p| p.extension().is_some_and(|e| e == "toml") && p.is_file())
                .map(|p| p.display().to_string())
                .collect();
            found.sort();
            if found.is_empty() {
                // Let the loader say what is wrong with it.
                out.push(a.clone());
            }
            out.extend(found);
        } else {
            out.push(a.clone());
        }
    }
    out
}

fn check(f: &str) -> (bool, Vec<Diagnostic>, Vec<SourceFile>) {
    let result = if f == "-" {
        match read_text("<stdin>", std::io::stdin().lock()) {
            Ok(text) => load_text("<stdin>", &text, None),
            Err(d) => Err(LoadError {
                diagnostics: vec![*d],
                files: vec![],
            }),
        }
    } else {
        load(f)
    };
    match result {
        Ok(l) => (true, l.warnings, l.files),
        Err(e) => (false, e.diagnostics, e.files),
    }
}
