//! `dama validate <file>...`

use dama_engine::{load, Diagnostic};

use super::Ctx;
use crate::cli::Format;
use crate::exit::Exit;
use crate::render;

pub fn run(ctx: &Ctx, files: &[String], format: Format) -> Exit {
    let mut failed = false;
    let mut json = Vec::new();
    for f in files {
        let (ok, diags, sources): (bool, Vec<Diagnostic>, _) = match load(f) {
            Ok(l) => (true, l.warnings, l.files),
            Err(e) => (false, e.diagnostics, e.files),
        };
        failed |= !ok;
        match format {
            Format::Json => json.push(serde_json::json!({"file": f, "valid": ok, "diagnostics": diags})),
            Format::Text => {
                for d in &diags {
                    eprint!("{}", render::diagnostic(d, &sources, ctx.color_err));
                }
                if ok {
                    let w = diags.len();
                    if w == 0 {
                        eprintln!("{f}: ok");
                    } else {
                        eprintln!("{f}: ok ({w} warning{})", if w == 1 { "" } else { "s" });
                    }
                } else {
                    let n = diags.iter().filter(|d| d.is_error()).count();
                    eprintln!("{f}: invalid ({n} error{})", if n == 1 { "" } else { "s" });
                }
            }
        }
    }
    if format == Format::Json {
        println!("{}", serde_json::to_string_pretty(&json).unwrap_or_default());
    }
    if failed {
        Exit::Failure
    } else {
        Exit::Success
    }
}
