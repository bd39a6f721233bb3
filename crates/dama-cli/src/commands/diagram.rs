//! `dama diagram <variant> [--fen FEN] [--move M]... --svg FILE`
//!
//! Draws a position as SVG, with moves as arrows along their full path and
//! the captured pieces crossed out. `--case FILE` takes the variant, the
//! position and the move (`show_after`) from a rule case.

use std::path::PathBuf;

use dama_engine::case::RuleCase;
use dama_engine::game::Game;
use dama_engine::{Loaded, Position, Rules};

use super::Ctx;
use crate::exit::Exit;
use crate::svg::{self, Drawn, Options};

/// Arguments of `dama diagram`.
#[derive(Debug, clap::Args)]
pub struct DiagramArgs {
    /// A built-in variant or a path to a .toml file (optional with --case).
    #[arg(required_unless_present = "case")]
    pub variant: Option<String>,
    /// The position, in PDN FEN; default: the initial position.
    #[arg(long)]
    pub fen: Option<String>,
    /// A legal move to draw as an arrow along its path (`d6xd8xb8`, or just
    /// `d6xb8` when unambiguous). Repeat to draw several moves.
    #[arg(long = "move", value_name = "MOVE")]
    pub moves: Vec<String>,
    /// Draw every legal move of the position.
    #[arg(long, conflicts_with = "moves")]
    pub all_moves: bool,
    /// Take the variant, position and move from this rule case: the position
    /// after its `moves`/`play`, and its `show_after` move unless --move is given.
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
                eprintln!("error: give a variant or --case");
                return Exit::Usage;
            };
            let loaded: Loaded = match ctx.load_variant(v) {
                Ok(l) => l,
                Err(e) => return e,
            };
            let pos = match ctx.position(&loaded, args.fen.as_deref()) {
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
        for m in rules.legal_moves(&pos).iter() {
            if let Some(path) = rules.move_paths(&pos, m).into_iter().next() {
                drawn.push(Drawn { mv: *m, path });
            }
        }
    }
    for t in &texts {
        let m = match rules.resolve_move(&pos, t) {
            Ok(m) => m,
            Err(e) => {
                eprintln!("error: {e}");
                return Exit::Failure;
            }
        };
        let paths = rules.move_paths(&pos, &m);
        // The path the text names, when it names landing squares; else the first.
        let path = dama_engine::MoveText::parse(&rules, t)
            .ok()
            .and_then(|mt| paths.iter().find(|p| mt.matches_path(p)).cloned())
            .or_else(|| paths.first().cloned());
        if let Some(path) = path {
            drawn.push(Drawn { mv: m, path });
        }
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
        print!("{text}");
        return Exit::Success;
    }
    match std::fs::write(&args.svg, text) {
        Ok(()) => {
            eprintln!("wrote {}", args.svg.display());
            Exit::Success
        }
        Err(e) => {
            eprintln!("error: cannot write {}: {e}", args.svg.display());
            Exit::Failure
        }
    }
}

/// The rules, the position after the case's `moves`/`play`, and its `show_after` move.
fn from_case(
    ctx: &Ctx,
    path: &std::path::Path,
    variant: Option<&str>,
) -> Result<(Rules, Position, Vec<String>), Exit> {
    let fail = |e: &dyn std::fmt::Display| {
        eprintln!("error: {}: {e}", path.display());
        Exit::Failure
    };
    let case = RuleCase::read(path).map_err(|e| fail(&e))?;
    let rules = match variant {
        Some(v) => ctx.load_variant(v)?.rules,
        None => case.load_rules(path).map_err(|e| fail(&e))?,
    };
    let pos = case_position(&rules, &case).map_err(|e| fail(&e))?;
    Ok((rules, pos, case.show_after.iter().cloned().collect()))
}

/// The position a case renders: its FEN or the initial position, after `moves` and `play`.
pub fn case_position(rules: &Rules, case: &RuleCase) -> Result<Position, String> {
    let start = match &case.fen {
        Some(f) => rules.parse_fen(f).map_err(|e| e.to_string())?,
        None => rules.start_position(),
    };
    let mut game = Game::from_position(rules.clone(), start);
    for t in case.moves.iter().flatten().chain(&case.play) {
        game.play_text(t).map_err(|e| format!("`{t}`: {e}"))?;
    }
    Ok(*game.position())
}
