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
use dama_engine::{search::score_text, Game, Limits, Position, Rules, SearchResult, SearchRoot};
use serde_json::{json, Value};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};
use tokio_stream::wrappers::ReceiverStream;

use super::error::ApiError;
use super::view::color;
use dama_play::view::{line_text, move_path, path_squares};
use dama_play::EngineConfig;

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

/// The permits for searches, and the endgame tables they probe.
#[derive(Debug)]
pub struct Searches(Arc<Semaphore>, Option<PathBuf>);

impl Searches {
    /// With the folder of endgame tables, if any (`--egtb`).
    pub fn new(tables: Option<PathBuf>) -> Searches {
        Searches(Arc::new(Semaphore::new(MAX_SEARCHES)), tables)
    }

    async fn permit(&self) -> Result<OwnedSemaphorePermit, ApiError> {
        match tokio::time::timeout(MAX_WAIT, self.0.clone().acquire_owned()).await {
            Ok(Ok(p)) => Ok(p),
            _ => Err(ApiError::busy()),
        }
    }
}

/// The limits of `level`, never longer than [`MAX_THINK`].
pub fn bounded(level: u8) -> Limits {
    let mut l = Limits::level(level);
    l.movetime = Some(l.movetime.map_or(MAX_THINK, |t| t.min(MAX_THINK)));
    l
}

/// The computer's move in `game` at `level`.
pub async fn best(searches: &Searches, game: Game, level: u8, seed: u64) -> Result<SearchResult, ApiError> {
    let _permit = searches.permit().await?;
    let config = EngineConfig {
        table_mb: Some(TABLE_MB),
        seed: Some(seed),
        tables: searches.1.clone(),
        ..EngineConfig::default()
    };
    let task = tokio::task::spawn_blocking(move || {
        let mut engine = config.engine(game.rules());
        engine.search(&SearchRoot::from_game(&game), &bounded(level))
    });
    task.await.map_err(|_| ApiError {
        status: axum::http::StatusCode::INTERNAL_SERVER_ERROR,
        code: "engine",
        message: "the search failed".into(),
    })
}

/// One iteration of a search, for the page.
pub fn report(rules: &Rules, pos: &Position, r: &SearchResult) -> Value {
    let pv = line_text(rules, pos, &r.pv, MAX_PV_SHOWN);
    let best = r
        .best
        .map(|m| json!({"squares": path_squares(&move_path(rules, pos, &m)), "text": rules.format_move_full(pos, &m)}));
    json!({
        "depth": r.depth,
        "score": r.score,
        "score_text": score_text(r.score),
        "for": color(pos.side_to_move()),
        "nodes": r.nodes,
        "ms": r.elapsed.as_millis() as u64,
        "pv": pv,
        "best": best,
    })
}

/// Analyses `game` for `ms` milliseconds: an `info` event per finished
/// depth, then `done`. The search stops early when the page goes away.
pub async fn analyse(searches: &Searches, game: Game, ms: u64) -> Result<Response, ApiError> {
    let permit = searches.permit().await?;
    let config = EngineConfig {
        table_mb: Some(TABLE_MB * 4),
        tables: searches.1.clone(),
        ..EngineConfig::default()
    };
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
