//! `dama hub [VARIANT]`: the engine side of the Hub protocol (version 2, as
//! spoken by Scan 3.x and the Hub GUI), so that GUIs and bots can use the
//! computer opponent for any variant, a user's TOML file included.
//!
//! One command per line on standard input, one reply per line on standard
//! output (flushed at once). The position string, the move format and every
//! command are described in docs/hub.md. This module is the transport:
//! reading bounded lines and writing them; the session (what each command
//! does, the search thread) is the play tier's `dama_play::hub::HubSession`.

use std::sync::Arc;

use dama_play::hub::{HubFlow, HubIo, HubSession};
use dama_play::{check_tables, EngineConfig};

use super::Ctx;
use crate::engine_setup::{weights_arg, EngineArgs};
use crate::error::CliError;
use crate::exit::Exit;
use crate::transport::hub::{read_line, send, warn, Line, MAX_LINE};

/// Arguments of `dama hub`.
#[derive(Debug, clap::Args)]
#[command(after_help = "\
Speaks the Hub protocol (Scan 3.x, Hub GUI) on standard input and output: `hub`, `set-param`, \
`init`, `pos`, `level`, `go`, `stop`, `ping`, `new-game`, `quit`. The variant can also be chosen \
with `set-param name=variant value=ID` or `set-param name=variant-file value=\"PATH\"`, and \
endgame tables with `set-param name=egtb value=\"DIR\"` (empty: none). \
See docs/hub.md for the position string and the move format.")]
pub struct HubArgs {
    /// A built-in variant or a path to a .toml file [default: dama].
    pub variant: Option<String>,
    // The engine flags: the limits until `level` says otherwise, the tables
    // as `set-param name=egtb value="DIR"`, the seed, weights and search
    // switches of every engine the session builds.
    #[command(flatten)]
    pub engine: EngineArgs,
}

pub fn run(ctx: &Ctx, args: HubArgs) -> Exit {
    let name = args.variant.unwrap_or_else(|| "dama".to_string());
    let loaded = match ctx.load_variant(&name) {
        Ok(l) => l,
        Err(e) => return e,
    };
    let is_file = dama_engine::source::builtin_text(&name).is_none();
    let base = EngineConfig {
        seed: args.engine.seed,
        weights: match weights_arg(&loaded.rules, args.engine.eval.as_deref()) {
            Ok(w) => w,
            Err(e) => return e,
        },
        options: args.engine.search,
        ..EngineConfig::default()
    };
    let tables = match args.engine.egtb.dir.clone() {
        Some(dir) => match check_tables(&loaded.rules, &dir) {
            Err(e) => return CliError::system(format!("--egtb {e}")).report(None),
            Ok(check) => {
                for w in &check.warnings {
                    warn(w);
                }
                Some(dir)
            }
        },
        None => None,
    };
    let io = HubIo {
        send: Arc::new(send),
        warn: Arc::new(warn),
    };
    let mut hub = HubSession::new(loaded.rules, if is_file { Some(name) } else { None }, base, io);
    hub.set_tables(tables);
    if args.engine.has_limits() {
        hub.set_limits(args.engine.limits().limits());
    }
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    let mut buf = Vec::new();
    loop {
        let line = match read_line(&mut input, &mut buf) {
            Ok(Some(Line::Text(t))) => t,
            Ok(Some(Line::TooLong(n))) => {
                hub.refuse_line(n, MAX_LINE);
                continue;
            }
            // End of input: the GUI is gone. Stop a search without limits,
            // let a bounded one finish (a piped script gets its answer), quit.
            Ok(None) | Err(_) => {
                hub.wait_for_search();
                return Exit::Success;
            }
        };
        if hub.handle(&line) == HubFlow::Quit {
            return Exit::Success;
        }
    }
}
