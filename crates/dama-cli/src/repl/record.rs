//! What a game record keeps of a `dama play` game besides its moves (the
//! settings, as PDN tags), reading a saved game back, and never writing
//! over a file that is not the game resumed.

use std::path::Path;
use std::sync::Arc;

use dama_engine::pdn::{self, PdnError};
use dama_engine::search::{DEFAULT_LEVEL, LEVELS};
use dama_engine::{Game, Loaded, Rules};
use dama_play::LimitsRequest;

use super::{PlayRequest, Player};
use crate::commands::Ctx;
use crate::error::CliError;
use crate::exit::Exit;
use crate::render;

/// Largest save file read, in bytes.
const MAX_SAVE_BYTES: u64 = 16 << 20;

/// The game settings a record keeps besides the players, as PDN tags, so
/// that `--load` resumes the game as it was played.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Settings {
    pub(super) level: u8,
    pub(super) depth: Option<u32>,
    pub(super) nodes: Option<u64>,
    pub(super) movetime: Option<u64>,
    pub(super) seed: u64,
}

/// The tags of [`Settings`], and of the variant's fingerprint.
const TAG_LEVEL: &str = "DamaLevel";
const TAG_DEPTH: &str = "DamaDepth";
const TAG_NODES: &str = "DamaNodes";
const TAG_MOVETIME: &str = "DamaMovetime";
const TAG_SEED: &str = "DamaSeed";
const TAG_RULES: &str = "DamaRules";

impl Settings {
    /// The settings asked for, each one not given taken from `saved`, else its default.
    pub(super) fn resolve(args: &PlayRequest, saved: Option<&Settings>) -> Settings {
        let e = &args.engine;
        let explicit_limits = e.has_limits();
        Settings {
            level: e.level.or(saved.map(|s| s.level)).unwrap_or(DEFAULT_LEVEL),
            depth: if explicit_limits {
                e.depth
            } else {
                saved.and_then(|s| s.depth)
            },
            nodes: if explicit_limits {
                e.nodes
            } else {
                saved.and_then(|s| s.nodes)
            },
            movetime: if explicit_limits {
                e.movetime
            } else {
                saved.and_then(|s| s.movetime)
            },
            seed: e.seed.or(saved.map(|s| s.seed)).unwrap_or(0),
        }
    }

    /// The search limits these settings ask for.
    pub(super) fn limits(&self) -> LimitsRequest {
        LimitsRequest {
            level: Some(self.level),
            depth: self.depth,
            nodes: self.nodes,
            movetime: self.movetime.map(std::time::Duration::from_millis),
        }
    }

    /// Reads the settings from a record's tags (`None` for a record without them).
    fn from_record(record: &pdn::PdnGame) -> Option<Settings> {
        let level = record.tag(TAG_LEVEL)?.parse::<u8>().ok()?.clamp(1, LEVELS);
        Some(Settings {
            level,
            depth: record.tag(TAG_DEPTH).and_then(|t| t.parse().ok()),
            nodes: record.tag(TAG_NODES).and_then(|t| t.parse().ok()),
            movetime: record.tag(TAG_MOVETIME).and_then(|t| t.parse().ok()),
            seed: record.tag(TAG_SEED).and_then(|t| t.parse().ok()).unwrap_or(0),
        })
    }

    /// The tags that keep these settings, and the rules' fingerprint.
    pub(super) fn tags(&self, rules: &Rules) -> Vec<(String, String)> {
        let mut out = vec![(TAG_LEVEL.to_string(), self.level.to_string())];
        if let Some(d) = self.depth {
            out.push((TAG_DEPTH.to_string(), d.to_string()));
        }
        if let Some(n) = self.nodes {
            out.push((TAG_NODES.to_string(), n.to_string()));
        }
        if let Some(ms) = self.movetime {
            out.push((TAG_MOVETIME.to_string(), ms.to_string()));
        }
        out.push((TAG_SEED.to_string(), self.seed.to_string()));
        out.push((TAG_RULES.to_string(), format!("{:016x}", rules.fingerprint())));
        out
    }
}

pub(super) fn same_file(a: &Path, b: &Path) -> bool {
    match (std::fs::canonicalize(a), std::fs::canonicalize(b)) {
        (Ok(x), Ok(y)) => x == y,
        _ => a == b,
    }
}

pub(super) fn refuse_existing(path: &Path) {
    let p = path.display();
    match read_save(path) {
        Ok(text) => match pdn::read_games(&text) {
            Ok(g) if !g.is_empty() => {
                CliError::system(format!("{p} already holds a game record; it is not overwritten")).help(format!(
                    "resume it with `--load {p}`, or save the new game under another name"
                ))
            }
            _ => CliError::system(format!(
                "{p} already exists and is not a readable game record; it is not overwritten"
            ))
            .help("choose another file name for --save"),
        },
        Err(_) => CliError::system(format!("{p} already exists; it is not overwritten"))
            .help("choose another file name for --save"),
    }
    .report(None);
}

pub(super) fn read_save(path: &Path) -> Result<String, String> {
    use std::io::Read;
    let p = path.display();
    let f = std::fs::File::open(path).map_err(|e| format!("cannot read {p}: {e}"))?;
    if f.metadata().is_ok_and(|m| m.is_dir()) {
        return Err(format!("{p} is a directory, not a game record"));
    }
    // Refused before reading when the size is known; `take` bounds the rest.
    if f.metadata().is_ok_and(|m| m.len() > MAX_SAVE_BYTES) {
        return Err(format!("{p} is larger than {MAX_SAVE_BYTES} bytes: not a saved game"));
    }
    let mut bytes = Vec::new();
    f.take(MAX_SAVE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| format!("cannot read {p}: {e}"))?;
    if bytes.len() as u64 > MAX_SAVE_BYTES {
        return Err(format!("{p} is larger than {MAX_SAVE_BYTES} bytes: not a saved game"));
    }
    String::from_utf8(bytes).map_err(|e| {
        format!(
            "{p} is not UTF-8 text (invalid byte at offset {}): the file is damaged",
            e.utf8_error().valid_up_to()
        )
    })
}

/// Reads and replays a saved game. Any problem is an error: the file is
/// left as it is.
/// The players a record names, when both are recognisable (as written by `dama play`).
pub(super) type Players = Option<(Player, Player)>;

/// A game read back from its record, with what the record says of how it was played.
pub(super) struct Resumed {
    pub(super) loaded: Loaded,
    pub(super) game: Game,
    pub(super) players: Players,
    pub(super) settings: Option<Settings>,
}

pub(super) fn resume(ctx: &Ctx, path: &Path, variant: Option<&str>) -> Result<Resumed, Exit> {
    let p = path.display().to_string();
    let fail = |msg: String| {
        CliError::system(format!("cannot resume {p}: {msg}"))
            .note("the file is left untouched")
            .report(None)
    };
    let text = read_save(path).map_err(|m| CliError::system(m).report(None))?;
    let games = match pdn::read_games(&text) {
        Ok(g) => g,
        Err(e) => {
            show_pdn_error(&p, &text, &e);
            return Err(fail("it is not a valid game record (damaged or truncated?)".into()));
        }
    };
    let Some(record) = games.first() else {
        return Err(fail("it holds no game (the file is empty or damaged)".into()));
    };
    if games.len() > 1 {
        eprintln!("note: {p} holds {} games; resuming the first", games.len());
    }
    if record.result.is_none() {
        return Err(fail(
            "the record ends without a result marker (`*` for a game in progress): the file looks truncated".into(),
        ));
    }
    let base = path.parent();
    let loaded = match record.variant_name(base) {
        Some(named) => {
            if let Some(v) = variant {
                let asked = ctx.load_variant(v)?;
                if asked.rules.id() != named && record.tag("VariantFile").is_none() {
                    return Err(fail(format!(
                        "the record is a game of `{named}`, not `{}`",
                        asked.rules.id()
                    )));
                }
            }
            match record.load_variant(None, base) {
                Ok(l) => l,
                Err(e) => {
                    show_pdn_error(&p, &text, &e);
                    if let PdnError::Variant { load: Some(le), .. } = &e {
                        ctx.report_load_error(le);
                    }
                    return Err(fail("its variant cannot be loaded".into()));
                }
            }
        }
        None => match variant {
            Some(v) => ctx.load_variant(v)?,
            None => {
                return Err(fail(
                    "the record does not say which variant it is; give it: `dama play VARIANT --load FILE`".into(),
                ))
            }
        },
    };
    let game = match record.replay(Arc::new(loaded.rules.clone())) {
        Ok(g) => g,
        Err(e) => {
            show_pdn_error(&p, &text, &e);
            return Err(fail("its moves cannot be replayed".into()));
        }
    };
    let who = |tag: &str| match record.tag(tag) {
        Some("Human") => Some(Player::Human),
        Some(t) if t.starts_with("dama engine") => Some(Player::Computer),
        _ => None,
    };
    let players = who("White").zip(who("Black"));
    if let Some(saved) = record.tag(TAG_RULES) {
        let now = format!("{:016x}", loaded.rules.fingerprint());
        if saved != now {
            let file = dama_engine::text::printable(record.tag("VariantFile").unwrap_or(loaded.rules.id()));
            eprintln!(
                "warning: the rules of {file} changed since the game was saved; its moves were replayed under the rules as they are now"
            );
        }
    }
    Ok(Resumed {
        settings: Settings::from_record(record),
        loaded,
        game,
        players,
    })
}

fn show_pdn_error(file: &str, text: &str, e: &PdnError) {
    eprint!("{}", render::pdn_error(file, text, e, render::stderr_tty()));
}
