//! What `dama tune` shows once the weights are written: the games and
//! positions it learned from, the fit, each weight with its old value.

use std::path::Path;
use std::time::Duration;

use dama_engine::tune::{TuneReport, WEIGHT_NAMES};
use dama_engine::{EvalWeights, Rules};

use crate::out::outln;

/// What the tuning learned from.
#[derive(Debug)]
pub(crate) struct Played {
    /// The games whose positions were used.
    pub(crate) games: u32,
    /// The self-play games asked for (`--games`).
    pub(crate) asked: u32,
    /// Nodes per move of the self-play (`--nodes`).
    pub(crate) nodes: u64,
    /// How long the self-play took.
    pub(crate) time: Duration,
    /// The quiet positions fitted.
    pub(crate) samples: usize,
}

/// The summary of a tuning of `rules` from `start`, written to `out`.
pub(crate) fn report(rules: &Rules, played: &Played, start: &EvalWeights, report: &TuneReport, out: &Path) {
    outln!(
        "{}: {} games ({} self-play at {} nodes per move, {:.1} s), {} quiet positions",
        dama_engine::text::printable(rules.name()),
        played.games,
        played.asked,
        played.nodes,
        played.time.as_secs_f64(),
        played.samples
    );
    outln!("sigmoid scale K = {:.4} per man", report.scale);
    outln!(
        "mean squared error: {:.6} before, {:.6} after ({} passes)",
        report.error_before,
        report.error_after,
        report.passes
    );
    for ((name, _), (old, new)) in WEIGHT_NAMES
        .iter()
        .zip(start.values().into_iter().zip(report.weights.values()))
    {
        if old == new {
            outln!("  {name:<14} {new:>6}");
        } else {
            outln!("  {name:<14} {new:>6}  (was {old})");
        }
    }
    outln!("weights written to {}", out.display());
}
