//! `dama play` (being written)

use super::Ctx;
use crate::exit::Exit;

/// Arguments of `dama play`.
#[derive(Debug, clap::Args)]
pub struct PlayArgs {}

pub fn run(_ctx: &Ctx, _args: PlayArgs) -> Exit {
    eprintln!("error: `dama play` is not available in this build yet");
    Exit::Failure
}
