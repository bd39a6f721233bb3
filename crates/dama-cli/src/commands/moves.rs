//! `dama moves <variant>`

use dama_engine::FenOptions;

use super::Ctx;
use crate::cli::Format;
use crate::exit::Exit;

pub fn run(ctx: &Ctx, variant: &str, fen: Option<&str>, fen_options: FenOptions, format: Format) -> Exit {
    let loaded = match ctx.load_variant(variant) {
        Ok(l) => l,
        Err(e) => return e,
    };
    let r = &loaded.rules;
    let pos = match ctx.position_with(&loaded, fen, fen_options) {
        Ok(p) => p,
        Err(e) => return e,
    };
    crate::render::moves::legal_moves(r, &pos, format);
    Exit::Success
}
