//! What `dama match` shows: the Elo estimate and the SPRT's state in words
//! and as JSON, a line per game, the progress line, each game's summary.

use std::io::Write;

use dama_engine::Color;
use dama_play::MatchProgress;
use dama_play::{EloEstimate, SprtDecision, SprtStatus};

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
