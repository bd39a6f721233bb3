//! `dama match <variant> --games N`: the engine against itself or against a
//! random mover, colors alternating, from varied openings.
//!
//! Player A is the one given by `--white`, player B by `--black`; A has
//! White in odd games and Black in even ones, and both games of a pair start
//! from the same opening (random plies, or the next of `--openings-file`).
//! Scores are reported for player A, with the Elo difference, its 95%
//! interval and LOS, and the sequential test of `--sprt`. Every game ends:
//! besides the variant's own end rules, a ply cap adjudicates a draw
//! ("move limit").
//!
//! The engine plays the match on `--threads` threads, keeps the tally and
//! computes the statistics ([`play_match_with`]); this module builds its
//! configuration from the arguments and renders the report as text or
//! JSON, and the games as a PDN file.

use std::io::Write;
use std::sync::Arc;
use std::time::Duration;

use clap::ValueEnum;
use dama_engine::pdn::PdnTags;
use dama_engine::Color;
use dama_engine::{search::DEFAULT_LEVEL, search::LEVELS, SearchOptions};
use dama_play::{play_match_with, MatchConfig, MatchPlayer};
use dama_play::{LimitsRequest, MatchOptions, Sprt};

use super::Ctx;
use crate::args::OutputArgs;
use crate::cli::Format;
use crate::engine_setup::{parse_search, play_dir, variant_file, weights_arg, EngineArgs};
use crate::error::CliError;
use crate::exit::Exit;
use crate::records::read_openings_file;
use crate::render;
use crate::render::match_report::{game_line, print_report, progress_line, GameSummary, MatchShown};
use crate::savefile::DateTime;

/// A match player.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Contestant {
    /// The search engine.
    Engine,
    /// Picks a legal move uniformly at random.
    Random,
}

/// Arguments of `dama match`.
#[derive(Debug, clap::Args)]
pub struct MatchArgs {
    /// A built-in variant or a path to a .toml file.
    pub variant: String,
    /// Number of games.
    #[arg(long, short = 'n', default_value_t = 10, value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    pub games: u32,
    /// Player A, White in the first game [default: engine].
    #[arg(long, value_enum)]
    pub white: Option<Contestant>,
    /// Player B, Black in the first game [default: random, or engine when
    /// --black-level, --black-depth, --black-nodes, --black-eval or
    /// --black-search is given].
    #[arg(long, value_enum)]
    pub black: Option<Contestant>,
    /// Engine strength of player A (overrides --level).
    #[arg(long, value_parser = clap::value_parser!(u8).range(1..=LEVELS as i64))]
    pub white_level: Option<u8>,
    /// Engine strength of player B (overrides --level).
    #[arg(long, value_parser = clap::value_parser!(u8).range(1..=LEVELS as i64))]
    pub black_level: Option<u8>,
    /// Search depth of player A (overrides --depth).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=100))]
    pub white_depth: Option<u32>,
    /// Search depth of player B (overrides --depth).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=100))]
    pub black_depth: Option<u32>,
    /// Node budget per move of player A (overrides --nodes).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    pub white_nodes: Option<u64>,
    /// Node budget per move of player B (overrides --nodes).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    pub black_nodes: Option<u64>,
    /// Random plies played at the start of each pair of games, for variety.
    #[arg(long, default_value_t = 2, conflicts_with = "openings_file")]
    pub openings: u32,
    /// Openings to play instead of random plies: a PDN file (each game's
    /// FEN tag or the initial position, then its moves) or one FEN per line
    /// (`#` comments). Each is played twice, colors swapped, and the list is
    /// cycled if there are more pairs than openings.
    #[arg(long, value_name = "FILE", conflicts_with = "fen")]
    pub openings_file: Option<std::path::PathBuf>,
    /// Games played at once, one per thread [default: one per core]. The
    /// games and results do not depend on it.
    #[arg(long, value_parser = crate::cli::threads)]
    pub threads: Option<u32>,
    /// Sequential probability ratio test of H0 "A is ELO0 stronger" against
    /// H1 "A is ELO1 stronger" (logistic Elo, pentanomial; docs/strength.md):
    /// the match stops when it decides, --games at most.
    #[arg(long, value_name = "ELO0,ELO1", value_parser = parse_sprt, allow_hyphen_values = true)]
    pub sprt: Option<(f64, f64)>,
    /// The SPRT's false-positive rate (accepting H1 when H0 holds).
    #[arg(long, default_value_t = 0.05, value_parser = parse_rate, requires = "sprt")]
    pub alpha: f64,
    /// The SPRT's false-negative rate (accepting H0 when H1 holds).
    #[arg(long, default_value_t = 0.05, value_parser = parse_rate, requires = "sprt")]
    pub beta: f64,
    /// A game still going after this many plies is a draw ("move limit"; at
    /// most 100000, the longest game a record may hold).
    #[arg(long, default_value_t = 300, value_parser = clap::value_parser!(u32).range(1..=dama_engine::Game::MAX_PLIES as i64))]
    pub max_plies: u32,
    /// Start every game from this position (PDN FEN) instead of the initial one.
    #[arg(long)]
    pub fen: Option<String>,
    // The engine flags, for both players.
    #[command(flatten)]
    pub engine: EngineArgs,
    /// Evaluation weights of player A (overrides --eval).
    #[arg(long, value_name = "FILE")]
    pub white_eval: Option<std::path::PathBuf>,
    /// Evaluation weights of player B (overrides --eval).
    #[arg(long, value_name = "FILE")]
    pub black_eval: Option<std::path::PathBuf>,
    /// Search switches of player A (overrides --search).
    #[arg(long, value_name = "OPTS", value_parser = parse_search)]
    pub white_search: Option<SearchOptions>,
    /// Search switches of player B (overrides --search).
    #[arg(long, value_name = "OPTS", value_parser = parse_search)]
    pub black_search: Option<SearchOptions>,
    /// Also write every game to this PDN file.
    #[arg(long, value_name = "FILE")]
    pub pdn: Option<std::path::PathBuf>,
    #[command(flatten)]
    pub output: OutputArgs,
    /// Print a line per game on standard error as the match goes (on a
    /// terminal a progress bar is shown instead, unless this is given).
    #[arg(long, short = 'v')]
    pub verbose: bool,
}

/// The seed of a match without `--seed`.
const MATCH_SEED: u64 = 1;

impl MatchArgs {
    /// `--seed`, else [`MATCH_SEED`]: it deals the openings, and seeds the
    /// random mover and the engines' variety.
    fn seed(&self) -> u64 {
        self.engine.seed.unwrap_or(MATCH_SEED)
    }

    /// Player A (`side` 0) or B (1) as asked: the contestant and its name. A
    /// side given a level, depth, node budget, evaluation file or search switches of its own is the engine
    /// unless told otherwise.
    fn player(&self, side: usize, weights: Option<(dama_engine::EvalWeights, &std::path::Path)>) -> MatchPlayer {
        let args = self;
        let (kind, level, depth, nodes) = if side == 0 {
            (args.white, args.white_level, args.white_depth, args.white_nodes)
        } else {
            (args.black, args.black_level, args.black_depth, args.black_nodes)
        };
        let own_eval = if side == 0 { &args.white_eval } else { &args.black_eval };
        let own_search = if side == 0 {
            args.white_search
        } else {
            args.black_search
        };
        let own = level.is_some() || depth.is_some() || nodes.is_some() || own_eval.is_some() || own_search.is_some();
        let e = &args.engine;
        let search = own_search.or(e.search).unwrap_or_default();
        let kind = kind.unwrap_or(if side == 0 || own {
            Contestant::Engine
        } else {
            Contestant::Random
        });
        let level = level.or(e.level).unwrap_or(DEFAULT_LEVEL);
        let request = LimitsRequest {
            level: Some(level),
            depth: depth.or(e.depth),
            nodes: nodes.or(e.nodes),
            movetime: e.movetime.map(Duration::from_millis),
        };
        let limits = request.limits();
        // Named by the limits without the node budget, which is said after them.
        let mut text = LimitsRequest {
            nodes: None,
            ..request.clone()
        }
        .describe_or(level);
        if let Some(n) = request.nodes {
            if request.depth.is_none() && request.movetime.is_none() {
                text = format!("{n} nodes");
            } else {
                text.push_str(&format!(", {n} nodes"));
            }
        }
        if let Some((_, path)) = &weights {
            text.push_str(&format!(", eval {}", path.display()));
        }
        let changes = search.changes();
        if !changes.is_empty() {
            text.push_str(&format!(", search {changes}"));
        }
        match kind {
            Contestant::Engine => MatchPlayer {
                contestant: dama_play::Contestant::Engine(limits),
                name: format!("engine ({text})"),
                weights: weights.map(|(w, _)| w),
                search,
            },
            Contestant::Random => MatchPlayer {
                contestant: dama_play::Contestant::Random,
                name: "random mover".into(),
                weights: None,
                search,
            },
        }
    }
}

/// `--sprt ELO0,ELO1`: two Elo differences, the first below the second.
fn parse_sprt(s: &str) -> Result<(f64, f64), String> {
    let (a, b) = s
        .split_once(',')
        .ok_or_else(|| "expected ELO0,ELO1, such as 0,5".to_string())?;
    let num = |x: &str| {
        x.trim()
            .parse::<f64>()
            .ok()
            .filter(|v| v.is_finite())
            .ok_or_else(|| format!("`{}` is not a number", x.trim()))
    };
    let (e0, e1) = (num(a)?, num(b)?);
    if e0 >= e1 {
        return Err(format!("ELO0 ({e0}) must be below ELO1 ({e1})"));
    }
    Ok((e0, e1))
}

/// `--alpha`, `--beta`: a probability strictly between 0 and 0.5.
fn parse_rate(s: &str) -> Result<f64, String> {
    match s.trim().parse::<f64>() {
        Ok(v) if v > 0.0 && v < 0.5 => Ok(v),
        _ => Err(format!("`{s}` is not a probability between 0 and 0.5 (exclusive)")),
    }
}

pub fn run(ctx: &Ctx, args: MatchArgs) -> Exit {
    let loaded = match ctx.load_variant(&args.variant) {
        Ok(l) => l,
        Err(e) => return e,
    };
    for w in &loaded.warnings {
        eprint!("{}", render::diagnostic(w, &loaded.files, ctx.color_err));
    }
    let start = match ctx.position(&loaded, args.fen.as_deref()) {
        Ok(p) => p,
        Err(e) => return e,
    };
    let tables = match play_dir(ctx, &loaded.rules, args.engine.egtb.dir.as_deref()) {
        Ok(t) => t,
        Err(e) => return e,
    };
    let variant_file = variant_file(&loaded);
    let rules = Arc::new(loaded.rules);
    let opening_list = match &args.openings_file {
        Some(path) => match read_openings_file(ctx, &rules, path) {
            Ok(o) => o,
            Err(e) => return e,
        },
        None => Vec::new(),
    };
    let mut evals = [None, None];
    for (i, path) in [&args.white_eval, &args.black_eval].into_iter().enumerate() {
        let Some(path) = path.as_deref().or(args.engine.eval.as_deref()) else {
            continue;
        };
        match weights_arg(&rules, Some(path)) {
            Ok(w) => evals[i] = w.map(|w| (w, path)),
            Err(e) => return e,
        }
    }
    let [white_eval, black_eval] = evals;
    let mut players = [args.player(0, white_eval), args.player(1, black_eval)];
    if players[0].name == players[1].name {
        players[0].name.push_str(" A");
        players[1].name.push_str(" B");
    }
    let config = MatchConfig {
        players,
        start,
        games: args.games,
        opening_plies: args.openings,
        seed: args.seed(),
        max_plies: args.max_plies,
        tables,
    };
    let progress = render::stderr_tty() && args.output.format == Format::Text && !args.verbose;
    let names = [config.players[0].name.clone(), config.players[1].name.clone()];
    let options = MatchOptions {
        // Each game is written out by the callback below, none kept.
        forget_games: true,
        threads: args.threads.map_or(0, |n| n as usize),
        openings: opening_list,
        sprt: args.sprt.map(|(elo0, elo1)| Sprt {
            elo0,
            elo1,
            alpha: args.alpha,
            beta: args.beta,
        }),
    };
    // (issue 38) The record's target is checked before the match; each game
    // is added as it ends (so that a match stopped at any point leaves every
    // finished game), and none is kept: memory does not grow with --games,
    // but for the short summaries of the JSON report's "results".
    let mut record = match ctx.record_appender(args.pdn.as_deref()) {
        Ok(r) => r,
        Err(e) => return e,
    };
    let mut write_error = None;
    let mut results: Vec<GameSummary> = Vec::new();
    let date = DateTime::now().pdn_date();
    let report = play_match_with(Arc::clone(&rules), &config, &options, |p| {
        if args.output.format == Format::Json {
            results.push(GameSummary {
                a_color: p.last.a_color,
                outcome: p.last.outcome,
                plies: p.last.game.ply_count(),
            });
        }
        if let Some(r) = record.as_mut().filter(|_| write_error.is_none()) {
            let (w, b) = if p.last.a_color == Color::White { (0, 1) } else { (1, 0) };
            let tags = PdnTags {
                event: format!("dama match ({})", rules.id()),
                site: "?".into(),
                date: date.clone(),
                round: (p.index + 1).to_string(),
                white: names[w].clone(),
                black: names[b].clone(),
                variant_file: variant_file.clone(),
                extra: Vec::new(),
            };
            let mut text = if r.is_empty() { String::new() } else { "\n".into() };
            text.push_str(&p.last.game.to_pdn(&tags));
            if let Err(e) = r.append(&text) {
                // Said at once; the match goes on, and the exit code tells.
                if let Some(path) = &args.pdn {
                    CliError::system(format!(
                        "cannot write {}: {e}; the games that follow are not written",
                        path.display()
                    ))
                    .report(None);
                }
                write_error = Some(e);
            }
        }
        // After the game is on disk: a game the line shows is in the file.
        if progress {
            progress_line(p);
        } else if args.verbose {
            game_line(p, &names);
        }
    });
    if progress {
        eprint!("\r{}\r", " ".repeat(72));
        let _ = std::io::stderr().flush();
    }
    if let (Some(e), Some(path)) = (&write_error, &args.pdn) {
        return ctx.write_error(path, e);
    }
    let shown = MatchShown {
        rules: &rules,
        seed: args.seed(),
        opening_plies: args.openings,
        max_plies: args.max_plies,
        openings_file: args.openings_file.as_deref(),
        openings_count: options.openings.len(),
        pdn: args.pdn.as_deref(),
    };
    print_report(args.output.format, &shown, &report, &results);

    Exit::Success
}
