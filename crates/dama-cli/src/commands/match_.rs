//! `dama match` (being written)

use super::Ctx;
use crate::exit::Exit;

/// Arguments of `dama match`.
#[derive(Debug, clap::Args)]
pub struct MatchArgs {}

pub fn run(_ctx: &Ctx, _args: MatchArgs) -> Exit {
    eprintln!("error: `dama match` is not available in this build yet");
    Exit::Failure
}
