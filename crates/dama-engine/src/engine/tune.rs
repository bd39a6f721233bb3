//! Tuning the evaluation's weights from game results (Texel's method).
//!
//! Each [`Sample`] is a quiet position of a game (the side to move has no
//! capture) labelled with the game's result for White, its [`Features`]
//! counted once. The evaluation is the features times the weights, so the
//! predicted score of a sample, `sigmoid(K · eval / 100)`, is cheap to
//! recompute for any weights. [`fit_scale`] first finds the `K` that best
//! fits the results with the starting weights; [`tune`] then moves one
//! weight at a time (coordinate descent with shrinking steps) while the
//! mean squared error between prediction and result falls.
//!
//! ```
//! use dama_engine::tune::{tune, Sample};
//! use dama_engine::{EvalWeights, Evaluator, Rules};
//! let rules = Rules::builtin("dama").unwrap();
//! let ev = Evaluator::new(&rules);
//! // White a man up wins; a man down loses.
//! let up = ev.features(&rules, &rules.parse_fen("W:Wd2,e2:Bd7").unwrap());
//! let down = ev.features(&rules, &rules.parse_fen("W:Wd2:Bd7,e7").unwrap());
//! let samples = vec![Sample { features: up, result: 1.0 }, Sample { features: down, result: 0.0 }];
//! let report = tune(&rules, &EvalWeights::derived(&rules), &samples, |_| {});
//! assert!(report.error_after <= report.error_before);
//! ```

use crate::board::{Color, Position};
use crate::engine::eval::terms_with;
use crate::engine::{EvalWeights, Evaluator, Features, MAN, MAX_WEIGHT, WEIGHT_NAMES};
use crate::rules::Rules;

/// A position of a game, counted, and the game's result.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Sample {
    /// What the evaluation counts on the position.
    pub features: Features,
    /// White's score in the game: 1 win, 0.5 draw, 0 loss.
    pub result: f64,
}

impl Sample {
    /// The quiet positions of a game worth learning from: `positions` are
    /// the game's positions in order, `result` White's score. The first
    /// `skip` positions (the opening) are left out, and so are positions
    /// where the side to move must capture or cannot move.
    pub fn from_game(
        rules: &Rules,
        evaluator: &Evaluator,
        positions: &[Position],
        skip: usize,
        result: f64,
    ) -> Vec<Sample> {
        positions
            .iter()
            .skip(skip)
            .filter(|p| {
                let moves = rules.legal_moves(p);
                !moves.is_empty() && !moves.iter().any(|m| m.is_capture())
            })
            .map(|p| Sample {
                features: evaluator.features(rules, p),
                result,
            })
            .collect()
    }
}

/// How tuning is going, after each pass over the weights.
#[derive(Debug, Clone, Copy)]
pub struct TuneProgress {
    /// Passes so far.
    pub pass: u32,
    /// The current step of the weights.
    pub step: i32,
    /// The mean squared error now.
    pub error: f64,
}

/// What tuning gave.
#[derive(Debug, Clone)]
pub struct TuneReport {
    /// The tuned weights.
    pub weights: EvalWeights,
    /// The scale of the sigmoid, fitted to the starting weights (per man).
    pub scale: f64,
    /// Mean squared error with the starting weights.
    pub error_before: f64,
    /// Mean squared error with the tuned weights.
    pub error_after: f64,
    /// Passes over the weights.
    pub passes: u32,
}

/// What the evaluation of features needs besides the weights.
struct Model {
    start_men: i32,
    start_kings: i32,
    aim: i32,
}

impl Model {
    fn new(rules: &Rules) -> Model {
        let start = rules.start_position();
        let count = |f: fn(&Position, Color) -> crate::board::Bitboard| {
            Color::ALL.iter().map(|&c| f(&start, c).count() as i32).sum::<i32>()
        };
        Model {
            start_men: count(Position::men),
            start_kings: count(Position::kings),
            aim: Evaluator::new(rules).aim(),
        }
    }

    /// White's evaluation of `f` with `w` (the same as the engine's).
    fn eval(&self, w: &EvalWeights, f: &Features) -> i32 {
        let start_material = (self.start_men * MAN + self.start_kings * w.king).max(1);
        terms_with(w, start_material, self.aim, f).total()
    }

    fn error(&self, w: &EvalWeights, samples: &[Sample], scale: f64) -> f64 {
        if samples.is_empty() {
            return 0.0;
        }
        let sum: f64 = samples
            .iter()
            .map(|s| {
                let p = sigmoid(scale * f64::from(self.eval(w, &s.features)) / f64::from(MAN));
                (p - s.result).powi(2)
            })
            .sum();
        sum / samples.len() as f64
    }
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// The mean squared error of `weights` on `samples` with sigmoid scale
/// `scale` (per man).
pub fn mean_error(rules: &Rules, weights: &EvalWeights, samples: &[Sample], scale: f64) -> f64 {
    Model::new(rules).error(weights, samples, scale)
}

/// The sigmoid scale (per man) that best fits `samples` with `weights`:
/// a golden-section search over 0.01–10.
pub fn fit_scale(rules: &Rules, weights: &EvalWeights, samples: &[Sample]) -> f64 {
    let model = Model::new(rules);
    let f = |k: f64| model.error(weights, samples, k);
    let (mut a, mut b) = (0.01f64, 10.0f64);
    let g = (5f64.sqrt() - 1.0) / 2.0;
    let mut c = b - g * (b - a);
    let mut d = a + g * (b - a);
    let (mut fc, mut fd) = (f(c), f(d));
    for _ in 0..60 {
        if fc < fd {
            b = d;
            d = c;
            fd = fc;
            c = b - g * (b - a);
            fc = f(c);
        } else {
            a = c;
            c = d;
            fc = fd;
            d = a + g * (b - a);
            fd = f(d);
        }
    }
    (a + b) / 2.0
}

/// Tunes `start` on `samples`: fits the sigmoid scale to `start`, then
/// moves each weight up or down by a step while that lowers the mean
/// squared error, halving the step (16, 8, … 1) when no move helps.
/// Deterministic; calls `progress` after every pass.
pub fn tune(rules: &Rules, start: &EvalWeights, samples: &[Sample], progress: impl FnMut(&TuneProgress)) -> TuneReport {
    tune_keeping(rules, start, samples, &[], progress)
}

/// As [`tune`], with the weights named in `keep` (names of
/// [`WEIGHT_NAMES`]) held at their values in `start`. A name that is not a
/// weight holds nothing; the caller checks names (`dama tune --keep`).
///
/// ```
/// use dama_engine::{tune::tune_keeping, EvalWeights, Evaluator, Rules, tune::Sample};
/// let rules = Rules::builtin("dama").unwrap();
/// let ev = Evaluator::new(&rules);
/// let up = ev.features(&rules, &rules.parse_fen("W:WKd4,e2:Bd7,e7").unwrap());
/// let samples = vec![Sample { features: up, result: 1.0 }];
/// let start = EvalWeights::derived(&rules);
/// let report = tune_keeping(&rules, &start, &samples, &["king"], |_| {});
/// assert_eq!(report.weights.king, start.king);
/// ```
pub fn tune_keeping(
    rules: &Rules,
    start: &EvalWeights,
    samples: &[Sample],
    keep: &[&str],
    mut progress: impl FnMut(&TuneProgress),
) -> TuneReport {
    let model = Model::new(rules);
    let scale = fit_scale(rules, start, samples);
    let error_before = model.error(start, samples, scale);
    let mut best = *start;
    let mut best_error = error_before;
    let mut passes = 0;
    let mut step = 16;
    while step >= 1 {
        // At most a few dozen passes per step: every pass that improves
        // lowers the error, so this only bounds the time.
        for _ in 0..32 {
            passes += 1;
            let mut improved = false;
            for (i, (name, _)) in WEIGHT_NAMES.iter().enumerate() {
                if keep.contains(name) {
                    continue;
                }
                for dir in [1, -1] {
                    let mut values = best.values();
                    let v = values[i] + dir * step;
                    if v.abs() > MAX_WEIGHT || (*name == "king" && v <= 0) {
                        continue;
                    }
                    values[i] = v;
                    let mut w = best;
                    w.set_values(&values);
                    let e = model.error(&w, samples, scale);
                    if e < best_error {
                        best = w;
                        best_error = e;
                        improved = true;
                        break;
                    }
                }
            }
            progress(&TuneProgress {
                pass: passes,
                step,
                error: best_error,
            });
            if !improved {
                break;
            }
        }
        step /= 2;
    }
    TuneReport {
        weights: best,
        scale,
        error_before,
        error_after: best_error,
        passes,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Positions where the side with more kings won, the other lost.
    fn synthetic(rules: &Rules) -> Vec<Sample> {
        let ev = Evaluator::new(rules);
        let fens = [
            ("W:WKd4,e3:Bd7,e7,f7", 1.0),
            ("W:WKd4,Kf4:Bd7,e7,f7,g7", 1.0),
            ("W:Wd2,e3,f3:BKd5,e6", 0.0),
            ("W:Wd2,e3,f3,g3:BKd5,Ke6", 0.0),
            ("W:Wd2,e2:Bd7,e7", 0.5),
            ("W:WKa1:Ba8", 0.5),
        ];
        fens.iter()
            .map(|(fen, result)| Sample {
                features: ev.features(rules, &rules.parse_fen(fen).unwrap()),
                result: *result,
            })
            .collect()
    }

    #[test]
    fn the_model_is_the_evaluation() {
        let rules = Rules::builtin("dama").unwrap();
        let mut w = EvalWeights::derived(&rules);
        w.tempo = 3;
        w.support = -2;
        w.runaway = 7;
        w.king_centre = 1;
        w.king = 400;
        let ev = Evaluator::with_weights(&rules, &w);
        let model = Model::new(&rules);
        for fen in ["W:WKd4,e3:Bd7,e7,f7", "B:Wd2,e3,f3:BKd5,e6", "W:Wa2,b2,c3:Bh7,g6,f6"] {
            let pos = rules.parse_fen(fen).unwrap();
            let f = ev.features(&rules, &pos);
            assert_eq!(model.eval(&w, &f), ev.terms(&rules, &pos).total(), "{fen}");
        }
    }

    #[test]
    fn tuning_lowers_the_error() {
        let rules = Rules::builtin("dama").unwrap();
        let samples = synthetic(&rules);
        let start = EvalWeights::derived(&rules);
        let mut calls = 0;
        let report = tune(&rules, &start, &samples, |_| calls += 1);
        assert!(calls > 0);
        assert!(report.error_after < report.error_before, "{report:?}");
        let again = tune(&rules, &start, &samples, |_| {});
        assert_eq!(again.weights, report.weights);
    }

    #[test]
    fn kept_weights_do_not_move() {
        let rules = Rules::builtin("dama").unwrap();
        let samples = synthetic(&rules);
        let start = EvalWeights::derived(&rules);
        let free = tune(&rules, &start, &samples, |_| {});
        assert_ne!(
            free.weights.king, start.king,
            "the king's worth is what these samples teach"
        );
        let kept = tune_keeping(&rules, &start, &samples, &["king", "trade"], |_| {});
        assert_eq!(kept.weights.king, start.king);
        assert_eq!(kept.weights.trade, start.trade);
        assert!(kept.error_after <= kept.error_before);
    }

    #[test]
    fn the_scale_fits_the_results() {
        let rules = Rules::builtin("dama").unwrap();
        let samples = synthetic(&rules);
        let w = EvalWeights::derived(&rules);
        let k = fit_scale(&rules, &w, &samples);
        assert!(k > 0.01 && k < 10.0, "{k}");
        let e = mean_error(&rules, &w, &samples, k);
        assert!(e <= mean_error(&rules, &w, &samples, k * 2.0));
        assert!(e <= mean_error(&rules, &w, &samples, k / 2.0));
    }

    #[test]
    fn quiet_positions_only() {
        let rules = Rules::builtin("dama").unwrap();
        let ev = Evaluator::new(&rules);
        let quiet = rules.parse_fen("W:Wd2:Bd7").unwrap();
        let capture = rules.parse_fen("W:Wd4:Bd5").unwrap();
        let s = Sample::from_game(&rules, &ev, &[quiet, capture, quiet], 1, 1.0);
        assert_eq!(s.len(), 1);
        assert_eq!(s[0].result, 1.0);
    }
}
