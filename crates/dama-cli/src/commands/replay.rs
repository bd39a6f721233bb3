//! `dama replay game.pdn`: check every move of every game in a PDN record
//! and show each game.

use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;

use dama_engine::pdn::{self, PdnError, PdnGame};
use dama_engine::{Game, Loaded, Rules};

use super::Ctx;
use crate::args::OutputArgs;
use crate::cli::Format;
use crate::error::CliError;
use crate::exit::Exit;
use crate::json::Code;
use crate::out::{self, out, outln};
use crate::records::{cached, read_input, replay_game, report, warn_past_end, NO_GAME_HELP};
use crate::render;

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
    let base_dir = if args.file == "-" {
        None
    } else {
        Path::new(&args.file).parent()
    };
    // The variant given on the command line, loaded once.
    let forced: Option<Loaded> = match &args.variant {
        Some(v) => match ctx.load_variant(v) {
            Ok(l) => Some(l),
            Err(e) => return e,
        },
        None => None,
    };
    let mut cache: HashMap<String, Arc<Rules>> = HashMap::new();
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
        let rules: Arc<Rules> = match &forced {
            Some(l) => {
                if let Some(named) = g.variant_name(base_dir) {
                    if named != l.rules.id() && g.tag("VariantFile").is_none() {
                        eprintln!(
                            "note: game {} names variant `{named}`; replaying it as `{}` as asked by --variant",
                            i + 1,
                            l.rules.id()
                        );
                    }
                }
                Arc::new(l.rules.clone())
            }
            None => match cached(&mut cache, g, base_dir) {
                Ok(r) => r,
                Err(e) => {
                    report(ctx, &args.file, &text, &e);
                    if let PdnError::Variant { load: None, .. } = e {
                        eprintln!("  = help: give the variant with --variant, e.g. --variant dama");
                    }
                    return Exit::Failure;
                }
            },
        };
        let game = match replay_game(g, Arc::clone(&rules), args.strict) {
            Ok(game) => game,
            Err(e) => {
                report(ctx, &args.file, &text, &e);
                return Exit::Failure;
            }
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

fn plies(n: usize) -> String {
    if n == 1 {
        "1 ply".into()
    } else {
        format!("{n} plies")
    }
}

fn result_text(game: &Game) -> String {
    match game.outcome() {
        Some(o) => format!("{} ({o})", o.result.pdn()),
        None => "* (the game goes on)".to_string(),
    }
}

fn summary_line(n: usize, g: &PdnGame, game: &Game) -> String {
    format!(
        "game {n} (line {}): {} - {}, {}, {}, {}",
        g.line,
        dama_engine::text::printable(g.tag("White").unwrap_or("?")),
        dama_engine::text::printable(g.tag("Black").unwrap_or("?")),
        game.rules().id(),
        plies(game.ply_count()),
        result_text(game)
    )
}

/// The moves with their numbers, wrapped at 80 columns.
fn movetext(game: &Game) -> String {
    let first = game.rules().start_position().side_to_move();
    let mut out = String::new();
    let mut line = String::new();
    for (i, ply) in game.plies().iter().enumerate() {
        let n = game.move_number_of(i);
        let mut w = String::new();
        if ply.side() == first {
            w.push_str(&format!("{n}. "));
        } else if i == 0 {
            w.push_str(&format!("{n}... "));
        }
        w.push_str(&ply.notation);
        if !line.is_empty() && line.len() + 1 + w.len() > 78 {
            out.push_str(&line);
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&w);
    }
    out.push_str(&line);
    out
}

fn show_game(ctx: &Ctx, n: usize, total: usize, g: &PdnGame, game: &Game) {
    let r = game.rules();
    if total > 1 {
        outln!("Game {n} of {total} (line {})", g.line);
    }
    for t in &g.tags {
        // (issue 38) Tags are the record's text: control characters as `�`.
        outln!(
            "[{} \"{}\"]",
            dama_engine::text::printable(&t.name),
            dama_engine::text::printable(&t.value)
        );
    }
    if !g.tags.is_empty() {
        outln!();
    }
    outln!("Variant: {} ({})", dama_engine::text::printable(r.name()), r.id());
    if !game.starts_from_initial() {
        outln!("Start: {}", r.to_fen(game.start_position()));
    }
    if game.plies().is_empty() {
        outln!("No moves.");
    } else {
        outln!("{}", movetext(game));
    }
    let marks: Vec<_> = game
        .last_ply()
        .filter(|p| !p.mv.is_pass())
        .map(|p| vec![p.mv.from(), p.mv.to()])
        .unwrap_or_default();
    outln!(
        "\nFinal position after {} ({} to move, {}):\n",
        plies(game.ply_count()),
        game.side_to_move(),
        r.to_fen(game.position())
    );
    let captured: Vec<_> = game
        .last_ply()
        .map(|p| p.mv.captured_squares().collect())
        .unwrap_or_default();
    out!(
        "{}",
        render::board(r, game.position(), &marks, &captured, ctx.color_out)
    );
    outln!("\nResult: {}", result_text(game));
}

/// Adds `value` to the elements of a JSON array in `out`, laid out as
/// `serde_json::to_string_pretty` lays out an element of an array (the
/// text of each game rather than all the games' values is kept).
fn push_json(out: &mut String, value: &serde_json::Value) {
    let text = serde_json::to_string_pretty(value).unwrap_or_default();
    if !out.is_empty() {
        out.push_str(",\n");
    }
    for (i, line) in text.lines().enumerate() {
        if i > 0 {
            out.push('\n');
        }
        out.push_str("  ");
        out.push_str(line);
    }
}

fn game_json(g: &PdnGame, game: &Game) -> serde_json::Value {
    let r = game.rules();
    serde_json::json!({
        "line": g.line,
        "tags": g.tags.iter().map(|t| (t.name.clone(), serde_json::Value::String(t.value.clone()))).collect::<serde_json::Map<_, _>>(),
        "variant": r.id(),
        "start": r.to_fen(game.start_position()),
        "moves": game.plies().iter().map(|p| p.notation.clone()).collect::<Vec<_>>(),
        "final": r.to_fen(game.position()),
        "result": game.outcome().map_or("*", |o| o.result.pdn()),
        "reason": game.outcome().map(|o| o.reason.to_string()),
    })
}
