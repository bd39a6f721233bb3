//! `dama dxp VARIANT --listen | --connect HOST:PORT`: the DamExchange
//! protocol (DXP) over TCP, as a follower (an engine that waits for games)
//! or as an initiator (which proposes a match of N games and writes them
//! to a PDN file). docs/dxp.md describes the protocol and the options.
//!
//! The messages, the square numbers, positions and moves, and the game
//! state machine (`DxpSession`) come from `dama_play::dxp`; the rules, the
//! end of a game and the search from the engine. This module is the
//! transport: it frames messages (NUL-terminated, bounded), keeps the
//! connection (a `DxpLink`), runs the match and writes its record.
//!
//! A peer that sends something that is not a DXP message gets a CHAT saying
//! why and the session goes on (stderr says so for the first
//! `MAX_REPORTED` of them, then counts the rest); one whose message has no
//! end in sight (more than `MAX_FRAME` bytes without a NUL, or not whole
//! within `MESSAGE_DEADLINE` of its first byte), that stays silent longer
//! than `--timeout`, that does not read what we send for as long, or that
//! breaks the connection is disconnected with a message on stderr. The
//! listener then waits for the next connection.

use std::path::PathBuf;
use std::sync::Arc;

use dama_play::dxp::{DxpBoard, DxpSettings, DXP_PORT};

use super::Ctx;
use crate::engine_setup::EngineArgs;
use crate::error::CliError;
use crate::exit::Exit;
use crate::transport::dxp::{initiate, listen, DxpOptions, MESSAGE_DEADLINE};

/// Arguments of `dama dxp`.
#[derive(Debug, clap::Args)]
#[command(after_help = "\
Speaks DamExchange (DXP) over TCP: GAMEREQ, GAMEACC, MOVE, GAMEEND, CHAT, BACKREQ, BACKACC. \
Squares are numbered in the standard order (1-50 on the international board). \
Examples: `dama dxp international --listen` (an engine on 127.0.0.1:27531); \
`dama dxp international --connect 127.0.0.1:27531 --games 10 --time 5 --pdn match.pdn`. \
See docs/dxp.md.")]
pub struct DxpArgs {
    /// A built-in variant or a path to a .toml file (its board must have at
    /// most 83 playable squares).
    #[arg(default_value = "international")]
    pub variant: String,
    /// Be a follower: wait for connections and play the games asked for.
    #[arg(long, conflicts_with = "connect", required_unless_present = "connect")]
    pub listen: bool,
    /// Be the initiator: connect to the engine at HOST:PORT and play a match.
    #[arg(long, value_name = "HOST:PORT")]
    pub connect: Option<String>,
    /// The address to listen on (with --listen).
    #[arg(long, default_value = "127.0.0.1", requires = "listen")]
    pub host: String,
    /// The port to listen on (with --listen; 0: any free port, printed on stderr).
    #[arg(long, default_value_t = DXP_PORT, requires = "listen")]
    pub port: u16,
    /// With --listen: stop after the first connection ends.
    #[arg(long, requires = "listen")]
    pub once: bool,
    /// The number of games of the match (the initiator alternates colours, White first).
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u32).range(1..=10_000))]
    pub games: u32,
    /// Thinking time per player and game, in minutes (sent in GAMEREQ; the engine spends it).
    #[arg(long, value_name = "MINUTES", default_value_t = 1, value_parser = clap::value_parser!(u16).range(0..=999))]
    pub time: u16,
    /// Start every game from this position (PDN FEN; sent in GAMEREQ).
    #[arg(long, requires = "connect")]
    pub fen: Option<String>,
    /// Write every game of the match to FILE (PDN).
    #[arg(long, value_name = "FILE", requires = "connect")]
    pub pdn: Option<PathBuf>,
    // The engine flags: any of --level, --depth, --nodes, --movetime
    // replaces spending the game's time.
    #[command(flatten)]
    pub engine: EngineArgs,
    /// The longest a game may last, in plies: then it is ended as a draw (at
    /// most 100000, the longest game a record may hold).
    #[arg(long, default_value_t = 400, value_parser = clap::value_parser!(u32).range(1..=dama_engine::Game::MAX_PLIES as i64))]
    pub max_plies: u32,
    /// Seconds to wait for the peer before giving up on it.
    #[arg(long, value_name = "SECONDS", default_value_t = 600, value_parser = clap::value_parser!(u64).range(1..))]
    pub timeout: u64,
    /// The name sent to the peer (cut to 32 characters).
    #[arg(long, default_value = "dama")]
    pub name: String,
    /// Print every message sent and received on stderr.
    #[arg(long, short)]
    pub verbose: bool,
    /// The longest one message may take to arrive once its first byte has,
    /// in milliseconds (hidden: the tests shorten it).
    #[arg(long, hide = true, value_name = "MS", default_value_t = MESSAGE_DEADLINE.as_millis() as u64,
          value_parser = clap::value_parser!(u64).range(1..))]
    pub message_deadline_ms: u64,
}

impl DxpArgs {
    /// How the session plays, from the command line.
    fn settings(&self) -> DxpSettings {
        let args = self;
        DxpSettings {
            name: args.name.clone(),
            time: args.time,
            max_plies: args.max_plies,
            limits: args.engine.has_limits().then(|| args.engine.limits().limits()),
        }
    }
}

pub fn run(ctx: &Ctx, args: DxpArgs) -> Exit {
    let loaded = match ctx.load_variant(&args.variant) {
        Ok(l) => l,
        Err(e) => return e,
    };
    let rules = Arc::new(loaded.rules.clone());
    let config = match args.engine.config(ctx, &rules) {
        Ok(c) => c,
        Err(e) => return e,
    };
    let board = match DxpBoard::new(Arc::clone(&rules)) {
        Ok(b) => b,
        Err(e) => {
            return CliError::system(format!("{} cannot be played over DXP: {e}", rules.id())).report(Some(ctx));
        }
    };
    let variant_file = dama_engine::source::builtin_text(&args.variant)
        .is_none()
        .then(|| args.variant.clone());
    let options = DxpOptions {
        host: args.host.clone(),
        port: args.port,
        once: args.once,
        games: args.games,
        pdn: args.pdn.clone(),
        timeout: args.timeout,
        message_deadline_ms: args.message_deadline_ms,
        verbose: args.verbose,
        name: args.name.clone(),
        settings: args.settings(),
    };
    match &args.connect {
        Some(addr) => {
            let start = match ctx.position(&loaded, args.fen.as_deref()) {
                Ok(p) => p,
                Err(e) => return e,
            };
            initiate(ctx, &options, &config, addr, board, start, variant_file)
        }
        None => listen(&options, &config, board),
    }
}
