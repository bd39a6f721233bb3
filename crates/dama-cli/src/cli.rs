//! The command line, as clap sees it.

use crate::args::{OutputArgs, PositionArgs};
use clap::{Parser, Subcommand, ValueEnum};

/// Play, validate and test draughts variants whose rules live in TOML files.
///
/// Wherever a VARIANT is asked for, give a built-in id or alias (see
/// `dama variants`) or a path to your own .toml file.
#[derive(Debug, Parser)]
#[command(name = "dama", version, about, long_about = None, propagate_version = true)]
#[command(after_help = AFTER_HELP)]
pub struct Cli {
    /// When to use colors.
    #[arg(long, value_enum, default_value_t = ColorWhen::Auto, global = true)]
    pub color: ColorWhen,
    #[command(subcommand)]
    pub command: Command,
}

/// The end of `dama --help` (and the man page's EXTRA section).
/// The most threads any `--threads` takes: more than a machine has cores,
/// and each thread costs a stack and its own move lists.
pub const MAX_THREADS: u32 = 256;

/// `--threads` where 0 means one thread per core (perft, egtb build).
pub fn threads_or_per_core(s: &str) -> Result<usize, String> {
    parse_threads(s, true).map(|n| n as usize)
}

/// `--threads` where a number of threads is needed (match, tune).
pub fn threads(s: &str) -> Result<u32, String> {
    parse_threads(s, false)
}

/// Every `--threads`: one cap ([`MAX_THREADS`]) and one message.
fn parse_threads(s: &str, per_core: bool) -> Result<u32, String> {
    let range = if per_core {
        format!("0 (one per core) or 1 to {MAX_THREADS}")
    } else {
        format!("1 to {MAX_THREADS}")
    };
    match s.trim().parse::<u64>() {
        Ok(n) if (n >= 1 || per_core) && n <= u64::from(MAX_THREADS) => Ok(n as u32),
        _ => Err(format!("--threads takes {range} threads")),
    }
}

pub const AFTER_HELP: &str = "\
Exit codes: 0 success; 1 checked and failed (an invalid variant, an illegal move, a failed \
check, output that cannot be written); 2 a wrong command line (usage).

With --format json, a command that fails still writes one JSON document on stdout, \
{\"errors\": [...]}, and its message for people on stderr. Each error has severity, code (the \
E/W code of a variant file's finding, or one of fen, read, write, pdn-syntax, no-game, \
move-syntax, move-illegal, move-ambiguous, after-end, fen-tag, variant, result-mismatch, \
builtin), message, key, location ({file, line, column} or null) and help, as the diagnostics \
of `dama validate --format json`, which reports every finding in its own array.";

/// Colors on or off.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ColorWhen {
    /// Colors when writing to a terminal and NO_COLOR is unset.
    Auto,
    /// Always.
    Always,
    /// Never.
    Never,
}

/// Output formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum, Default)]
pub enum Format {
    /// For people.
    #[default]
    Text,
    /// For tools: JSON on stdout, a failure too (`{"errors": [...]}`, see `dama --help`).
    Json,
}

/// Perft counting modes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum, Default)]
pub enum Count {
    /// One per distinct move (origin, destination, captured pieces).
    #[default]
    Moves,
    /// One per capture path, as kish and most engines count.
    Paths,
    /// One per capture path, but a king going on along the same line counts once (dctl's tables).
    Jumps,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Play a game against a person or the computer.
    Play(crate::commands::play::PlayArgs),
    /// Check every move of a PDN game record and show the games.
    Replay(crate::commands::replay::ReplayArgs),
    /// Annotate every move of a PDN record with the engine's evaluation and best line, marking
    /// inaccuracies, mistakes and blunders; a summary, an annotated PDN record or JSON.
    Analyze(crate::commands::analyze::AnalyzeArgs),
    /// Play many games between engines (or an engine and a random mover) and report the score.
    Match(crate::commands::match_::MatchArgs),
    /// Tune the evaluation's weights on self-play games and write them to a weights file.
    Tune(crate::commands::tune::TuneArgs),
    /// Render rule cases, or check them against their stored snapshots.
    Cases(crate::commands::cases::CasesArgs),
    /// Draw a position (and optionally a move) as SVG.
    Diagram(crate::commands::diagram::DiagramArgs),
    /// Be an engine for GUIs and bots: speak the Hub protocol (Scan 3.x) on stdin and stdout.
    Hub(crate::commands::hub::HubArgs),
    /// Play over the network: the DamExchange protocol (DXP), as an engine that listens or as an initiator.
    Dxp(crate::commands::dxp::DxpArgs),
    /// A board in the browser: play, analyse and design variants (a local web server).
    Serve(crate::serve::ServeArgs),
    /// List the built-in variants.
    Variants {
        #[command(flatten)]
        output: OutputArgs,
    },
    /// Describe a variant's rules in words, with its initial position.
    Show {
        /// A built-in variant or a path to a .toml file.
        variant: String,
        #[command(flatten)]
        output: OutputArgs,
    },
    /// Check variant files and report every problem found.
    Validate {
        /// Variant files (or built-in ids).
        #[arg(required = true)]
        files: Vec<String>,
        #[command(flatten)]
        output: OutputArgs,
    },
    /// List the legal moves of a position.
    Moves {
        /// A built-in variant or a path to a .toml file.
        variant: String,
        #[command(flatten)]
        position: PositionArgs,
        #[command(flatten)]
        output: OutputArgs,
    },
    /// Count the leaves of the move tree (a move-generator check).
    Perft {
        /// A built-in variant or a path to a .toml file.
        variant: String,
        #[command(flatten)]
        position: PositionArgs,
        /// Depth in plies.
        #[arg(long, short)]
        depth: u32,
        /// Show the count below each legal move.
        #[arg(long)]
        divide: bool,
        /// What counts as one move.
        #[arg(long, value_enum, default_value_t)]
        count: Count,
        /// Worker threads (the subtrees below the first two plies are shared between them; 0: one per core).
        #[arg(long, default_value_t = 1, value_parser = threads_or_per_core)]
        threads: usize,
    },
    /// Endgame tables: build them, probe a position, show their statistics (docs/endgames.md).
    #[command(subcommand)]
    Egtb(EgtbCommand),
    /// Print a shell completion script: `dama completions bash > /etc/bash_completion.d/dama`.
    Completions {
        /// The shell.
        shell: clap_complete::Shell,
    },
    /// Print the manual page (roff): `dama man | man -l -`.
    Man,
}

/// `dama egtb ...`. Without --dir the tables live in $DAMA_EGTB_DIR, else
/// $XDG_DATA_HOME/dama/egtb, else ~/.local/share/dama/egtb, one subfolder
/// per variant id.
#[derive(Debug, Subcommand)]
pub enum EgtbCommand {
    /// Solve every material balance with up to N pieces (retrograde analysis);
    /// tables already built for the same rules are read, not rebuilt.
    Build {
        /// A built-in variant or a path to a .toml file.
        variant: String,
        /// The most pieces on the board (both sides): every material up to it.
        #[arg(long, required_unless_present = "material")]
        pieces: Option<u8>,
        /// Only this material (`KKK v K`: White's kings and men, then Black's) and
        /// the materials its captures and promotions lead to.
        #[arg(long, conflicts_with = "pieces", allow_hyphen_values = true)]
        material: Option<String>,
        /// With --material: build that slice alone, reading the tables it
        /// leads to from --dir (they must be built already); one task of a
        /// build spread over processes or machines (docs/scale.md).
        #[arg(long, requires = "material")]
        only: bool,
        /// The tables' folder.
        #[arg(long)]
        dir: Option<std::path::PathBuf>,
        /// The memory the build may use, in MiB (default: what the system has available).
        #[arg(long)]
        max_memory: Option<u64>,
        /// Worker threads (0: one per core).
        #[arg(long, default_value_t = 0, value_parser = threads_or_per_core)]
        threads: usize,
    },
    /// The value of a position (win, draw or loss for the side to move, and
    /// the distance to the end in plies), a best move and the line to the end.
    Probe {
        /// A built-in variant or a path to a .toml file.
        variant: String,
        /// The position, in PDN FEN.
        #[arg(long)]
        fen: String,
        /// The tables' folder.
        #[arg(long)]
        dir: Option<std::path::PathBuf>,
    },
    /// Positions, wins, draws, losses and the longest win, per material and per piece count.
    Stats {
        /// A built-in variant or a path to a .toml file.
        variant: String,
        /// Only this material (`KK v K`), by side to move, with and without a
        /// capture for the side to move, and a drawn position.
        #[arg(long, allow_hyphen_values = true)]
        material: Option<String>,
        /// The tables' folder.
        #[arg(long)]
        dir: Option<std::path::PathBuf>,
    },
}

#[cfg(test)]
mod tests {
    use clap::CommandFactory;

    use super::Cli;

    #[test]
    fn the_command_line_is_well_formed() {
        Cli::command().debug_assert();
    }

    /// Every command whose engine plays takes the engine flags of
    /// `EngineArgs`, with the same value names, types and help (issue 31).
    #[test]
    fn every_playing_command_takes_the_same_engine_flags() {
        let cli = Cli::command();
        let flags = ["level", "depth", "nodes", "movetime", "seed", "egtb", "eval", "search"];
        let commands = ["play", "match", "hub", "dxp", "analyze", "serve"];
        let describe = |command: &str, flag: &str| -> String {
            let sub = cli
                .find_subcommand(command)
                .unwrap_or_else(|| panic!("no command {command}"));
            let arg = sub
                .get_arguments()
                .find(|a| a.get_long() == Some(flag))
                .unwrap_or_else(|| panic!("`dama {command}` has no --{flag}"));
            format!(
                "{:?} {:?} {:?} {:?}",
                arg.get_help().map(|h| h.to_string()),
                arg.get_value_names(),
                arg.get_value_parser().type_id(),
                arg.get_default_values(),
            )
        };
        for flag in flags {
            let first = describe(commands[0], flag);
            for command in &commands[1..] {
                assert_eq!(describe(command, flag), first, "--{flag} of `dama {command}`");
            }
        }
    }
}
