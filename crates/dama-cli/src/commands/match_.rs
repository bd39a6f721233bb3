//! `dama match <variant> --games N`: the engine against itself or against a
//! random mover, colors alternating, from varied openings.
//!
//! Player A is the one given by `--white`, player B by `--black`; A has
//! White in odd games and Black in even ones, and both games of a pair start
//! from the same random opening. Scores are reported for player A. Every
//! game ends: besides the variant's own end rules, a ply cap adjudicates a
//! draw ("move limit").
//!
//! The engine plays the match and keeps the tally ([`play_match`]); this
//! module builds its configuration from the arguments and renders the
//! report as text or JSON, and the games as a PDN file.

use std::io::Write;
use std::sync::Arc;

use clap::ValueEnum;
use dama_engine::pdn::{self, PdnTags};
use dama_engine::Color;
use dama_engine::{play_match, MatchConfig, MatchPlayer, MatchPlayerStats, MatchProgress};
use dama_engine::{DEFAULT_LEVEL, LEVELS};

use super::play::limits_from;
use super::Ctx;
use crate::cli::Format;
use crate::exit::Exit;
use crate::json::{self, Code};
use crate::out::outln;
use crate::render;
use crate::savefile::{self, DateTime};

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
    /// Player A, White in the first game.
    #[arg(long, value_enum, default_value_t = Contestant::Engine)]
    pub white: Contestant,
    /// Player B, Black in the first game.
    #[arg(long, value_enum, default_value_t = Contestant::Random)]
    pub black: Contestant,
    /// Engine strength for both players, 1 to 10.
    #[arg(long, value_parser = clap::value_parser!(u8).range(1..=LEVELS as i64), default_value_t = DEFAULT_LEVEL)]
    pub level: u8,
    /// Engine strength of player A (overrides --level).
    #[arg(long, value_parser = clap::value_parser!(u8).range(1..=LEVELS as i64))]
    pub white_level: Option<u8>,
    /// Engine strength of player B (overrides --level).
    #[arg(long, value_parser = clap::value_parser!(u8).range(1..=LEVELS as i64))]
    pub black_level: Option<u8>,
    /// Search depth for both engines (instead of the level's).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=100))]
    pub depth: Option<u32>,
    /// Milliseconds per move for both engines (instead of the level's limit).
    #[arg(long, value_name = "MS", value_parser = clap::value_parser!(u64).range(1..))]
    pub movetime: Option<u64>,
    /// Random plies played at the start of each pair of games, for variety.
    #[arg(long, default_value_t = 2)]
    pub openings: u32,
    /// Seed for the openings, the random mover and the engines' variety.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// A game still going after this many plies is a draw ("move limit").
    #[arg(long, default_value_t = 300, value_parser = clap::value_parser!(u32).range(1..))]
    pub max_plies: u32,
    /// Start every game from this position (PDN FEN) instead of the initial one.
    #[arg(long)]
    pub fen: Option<String>,
    /// Endgame tables: the folder given to `dama egtb build --dir` (the
    /// variant's tables are in its subfolder). Both engines play them
    /// perfectly where they hold the position and use them in their search.
    #[arg(long, value_name = "DIR")]
    pub egtb: Option<std::path::PathBuf>,
    /// Evaluation weights for both engines: a file written by `dama tune`,
    /// or `derived` for the weights derived from the rules (default: the
    /// weights shipped for the variant, else the derived ones).
    #[arg(long, value_name = "FILE")]
    pub eval: Option<std::path::PathBuf>,
    /// Evaluation weights of player A (overrides --eval).
    #[arg(long, value_name = "FILE")]
    pub white_eval: Option<std::path::PathBuf>,
    /// Evaluation weights of player B (overrides --eval).
    #[arg(long, value_name = "FILE")]
    pub black_eval: Option<std::path::PathBuf>,
    /// Also write every game to this PDN file.
    #[arg(long, value_name = "FILE")]
    pub pdn: Option<std::path::PathBuf>,
    /// Output format.
    #[arg(long, value_enum, default_value_t)]
    pub format: Format,
    /// Print a line per game on standard error as the match goes (on a
    /// terminal a progress bar is shown instead, unless this is given).
    #[arg(long, short = 'v')]
    pub verbose: bool,
}

/// Player A or B as asked: the contestant and its name.
fn player(
    kind: Contestant,
    level: u8,
    args: &MatchArgs,
    weights: Option<(dama_engine::EvalWeights, &std::path::Path)>,
) -> MatchPlayer {
    let (limits, text) = limits_from(level, args.depth, args.movetime);
    match kind {
        Contestant::Engine => MatchPlayer {
            contestant: dama_engine::Contestant::Engine(limits),
            name: match &weights {
                Some((_, path)) => format!("engine ({text}, eval {})", path.display()),
                None => format!("engine ({text})"),
            },
            weights: weights.map(|(w, _)| w),
        },
        Contestant::Random => MatchPlayer {
            contestant: dama_engine::Contestant::Random,
            name: "random mover".into(),
            weights: None,
        },
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
    let tables = match super::egtb::play_dir(ctx, &loaded.rules, args.egtb.as_deref()) {
        Ok(t) => t,
        Err(e) => return e,
    };
    let variant_file = super::play::variant_file(&loaded);
    let rules = Arc::new(loaded.rules);
    let mut evals = [None, None];
    for (i, path) in [&args.white_eval, &args.black_eval].into_iter().enumerate() {
        let Some(path) = path.as_deref().or(args.eval.as_deref()) else {
            continue;
        };
        match super::tune::weights_arg(&rules, Some(path)) {
            Ok(w) => evals[i] = w.map(|w| (w, path)),
            Err(e) => return e,
        }
    }
    let [white_eval, black_eval] = evals;
    let mut players = [
        player(args.white, args.white_level.unwrap_or(args.level), &args, white_eval),
        player(args.black, args.black_level.unwrap_or(args.level), &args, black_eval),
    ];
    if players[0].name == players[1].name {
        players[0].name.push_str(" A");
        players[1].name.push_str(" B");
    }
    let config = MatchConfig {
        players,
        start,
        games: args.games,
        opening_plies: args.openings,
        seed: args.seed,
        max_plies: args.max_plies,
        tables,
    };
    let progress = render::stderr_tty() && args.format == Format::Text && !args.verbose;
    let names = [config.players[0].name.clone(), config.players[1].name.clone()];
    let report = play_match(Arc::clone(&rules), &config, |p| {
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
    let sides = &report.players;
    let t = report.tally;
    let (wins, draws, losses) = (t.wins, t.draws, t.losses);

    if let Some(path) = &args.pdn {
        let date = DateTime::now().pdn_date();
        let tags: Vec<PdnTags> = report
            .games
            .iter()
            .enumerate()
            .map(|(i, p)| {
                let (w, b) = if p.a_color == Color::White { (0, 1) } else { (1, 0) };
                PdnTags {
                    event: format!("dama match ({})", rules.id()),
                    site: "?".into(),
                    date: date.clone(),
                    round: (i + 1).to_string(),
                    white: sides[w].player.name.clone(),
                    black: sides[b].player.name.clone(),
                    variant_file: variant_file.clone(),
                    extra: Vec::new(),
                }
            })
            .collect();
        let text = pdn::write_games(report.games.iter().zip(tags.iter()).map(|(p, t)| (&p.game, t)));
        if let Err(e) = savefile::write_atomic(path, &text) {
            let msg = format!("cannot write {}: {e}", path.display());
            eprintln!("error: {msg}");
            ctx.json_errors(|| vec![json::error(Code::Write, &msg, None, None)]);
            return Exit::Failure;
        }
    }

    match args.format {
        Format::Json => {
            let player = |s: &MatchPlayerStats| {
                serde_json::json!({
                    "kind": match s.player.contestant {
                        dama_engine::Contestant::Engine(_) => "engine",
                        dama_engine::Contestant::Random => "random",
                    },
                    "name": s.player.name,
                    "limits": match &s.player.contestant {
                        dama_engine::Contestant::Engine(limits) => serde_json::json!({
                            "depth": limits.depth,
                            "movetime_ms": limits.movetime.map(|t| t.as_millis() as u64),
                            "nodes": limits.nodes,
                        }),
                        dama_engine::Contestant::Random => serde_json::Value::Null,
                    },
                    "moves": s.moves,
                    "seconds_per_move": s.seconds_per_move(),
                    "longest_move_seconds": s.longest.as_secs_f64(),
                })
            };
            let games: Vec<serde_json::Value> = report
                .games
                .iter()
                .enumerate()
                .map(|(i, p)| {
                    serde_json::json!({
                        "game": i + 1,
                        "a_plays": p.a_color.name(),
                        "result": p.outcome.result.pdn(),
                        "a_score": p.a_score(),
                        "reason": p.outcome.reason.to_string(),
                        "plies": p.game.ply_count(),
                    })
                })
                .collect();
            let v = serde_json::json!({
                "variant": rules.id(),
                "games": report.games.len(),
                "seed": args.seed,
                "opening_plies": args.openings,
                "max_plies": args.max_plies,
                "a": player(&sides[0]),
                "b": player(&sides[1]),
                "wins": wins,
                "draws": draws,
                "losses": losses,
                "score": report.score,
                "draw_rate": report.draw_rate,
                "white_wins": report.white_wins,
                "black_wins": report.black_wins,
                "average_plies": report.average_plies,
                "shortest_plies": report.shortest_plies,
                "longest_plies": report.longest_plies,
                "endings": report.endings.iter().map(|e| serde_json::json!({"reason": e.reason, "games": e.games})).collect::<Vec<_>>(),
                "elapsed_seconds": report.elapsed.as_secs_f64(),
                "results": games,
            });
            outln!("{}", serde_json::to_string_pretty(&v).unwrap_or_default());
        }
        Format::Text => {
            let (a, b) = (&sides[0].player.name, &sides[1].player.name);
            outln!(
                "{} ({}): {} games, {a} against {b}",
                rules.name(),
                rules.id(),
                report.games.len(),
            );
            outln!(
                "Colors alternate; {} random opening plies per pair of games; seed {}; draw after {} plies.",
                args.openings,
                args.seed,
                args.max_plies
            );
            outln!();
            outln!("Results for {a}:");
            outln!(
                "  wins {wins}, draws {draws}, losses {losses}  (score {:.1}%)",
                100.0 * report.score
            );
            outln!("  draw rate {:.1}%", 100.0 * report.draw_rate);
            outln!("  White won {}, Black won {}", report.white_wins, report.black_wins);
            outln!(
                "Average game length: {:.1} plies (shortest {}, longest {})",
                report.average_plies,
                report.shortest_plies,
                report.longest_plies
            );
            outln!("Endings:");
            for e in &report.endings {
                outln!("  {:>5}  {}", e.games, e.reason);
            }
            if let Some(p) = &args.pdn {
                outln!("Games written to {}.", p.display());
            }
            let mut timing = format!("Time: {:.1} s", report.elapsed.as_secs_f64());
            for s in sides {
                if let dama_engine::Contestant::Engine(_) = s.player.contestant {
                    timing.push_str(&format!(
                        "; {} {:.3} s per move (longest {:.3} s)",
                        s.player.name,
                        s.seconds_per_move(),
                        s.longest.as_secs_f64()
                    ));
                }
            }
            eprintln!("{timing}");
        }
    }
    Exit::Success
}

/// One finished game, for `--verbose`: who had White, the result and why,
/// its length, and the score so far.
fn game_line(p: &MatchProgress, names: &[String; 2]) {
    let g = p.last;
    let (white, black) = if g.a_color == Color::White { (0, 1) } else { (1, 0) };
    let (w, d, l) = (p.tally.wins, p.tally.draws, p.tally.losses);
    eprintln!(
        "game {}/{}: {} (White) - {} (Black): {} ({}), {} plies; A +{w} ={d} -{l}",
        p.played,
        p.games,
        names[white],
        names[black],
        g.outcome.result.pdn(),
        g.outcome.reason,
        g.game.ply_count()
    );
}

fn progress_line(p: &MatchProgress) {
    let (done, total, elapsed) = (p.played, p.games, p.elapsed);
    let (w, d, l) = (p.tally.wins, p.tally.draws, p.tally.losses);
    let width = 30usize;
    let filled = (done as usize * width) / total.max(1) as usize;
    let eta = if done > 0 {
        elapsed.as_secs_f64() / f64::from(done) * f64::from(total - done)
    } else {
        0.0
    };
    eprint!(
        "\r[{}{}] {done}/{total}  +{w} ={d} -{l}  eta {:.0} s ",
        "#".repeat(filled),
        ".".repeat(width - filled),
        eta
    );
    let _ = std::io::stderr().flush();
}
