//! `dama replay` (being written)

use super::Ctx;
use crate::exit::Exit;

/// Arguments of `dama replay`.
#[derive(Debug, clap::Args)]
pub struct ReplayArgs {}

pub fn run(_ctx: &Ctx, _args: ReplayArgs) -> Exit {
    eprintln!("error: `dama replay` is not available in this build yet");
    Exit::Failure
}
