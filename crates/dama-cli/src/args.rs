//! The argument groups commands share (`#[command(flatten)]`), so that a
//! flag means the same, with the same type and help, in every command that
//! takes it: the output format, a position given as FEN. The engine flags
//! are `engine_setup::EngineArgs`, beside what turns them into an engine.

use dama_engine::FenOptions;

use crate::cli::Format;

/// `--format`.
#[derive(Debug, Clone, Copy, Default, clap::Args)]
pub struct OutputArgs {
    /// Output format.
    #[arg(long, value_enum, default_value_t)]
    pub format: Format,
}

/// `--fen` and `--allow-men-on-promotion-rank`, for a command that looks
/// at one position.
#[derive(Debug, Clone, Default, clap::Args)]
pub struct PositionArgs {
    /// The position, in PDN FEN (`W:Wa2,b2,Kd4:Ba7,c7`); default: the initial position.
    #[arg(long)]
    pub fen: Option<String>,
    /// Accept men on their own promotion rank in --fen (study positions):
    /// they stay men until a move crowns them.
    #[arg(long, requires = "fen")]
    pub allow_men_on_promotion_rank: bool,
}

impl PositionArgs {
    /// The FEN reader's options these flags ask for.
    pub fn fen_options(&self) -> FenOptions {
        FenOptions {
            allow_men_on_promotion_rank: self.allow_men_on_promotion_rank,
        }
    }
}
