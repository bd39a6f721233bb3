//! The games the server keeps, by id, and the compiled built-in rules.
//!
//! Bounded: at most [`MAX_GAMES`] games; a new one past that drops the game
//! least recently used (the page keeps its own copy and recreates it).

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Instant, SystemTime, UNIX_EPOCH};

use dama_engine::{Game, Rules};

use super::think::Searches;

/// The most games kept at once.
pub const MAX_GAMES: usize = 4096;

/// Where a game's rules came from.
#[derive(Debug, Clone)]
pub enum Source {
    /// A built-in variant, by id.
    Builtin(String),
    /// A variant pasted into the page. Only its compiled rules are kept:
    /// the page keeps the text, and sends it again to rebuild the game.
    Pasted,
}

/// One game kept by the server.
#[derive(Debug, Clone)]
pub struct Entry {
    pub game: Game,
    pub source: Source,
    last_used: Instant,
}

impl Entry {
    pub fn new(game: Game, source: Source) -> Entry {
        Entry {
            game,
            source,
            last_used: Instant::now(),
        }
    }
}

/// Everything the routes share.
#[derive(Debug)]
pub struct Store {
    /// Each game has a lock of its own: a heavy position (a pasted variant
    /// with millions of capture paths) makes only its own requests wait.
    games: Mutex<HashMap<String, Shared<Entry>>>,
    builtins: Mutex<HashMap<String, Arc<Rules>>>,
    counter: AtomicU64,
    seed: u64,
    pub searches: Searches,
}

impl Store {
    /// A store whose searches are set up by `setup` (the engine flags; the
    /// tables' folder checked: each game probes those of its variant).
    pub fn new(setup: super::think::SearchSetup) -> Arc<Store> {
        let seed = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map(|d| d.as_nanos() as u64)
            .unwrap_or(0x9e37_79b9_7f4a_7c15);
        Arc::new(Store {
            games: Mutex::new(HashMap::new()),
            builtins: Mutex::new(HashMap::new()),
            counter: AtomicU64::new(1),
            seed: seed ^ u64::from(std::process::id()).rotate_left(32),
            searches: Searches::new(setup),
        })
    }

    /// The games, locked. A panic while the lock was held cannot leave a
    /// game half changed (every change is one call of the engine), so a
    /// poisoned lock is taken over.
    fn games(&self) -> MutexGuard<'_, HashMap<String, Shared<Entry>>> {
        self.games.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// The compiled rules of a built-in variant, compiled once.
    pub fn builtin(&self, id: &str) -> Result<Arc<Rules>, dama_engine::LoadError> {
        let mut map = self.builtins.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(r) = map.get(id) {
            return Ok(r.clone());
        }
        let r = Arc::new(Rules::builtin(id)?);
        map.insert(id.to_string(), r.clone());
        Ok(r)
    }

    /// Keeps `entry` under a new id and returns the id.
    pub fn insert(&self, entry: Entry) -> String {
        let n = self.counter.fetch_add(1, Ordering::Relaxed);
        let id = format!(
            "{:016x}",
            dama_engine::Rng::new(self.seed ^ n.wrapping_mul(0x2545_f491_4f6c_dd1d)).next_u64()
        );
        let mut games = self.games();
        if games.len() >= MAX_GAMES {
            let oldest = games
                .iter()
                .min_by_key(|(_, e)| lock(e).map_or_else(Instant::now, |e| e.last_used))
                .map(|(k, _)| k.clone());
            if let Some(oldest) = oldest {
                games.remove(&oldest);
            }
        }
        games.insert(id.clone(), Arc::new(Mutex::new(entry)));
        id
    }

    /// Runs `f` on the game `id`, if it is kept, holding that game's lock
    /// only: call it off the async threads (`spawn_blocking`), since `f`
    /// may list a heavy position's moves.
    pub fn with<R>(&self, id: &str, f: impl FnOnce(&mut Entry) -> R) -> Option<R> {
        let entry = self.games().get(id).cloned()?;
        let mut e = entry.lock().unwrap_or_else(|p| p.into_inner());
        e.last_used = Instant::now();
        Some(f(&mut e))
    }
}

/// A value behind a lock of its own.
type Shared<T> = Arc<Mutex<T>>;

/// `e`'s entry when its lock is free (eviction never waits for a game in use).
fn lock(e: &Shared<Entry>) -> Option<MutexGuard<'_, Entry>> {
    e.try_lock().ok()
}
