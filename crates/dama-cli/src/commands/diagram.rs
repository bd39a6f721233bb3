//! `dama diagram <variant> [--fen FEN] [--move M]... --svg FILE`
//!
//! Draws a position as SVG, with moves as arrows along their full path and
//! the captured pieces crossed out. `--case FILE` takes the variant, the
//! position and the move (`show_after`) from a rule case.

use std::path::PathBuf;

use dama_engine::Loaded;

use super::Ctx;
use crate::args::PositionArgs;
use crate::error::CliError;
use crate::exit::Exit;
use crate::json::Code;
use crate::out::out;
use crate::render::diagram::{drawn_moves, from_case};
use crate::savefile::Kind;
use crate::svg::{self, Drawn, Options};

/// Arguments of `dama diagram`.
#[derive(Debug, clap::Args)]
pub struct DiagramArgs {
    /// A built-in variant or a path to a .toml file (optional with --case).
    #[arg(required_unless_present = "case")]
    pub variant: Option<String>,
    #[command(flatten)]
    pub position: PositionArgs,
    /// A legal move to draw as an arrow along its path (`d6xd8xb8`, or just
    /// `d6xb8` when unambiguous). Repeat to draw several moves.
    #[arg(long = "move", value_name = "MOVE")]
    pub moves: Vec<String>,
    /// Draw every legal move of the position.
    #[arg(long, conflicts_with = "moves")]
    pub all_moves: bool,
    /// Take the variant, position and moves from this rule case: the position
    /// after its `moves`/`play`; unless --move is given, its `show_after` move,
    /// else all its legal moves when there are at most six.
    #[arg(long, value_name = "CASE", conflicts_with = "fen")]
    pub case: Option<PathBuf>,
    /// Where to write the SVG (`-` for standard output).
    #[arg(long, value_name = "FILE")]
    pub svg: PathBuf,
    /// Draw the board from Black's side.
    #[arg(long)]
    pub flip: bool,
    /// A line of text under the board; default: who is to move. `--caption ""` for none.
    #[arg(long)]
    pub caption: Option<String>,
}

pub fn run(ctx: &Ctx, args: DiagramArgs) -> Exit {
    let (rules, pos, mut texts) = match &args.case {
        Some(path) => match from_case(ctx, path, args.variant.as_deref()) {
            Ok(x) => x,
            Err(e) => return e,
        },
        None => {
            let Some(v) = args.variant.as_deref() else {
                return CliError::usage("give a variant or --case").report(Some(ctx));
            };
            let loaded: Loaded = match ctx.load_variant(v) {
                Ok(l) => l,
                Err(e) => return e,
            };
            let options = args.position.fen_options();
            let pos = match ctx.position_with(&loaded, args.position.fen.as_deref(), options) {
                Ok(p) => p,
                Err(e) => return e,
            };
            (loaded.rules, pos, Vec::new())
        }
    };
    if !args.moves.is_empty() {
        texts = args.moves.clone();
    }
    let mut drawn = Vec::new();
    if args.all_moves {
        texts.clear();
        for m in rules.legal_moves(&pos).iter().filter(|m| !m.is_pass()) {
            let path = dama_play::view::move_path(&rules, &pos, m);
            drawn.push(Drawn { mv: *m, path });
        }
    }
    match drawn_moves(&rules, &pos, &texts) {
        Ok(d) => drawn.extend(d),
        Err(e) => return CliError::failed(Code::MoveIllegal, e).report(Some(ctx)),
    }
    let caption = match &args.caption {
        Some(c) if c.is_empty() => None,
        Some(c) => Some(c.clone()),
        None => Some(format!("{} to move", pos.side_to_move())),
    };
    let text = svg::diagram(
        &rules,
        &pos,
        &drawn,
        &Options {
            flip: args.flip,
            caption,
        },
    );
    if args.svg.as_os_str() == "-" {
        out!("{text}");
        return Exit::Success;
    }
    match ctx.write_file(&args.svg, &text, Kind::Drawing) {
        Ok(()) => {
            eprintln!("wrote {}", args.svg.display());
            Exit::Success
        }
        Err(e) => e,
    }
}
