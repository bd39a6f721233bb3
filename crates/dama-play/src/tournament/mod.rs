//! Match play between engines: openings, the games of a match, the Elo
//! estimate of its result and the sequential probability ratio test that
//! can stop it early.

mod elo;
mod matches;
mod openings;
mod self_play;
mod sprt;

pub use elo::{elo_from_score, score_from_elo, EloEstimate, ResultCounts, ScoreModel, ScoreSample, Z95};
pub use matches::{
    match_openings, play_match, play_match_with, Contestant, MatchCollector, MatchConfig, MatchEnding, MatchGame,
    MatchOptions, MatchPlayer, MatchPlayerStats, MatchProgress, MatchReport, MatchSides, MatchTally, MoveCost,
};
pub use openings::{read_openings, Opening, OpeningsError};
pub use self_play::{SelfPlay, SELF_PLAY_CHUNK};
pub use sprt::{Sprt, SprtDecision, SprtStatus};
