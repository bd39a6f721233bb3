//! `dama tune VARIANT`: tunes the evaluation's weights on self-play games
//! (and games from a PDN file) and writes them as a weights file; and
//! reading such a file for `--eval`, `--white-eval`, `--black-eval`.
//!
//! The play tier plays the games ([`SelfPlay`]), samples the quiet positions
//! ([`Sample::from_game`]) and tunes ([`tune`]); this module gathers the
//! games from the arguments, shows the progress and writes the file.

use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::sync::Arc;

use dama_engine::{tune::tune_keeping, tune::Sample, tune::WEIGHT_NAMES, EvalWeights, Evaluator};
use dama_play::SelfPlay;

use super::Ctx;
use crate::engine_setup::weights_arg;
use crate::error::CliError;
use crate::exit::Exit;
use crate::render;
use crate::render::tune::Played;
use crate::tuning::{pdn_samples, white_score};

/// Arguments of `dama tune`.
#[derive(Debug, clap::Args)]
pub struct TuneArgs {
    /// A built-in variant or a path to a .toml file.
    pub variant: String,
    /// Self-play games to learn from (0: only the games of --positions).
    #[arg(long, short = 'n', default_value_t = 200, value_parser = clap::value_parser!(u32).range(0..=1_000_000))]
    pub games: u32,
    /// Nodes per move in the self-play games.
    #[arg(long, default_value_t = 2_000, value_parser = clap::value_parser!(u64).range(1..))]
    pub nodes: u64,
    /// Also learn from the games of this PDN file (with their results).
    #[arg(long, value_name = "FILE.pdn")]
    pub positions: Option<PathBuf>,
    /// Random plies at the start of each self-play game (the positions
    /// before the opening plies and four more are not used).
    #[arg(long, default_value_t = 8)]
    pub openings: u32,
    /// Seed of the self-play games.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Where to write the weights (default: VARIANT.weights.toml).
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// Threads playing the self-play games (the games are the same for any number).
    #[arg(long, default_value_t = 1, value_parser = crate::cli::threads)]
    pub threads: u32,
    /// A self-play game still going after this many plies is a draw (at most
    /// 100000, the longest game a record may hold).
    #[arg(long, default_value_t = 300, value_parser = clap::value_parser!(u32).range(1..=dama_engine::Game::MAX_PLIES as i64))]
    pub max_plies: u32,
    /// Start from these weights (a weights file, or `derived`): the
    /// self-play engines play with them and tuning starts from them, so a
    /// second round can learn from games played with the first round's
    /// weights.
    #[arg(long, value_name = "FILE", default_value = "derived")]
    pub from: PathBuf,
    /// Weights held at their starting values (comma-separated names, e.g.
    /// `king,trade`).
    #[arg(long, value_name = "NAMES", value_delimiter = ',')]
    pub keep: Vec<String>,
}

pub fn run(ctx: &Ctx, args: TuneArgs) -> Exit {
    // The progress lines rewrite themselves, so they are shown on a terminal
    // only; elsewhere each phase ends with one line.
    let live = std::io::stderr().is_terminal();
    let loaded = match ctx.load_variant(&args.variant) {
        Ok(l) => l,
        Err(e) => return e,
    };
    for w in &loaded.warnings {
        eprint!("{}", render::diagnostic(w, &loaded.files, ctx.color_err));
    }
    let rules = Arc::new(loaded.rules);
    for name in &args.keep {
        if !WEIGHT_NAMES.iter().any(|(n, _)| n == name) {
            let names = WEIGHT_NAMES.iter().map(|(n, _)| *n);
            let message = match dama_engine::text::did_you_mean(name, names) {
                Some(near) => format!("--keep: `{name}` is not a weight; did you mean `{near}`?"),
                None => format!(
                    "--keep: `{name}` is not a weight (the weights: {})",
                    WEIGHT_NAMES.iter().map(|(n, _)| *n).collect::<Vec<_>>().join(", ")
                ),
            };
            return CliError::usage(message).report(None);
        }
    }
    let keep: Vec<&str> = args.keep.iter().map(String::as_str).collect();
    let start = match weights_arg(&rules, Some(&args.from)) {
        Ok(w) => w.unwrap_or_else(|| EvalWeights::derived(&rules)),
        Err(e) => return e,
    };
    let evaluator = Evaluator::new(&rules);
    let mut samples: Vec<Sample> = Vec::new();
    let mut games_used = 0u32;

    if let Some(path) = &args.positions {
        match pdn_samples(&rules, &evaluator, path) {
            Ok((s, n)) => {
                samples.extend(s);
                games_used += n;
            }
            Err(e) => return e,
        }
    }

    // Where the weights go, checked before the games are played.
    let out = args.out.clone().unwrap_or_else(|| {
        PathBuf::from(format!(
            "{}.weights.toml",
            dama_engine::text::file_safe_name(rules.id())
        ))
    });
    if let Err(e) = crate::savefile::check_target(&out, crate::savefile::Kind::Weights) {
        return ctx.write_error(&out, &e);
    }
    let began = std::time::Instant::now();
    if args.games > 0 {
        let self_play = args.self_play(&start);
        let chunks: Vec<u32> = (0..self_play.chunks()).collect();
        let next = std::sync::atomic::AtomicUsize::new(0);
        let done = std::sync::atomic::AtomicU32::new(0);
        let results: std::sync::Mutex<Vec<(u32, Vec<Sample>)>> = std::sync::Mutex::new(Vec::new());
        let skip = args.openings as usize + 4;
        std::thread::scope(|scope| {
            for _ in 0..args.threads.min(chunks.len() as u32).max(1) {
                scope.spawn(|| loop {
                    let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    let Some(&chunk) = chunks.get(i) else { break };
                    let games = self_play.play_chunk(&rules, chunk, || {
                        let n = done.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
                        if live {
                            eprint!("\rself-play: game {n}/{}", args.games);
                            let _ = std::io::stderr().flush();
                        }
                    });
                    let mut out = Vec::new();
                    for g in &games {
                        let result = white_score(g.outcome.result);
                        let positions: Vec<_> = g.game.positions().collect();
                        out.extend(Sample::from_game(&rules, &evaluator, &positions, skip, result));
                    }
                    if let Ok(mut r) = results.lock() {
                        r.push((chunk, out));
                    }
                });
            }
        });
        if live {
            eprintln!();
        } else {
            eprintln!("self-play: {} games", args.games);
        }
        let mut results = results.into_inner().unwrap_or_default();
        results.sort_by_key(|(c, _)| *c);
        for (_, s) in results {
            samples.extend(s);
        }
        games_used += args.games;
    }
    if samples.is_empty() {
        return CliError::system("no positions to learn from (no games, or no quiet positions after the openings)")
            .report(None);
    }
    let played = began.elapsed();

    let mut last = String::new();
    let report = tune_keeping(&rules, &start, &samples, &keep, |p| {
        last = format!("tuning: pass {}, step {}, error {:.6}", p.pass, p.step, p.error);
        if live {
            eprint!("\r{last}   ");
            let _ = std::io::stderr().flush();
        }
    });
    // On a terminal the last pass is on screen already; elsewhere it is one line.
    if live {
        eprintln!();
    } else if !last.is_empty() {
        eprintln!("{last}");
    }

    if let Err(e) = ctx.write_file(&out, &report.weights.to_toml(&rules), crate::savefile::Kind::Weights) {
        return e;
    }
    let played = Played {
        games: games_used,
        asked: args.games,
        nodes: args.nodes,
        time: played,
        samples: samples.len(),
    };
    crate::render::tune::report(&rules, &played, &start, &report, &out);
    Exit::Success
}

impl TuneArgs {
    /// The self-play games asked for, played with `weights`.
    fn self_play(&self, weights: &EvalWeights) -> SelfPlay {
        SelfPlay {
            games: self.games,
            nodes: self.nodes,
            openings: self.openings,
            seed: self.seed,
            max_plies: self.max_plies,
            weights: *weights,
        }
    }
}
