//! `dama diagram` (being written)

use super::Ctx;
use crate::exit::Exit;

/// Arguments of `dama diagram`.
#[derive(Debug, clap::Args)]
pub struct DiagramArgs {}

pub fn run(_ctx: &Ctx, _args: DiagramArgs) -> Exit {
    eprintln!("error: `dama diagram` is not available in this build yet");
    Exit::Failure
}
