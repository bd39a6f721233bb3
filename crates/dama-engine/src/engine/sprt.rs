//! The sequential probability ratio test: play until the results say, with
//! known error rates, whether player A is `elo0` or `elo1` Elo stronger.
//!
//! This is the generalized SPRT of the chess testing frameworks in its
//! **logistic-Elo normal approximation** (Michel Van den Bergh's formula,
//! fishtest's `LLR_logistic` and OpenBench's logistic-Elo test): with the
//! hypotheses' expected scores `s0 = score(elo0)`, `s1 = score(elo1)`
//! (`score(e) = 1 / (1 + 10^(-e/400))`) and the sample's mean score `s` and
//! per-sample variance `σ²` over `n` samples ([`ResultCounts`]:
//! pentanomial pairs, or trinomial games),
//!
//! ```text
//! LLR = n · (s1 - s0) · (2s - s0 - s1) / (2σ²)
//!     = n/(2σ²) · ((s - s0)² - (s - s1)²)
//! ```
//!
//! the log-likelihood ratio of two normal distributions of the mean with
//! the observed variance. Before the variance is taken, every count of zero
//! is replaced by 0.001, as fishtest does, so that a run of identical
//! results does not divide by zero. The test accepts H1 (A is `elo1`
//! stronger) when `LLR ≥ ln((1-β)/α)` and H0 (A is `elo0` stronger) when
//! `LLR ≤ ln(β/(1-α))`; in between it needs more games.

use super::elo::{score_from_elo, ResultCounts};

/// The count that replaces a count of zero before the variance is taken.
const REGULARIZATION: f64 = 1e-3;

/// A sequential test: the two hypotheses and the error rates.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Sprt {
    /// H0: player A is `elo0` Elo stronger (usually 0).
    pub elo0: f64,
    /// H1: player A is `elo1` Elo stronger.
    pub elo1: f64,
    /// The probability of accepting H1 when H0 is true.
    pub alpha: f64,
    /// The probability of accepting H0 when H1 is true.
    pub beta: f64,
}

/// What the test says so far.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SprtDecision {
    /// The LLR reached the lower bound: H0 accepted.
    H0,
    /// The LLR reached the upper bound: H1 accepted.
    H1,
    /// Between the bounds: no decision (yet).
    Inconclusive,
}

/// The test's state after some results.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SprtStatus {
    /// The test.
    pub test: Sprt,
    /// The log-likelihood ratio.
    pub llr: f64,
    /// `ln(β/(1-α))`: H0 is accepted at or below.
    pub lower: f64,
    /// `ln((1-β)/α)`: H1 is accepted at or above.
    pub upper: f64,
    /// The decision.
    pub decision: SprtDecision,
}

impl Sprt {
    /// A test of `elo0` against `elo1` with error rates of 5% each.
    pub fn new(elo0: f64, elo1: f64) -> Sprt {
        Sprt {
            elo0,
            elo1,
            alpha: 0.05,
            beta: 0.05,
        }
    }

    /// The bounds `(ln(β/(1-α)), ln((1-β)/α))`.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The log-likelihood ratio of the results (0 without results).
    ///
    /// ```
    /// use dama_engine::{ResultCounts, Sprt};
    ///
    /// let test = Sprt::new(0.0, 10.0);
    /// let llr = test.llr(&ResultCounts::Games { wins: 60, draws: 20, losses: 20 });
    /// assert!((llr - 1.7337).abs() < 1e-4);
    /// ```
    pub fn llr(&self, counts: &ResultCounts) -> f64 {
        let s = counts.sample_with_floor(REGULARIZATION);
        if s.n == 0.0 || s.variance <= 0.0 {
            return 0.0;
        }
        let (s0, s1) = (score_from_elo(self.elo0), score_from_elo(self.elo1));
        s.n * (s1 - s0) * (2.0 * s.mean - s0 - s1) / (2.0 * s.variance)
    }

    /// The LLR, the bounds and the decision for the results.
    pub fn status(&self, counts: &ResultCounts) -> SprtStatus {
        let llr = self.llr(counts);
        let (lower, upper) = self.bounds();
        let decision = if llr >= upper {
            SprtDecision::H1
        } else if llr <= lower {
            SprtDecision::H0
        } else {
            SprtDecision::Inconclusive
        };
        SprtStatus {
            test: *self,
            llr,
            lower,
            upper,
            decision,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, eps: f64) {
        assert!((a - b).abs() < eps, "{a} is not {b}");
    }

    #[test]
    fn bounds_by_hand() {
        // ln(0.05/0.95) = -2.944439, ln(0.95/0.05) = ln 19 = 2.944439.
        let (lo, hi) = Sprt::new(0.0, 5.0).bounds();
        close(lo, -2.944_439, 1e-6);
        close(hi, 2.944_439, 1e-6);
        // α = 0.05, β = 0.1: ln(0.1/0.95) = -2.251292, ln(0.9/0.05) = ln 18 = 2.890372.
        let t = Sprt {
            beta: 0.1,
            ..Sprt::new(0.0, 5.0)
        };
        let (lo, hi) = t.bounds();
        close(lo, -2.251_292, 1e-6);
        close(hi, 2.890_372, 1e-6);
    }

    #[test]
    fn trinomial_llr_by_hand() {
        // 60 wins, 20 draws, 20 losses: s = 0.7, σ² = 0.16, n = 100;
        // s0 = 0.5, s1 = score(10) = 0.514387;
        // LLR = 100 · 0.014387 · (1.4 - 1.014387) / 0.32 = 1.733713.
        let st = Sprt::new(0.0, 10.0).status(&ResultCounts::Games {
            wins: 60,
            draws: 20,
            losses: 20,
        });
        close(st.llr, 1.733_713, 1e-5);
        assert_eq!(st.decision, SprtDecision::Inconclusive);
    }

    #[test]
    fn pentanomial_llr_by_hand() {
        // Pairs 5, 10, 40, 30, 15: s = 0.6, σ² = 0.065, n = 100;
        // s1 = score(5) = 0.507195; LLR = 100 · 0.007195 · (1.2 - 1.007195) / 0.13 = 1.067113.
        let st = Sprt::new(0.0, 5.0).status(&ResultCounts::Pairs([5, 10, 40, 30, 15]));
        close(st.llr, 1.067_113, 1e-5);
        // Four times the pairs, four times the LLR: 4.268452, past ln 19.
        let st = Sprt::new(0.0, 5.0).status(&ResultCounts::Pairs([20, 40, 160, 120, 60]));
        close(st.llr, 4.268_452, 1e-4);
        assert_eq!(st.decision, SprtDecision::H1);
        // The mirror image accepts H0.
        let st = Sprt::new(0.0, 5.0).status(&ResultCounts::Pairs([60, 120, 160, 40, 20]));
        assert!(st.llr < st.lower);
        assert_eq!(st.decision, SprtDecision::H0);
    }

    #[test]
    fn identical_results_do_not_divide_by_zero() {
        let t = Sprt::new(0.0, 5.0);
        assert_eq!(t.llr(&ResultCounts::Pairs([0; 5])), 0.0);
        // One pair won twice: regularized, finite, not yet decided.
        let st = t.status(&ResultCounts::Pairs([0, 0, 0, 0, 1]));
        assert!(st.llr.is_finite() && st.llr > 0.0, "{}", st.llr);
        assert_eq!(st.decision, SprtDecision::Inconclusive);
    }
}
