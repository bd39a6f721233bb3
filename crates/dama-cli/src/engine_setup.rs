//! What every command whose engine plays sets up from its arguments (`play`,
//! `match`, `hub`, `analyze`, `dxp`, `serve`): the search limits, the
//! evaluation weights, the endgame tables' folder, the variant file named in
//! a record.

use std::path::{Path, PathBuf};
use std::time::Duration;

use dama_engine::search::{SearchOptionsError, LEVELS};
use dama_engine::{EvalWeights, Loaded, Rules, SearchOptions};
use dama_play::check_tables;
use dama_play::{EngineConfig, LimitsRequest};

use crate::commands::Ctx;
use crate::error::CliError;
use crate::exit::Exit;
use crate::json::Code;

/// The engine flags, the same with the same types and help for every
/// command whose engine plays (`play`, `match`, `hub`, `dxp`, `analyze`,
/// `serve`; `#[command(flatten)]`). What a command does without them (its
/// default level or depth, a saved game's settings) is its own; how they
/// become an engine and its limits is the play tier's ([`EngineConfig`],
/// [`LimitsRequest`]).
#[derive(Debug, Clone, Default, clap::Args)]
#[command(next_help_heading = "Engine")]
pub struct EngineArgs {
    /// The computer's strength, 1 (weakest) to 10 (without it: 5, the
    /// saved level for `play --load`, the game's clock for `dxp`, depth 8
    /// for `analyze`).
    #[arg(long, value_parser = clap::value_parser!(u8).range(1..=LEVELS as i64))]
    pub level: Option<u8>,
    /// Search this many plies deep instead of the level's limits.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=100))]
    pub depth: Option<u32>,
    /// Search at most this many nodes per move instead of the level's
    /// limits (with --depth or --movetime, whichever comes first).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    pub nodes: Option<u64>,
    /// Think at most this many milliseconds per move instead of the level's limits.
    #[arg(long, value_name = "MS", value_parser = clap::value_parser!(u64).range(1..))]
    pub movetime: Option<u64>,
    /// Seed for the computer's variety among moves of nearly equal value
    /// (without it: 0; the saved seed for `play --load`; 1 for `match`,
    /// which also deals its openings with it).
    #[arg(long)]
    pub seed: Option<u64>,
    #[command(flatten)]
    pub egtb: EgtbArg,
    /// Evaluation weights: a file written by `dama tune`, or `derived` for
    /// the weights derived from the rules (without it: the weights shipped
    /// for the variant, else the derived ones).
    #[arg(long, value_name = "FILE")]
    pub eval: Option<PathBuf>,
    /// Search switches, such as `reductions=deep,aspiration=on,futility=off`
    /// (names left out keep their defaults; docs/strength.md, "Search").
    #[arg(long, value_name = "OPTS", value_parser = parse_search)]
    pub search: Option<SearchOptions>,
}

impl EngineArgs {
    /// The limits asked for: `--level`, or `--depth`, `--nodes`, `--movetime`.
    pub fn limits(&self) -> LimitsRequest {
        LimitsRequest {
            level: self.level,
            depth: self.depth,
            nodes: self.nodes,
            movetime: self.movetime.map(Duration::from_millis),
        }
    }

    /// Whether any of `--level`, `--depth`, `--nodes`, `--movetime` was given.
    pub fn has_limits(&self) -> bool {
        self.level.is_some() || self.limits().is_explicit()
    }

    /// The engine set up as asked for `rules`: the tables' folder checked
    /// (its warnings said), the weights read. Errors are printed.
    pub fn config(&self, ctx: &Ctx, rules: &Rules) -> Result<EngineConfig, Exit> {
        Ok(EngineConfig {
            table_mb: None,
            seed: self.seed,
            tables: play_dir(ctx, rules, self.egtb.dir.as_deref())?,
            weights: weights_arg(rules, self.eval.as_deref())?,
            options: self.search,
        })
    }
}

/// `--search OPTS`.
pub fn parse_search(s: &str) -> Result<SearchOptions, String> {
    s.parse().map_err(|e: SearchOptionsError| e.to_string())
}

/// `--egtb DIR`, the same for every command whose engine plays (`play`,
/// `match`, `hub`, `analyze`, `dxp`, `serve`), in [`EngineArgs`].
#[derive(Debug, Clone, Default, clap::Args)]
pub struct EgtbArg {
    /// Endgame tables: the folder given to `dama egtb build --dir` (the
    /// variant's tables are in its subfolder). The engine plays them
    /// perfectly where they hold the position and uses them in its search.
    #[arg(long = "egtb", value_name = "DIR")]
    pub dir: Option<PathBuf>,
}

/// `--egtb DIR` for the commands whose engine plays: the folder, checked,
/// with the warnings said on stderr (no table of the variant, a damaged
/// table); `None` when it holds no good table; an error message when it
/// cannot be used.
pub fn play_dir(ctx: &Ctx, rules: &Rules, dir: Option<&Path>) -> Result<Option<PathBuf>, Exit> {
    let Some(dir) = dir else { return Ok(None) };
    match check_tables(rules, dir) {
        Err(e) => Err(CliError::failed(Code::Read, format!("--egtb {e}")).report(Some(ctx))),
        Ok(check) => {
            for w in &check.warnings {
                eprintln!("{w}");
            }
            Ok((check.tables > 0).then(|| dir.to_path_buf()))
        }
    }
}

/// the rules) for `rules`; `None` without the flag. Errors are printed.
pub fn weights_arg(rules: &Rules, arg: Option<&Path>) -> Result<Option<EvalWeights>, Exit> {
    let Some(path) = arg else { return Ok(None) };
    if path.as_os_str() == "derived" {
        return Ok(Some(EvalWeights::derived(rules)));
    }
    EvalWeights::read(path, rules)
        .map(Some)
        .map_err(|e| CliError::system(e.to_string()).report(None))
}

/// The variant file to name in the record, for variants not built in.
pub fn variant_file(loaded: &Loaded) -> Option<String> {
    let top = loaded.files.first()?;
    if top.origin.builtin().is_some() {
        return None;
    }
    let p = Path::new(&top.name);
    Some(
        std::fs::canonicalize(p)
            .map(|c| c.display().to_string())
            .unwrap_or_else(|_| top.name.clone()),
    )
}

/// The tables' folder: `--dir`, else `$DAMA_EGTB_DIR`, else
/// `$XDG_DATA_HOME/dama/egtb`, else `$HOME/.local/share/dama/egtb`, else
/// `./egtb`. A variant's tables are in its own subfolder, named by its id.
pub fn default_dir(dir: Option<PathBuf>) -> PathBuf {
    if let Some(d) = dir {
        return d;
    }
    let var = |k: &str| std::env::var_os(k).filter(|v| !v.is_empty()).map(PathBuf::from);
    if let Some(d) = var("DAMA_EGTB_DIR") {
        return d;
    }
    if let Some(d) = var("XDG_DATA_HOME") {
        return d.join("dama").join("egtb");
    }
    if let Some(d) = var("HOME") {
        return d.join(".local/share/dama/egtb");
    }
    PathBuf::from("egtb")
}

/// The memory available for a build, in bytes: what `/proc/meminfo` calls
/// available, where there is one.
pub(crate) fn available_memory() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}
