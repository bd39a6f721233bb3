//! The computer opponent: an evaluation derived from the rules and an
//! alpha-beta search over it; matches between players; the answer to a
//! draw offer; game analysis.

mod analysis;
mod draw_offer;
mod eval;
mod limits;
mod matches;
mod result;
mod root;
mod search;
mod tt;
mod zobrist;

pub use analysis::{
    analyze_game, AnalysisTally, Analyzer, GameAnalysis, Judgement, PlyAnalysis, Thresholds, LOSS_CAP, MAX_LINE,
};
pub use draw_offer::{answer_draw_offer, DrawAnswer};
pub use eval::{Evaluator, Terms, MAN};
pub use limits::{Limits, DEFAULT_LEVEL, LEVELS};
pub use matches::{
    play_match, Contestant, MatchConfig, MatchEnding, MatchGame, MatchPlayer, MatchPlayerStats, MatchProgress,
    MatchReport, MatchTally,
};
pub use result::{score_text, SearchResult};
pub use root::SearchRoot;
pub use search::{Engine, MATE, MATE_BOUND, MAX_PLY};
pub use zobrist::{position_key, Zobrist};
