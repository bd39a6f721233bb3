//! The Elo difference a match measures, with its 95% interval and the
//! likelihood of superiority.
//!
//! A match gives player A a score `s` (the mean points per game, a win 1,
//! a draw ½). Under the logistic Elo model a player scoring `s` is
//!
//! ```text
//! elo(s) = -400 · log10(1/s - 1)
//! ```
//!
//! points stronger than its opponent. The score is a mean of `n` samples
//! (games, or pairs of games), with per-sample variance `σ²`; its standard
//! error is `√(σ²/n)` and the 95% interval of the score `s ± 1.959964 · √(σ²/n)`,
//! which `elo` maps to the Elo interval (not symmetric around the estimate).
//! A bound at or past 0 or 1 is an infinite Elo.
//!
//! What a sample is, the two models:
//!
//! - **Trinomial** (games one at a time): each game scores 0, ½ or 1, so
//!   `σ² = Σ p_i (x_i - s)²` over x = 0, ½, 1 with the observed frequencies
//!   p_i, and `n` is the number of games.
//! - **Pentanomial** (games in pairs, the same opening with the colours
//!   swapped): each pair scores 0, ½, 1, 1½ or 2 points, a per-game score of
//!   x = 0, ¼, ½, ¾, 1; `σ² = Σ p_i (x_i - s)²` over those five, and `n` is
//!   the number of pairs. The two games of a pair are correlated (a lopsided
//!   opening helps whoever has the good side in both), which the trinomial
//!   model ignores; the pentanomial variance accounts for it and is usually
//!   smaller, so the interval is narrower and honest.
//!
//! The likelihood of superiority is the normal approximation
//! `LOS = Φ((s - ½) / √(σ²/n))`: the probability that A is the stronger,
//! given the results.

/// The results of a match as the statistics count them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ResultCounts {
    /// Games counted one at a time: player A's wins, draws and losses.
    Games {
        /// Games A won.
        wins: u32,
        /// Games drawn.
        draws: u32,
        /// Games A lost.
        losses: u32,
    },
    /// Pairs of games counted by the points A scored in the pair: how many
    /// pairs gave 0, ½, 1, 1½ and 2 points.
    Pairs([u32; 5]),
}

/// Which model a statistic used.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ScoreModel {
    /// Games one at a time (0, ½, 1 points).
    Trinomial,
    /// Pairs of games (0, ½, 1, 1½, 2 points).
    Pentanomial,
}

impl ScoreModel {
    /// `trinomial` or `pentanomial`.
    pub fn name(self) -> &'static str {
        match self {
            ScoreModel::Trinomial => "trinomial",
            ScoreModel::Pentanomial => "pentanomial",
        }
    }
}

/// The mean score and its spread: what the statistics start from.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ScoreSample {
    /// The model: what one sample is.
    pub model: ScoreModel,
    /// Number of samples (games or pairs).
    pub n: f64,
    /// Mean score per game, 0 to 1.
    pub mean: f64,
    /// Variance of one sample's per-game score.
    pub variance: f64,
}

impl ResultCounts {
    /// The model these counts belong to.
    pub fn model(&self) -> ScoreModel {
        match self {
            ResultCounts::Games { .. } => ScoreModel::Trinomial,
            ResultCounts::Pairs(_) => ScoreModel::Pentanomial,
        }
    }

    /// The mean and variance of the counts (all zero without results).
    ///
    /// ```
    /// use dama_play::ResultCounts;
    ///
    /// let s = ResultCounts::Games { wins: 60, draws: 20, losses: 20 }.sample();
    /// assert!((s.mean - 0.7).abs() < 1e-12);
    /// assert!((s.variance - 0.16).abs() < 1e-12);
    /// ```
    pub fn sample(&self) -> ScoreSample {
        self.sample_with_prior(0.0)
    }

    /// As [`sample`](Self::sample), with `prior` more samples counted: half
    /// of them at the lowest score (0) and half at the highest (1), the
    /// widest spread a sample can have. The sequential test takes its
    /// statistics this way, so that a few identical results (whose own
    /// variance is zero) cannot decide it; `n` counts the prior too.
    pub(crate) fn sample_with_prior(&self, prior: f64) -> ScoreSample {
        let (values, mut counts): (&[f64], Vec<f64>) = match self {
            ResultCounts::Games { wins, draws, losses } => (
                &[0.0, 0.5, 1.0],
                vec![f64::from(*losses), f64::from(*draws), f64::from(*wins)],
            ),
            ResultCounts::Pairs(c) => (&[0.0, 0.25, 0.5, 0.75, 1.0], c.iter().map(|&k| f64::from(k)).collect()),
        };
        let real: f64 = counts.iter().sum();
        if real > 0.0 {
            let last = counts.len() - 1;
            counts[0] += prior / 2.0;
            counts[last] += prior / 2.0;
        }
        let total: f64 = counts.iter().sum();
        if real == 0.0 || total == 0.0 {
            return ScoreSample {
                model: self.model(),
                n: 0.0,
                mean: 0.0,
                variance: 0.0,
            };
        }
        let mean = values.iter().zip(&counts).map(|(x, k)| x * k).sum::<f64>() / total;
        let variance = values
            .iter()
            .zip(&counts)
            .map(|(x, k)| k * (x - mean).powi(2))
            .sum::<f64>()
            / total;
        ScoreSample {
            model: self.model(),
            n: total,
            mean,
            variance,
        }
    }
}

/// The two-sided 95% quantile of the normal distribution.
pub const Z95: f64 = 1.959_963_984_540_054;

/// The Elo difference of a player scoring `score` (0 to 1) under the
/// logistic model: `-400 · log10(1/score - 1)`; infinite at 0 and 1.
///
/// ```
/// assert!((dama_play::elo_from_score(0.75) - 190.848).abs() < 1e-3);
/// assert_eq!(dama_play::elo_from_score(0.5), 0.0);
/// ```
pub fn elo_from_score(score: f64) -> f64 {
    if score <= 0.0 {
        f64::NEG_INFINITY
    } else if score >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / score - 1.0).log10()
    }
}

/// The expected score of a player `elo` points stronger: `1 / (1 + 10^(-elo/400))`.
pub fn score_from_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// What a match says about the strength of player A against player B.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct EloEstimate {
    /// The model the interval and LOS used.
    pub model: ScoreModel,
    /// Player A's mean score per game, 0 to 1.
    pub score: f64,
    /// The Elo difference (A minus B); infinite for a score of 0 or 1.
    pub elo: f64,
    /// The lower bound of the 95% interval (may be −∞).
    pub low: f64,
    /// The upper bound of the 95% interval (may be +∞).
    pub high: f64,
    /// Likelihood of superiority: the probability that A is the stronger, 0 to 1.
    pub los: f64,
}

impl EloEstimate {
    /// The estimate from the counts (see the module documentation for the
    /// formulas). Without results: a score of ½, Elo 0, an infinite interval,
    /// LOS ½.
    ///
    /// ```
    /// use dama_play::{EloEstimate, ResultCounts};
    ///
    /// let e = EloEstimate::from_counts(&ResultCounts::Pairs([5, 10, 40, 30, 15]));
    /// assert!((e.score - 0.6).abs() < 1e-12);
    /// assert!((e.elo - 70.44).abs() < 0.01);
    /// assert!(e.low < e.elo && e.elo < e.high);
    /// ```
    pub fn from_counts(counts: &ResultCounts) -> EloEstimate {
        let s = counts.sample();
        if s.n == 0.0 {
            return EloEstimate {
                model: s.model,
                score: 0.5,
                elo: 0.0,
                low: f64::NEG_INFINITY,
                high: f64::INFINITY,
                los: 0.5,
            };
        }
        let se = (s.variance / s.n).sqrt();
        let los = if se > 0.0 {
            normal_cdf((s.mean - 0.5) / se)
        } else if s.mean > 0.5 {
            1.0
        } else if s.mean < 0.5 {
            0.0
        } else {
            0.5
        };
        EloEstimate {
            model: s.model,
            score: s.mean,
            elo: elo_from_score(s.mean),
            low: elo_from_score(s.mean - Z95 * se),
            high: elo_from_score(s.mean + Z95 * se),
            los,
        }
    }

    /// Half the width of the interval, the "±" of a report (infinite when a
    /// bound is).
    pub fn margin(&self) -> f64 {
        (self.high - self.low) / 2.0
    }
}

/// The standard normal distribution function Φ(x), from the complementary
/// error function (Numerical Recipes' `erfcc`, relative error below 1.2e-7).
pub(crate) fn normal_cdf(x: f64) -> f64 {
    0.5 * erfc(-x / std::f64::consts::SQRT_2)
}

fn erfc(x: f64) -> f64 {
    let z = x.abs();
    let t = 1.0 / (1.0 + 0.5 * z);
    let poly = -z * z - 1.265_512_23
        + t * (1.000_023_68
            + t * (0.374_091_96
                + t * (0.096_784_18
                    + t * (-0.186_288_06
                        + t * (0.278_868_07
                            + t * (-1.135_203_98 + t * (1.488_515_87 + t * (-0.822_152_23 + t * 0.170_872_77))))))));
    let r = t * poly.exp();
    if x >= 0.0 {
        r
    } else {
        2.0 - r
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, eps: f64) {
        assert!((a - b).abs() < eps, "{a} is not {b}");
    }

    #[test]
    fn elo_and_score_are_inverse() {
        // -400 log10(1/0.7 - 1) = -400 log10(0.428571) = 147.1907
        close(elo_from_score(0.7), 147.1907, 1e-4);
        close(score_from_elo(147.1907), 0.7, 1e-6);
        // 1 / (1 + 10^(-10/400)) = 1 / 1.944061 = 0.514387
        close(score_from_elo(10.0), 0.514_387, 1e-6);
        assert_eq!(elo_from_score(1.0), f64::INFINITY);
        assert_eq!(elo_from_score(0.0), f64::NEG_INFINITY);
    }

    #[test]
    fn normal_cdf_matches_the_table() {
        close(normal_cdf(0.0), 0.5, 1e-7);
        close(normal_cdf(1.959_964), 0.975, 1e-6);
        close(normal_cdf(-1.0), 0.158_655_3, 1e-6);
    }

    #[test]
    fn trinomial_by_hand() {
        // 60 wins, 20 draws, 20 losses: s = 0.7,
        // σ² = 0.6·0.3² + 0.2·0.2² + 0.2·0.7² = 0.054 + 0.008 + 0.098 = 0.16,
        // se = √(0.16/100) = 0.04, interval 0.7 ± 0.0784 = 0.6216 .. 0.7784,
        // elo(0.6216) = 86.225, elo(0.7784) = 218.252; LOS = Φ(0.2/0.04) = Φ(5).
        let e = EloEstimate::from_counts(&ResultCounts::Games {
            wins: 60,
            draws: 20,
            losses: 20,
        });
        assert_eq!(e.model, ScoreModel::Trinomial);
        close(e.score, 0.7, 1e-12);
        close(e.elo, 147.1907, 1e-4);
        close(e.low, 86.2250, 1e-3);
        close(e.high, 218.2518, 1e-3);
        close(e.los, 0.999_999_713, 1e-6);
    }

    #[test]
    fn pentanomial_by_hand() {
        // Pairs scoring 0, ½, 1, 1½, 2 points: 5, 10, 40, 30, 15 of 100.
        // s = (10·0.25 + 40·0.5 + 30·0.75 + 15) / 100 = 0.6,
        // σ² = (5·0.36 + 10·0.1225 + 40·0.01 + 30·0.0225 + 15·0.16) / 100 = 0.065,
        // se = √(0.065/100) = 0.025495, interval 0.6 ± 0.049969,
        // elo(0.550031) = 34.881, elo(0.649969) = 107.515.
        let e = EloEstimate::from_counts(&ResultCounts::Pairs([5, 10, 40, 30, 15]));
        assert_eq!(e.model, ScoreModel::Pentanomial);
        close(e.score, 0.6, 1e-12);
        close(e.elo, 70.4365, 1e-4);
        close(e.low, 34.8815, 1e-3);
        close(e.high, 107.5148, 1e-3);
        close(e.los, 0.999_956_150, 1e-6);
        let s = ResultCounts::Pairs([5, 10, 40, 30, 15]).sample();
        close(s.variance, 0.065, 1e-12);
        assert_eq!(s.n, 100.0);
    }

    #[test]
    fn degenerate_results() {
        let none = EloEstimate::from_counts(&ResultCounts::Pairs([0; 5]));
        assert_eq!(none.elo, 0.0);
        assert_eq!(none.los, 0.5);
        let all = EloEstimate::from_counts(&ResultCounts::Games {
            wins: 3,
            draws: 0,
            losses: 0,
        });
        assert_eq!(all.elo, f64::INFINITY);
        assert_eq!(all.los, 1.0);
        let even = EloEstimate::from_counts(&ResultCounts::Games {
            wins: 0,
            draws: 4,
            losses: 0,
        });
        assert_eq!((even.elo, even.low, even.high, even.los), (0.0, 0.0, 0.0, 0.5));
    }
}
