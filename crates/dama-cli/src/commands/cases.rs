//! `dama cases` (being written)

use super::Ctx;
use crate::exit::Exit;

/// Arguments of `dama cases`.
#[derive(Debug, clap::Args)]
pub struct CasesArgs {}

pub fn run(_ctx: &Ctx, _args: CasesArgs) -> Exit {
    eprintln!("error: `dama cases` is not available in this build yet");
    Exit::Failure
}
