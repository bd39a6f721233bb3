//! What every command whose engine plays sets up from its arguments (`play`,
//! `match`, `hub`, `analyze`, `dxp`, `serve`): the search limits, the
//! evaluation weights, the endgame tables' folder, the variant file named in
//! a record.

use std::path::{Path, PathBuf};
use std::time::Duration;

use dama_engine::{egtb_verify, EgtbError, EvalWeights, Limits, Loaded, Rules};

use crate::commands::Ctx;
use crate::exit::Exit;

/// `--egtb DIR`, the same for every command whose engine plays (`play`,
/// `match`, `hub`, `analyze`, `serve`).
#[derive(Debug, Clone, Default, clap::Args)]
pub struct EgtbArg {
    /// Endgame tables: the folder given to `dama egtb build --dir` (the
    /// variant's tables are in its subfolder). The engine plays them
    /// perfectly where they hold the position and uses them in its search.
    #[arg(long = "egtb", value_name = "DIR")]
    pub dir: Option<PathBuf>,
}

/// What [`check_play_dir`] found in a folder of tables.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DirCheck {
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
pub fn check_play_dir(rules: &Rules, dir: &Path) -> Result<DirCheck, String> {
    if !dir.is_dir() {
        return Err(format!(
            "{}: not a folder of endgame tables (build them with `dama egtb build {} --dir {}`)",
            dir.display(),
            rules.id(),
            dir.display()
        ));
    }
    let mut check = DirCheck {
        tables: 0,
        warnings: Vec::new(),
    };
    for (_, table) in egtb_verify(rules, dir) {
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

/// `--egtb DIR` for the commands whose engine plays: the folder, checked,
/// with the warnings said on stderr (no table of the variant, a damaged
/// table); `None` when it holds no good table; an error message when it
/// cannot be used.
pub fn play_dir(ctx: &Ctx, rules: &Rules, dir: Option<&Path>) -> Result<Option<PathBuf>, Exit> {
    let Some(dir) = dir else { return Ok(None) };
    match check_play_dir(rules, dir) {
        Err(e) => {
            let e = format!("--egtb {e}");
            eprintln!("error: {e}");
            ctx.json_errors(|| vec![crate::json::error(crate::json::Code::Read, &e, None, None)]);
            Err(Exit::Failure)
        }
        Ok(check) => {
            for w in &check.warnings {
                eprintln!("{w}");
            }
            Ok((check.tables > 0).then(|| dir.to_path_buf()))
        }
    }
}

/// The search limits asked for on the command line, with a description.
pub fn limits_from(level: u8, depth: Option<u32>, movetime: Option<u64>) -> (Limits, String) {
    let mut limits = Limits::level(level);
    let mut what = format!("level {level}");
    if depth.is_some() || movetime.is_some() {
        limits = Limits {
            depth,
            movetime: movetime.map(Duration::from_millis),
            nodes: None,
            noise: 0,
        };
        what.clear();
    }
    let detail = limits.describe();
    let text = if what.is_empty() {
        detail
    } else {
        format!("{what}: {detail}")
    };
    (limits, text)
}

/// the rules) for `rules`; `None` without the flag. Errors are printed.
pub fn weights_arg(rules: &Rules, arg: Option<&Path>) -> Result<Option<EvalWeights>, Exit> {
    let Some(path) = arg else { return Ok(None) };
    if path.as_os_str() == "derived" {
        return Ok(Some(EvalWeights::derived(rules)));
    }
    match EvalWeights::read(path, rules) {
        Ok(w) => Ok(Some(w)),
        Err(e) => {
            eprintln!("error: {e}");
            Err(Exit::Failure)
        }
    }
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
