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
use dama_engine::{
    egtb::Tablebase, search::score_text, Engine, Game, Limits, Position, Rules, SearchResult, SearchRoot,
};
use serde_json::{json, Value};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};
use tokio_stream::wrappers::ReceiverStream;

use super::error::ApiError;
use super::view::color;

/// The longest a search may think.
pub const MAX_THINK: Duration = Duration::from_secs(5);
/// The longest an analysis may run.
pub const MAX_ANALYSIS: Duration = Duration::from_secs(30);
/// Searches at once.
pub const MAX_SEARCHES: usize = 4;
/// The longest a request waits for a search to finish before its own starts.
pub const MAX_WAIT: Duration = Duration::from_secs(20);
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

    /// The endgame tables of `rules` (which the engine reads as it needs them).
    fn tables(&self, rules: &Rules) -> Option<Tablebase> {
        self.1.as_deref().map(|d| Tablebase::open(rules, d))
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
    let tables = searches.tables(game.rules());
    let task = tokio::task::spawn_blocking(move || {
        let mut engine = Engine::with_table_size(game.rules(), TABLE_MB);
        engine.set_seed(seed);
        engine.set_tables(tables);
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
    let mut p = *pos;
    let mut pv = Vec::new();
    for m in r.pv.iter().take(16) {
        pv.push(rules.format_move_short(&p, m));
        p = p.after(m);
    }
    let best = r.best.map(|m| {
        let path = rules.move_paths(pos, &m).into_iter().next();
        let squares: Vec<u8> = match path {
            Some(p) => std::iter::once(p.from.index())
                .chain(p.landings.iter().map(|s| s.index()))
                .collect(),
            None if m.is_pass() => vec![],
            None => vec![m.from().index(), m.to().index()],
        };
        json!({"squares": squares, "text": rules.format_move_full(pos, &m)})
    });
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
    let tables = searches.tables(game.rules());
    let (tx, rx) = tokio::sync::mpsc::channel::<Result<Event, Infallible>>(32);
    let time = Duration::from_millis(ms).min(MAX_ANALYSIS);
    tokio::task::spawn_blocking(move || {
        let _permit = permit;
        let rules = game.shared_rules();
        let pos = *game.position();
        let stop = Arc::new(AtomicBool::new(false));
        let mut engine = Engine::with_table_size(&rules, TABLE_MB * 4);
        engine.set_stop_flag(Some(stop.clone()));
        engine.set_tables(tables);
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
