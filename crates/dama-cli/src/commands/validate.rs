//! `dama validate <file>...`: every problem of every file, then a verdict.
//!
//! A FILE may be a variant file, a directory (its `*.toml` files are
//! checked), a built-in id, or `-` for standard input. Exit 0 when every
//! file is valid (warnings allowed), 1 otherwise. Text output goes to
//! stderr; `--format json` prints one array on stdout with, per file,
//! `file`, `valid` and `diagnostics` (`severity`, `code`, `message`, `key`,
//! `location` {`file`, `line`, `column`}, `help`; absent fields are null).

use super::Ctx;
use crate::cli::Format;
use crate::exit::Exit;
use crate::out::outln;
use crate::render;
use crate::variant_files::{check, expand};

pub fn run(ctx: &Ctx, files: &[String], format: Format) -> Exit {
    let mut failed = false;
    let mut json = Vec::new();
    for f in expand(files) {
        let (ok, diags, sources) = check(&f);
        failed |= !ok;
        match format {
            Format::Json => json.push(render::validate::file_json(&f, ok, &diags)),
            Format::Text => render::validate::file_text(&f, ok, &diags, &sources, ctx.color_err),
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
