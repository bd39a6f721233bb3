//! # dama-play
//!
//! The play tier: what every front end (the `dama` command, the web server,
//! the Python package) does with a game, on top of the rules, the generator
//! and the search of `dama-engine`. Front ends parse their input, call this
//! crate and render what it returns; nothing here prints.
//!
//! ```
//! use dama_engine::{Game, Limits, Rules};
//! use dama_play::analyze_game;
//! use std::sync::Arc;
//!
//! let rules = Arc::new(Rules::builtin("dama").unwrap());
//! let game = Game::new(rules);
//! let analysis = analyze_game(&game, &Limits::depth(2));
//! assert!(analysis.plies.is_empty());
//! ```

// The layers, lowest first: each uses only those before it (checked by
// tests/module_graph.rs, which also checks that nothing here prints).

// Stable error codes, the same word for the same failure in every front end.
mod codes;

// What every front end shows: move paths, lines, outcomes, the rules in words.
pub mod view;

// Engine set-up and search limits from what a front end was asked.
mod config;

// Where a variant comes from, a game from a FEN and moves, the rules of each
// game of a record.
pub mod source;

// The Hub protocol's notation: square numbers, positions, move text.
pub mod hub;

// The DamExchange protocol's messages and board mapping.
pub mod dxp;

// The answer to a draw offer.
mod draw_offer;

// Game analysis: each ply judged against the engine's choice.
mod analysis;

// Match play, openings, Elo and SPRT.
mod tournament;

pub use analysis::{
    analyze_game, AnalysisTally, Analyzer, GameAnalysis, Judgement, PlyAnalysis, Thresholds, LOSS_CAP, MAX_LINE,
};
pub use codes::ErrorCode;
pub use config::{check_tables, EngineConfig, LimitsRequest, TablesCheck, SEARCH_STACK};
pub use draw_offer::{answer_draw_offer, DrawAnswer};
pub use tournament::{
    elo_from_score, match_openings, play_match, play_match_with, read_openings, score_from_elo, Contestant,
    EloEstimate, MatchCollector, MatchConfig, MatchEnding, MatchGame, MatchOptions, MatchPlayer, MatchPlayerStats,
    MatchProgress, MatchReport, MatchSides, MatchTally, MoveCost, Opening, OpeningsError, ResultCounts, ScoreModel,
    ScoreSample, SelfPlay, Sprt, SprtDecision, SprtStatus, SELF_PLAY_CHUNK, Z95,
};
