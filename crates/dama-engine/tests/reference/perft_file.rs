//! Reading the perft tables in `tests/perft/*.perft` (repository root).
//!
//! The format, one item per line (also documented at the top of each file):
//!
//! ```text
//! # a comment; blank lines are ignored
//! variant <id or path>    the variant of the entries that follow (default: the file name)
//! id <name>               starts an entry
//! fen <FEN> | start       the position (PDN FEN in the variant's notation), or the initial one
//! count paths | jumps | moves
//!                         paths: every capture path counts (kish); jumps: the same, but a king
//!                         going on along one line counts once (dctl); moves: paths with the same
//!                         origin, destination and captured set count once (rules.md A12)
//! perft <depth> <nodes>   a figure (several per entry, depths increasing)
//! source <text>           where the figures come from (at least one per entry)
//! ```
//!
//! A `variant` line applies to the entries that start after it.

use std::path::{Path, PathBuf};

use dama_engine::CountMode;

/// One figure of an entry.
#[derive(Debug, Clone)]
pub struct Figure {
    pub depth: u32,
    pub nodes: u64,
    pub line: usize,
}

/// One entry: a position, a counting mode, figures and their sources.
#[derive(Debug, Clone)]
pub struct Entry {
    pub file: String,
    pub line: usize,
    pub variant: String,
    pub id: String,
    /// `None` for the initial position.
    pub fen: Option<String>,
    pub count: CountMode,
    pub figures: Vec<Figure>,
    pub sources: Vec<String>,
}

impl Entry {
    /// `file:line id` for messages.
    pub fn label(&self) -> String {
        format!("{}:{} {} ({})", self.file, self.line, self.id, self.count)
    }
}

/// The folder holding the tables.
pub fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/perft")
}

/// Every `.perft` file, sorted by name.
pub fn files() -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(dir())
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir().display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "perft"))
        .collect();
    out.sort();
    out
}

/// Parses one file's text. `name` is the file name (its stem is the default variant).
pub fn parse(name: &str, text: &str) -> Result<Vec<Entry>, String> {
    let mut variant = name.strip_suffix(".perft").unwrap_or(name).to_string();
    let mut entries: Vec<Entry> = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let at = |msg: String| format!("{name}:{line}: {msg}");
        let content = raw.split('#').next().unwrap_or("").trim();
        if content.is_empty() {
            continue;
        }
        let (key, rest) = match content.split_once(char::is_whitespace) {
            Some((k, r)) => (k, r.trim()),
            None => (content, ""),
        };
        if key == "variant" {
            if rest.is_empty() {
                return Err(at("`variant` needs a variant id or path".into()));
            }
            variant = rest.to_string();
            continue;
        }
        if key == "id" {
            if rest.is_empty() {
                return Err(at("`id` needs a name".into()));
            }
            if entries.iter().any(|e| e.id == rest && e.variant == variant) {
                return Err(at(format!("entry `{rest}` appears twice")));
            }
            entries.push(Entry {
                file: name.to_string(),
                line,
                variant: variant.clone(),
                id: rest.to_string(),
                fen: None,
                count: CountMode::Paths,
                figures: Vec::new(),
                sources: Vec::new(),
            });
            continue;
        }
        let Some(entry) = entries.last_mut() else {
            return Err(at(format!("`{key}` before the first `id` line")));
        };
        match key {
            "fen" => match rest {
                "" => return Err(at("`fen` needs a position or `start`".into())),
                "start" => entry.fen = None,
                f => entry.fen = Some(f.to_string()),
            },
            "count" => {
                entry.count = match rest {
                    "paths" => CountMode::Paths,
                    "jumps" => CountMode::Jumps,
                    "moves" => CountMode::Moves,
                    other => return Err(at(format!("`count` is `paths`, `jumps` or `moves`, not `{other}`"))),
                }
            }
            "perft" => {
                let mut it = rest.split_whitespace();
                let (Some(d), Some(n), None) = (it.next(), it.next(), it.next()) else {
                    return Err(at("`perft` needs a depth and a node count".into()));
                };
                let depth: u32 = d.parse().map_err(|_| at(format!("`{d}` is not a depth")))?;
                let nodes: u64 = n
                    .replace('_', "")
                    .parse()
                    .map_err(|_| at(format!("`{n}` is not a node count")))?;
                if entry.figures.last().is_some_and(|f| f.depth >= depth) {
                    return Err(at("depths must increase within an entry".into()));
                }
                entry.figures.push(Figure { depth, nodes, line });
            }
            "source" => {
                if rest.is_empty() {
                    return Err(at("`source` needs a text".into()));
                }
                entry.sources.push(rest.to_string());
            }
            other => {
                return Err(at(format!(
                    "unknown key `{other}` (expected variant, id, fen, count, perft or source)"
                )))
            }
        }
    }
    for e in &entries {
        if e.figures.is_empty() {
            return Err(format!("{name}:{}: entry `{}` has no `perft` line", e.line, e.id));
        }
        if e.sources.is_empty() {
            return Err(format!("{name}:{}: entry `{}` has no `source` line", e.line, e.id));
        }
    }
    Ok(entries)
}

/// Every entry of every file.
pub fn all_entries() -> Vec<Entry> {
    let mut out = Vec::new();
    for path in files() {
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        out.extend(parse(&name, &text).unwrap_or_else(|e| panic!("{e}")));
    }
    out
}
