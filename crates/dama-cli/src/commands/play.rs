//! `dama play <variant>`: play a game at the terminal, against the computer
//! or another person (the game itself: `crate::repl`).

use std::path::PathBuf;

use super::Ctx;
use crate::engine_setup::EngineArgs;
use crate::exit::Exit;
use crate::repl::{self, PlayRequest, Player, Thinking};

/// Arguments of `dama play`.
#[derive(Debug, clap::Args)]
#[command(after_help = "\
During the game, type a move (`d3-d4`, `d4xd6xf6`, or just origin and destination when that is \
unambiguous) or a command: moves, hint, undo, redo, board, fen, save FILE, resign, draw, help, quit.

The game is saved after every move (to --save FILE, or to an autosave file in the current \
directory whose name is printed at the start); resume it with --load FILE. End of input saves and \
stops, so a script can feed moves on standard input.")]
pub struct PlayArgs {
    /// A built-in variant or a path to a .toml file (optional with --load:
    /// the record names its variant).
    pub variant: Option<String>,
    /// Who plays White [default: human, or the opposite of --black].
    #[arg(long, value_enum)]
    pub white: Option<Player>,
    /// Who plays Black [default: computer, or the opposite of --white].
    #[arg(long, value_enum)]
    pub black: Option<Player>,
    /// Start from this position (PDN FEN, `W:Wa2,b2,Kd4:Ba7,c7`).
    #[arg(long, conflicts_with = "load")]
    pub fen: Option<String>,
    /// Save the game to FILE after every move (refused if FILE exists: resume it with --load).
    #[arg(long, value_name = "FILE")]
    pub save: Option<PathBuf>,
    /// Resume the game saved in FILE (and keep saving to it unless --save says otherwise).
    #[arg(long, value_name = "FILE")]
    pub load: Option<PathBuf>,
    // Endgame tables (not saved with a game).
    #[command(flatten)]
    pub engine: EngineArgs,
    /// Show what the computer is thinking while it searches: its depth and
    /// best line so far (`auto`: when standard output is a terminal).
    #[arg(long, value_enum, default_value_t = Thinking::Auto)]
    pub thinking: Thinking,
}

pub fn run(ctx: &Ctx, args: PlayArgs) -> Exit {
    repl::start(
        ctx,
        &PlayRequest {
            variant: args.variant,
            white: args.white,
            black: args.black,
            fen: args.fen,
            save: args.save,
            load: args.load,
            engine: args.engine,
            thinking: args.thinking,
        },
    )
}
