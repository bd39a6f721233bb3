//! `dama replay game.pdn`: check every move of every game in a PDN record
//! and show each game.

use dama_engine::pdn;
use dama_engine::Loaded;

use super::Ctx;
use crate::args::OutputArgs;
use crate::cli::Format;
use crate::error::CliError;
use crate::exit::Exit;
use crate::json::Code;
use crate::out::{self, outln};
use crate::records::{read_input, report, warn_past_end, Replayer, NO_GAME_HELP};
use crate::render::replay::{game_json, push_json, show_game, summary_line};

/// Arguments of `dama replay`.
#[derive(Debug, clap::Args)]
pub struct ReplayArgs {
    /// The PDN file to check (`-` reads standard input).
    pub file: String,
    /// The variant (built-in id or .toml path) for games whose record does not
    /// name one; when given, it also overrides the variant the record names.
    #[arg(long)]
    pub variant: Option<String>,
    /// Print only one summary line per game (no tags, moves or board).
    #[arg(long, short)]
    pub quiet: bool,
    /// Refuse a record that goes on after the rules ended the game (a
    /// threefold repetition, a draw by a ply count), instead of replaying it
    /// to its end with a warning.
    #[arg(long)]
    pub strict: bool,
    #[command(flatten)]
    pub output: OutputArgs,
}

pub fn run(ctx: &Ctx, args: ReplayArgs) -> Exit {
    let text = match read_input(&args.file) {
        Ok(t) => t,
        Err(msg) => return CliError::failed(Code::Read, msg).report(Some(ctx)),
    };
    // Every game's syntax is checked before anything is shown, so that a
    // record with an error anywhere shows none of its games; each game is
    // read again when its turn comes, so only one is held at a time.
    let mut total = 0;
    for g in pdn::games(&text) {
        if let Err(e) = g {
            report(ctx, &args.file, &text, &e);
            return Exit::Failure;
        }
        total += 1;
    }
    if total == 0 {
        return CliError::failed(Code::NoGame, format!("{}: no game found", args.file))
            .help(NO_GAME_HELP)
            .report(Some(ctx));
    }
    // The variant given on the command line, loaded once.
    let forced: Option<Loaded> = match &args.variant {
        Some(v) => match ctx.load_variant(v) {
            Ok(l) => Some(l),
            Err(e) => return e,
        },
        None => None,
    };
    let mut replayer = Replayer::new(ctx, &args.file, &text, forced.as_ref(), args.strict);
    // The JSON array's elements, printed once every game has replayed.
    let mut json = String::new();
    for (i, g) in pdn::games(&text).enumerate() {
        // (issue 18) The output cannot be written: no more games.
        if out::failed() {
            return Exit::Success;
        }
        let g = match g {
            Ok(g) => g,
            Err(e) => {
                report(ctx, &args.file, &text, &e);
                return Exit::Failure;
            }
        };
        let g = &g;
        let game = match replayer.replay(i + 1, g) {
            Ok(game) => game,
            Err(e) => return e,
        };
        let warning = warn_past_end(&args.file, i + 1, g, &game);
        match args.output.format {
            Format::Json => {
                let mut v = game_json(g, &game);
                if let (Some(w), Some(obj)) = (warning, v.as_object_mut()) {
                    obj.insert("warnings".into(), serde_json::Value::Array(vec![w]));
                }
                push_json(&mut json, &v)
            }
            Format::Text => {
                if args.quiet {
                    outln!("{}", summary_line(i + 1, g, &game));
                } else {
                    if i > 0 {
                        outln!();
                    }
                    show_game(ctx, i + 1, total, g, &game);
                }
            }
        }
    }
    if args.output.format == Format::Json {
        outln!("[\n{json}\n]");
    } else if !args.quiet && total > 1 {
        outln!("\nAll {total} games checked: every move is legal.");
    }
    Exit::Success
}
