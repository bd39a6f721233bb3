//! The computer opponent: an evaluation derived from the rules (its
//! weights tunable from game results) and an alpha-beta search over it.
//! Matches, analysis and draw offers use it from the play tier (dama-play).

mod eval;
mod limits;
mod result;
mod root;
mod search;
mod search_options;
mod tt;
mod tune;
mod weights;
mod zobrist;

pub use eval::{Evaluator, Features, Terms, MAN};
pub use limits::{Limits, DEFAULT_LEVEL, LEVELS};
pub use result::{score_text, SearchResult};
pub use root::SearchRoot;
pub use search::{Engine, MATE, MATE_BOUND, MAX_PLY};
pub use search_options::{Reductions, SearchOptions, SearchOptionsError, SEARCH_OPTION_NAMES};
pub use tune::{fit_scale, mean_error, tune, tune_keeping, Sample, TuneProgress, TuneReport};
pub use weights::{EvalWeights, WeightsError, MAX_WEIGHT, WEIGHTS_FORMAT, WEIGHT_NAMES};
pub use zobrist::{position_key, Zobrist};
