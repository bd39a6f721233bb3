//! `dama match <variant> --games N`: the engine against itself or against a
//! random mover, colors alternating, from varied openings.
//!
//! Player A is the one given by `--white`, player B by `--black`; A has
//! White in odd games and Black in even ones, and both games of a pair start
//! from the same random opening. Scores are reported for player A. Every
//! game ends: besides the variant's own end rules, a ply cap adjudicates a
//! draw ("move limit").

use std::io::Write;
use std::sync::Arc;
use std::time::{Duration, Instant};

use clap::ValueEnum;
use dama_engine::pdn::{self, PdnTags};
use dama_engine::{random_move, Engine, Limits, Rng, SearchRoot, DEFAULT_LEVEL, LEVELS};
use dama_engine::{Color, Position, Rules};
use dama_engine::{EndReason, Game, GameResult, Outcome};

use super::play::limits_from;
use super::Ctx;
use crate::cli::Format;
use crate::exit::Exit;
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
    /// Also write every game to this PDN file.
    #[arg(long, value_name = "FILE")]
    pub pdn: Option<std::path::PathBuf>,
    /// Output format.
    #[arg(long, value_enum, default_value_t)]
    pub format: Format,
}

/// One side of the match.
struct Side {
    kind: Contestant,
    limits: Limits,
    name: String,
    engine: Option<Engine>,
    moves: u64,
    thinking: Duration,
    longest: Duration,
}

impl Side {
    fn new(kind: Contestant, rules: &Rules, level: u8, args: &MatchArgs) -> Side {
        let (limits, text) = limits_from(level, args.depth, args.movetime);
        match kind {
            Contestant::Engine => Side {
                kind,
                limits,
                name: format!("engine ({text})"),
                engine: Some(Engine::new(rules)),
                moves: 0,
                thinking: Duration::ZERO,
                longest: Duration::ZERO,
            },
            Contestant::Random => Side {
                kind,
                limits,
                name: "random mover".into(),
                engine: None,
                moves: 0,
                thinking: Duration::ZERO,
                longest: Duration::ZERO,
            },
        }
    }
}

/// The result of one game, for the report.
struct Played {
    game: Game,
    a_color: Color,
    outcome: Outcome,
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
    let rules = Arc::new(loaded.rules);
    let mut sides = [
        Side::new(args.white, &rules, args.white_level.unwrap_or(args.level), &args),
        Side::new(args.black, &rules, args.black_level.unwrap_or(args.level), &args),
    ];
    if sides[0].name == sides[1].name {
        sides[0].name.push_str(" A");
        sides[1].name.push_str(" B");
    }
    let progress = render::stderr_tty() && args.format == Format::Text;
    let began = Instant::now();
    let mut played: Vec<Played> = Vec::with_capacity(args.games as usize);
    let mut opening_rng = Rng::new(args.seed);
    let mut opening: Vec<dama_engine::Move> = Vec::new();
    let (mut wins, mut draws, mut losses) = (0u32, 0u32, 0u32);
    for g in 0..args.games {
        // A new opening for every pair of games; A plays White in the first of the pair.
        if g % 2 == 0 {
            opening = random_opening(&rules, &start, args.openings, &mut opening_rng);
        }
        let a_color = if g % 2 == 0 { Color::White } else { Color::Black };
        let mut rng = Rng::new(args.seed ^ (u64::from(g) + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15));
        for s in sides.iter_mut() {
            if let Some(e) = s.engine.as_mut() {
                e.clear();
                e.set_seed(rng.next_u64());
            }
        }
        let game = play_game(&rules, start, &opening, a_color, &mut sides, &mut rng, args.max_plies);
        let outcome = game
            .outcome()
            .unwrap_or(Outcome::new(GameResult::Draw, EndReason::PlyLimit(args.max_plies)));
        match outcome.result.winner() {
            Some(c) if c == a_color => wins += 1,
            Some(_) => losses += 1,
            None => draws += 1,
        }
        played.push(Played { game, a_color, outcome });
        if progress {
            progress_line(g + 1, args.games, wins, draws, losses, began.elapsed());
        }
    }
    if progress {
        eprint!("\r{}\r", " ".repeat(72));
        let _ = std::io::stderr().flush();
    }
    let elapsed = began.elapsed();

    if let Some(path) = &args.pdn {
        let date = DateTime::now().pdn_date();
        let tags: Vec<PdnTags> = played
            .iter()
            .enumerate()
            .map(|(i, p)| {
                let (w, b) = if p.a_color == Color::White { (0, 1) } else { (1, 0) };
                PdnTags {
                    event: format!("dama match ({})", rules.id()),
                    site: "?".into(),
                    date: date.clone(),
                    round: (i + 1).to_string(),
                    white: sides[w].name.clone(),
                    black: sides[b].name.clone(),
                    variant_file: None,
                    extra: Vec::new(),
                }
            })
            .collect();
        let text = pdn::write_games(played.iter().zip(tags.iter()).map(|(p, t)| (&p.game, t)));
        if let Err(e) = savefile::write_atomic(path, &text) {
            eprintln!("error: cannot write {}: {e}", path.display());
            return Exit::Failure;
        }
    }

    let n = played.len().max(1) as f64;
    let lengths: Vec<usize> = played.iter().map(|p| p.game.ply_count()).collect();
    let avg_len = lengths.iter().sum::<usize>() as f64 / n;
    let longest = lengths.iter().copied().max().unwrap_or(0);
    let shortest = lengths.iter().copied().min().unwrap_or(0);
    let score = (f64::from(wins) + f64::from(draws) / 2.0) / n;
    let draw_rate = f64::from(draws) / n;
    // Why games ended, most frequent first.
    let mut reasons: Vec<(String, u32)> = Vec::new();
    for p in &played {
        let r = reason_kind(&p.outcome.reason);
        match reasons.iter_mut().find(|(k, _)| *k == r) {
            Some((_, c)) => *c += 1,
            None => reasons.push((r, 1)),
        }
    }
    reasons.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    let white_wins = played
        .iter()
        .filter(|p| p.outcome.result == GameResult::WhiteWins)
        .count();
    let black_wins = played
        .iter()
        .filter(|p| p.outcome.result == GameResult::BlackWins)
        .count();
    let per_move = |s: &Side| {
        if s.moves == 0 {
            0.0
        } else {
            s.thinking.as_secs_f64() / s.moves as f64
        }
    };

    match args.format {
        Format::Json => {
            let player = |s: &Side| {
                serde_json::json!({
                    "kind": match s.kind { Contestant::Engine => "engine", Contestant::Random => "random" },
                    "name": s.name,
                    "limits": match s.kind {
                        Contestant::Engine => serde_json::json!({
                            "depth": s.limits.depth,
                            "movetime_ms": s.limits.movetime.map(|t| t.as_millis() as u64),
                            "nodes": s.limits.nodes,
                        }),
                        Contestant::Random => serde_json::Value::Null,
                    },
                    "moves": s.moves,
                    "seconds_per_move": per_move(s),
                    "longest_move_seconds": s.longest.as_secs_f64(),
                })
            };
            let games: Vec<serde_json::Value> = played
                .iter()
                .enumerate()
                .map(|(i, p)| {
                    serde_json::json!({
                        "game": i + 1,
                        "a_plays": p.a_color.name(),
                        "result": p.outcome.result.pdn(),
                        "a_score": match p.outcome.result.winner() {
                            Some(c) if c == p.a_color => 1.0,
                            Some(_) => 0.0,
                            None => 0.5,
                        },
                        "reason": p.outcome.reason.to_string(),
                        "plies": p.game.ply_count(),
                    })
                })
                .collect();
            let v = serde_json::json!({
                "variant": rules.id(),
                "games": played.len(),
                "seed": args.seed,
                "opening_plies": args.openings,
                "max_plies": args.max_plies,
                "a": player(&sides[0]),
                "b": player(&sides[1]),
                "wins": wins,
                "draws": draws,
                "losses": losses,
                "score": score,
                "draw_rate": draw_rate,
                "white_wins": white_wins,
                "black_wins": black_wins,
                "average_plies": avg_len,
                "shortest_plies": shortest,
                "longest_plies": longest,
                "endings": reasons.iter().map(|(k, c)| serde_json::json!({"reason": k, "games": c})).collect::<Vec<_>>(),
                "elapsed_seconds": elapsed.as_secs_f64(),
                "results": games,
            });
            println!("{}", serde_json::to_string_pretty(&v).unwrap_or_default());
        }
        Format::Text => {
            println!(
                "{} ({}): {} games, {} against {}",
                rules.name(),
                rules.id(),
                played.len(),
                sides[0].name,
                sides[1].name
            );
            println!(
                "Colors alternate; {} random opening plies per pair of games; seed {}; draw after {} plies.",
                args.openings, args.seed, args.max_plies
            );
            println!();
            println!("Results for {}:", sides[0].name);
            println!(
                "  wins {wins}, draws {draws}, losses {losses}  (score {:.1}%)",
                100.0 * score
            );
            println!("  draw rate {:.1}%", 100.0 * draw_rate);
            println!("  White won {white_wins}, Black won {black_wins}");
            println!("Average game length: {avg_len:.1} plies (shortest {shortest}, longest {longest})");
            println!("Endings:");
            for (k, c) in &reasons {
                println!("  {c:>5}  {k}");
            }
            if let Some(p) = &args.pdn {
                println!("Games written to {}.", p.display());
            }
            let mut timing = format!("Time: {:.1} s", elapsed.as_secs_f64());
            for s in &sides {
                if s.kind == Contestant::Engine {
                    timing.push_str(&format!(
                        "; {} {:.3} s per move (longest {:.3} s)",
                        s.name,
                        per_move(s),
                        s.longest.as_secs_f64()
                    ));
                }
            }
            eprintln!("{timing}");
        }
    }
    Exit::Success
}

/// `plies` random legal moves from `start` (fewer if the game ends).
fn random_opening(rules: &Rules, start: &Position, plies: u32, rng: &mut Rng) -> Vec<dama_engine::Move> {
    let mut pos = *start;
    let mut out = Vec::new();
    for _ in 0..plies {
        let Some(m) = random_move(rules, &pos, rng) else { break };
        pos.play(&m);
        out.push(m);
        // Keep openings where both sides can still move.
        if rules.legal_moves(&pos).is_empty() {
            out.pop();
            break;
        }
    }
    out
}

fn play_game(
    rules: &Arc<Rules>,
    start: Position,
    opening: &[dama_engine::Move],
    a_color: Color,
    sides: &mut [Side; 2],
    rng: &mut Rng,
    max_plies: u32,
) -> Game {
    let mut game = Game::from_position(Arc::clone(rules), start);
    for m in opening {
        if game.is_over() || game.play(*m).is_err() {
            break;
        }
    }
    while !game.is_over() {
        if game.ply_count() >= max_plies as usize {
            let _ = game.declare(Outcome::new(GameResult::Draw, EndReason::PlyLimit(max_plies)));
            break;
        }
        let to_move = game.side_to_move();
        let side = &mut sides[usize::from(to_move != a_color)];
        let t = Instant::now();
        let m = match side.engine.as_mut() {
            Some(e) => e.search(&SearchRoot::from_game(&game), &side.limits).best,
            None => random_move(rules, game.position(), rng),
        };
        let spent = t.elapsed();
        side.thinking += spent;
        side.longest = side.longest.max(spent);
        side.moves += 1;
        let Some(m) = m else { break };
        if game.play(m).is_err() {
            // The engine only plays legal moves; stop rather than loop if that ever fails.
            break;
        }
    }
    game
}

fn progress_line(done: u32, total: u32, w: u32, d: u32, l: u32, elapsed: Duration) {
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

/// The reason, without the side it names.
fn reason_kind(r: &EndReason) -> String {
    match r {
        EndReason::NoLegalMove(_) => "no legal move".into(),
        EndReason::NoPieces(_) => "no pieces left".into(),
        EndReason::Resignation(_) => "resignation".into(),
        EndReason::TimeForfeit(_) => "time forfeit".into(),
        EndReason::PlyLimit(n) => format!("move limit ({n} plies)"),
        other => other.to_string(),
    }
}
