//! `dama show <variant>`: the rules in words, generated from the compiled
//! rules, with the initial position. For a variant that extends another,
//! the settings its own file changes are listed first.

use std::io::Write;

use super::Ctx;
use crate::cli::Format;
use crate::exit::Exit;
use crate::out::out;
use crate::render;

pub fn run(ctx: &Ctx, variant: &str, format: Format) -> Exit {
    let loaded = match ctx.load_variant(variant) {
        Ok(l) => l,
        Err(e) => return e,
    };
    let mut err = std::io::stderr().lock();
    for w in &loaded.warnings {
        let _ = write!(err, "{}", render::diagnostic(w, &loaded.files, ctx.color_err));
    }
    out!("{}", render::show::variant(&loaded, format, ctx.color_out));
    Exit::Success
}
