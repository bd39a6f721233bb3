//! The computer: a move at a level, and the analysis stream.
//!
//! Every search runs on a blocking thread with a small table, within
//! [`MAX_THINK`], and at most [`MAX_SEARCHES`] run at once (a request that
//! waits longer than [`MAX_WAIT`] for its turn is told the server is busy),
//! so neither time nor memory grows with the number of clients.

use std::convert::Infallible;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use axum::http::header;
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use dama_engine::search::{score_text, LEVELS, MATE};
use dama_engine::{Color, EvalWeights, Game, Limits, Position, Rules, SearchOptions, SearchResult, SearchRoot};
use serde_json::Value;
use tokio::sync::{OwnedSemaphorePermit, Semaphore};
use tokio_stream::wrappers::ReceiverStream;

use super::error::ApiError;
use dama_play::view::SearchInfo;
use dama_play::{EngineConfig, LimitsRequest};

/// The longest a search may think.
pub const MAX_THINK: Duration = Duration::from_secs(5);
/// The longest an analysis may run.
pub const MAX_ANALYSIS: Duration = Duration::from_secs(30);
/// Searches at once.
pub const MAX_SEARCHES: usize = 4;
/// The longest a request waits for a search to finish before its own starts.
pub const MAX_WAIT: Duration = Duration::from_secs(20);
/// The most moves of the best line sent to the page.
const MAX_PV_SHOWN: usize = 16;
/// The transposition table of each search, in MB.
const TABLE_MB: usize = 4;

/// How the server's engines are set up (`dama serve`'s engine flags).
#[derive(Debug, Clone, Default)]
pub struct SearchSetup {
    /// The folder of endgame tables (`--egtb`), checked.
    pub tables: Option<PathBuf>,
    /// `--level` (for a request that names none), or `--depth`, `--nodes`,
    /// `--movetime` instead of any level; always within [`MAX_THINK`].
    pub limits: LimitsRequest,
    /// `--seed`, mixed into every game's own seed.
    pub seed: u64,
    /// `--eval`: the weights, and the rules they are for (the games of
    /// other variants keep their default weights).
    pub weights: Option<ServeWeights>,
    /// `--search`.
    pub options: Option<SearchOptions>,
}

/// The weights of `--eval` on a server that plays every variant.
#[derive(Debug, Clone)]
pub enum ServeWeights {
    /// `--eval derived`: the weights derived from each variant's rules.
    Derived,
    /// A weights file: for the rules with this fingerprint.
    For(u64, EvalWeights),
}

impl SearchSetup {
    /// An engine for `rules` with a table of `table_mb`.
    fn config(&self, rules: &Rules, table_mb: usize, seed: u64) -> EngineConfig {
        let weights = match &self.weights {
            Some(ServeWeights::Derived) => Some(EvalWeights::derived(rules)),
            Some(ServeWeights::For(fp, w)) if *fp == rules.fingerprint() => Some(*w),
            _ => None,
        };
        EngineConfig {
            table_mb: Some(table_mb),
            seed: Some(seed ^ self.seed),
            tables: self.tables.clone(),
            weights,
            options: self.options,
        }
    }

    /// The limits of a computer move asked at `level` (or at the server's
    /// level), never longer than [`MAX_THINK`].
    fn limits(&self, level: Option<u8>) -> Limits {
        let asked = LimitsRequest {
            level: level.or(self.limits.level).map(|l| l.clamp(1, LEVELS)),
            ..self.limits.clone()
        };
        let mut l = asked.limits();
        l.movetime = Some(l.movetime.map_or(MAX_THINK, |t| t.min(MAX_THINK)));
        l
    }
}

/// The permits for searches, and how their engines are set up.
#[derive(Debug)]
pub struct Searches(Arc<Semaphore>, SearchSetup);

impl Searches {
    /// With the engine flags' set-up.
    pub fn new(setup: SearchSetup) -> Searches {
        Searches(Arc::new(Semaphore::new(MAX_SEARCHES)), setup)
    }

    async fn permit(&self) -> Result<OwnedSemaphorePermit, ApiError> {
        match tokio::time::timeout(MAX_WAIT, self.0.clone().acquire_owned()).await {
            Ok(Ok(p)) => Ok(p),
            _ => Err(ApiError::busy()),
        }
    }
}

/// The computer's move in `game` at `level` (the server's when `None`).
pub async fn best(searches: &Searches, game: Game, level: Option<u8>, seed: u64) -> Result<SearchResult, ApiError> {
    let _permit = searches.permit().await?;
    let config = searches.1.config(game.rules(), TABLE_MB, seed);
    let limits = searches.1.limits(level);
    let task = tokio::task::spawn_blocking(move || {
        let mut engine = config.engine(game.rules());
        engine.search(&SearchRoot::from_game(&game), &limits)
    });
    task.await.map_err(|_| ApiError {
        status: axum::http::StatusCode::INTERNAL_SERVER_ERROR,
        code: dama_play::ErrorCode::Engine,
        message: "the search failed".into(),
    })
}

/// One iteration of a search, for the page.
pub fn report(rules: &Rules, pos: &Position, r: &SearchResult) -> Value {
    serde_json::to_value(SearchInfo::new(rules, pos, r, MAX_PV_SHOWN)).unwrap_or_default()
}

/// Analyses `game` for `ms` milliseconds: an `info` event per finished
/// depth, then `done`. The search stops early when the page goes away.
pub async fn analyse(searches: &Searches, game: Game, ms: u64) -> Result<Response, ApiError> {
    let permit = searches.permit().await?;
    let config = searches.1.config(game.rules(), TABLE_MB * 4, 0);
    let (tx, rx) = tokio::sync::mpsc::channel::<Result<Event, Infallible>>(32);
    let time = Duration::from_millis(ms).min(MAX_ANALYSIS);
    tokio::task::spawn_blocking(move || {
        let _permit = permit;
        let rules = game.shared_rules();
        let pos = *game.position();
        let stop = Arc::new(AtomicBool::new(false));
        let mut engine = config.engine(&rules);
        engine.set_stop_flag(Some(stop.clone()));
        let send = |name: &str, r: &SearchResult| {
            let ev = Event::default().event(name).data(report(&rules, &pos, r).to_string());
            if tx.blocking_send(Ok(ev)).is_err() {
                stop.store(true, Ordering::Relaxed);
            }
        };
        let limits = Limits::movetime(time);
        let last = engine.search_reporting(&SearchRoot::from_game(&game), &limits, &mut |r| send("info", r));
        send("done", &last);
    });
    let events = Sse::new(ReceiverStream::new(rx)).keep_alive(KeepAlive::default());
    Ok(([(header::CACHE_CONTROL, "no-store")], events).into_response())
}

/// The longest a review of a game takes, all its positions together.
pub const MAX_REVIEW: Duration = Duration::from_secs(4);
/// The nodes searched in each position of a review.
const REVIEW_NODES: u64 = 20_000;

/// The score of every position of `game`, from its start to its last ply,
/// for White (in hundredths of a man; a decided game ±`MATE`), each
/// searched within [`REVIEW_NODES`], all within [`MAX_REVIEW`]: the points
/// past that bound are `null`. The page draws them as a graph.
pub async fn review(searches: &Searches, game: Game) -> Result<Value, ApiError> {
    let _permit = searches.permit().await?;
    let config = searches.1.config(game.rules(), TABLE_MB, 0);
    let task = tokio::task::spawn_blocking(move || {
        let rules = game.shared_rules();
        let mut engine = config.engine(&rules);
        let started = std::time::Instant::now();
        let mut so_far = Game::from_position(Arc::clone(&rules), *game.start_position());
        let mut points = Vec::with_capacity(game.ply_count() + 1);
        let mut playable = true;
        for k in 0..=game.ply_count() {
            let left = MAX_REVIEW.saturating_sub(started.elapsed());
            let white = if !playable || left.is_zero() {
                None
            } else if let Some(o) = so_far.outcome() {
                Some(match o.result.winner() {
                    Some(Color::White) => MATE,
                    Some(Color::Black) => -MATE,
                    None => 0,
                })
            } else {
                let limits = Limits {
                    nodes: Some(REVIEW_NODES),
                    movetime: Some(left),
                    ..LimitsRequest::default().limits()
                };
                let r = engine.search(&SearchRoot::from_game(&so_far), &limits);
                Some(match so_far.position().side_to_move() {
                    Color::White => r.score,
                    Color::Black => -r.score,
                })
            };
            points.push(serde_json::json!({
                "ply": k,
                "white": white,
                "text": white.map(score_text),
            }));
            if let Some(p) = game.plies().get(k) {
                playable = playable && so_far.play(p.mv).is_ok();
            }
        }
        serde_json::json!({ "points": points })
    });
    task.await.map_err(|_| ApiError {
        status: axum::http::StatusCode::INTERNAL_SERVER_ERROR,
        code: dama_play::ErrorCode::Engine,
        message: "the review failed".into(),
    })
}
