//! Engine configuration: what a front end was asked (a level, or a depth,
//! a node count, a move time; a seed; endgame tables; weights; search
//! switches) turned into an [`Engine`] and its [`Limits`], the same way for
//! every front end.

use std::path::{Path, PathBuf};
use std::time::Duration;

use dama_engine::egtb::{self, EgtbError, Tablebase};
use dama_engine::search::DEFAULT_LEVEL;
use dama_engine::{Engine, EvalWeights, Limits, Rules, SearchOptions};

/// How long the engine may think: a level, or explicit limits (which win
/// over the level when any is given).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LimitsRequest {
    /// A strength level (1 to `LEVELS`); [`DEFAULT_LEVEL`] when nothing is given.
    pub level: Option<u8>,
    /// At most this many plies deep.
    pub depth: Option<u32>,
    /// At most this many nodes.
    pub nodes: Option<u64>,
    /// At most this long.
    pub movetime: Option<Duration>,
}

impl LimitsRequest {
    /// At `level`.
    pub fn level(level: u8) -> LimitsRequest {
        LimitsRequest {
            level: Some(level),
            ..LimitsRequest::default()
        }
    }

    /// Whether a depth, a node count or a move time was given.
    pub fn is_explicit(&self) -> bool {
        self.depth.is_some() || self.nodes.is_some() || self.movetime.is_some()
    }

    /// The limits: the explicit ones when any is given, else those of the
    /// level (or of `default_level`).
    pub fn limits_or(&self, default_level: u8) -> Limits {
        if self.is_explicit() {
            Limits {
                depth: self.depth,
                movetime: self.movetime,
                nodes: self.nodes,
                noise: 0,
            }
        } else {
            Limits::level(self.level.unwrap_or(default_level))
        }
    }

    /// [`limits_or`](Self::limits_or) the default level.
    pub fn limits(&self) -> Limits {
        self.limits_or(DEFAULT_LEVEL)
    }

    /// The limits in words, as a game record names its engine player:
    /// `level 3: depth 4, 0.5 s` for a level, the limits alone otherwise.
    pub fn describe_or(&self, default_level: u8) -> String {
        let detail = self.limits_or(default_level).describe();
        if self.is_explicit() {
            detail
        } else {
            format!("level {}: {detail}", self.level.unwrap_or(default_level))
        }
    }
}

/// The stack a search thread is given (the Hub's search thread, the web
/// server's, Python's): a capture tree of a big user-written board is deep,
/// and an unoptimised build's frames are large, more than the 2 MiB a
/// thread gets by default.
pub const SEARCH_STACK: usize = 32 << 20;

/// Everything an engine is set up with besides the rules.
#[derive(Debug, Clone, Default)]
pub struct EngineConfig {
    /// The transposition table's size in MB; the engine's default when `None`.
    pub table_mb: Option<usize>,
    /// The seed of the engine's choice among equal moves.
    pub seed: Option<u64>,
    /// The folder of endgame tables (`dama egtb build --dir`), checked by the caller.
    pub tables: Option<PathBuf>,
    /// Evaluation weights; derived from the rules when `None`.
    pub weights: Option<EvalWeights>,
    /// Search switches; the defaults when `None`.
    pub options: Option<SearchOptions>,
}

impl EngineConfig {
    /// A new engine for `rules`, set up as configured.
    pub fn engine(&self, rules: &Rules) -> Engine {
        let mut engine = match self.table_mb {
            Some(mb) => Engine::with_table_size(rules, mb),
            None => Engine::new(rules),
        };
        if let Some(seed) = self.seed {
            engine.set_seed(seed);
        }
        if let Some(dir) = &self.tables {
            engine.set_tables(Some(Tablebase::open(rules, dir)));
        }
        if let Some(w) = &self.weights {
            engine.set_weights(w);
        }
        if let Some(o) = self.options {
            engine.set_search_options(o);
        }
        engine
    }

    /// The endgame tables of `rules` in the configured folder, if any.
    pub fn tablebase(&self, rules: &Rules) -> Option<Tablebase> {
        self.tables.as_deref().map(|d| Tablebase::open(rules, d))
    }
}

/// What [`check_tables`] found in a folder of tables.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TablesCheck {
    /// The tables of the variant that are whole and can be played.
    pub tables: usize,
    /// What to say on stderr: no table for the variant, or each damaged
    /// table (the file and what is wrong with it).
    pub warnings: Vec<String>,
}

/// Checks the folder of `--egtb DIR` (or of the hub's `egtb` parameter)
/// for a game engine, reading every table of the variant whole once
/// (header, size, checksum): `Err` with a message when it cannot be used
/// (not a folder, or tables built for other rules); otherwise the number
/// of good tables, with a warning for each damaged one (the engine plays
/// on without it) or when there is none.
pub fn check_tables(rules: &Rules, dir: &Path) -> Result<TablesCheck, String> {
    if !dir.is_dir() {
        return Err(format!(
            "{}: not a folder of endgame tables (build them with `dama egtb build {} --dir {}`)",
            dir.display(),
            rules.id(),
            dir.display()
        ));
    }
    let mut check = TablesCheck {
        tables: 0,
        warnings: Vec::new(),
    };
    for (_, table) in egtb::verify(rules, dir) {
        match table {
            Ok(_) => check.tables += 1,
            Err(e @ EgtbError::WrongRules { .. }) => return Err(e.to_string()),
            Err(e) => check.warnings.push(format!("warning: {e}; playing without this table")),
        }
    }
    if check.tables == 0 && check.warnings.is_empty() {
        check.warnings.push(format!(
            "warning: no endgame table for {} in {} (build them with `dama egtb build {} --dir {}`); playing without",
            rules.id(),
            dir.display(),
            rules.id(),
            dir.display()
        ));
    }
    Ok(check)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn explicit_limits_win_over_the_level() {
        let r = LimitsRequest {
            level: Some(2),
            depth: Some(5),
            ..LimitsRequest::default()
        };
        assert_eq!(r.limits().depth, Some(5));
        assert_eq!(r.limits().movetime, None);
        assert_eq!(LimitsRequest::default().limits(), Limits::level(DEFAULT_LEVEL));
        assert!(LimitsRequest::level(3).describe_or(1).starts_with("level 3: "));
    }
}
