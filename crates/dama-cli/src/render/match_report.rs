//! What `dama match` shows: the Elo estimate and the SPRT's state in words
//! and as JSON, a line per game, the progress line, each game's summary.

use std::io::Write;

use dama_engine::Color;
use dama_play::MatchProgress;
use dama_play::{EloEstimate, MatchPlayerStats, MatchReport, SprtDecision, SprtStatus};

use crate::cli::Format;
use crate::out::outln;

/// An Elo figure: signed, one decimal, or ±inf.
pub(crate) fn elo_text(x: f64) -> String {
    if x == f64::INFINITY {
        "+inf".into()
    } else if x == f64::NEG_INFINITY {
        "-inf".into()
    } else {
        format!("{x:+.1}")
    }
}

/// The Elo line of the text report.
pub(crate) fn elo_line(e: &EloEstimate) -> String {
    let margin = e.margin();
    let margin = if margin.is_finite() {
        format!("{margin:.1}")
    } else {
        "inf".into()
    };
    format!(
        "Elo difference {} ± {margin} (95% interval {} to {}, {}), LOS {:.1}%",
        elo_text(e.elo),
        elo_text(e.low),
        elo_text(e.high),
        e.model.name(),
        100.0 * e.los
    )
}

/// The decision of a test, in words.
pub(crate) fn decision_text(d: SprtDecision) -> &'static str {
    match d {
        SprtDecision::H0 => "H0 accepted",
        SprtDecision::H1 => "H1 accepted",
        SprtDecision::Inconclusive => "inconclusive",
    }
}

/// What the JSON report says of a game (kept instead of the game).
pub(crate) struct GameSummary {
    pub(crate) a_color: Color,
    pub(crate) outcome: dama_engine::Outcome,
    pub(crate) plies: usize,
}

/// The sequential test in the JSON report.
pub(crate) fn sprt_json(s: &SprtStatus) -> serde_json::Value {
    serde_json::json!({
        "elo0": s.test.elo0,
        "elo1": s.test.elo1,
        "alpha": s.test.alpha,
        "beta": s.test.beta,
        "llr": s.llr,
        "lower": s.lower,
        "upper": s.upper,
        "decision": match s.decision {
            SprtDecision::H0 => "H0",
            SprtDecision::H1 => "H1",
            SprtDecision::Inconclusive => "inconclusive",
        },
    })
}

/// One finished game, for `--verbose`: who had White, the result and why,
/// its length, and the score so far.
pub(crate) fn game_line(p: &MatchProgress, names: &[String; 2]) {
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

pub(crate) fn progress_line(p: &MatchProgress) {
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

impl GameSummary {
    /// Player A's score.
    pub(crate) fn a_score(&self) -> f64 {
        match self.outcome.result.winner() {
            Some(c) if c == self.a_color => 1.0,
            Some(_) => 0.0,
            None => 0.5,
        }
    }
}

/// What the report says of the match's set-up.
#[derive(Debug)]
pub(crate) struct MatchShown<'a> {
    /// The variant played.
    pub(crate) rules: &'a dama_engine::Rules,
    /// The seed, the random opening plies, the ply limit.
    pub(crate) seed: u64,
    pub(crate) opening_plies: u32,
    pub(crate) max_plies: u32,
    /// The openings file and how many openings it holds.
    pub(crate) openings_file: Option<&'a std::path::Path>,
    pub(crate) openings_count: usize,
    /// Where the games were written.
    pub(crate) pdn: Option<&'a std::path::Path>,
}

/// The match's report, as text for people or as JSON; each game's summary
/// in `results` (JSON only).
pub(crate) fn print_report(format: Format, shown: &MatchShown<'_>, report: &MatchReport, results: &[GameSummary]) {
    let sides = &report.players;
    let t = report.tally;
    let (wins, draws, losses) = (t.wins, t.draws, t.losses);
    match format {
        Format::Json => {
            let player = |s: &MatchPlayerStats| {
                serde_json::json!({
                    "kind": match s.player.contestant {
                        dama_play::Contestant::Engine(_) => "engine",
                        dama_play::Contestant::Random => "random",
                    },
                    "name": s.player.name,
                    "limits": match &s.player.contestant {
                        dama_play::Contestant::Engine(limits) => serde_json::json!({
                            "depth": limits.depth,
                            "movetime_ms": limits.movetime.map(|t| t.as_millis() as u64),
                            "nodes": limits.nodes,
                        }),
                        dama_play::Contestant::Random => serde_json::Value::Null,
                    },
                    "moves": s.moves,
                    "seconds_per_move": s.seconds_per_move(),
                    "longest_move_seconds": s.longest.as_secs_f64(),
                })
            };
            let games: Vec<serde_json::Value> = results
                .iter()
                .enumerate()
                .map(|(i, p)| {
                    serde_json::json!({
                        "game": i + 1,
                        "a_plays": p.a_color.name(),
                        "result": p.outcome.result.pdn(),
                        "a_score": p.a_score(),
                        "reason": p.outcome.reason.to_string(),
                        "plies": p.plies,
                    })
                })
                .collect();
            let v = serde_json::json!({
                "variant": shown.rules.id(),
                "games": report.played,
                "seed": shown.seed,
                "opening_plies": shown.opening_plies,
                "max_plies": shown.max_plies,
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
                "pairs": report.pairs,
                "elo": {
                    "model": report.elo.model.name(),
                    "elo": report.elo.elo,
                    "low": report.elo.low,
                    "high": report.elo.high,
                    "los": report.elo.los,
                },
                "sprt": report.sprt.map(|s| sprt_json(&s)),
                "threads": report.threads,
                "elapsed_seconds": report.elapsed.as_secs_f64(),
                "results": games,
            });
            outln!("{}", serde_json::to_string_pretty(&v).unwrap_or_default());
        }
        Format::Text => {
            let (a, b) = (&sides[0].player.name, &sides[1].player.name);
            outln!(
                "{} ({}): {} games, {a} against {b}",
                dama_engine::text::printable(shown.rules.name()),
                shown.rules.id(),
                report.played,
            );
            match shown.openings_file {
                Some(f) => outln!(
                    "Colors alternate; openings from {} ({} in the file), one per pair of games; seed {}; draw after {} plies.",
                    f.display(),
                    shown.openings_count,
                    shown.seed,
                    shown.max_plies
                ),
                None => outln!(
                    "Colors alternate; {} random opening plies per pair of games; seed {}; draw after {} plies.",
                    shown.opening_plies,
                    shown.seed,
                    shown.max_plies
                ),
            }
            outln!();
            outln!("Results for {a}:");
            outln!(
                "  wins {wins}, draws {draws}, losses {losses}  (score {:.1}%)",
                100.0 * report.score
            );
            outln!("  draw rate {:.1}%", 100.0 * report.draw_rate);
            outln!("  White won {}, Black won {}", report.white_wins, report.black_wins);
            outln!("  {}", elo_line(&report.elo));
            if let Some(p) = report.pairs {
                outln!(
                    "  pairs scoring 0, 1/2, 1, 3/2, 2 points: {}, {}, {}, {}, {}",
                    p[0],
                    p[1],
                    p[2],
                    p[3],
                    p[4]
                );
            }
            if let Some(s) = &report.sprt {
                outln!(
                    "SPRT elo0 {}, elo1 {} (alpha {}, beta {}; logistic Elo, pentanomial): {} after {} games, LLR {:.2} (bounds {:.2}, {:.2})",
                    s.test.elo0,
                    s.test.elo1,
                    s.test.alpha,
                    s.test.beta,
                    decision_text(s.decision),
                    report.played,
                    s.llr,
                    s.lower,
                    s.upper
                );
            }
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
            if let Some(p) = &shown.pdn {
                outln!("Games written to {}.", p.display());
            }
            let mut timing = format!(
                "Time: {:.1} s on {} thread{}",
                report.elapsed.as_secs_f64(),
                report.threads,
                if report.threads == 1 { "" } else { "s" }
            );
            for s in sides {
                if let dama_play::Contestant::Engine(_) = s.player.contestant {
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
}
