//! The terminal game of `dama play`: against the computer or another
//! person, one line of input per command.
//!
//! Input is read line by line from standard input, so a script (or a test)
//! can drive a whole game; nothing needs a terminal. The game record is
//! rewritten atomically after every change, to `--save FILE` or to an
//! autosave file named at the start, and `--load FILE` resumes it.

mod record;
mod session;

use std::io::IsTerminal;
use std::path::PathBuf;
use std::sync::Arc;

use clap::ValueEnum;
use dama_engine::pdn::PdnTags;
use dama_engine::Game;
use dama_play::EngineConfig;

use self::record::{refuse_existing, resume, same_file, Settings};
use self::session::Session;
use crate::commands::Ctx;
use crate::engine_setup::{variant_file, EngineArgs};
use crate::error::CliError;
use crate::exit::Exit;
use crate::render;
use crate::savefile::{self, DateTime};

/// What `dama play` was asked: the variant or the game to resume, who
/// plays, where to save, the engine and how its thinking is shown.
#[derive(Debug)]
pub struct PlayRequest {
    /// A built-in variant or a .toml file (optional with `load`).
    pub variant: Option<String>,
    /// Who plays White.
    pub white: Option<Player>,
    /// Who plays Black.
    pub black: Option<Player>,
    /// The starting position.
    pub fen: Option<String>,
    /// Where to save.
    pub save: Option<PathBuf>,
    /// The record to resume.
    pub load: Option<PathBuf>,
    /// The engine flags.
    pub engine: EngineArgs,
    /// When to show the computer's thinking.
    pub thinking: Thinking,
}

/// Who plays a side.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Player {
    /// A person typing moves.
    Human,
    /// The engine.
    Computer,
}

/// When to show the computer's thinking.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Thinking {
    /// When standard output is a terminal.
    Auto,
    /// Always (one line per finished depth when not on a terminal).
    Always,
    /// Never.
    Never,
}

/// Plays the game asked for to its end (or to the end of input).
pub fn start(ctx: &Ctx, request: &PlayRequest) -> Exit {
    match setup(ctx, request) {
        Ok(mut session) => session.run(),
        Err(e) => e,
    }
}

fn setup(ctx: &Ctx, args: &PlayRequest) -> Result<Session, Exit> {
    let mut recorded_players = None;
    let mut saved = None;
    let (loaded, game) = if let Some(load) = &args.load {
        let resumed = resume(ctx, load, args.variant.as_deref())?;
        recorded_players = resumed.players;
        saved = resumed.settings;
        (resumed.loaded, resumed.game)
    } else {
        let Some(variant) = &args.variant else {
            return Err(CliError::usage(
                "which variant? Give one (e.g. `dama play dama`) or resume a game with --load FILE",
            )
            .report(Some(ctx)));
        };
        let loaded = ctx.load_variant(variant)?;
        let pos = ctx.position(&loaded, args.fen.as_deref())?;
        let game = Game::from_position(Arc::new(loaded.rules.clone()), pos);
        (loaded, game)
    };
    let resumed = args.load.is_some();
    let settings = Settings::resolve(args, saved.as_ref());
    let request = settings.limits();
    let (limits, limits_text) = (request.limits(), request.describe_or(settings.level));
    // Who plays: as asked; else, for a resumed game, as recorded; else a person against the computer.
    let (white, black) = match (args.white, args.black, recorded_players) {
        (None, None, Some(p)) => p,
        (None, None, None) => (Player::Human, Player::Computer),
        (Some(w), None, _) => (w, other(w)),
        (None, Some(b), _) => (other(b), b),
        (Some(w), Some(b), _) => (w, b),
    };
    for w in &loaded.warnings {
        eprint!("{}", render::diagnostic(w, &loaded.files, ctx.color_err));
    }

    // Where to save: never over an existing file unless it is the one resumed.
    let save_path = match (&args.save, &args.load) {
        (Some(s), load) => {
            let same = load.as_ref().is_some_and(|l| same_file(l, s));
            if s.exists() && !same {
                refuse_existing(s);
                return Err(Exit::Failure);
            }
            s.clone()
        }
        (None, Some(l)) => l.clone(),
        (None, None) => savefile::autosave_path(loaded.rules.id(), &DateTime::now()),
    };
    let autosave = args.save.is_none() && args.load.is_none();

    let players = [white, black];
    let tags = PdnTags {
        event: "dama play".into(),
        site: "?".into(),
        date: DateTime::now().pdn_date(),
        round: "?".into(),
        white: player_name(white, &limits_text),
        black: player_name(black, &limits_text),
        variant_file: variant_file(&loaded),
        extra: settings.tags(&loaded.rules),
    };
    let engine = EngineConfig {
        seed: Some(settings.seed),
        ..args.engine.config(ctx, game.rules())?
    }
    .engine(game.rules());
    let stdin_tty = std::io::stdin().is_terminal();
    let thinking = match args.thinking {
        Thinking::Auto => std::io::stdout().is_terminal(),
        Thinking::Always => true,
        Thinking::Never => false,
    };
    let finished = resumed && game.is_over();
    Ok(Session {
        color: ctx.color_out,
        game,
        engine,
        players,
        limits,
        limits_text,
        save_path,
        autosave,
        resumed,
        finished,
        tags,
        echo: !stdin_tty,
        save_failed: false,
        thinking,
        on_terminal: std::io::stdout().is_terminal(),
    })
}

fn other(p: Player) -> Player {
    match p {
        Player::Human => Player::Computer,
        Player::Computer => Player::Human,
    }
}

fn player_name(p: Player, limits: &str) -> String {
    match p {
        Player::Human => "Human".into(),
        Player::Computer => format!("dama engine ({limits})"),
    }
}
