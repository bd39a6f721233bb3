//! Self-play for tuning the evaluation (`dama tune`): games of the engine
//! against itself, in chunks seeded by their index, so that the games do
//! not depend on how many threads, processes or machines play the chunks.

use std::sync::Arc;

use dama_engine::{EvalWeights, Limits, Rules};

use super::matches::{play_match, Contestant, MatchConfig, MatchGame, MatchPlayer};
use crate::config::LimitsRequest;

/// Games per chunk of self-play.
pub const SELF_PLAY_CHUNK: u32 = 10;

/// The self-play games of a tuning run.
#[derive(Debug, Clone)]
pub struct SelfPlay {
    /// Games in all.
    pub games: u32,
    /// Nodes per move.
    pub nodes: u64,
    /// Random plies at the start of each pair of games.
    pub openings: u32,
    /// The seed of the run; chunk `c` plays with a seed of its own.
    pub seed: u64,
    /// A game still going after this many plies is a draw.
    pub max_plies: u32,
    /// The weights both engines play with.
    pub weights: EvalWeights,
}

impl SelfPlay {
    /// The number of chunks.
    pub fn chunks(&self) -> u32 {
        self.games.div_ceil(SELF_PLAY_CHUNK)
    }

    /// The match that plays chunk `chunk` (games `10·chunk` to
    /// `10·chunk + 9`, fewer in the last).
    pub fn chunk(&self, rules: &Rules, chunk: u32) -> MatchConfig {
        let games = SELF_PLAY_CHUNK.min(self.games.saturating_sub(chunk * SELF_PLAY_CHUNK));
        let limits = Limits {
            // A little noise: both games of a pair start from the same opening.
            noise: 10,
            ..LimitsRequest {
                nodes: Some(self.nodes),
                ..LimitsRequest::default()
            }
            .limits()
        };
        let player = |name: &str| MatchPlayer {
            contestant: Contestant::Engine(limits.clone()),
            name: name.into(),
            weights: Some(self.weights),
            search: Default::default(),
        };
        MatchConfig {
            players: [player("A"), player("B")],
            start: rules.start_position(),
            games,
            opening_plies: self.openings,
            seed: self.seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ u64::from(chunk),
            max_plies: self.max_plies,
            tables: None,
        }
    }

    /// The games of chunk `chunk`, in order; `each` is called after every
    /// game.
    pub fn play_chunk(&self, rules: &Arc<Rules>, chunk: u32, mut each: impl FnMut()) -> Vec<MatchGame> {
        let config = self.chunk(rules, chunk);
        play_match(Arc::clone(rules), &config, |_| each()).games
    }
}
