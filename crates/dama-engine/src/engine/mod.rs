//! The computer opponent: an evaluation derived from the rules (its
//! weights tunable from game results) and an alpha-beta search over it;
//! matches between players; the answer to a draw offer; game analysis.

mod analysis;
mod draw_offer;
mod elo;
mod eval;
mod limits;
mod matches;
mod openings;
mod result;
mod root;
mod search;
mod search_options;
mod sprt;
mod tt;
mod tune;
mod weights;
mod zobrist;

pub use analysis::{
    analyze_game, AnalysisTally, Analyzer, GameAnalysis, Judgement, PlyAnalysis, Thresholds, LOSS_CAP, MAX_LINE,
};
pub use draw_offer::{answer_draw_offer, DrawAnswer};
pub use elo::{elo_from_score, score_from_elo, EloEstimate, ResultCounts, ScoreModel, ScoreSample, Z95};
pub use eval::{Evaluator, Features, Terms, MAN};
pub use limits::{Limits, DEFAULT_LEVEL, LEVELS};
pub use matches::{
    play_match, Contestant, MatchConfig, MatchEnding, MatchGame, MatchPlayer, MatchPlayerStats, MatchProgress,
    MatchReport, MatchTally,
};
pub use matches::{play_match_with, MatchOptions};
pub use openings::{read_openings, Opening, OpeningsError};
pub use result::{score_text, SearchResult};
pub use root::SearchRoot;
pub use search::{Engine, MATE, MATE_BOUND, MAX_PLY};
pub use search_options::{Reductions, SearchOptions, SearchOptionsError, SEARCH_OPTION_NAMES};
pub use sprt::{Sprt, SprtDecision, SprtStatus};
pub use tune::{fit_scale, mean_error, tune, tune_keeping, Sample, TuneProgress, TuneReport};
pub use weights::{EvalWeights, WeightsError, MAX_WEIGHT, WEIGHTS_FORMAT, WEIGHT_NAMES};
pub use zobrist::{position_key, Zobrist};
