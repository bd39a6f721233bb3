//! `dama variants`

use dama_engine::source::BUILTIN;
use dama_engine::Rules;
use dama_play::view::VariantSummary;

use super::Ctx;
use crate::cli::Format;
use crate::error::CliError;
use crate::exit::Exit;
use crate::json::Code;

pub fn run(ctx: &Ctx, format: Format) -> Exit {
    let mut rows = Vec::new();
    for (id, _) in BUILTIN {
        match Rules::builtin(id) {
            Ok(r) => rows.push(VariantSummary::new(&r)),
            Err(e) => {
                return CliError::failed(Code::Builtin, format!("built-in variant {id} does not load: {e}"))
                    .report(Some(ctx));
            }
        }
    }
    crate::render::variants::variants(&rows, format);
    Exit::Success
}
