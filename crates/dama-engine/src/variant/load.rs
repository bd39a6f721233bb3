//! Finding and reading variant files: built-in ids, user paths, `extends`.
//!
//! Loading runs in stages, and each stage reports every problem it finds:
//!
//! 1. **Read** the chain of files, child first, following `extends` (a
//!    built-in id or a path relative to the child). Unreadable files, TOML
//!    syntax errors, unknown parents, cycles and over-long chains stop here.
//! 2. **Merge** the raw tables, root first, so a child states only what
//!    differs. Spans are shifted by `file index << 32`, so a value anywhere
//!    in the merged table still points into the file that defined it.
//! 3. **Check and deserialize**: the merged table is walked against the key
//!    table ([`KEYS`](crate::spec::KEYS): each key's kind, allowed words and
//!    range), so unknown keys, wrong types, unknown words and missing keys
//!    are all reported at once, each where it is. The offending value is
//!    removed (or, when a required key is missing or wrong, replaced by the
//!    key's stand-in), and one serde call builds the [`VariantSpec`].
//! 4. **Compile** with [`Rules::compile`], which checks consistency. Its
//!    findings name a dotted key (`setup.white[2]`) that is located through
//!    the merged table, so it points at the child-most file defining the key.
//!    Findings that depend on a section with an error of its own are dropped:
//!    they would be about the stand-in, not the file.
//!
//! No input panics, and every input is bounded: files are capped at
//! [`MAX_FILE_BYTES`], chains at [`MAX_CHAIN`] files, reports at
//! [`MAX_DIAGNOSTICS`] findings, and the TOML parser limits nesting depth.

// Panic audit (rel, issue 7): this module reads user input, so it may not
// unwrap; tests may. See docs/reliability.md.
#![cfg_attr(not(test), deny(clippy::unwrap_used, clippy::expect_used))]

use std::borrow::Cow;
use std::collections::BTreeSet;
use std::io::Read;
use std::path::{Path, PathBuf};

use toml::de::{DeTable, DeValue};
use toml::Spanned;

use super::builtin::*;
use super::recovery::*;
use super::spans::*;
use crate::rules::Rules;
use crate::spec::{did_you_mean, Code, Diagnostic, VariantSpec};
use crate::util::clip;

/// Longest `extends` chain followed before giving up.
pub const MAX_CHAIN: usize = 64;
/// Largest variant file read, in bytes.
pub const MAX_FILE_BYTES: usize = 1 << 20;
/// Most findings reported for one variant; a note says how many more there were.
pub const MAX_DIAGNOSTICS: usize = 100;
/// Most TOML syntax errors reported for one file (later ones are mostly echoes).
pub(super) const MAX_SYNTAX_ERRORS: usize = 20;
/// A span start that lies in no file: values the loader made up itself.
pub(super) const NOWHERE: usize = usize::MAX;
/// Keys that name one variant and are never inherited.
pub(super) const IDENTITY: &[&str] = &["id", "aliases", "description"];
/// The tables that hold the rules: a child that changes a key in one of
/// them plays another game than its parent.
pub(super) const RULE_TABLES: &[&str] = &["board", "setup", "men", "kings", "capture", "promotion", "end"];
/// Keys about the parent's game, not its file: its citations and its PDN
/// GameType. A child inherits them only while it changes no rule (a new name,
/// aliases); one that changes a rule has them only where it states them
/// (issue 18: a 6×6 Turkish variant was written as GameType 30 with the
/// citations of Turkish draughts).
pub(super) const ABOUT_THE_GAME: &[&[&str]] = &[&["sources"], &["pdn", "game_type"]];

/// Where the text of a variant file comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Origin {
    /// A variant shipped with dama, by id: the text is built in.
    Builtin(&'static str),
    /// A file read from disk, by the path it was read at.
    File(PathBuf),
    /// Text handed over under a name of the caller's (`<stdin>`, `mine.toml`):
    /// [`load_text`].
    Named(String),
}

impl Origin {
    /// The built-in variant's id, for a built-in text.
    pub fn builtin(&self) -> Option<&'static str> {
        match self {
            Origin::Builtin(id) => Some(id),
            _ => None,
        }
    }
}

/// The name diagnostics show: `<builtin:dama>`, or the path or name as given.
impl std::fmt::Display for Origin {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Origin::Builtin(id) => write!(f, "<builtin:{id}>"),
            Origin::File(path) => write!(f, "{}", path.display()),
            Origin::Named(name) => f.write_str(name),
        }
    }
}

/// One file read while loading a variant.
#[derive(Debug, Clone)]
pub struct SourceFile {
    /// Where it comes from.
    pub origin: Origin,
    /// The name shown in diagnostics: `origin`, displayed.
    pub name: String,
    /// Its text.
    pub text: String,
}

impl SourceFile {
    /// A file from `origin` with this text.
    pub fn new(origin: Origin, text: impl Into<String>) -> SourceFile {
        SourceFile {
            name: origin.to_string(),
            origin,
            text: text.into(),
        }
    }
}

/// A variant loaded and compiled.
#[derive(Debug, Clone)]
pub struct Loaded {
    /// The compiled rules.
    pub rules: Rules,
    /// Warnings found while compiling.
    pub warnings: Vec<Diagnostic>,
    /// The files read, child first.
    pub files: Vec<SourceFile>,
}

impl Loaded {
    /// The settings the top file states itself, not inherited from a
    /// parent: `(dotted key, value as written)`, in file order.
    ///
    /// ```
    /// let l = dama_engine::load_text("mine.toml", "extends = \"dama\"\n[capture]\nmajority = \"none\"\n", None).unwrap();
    /// assert_eq!(l.own_settings()[1], ("capture.majority".to_string(), "\"none\"".to_string()));
    /// ```
    pub fn own_settings(&self) -> Vec<(String, String)> {
        let Some(f) = self.files.first() else { return vec![] };
        let Ok(t) = DeTable::parse(&f.text) else { return vec![] };
        let mut out = Vec::new();
        flatten(&f.text, "", t.get_ref(), &mut out);
        out.sort_by_key(|(_, _, start)| *start);
        out.into_iter().map(|(k, v, _)| (k, v)).collect()
    }
}

pub(super) fn flatten(text: &str, prefix: &str, t: &DeTable<'_>, out: &mut Vec<(String, String, usize)>) {
    for (k, v) in t {
        let path = if prefix.is_empty() {
            k.get_ref().to_string()
        } else {
            format!("{prefix}.{}", k.get_ref())
        };
        match v.get_ref() {
            DeValue::Table(sub) => flatten(text, &path, sub, out),
            // An array of tables (`[[end.material_draw]]`): each table's keys.
            DeValue::Array(a) if !a.is_empty() && a.iter().all(|e| e.get_ref().is_table()) => {
                for (i, e) in a.iter().enumerate() {
                    if let DeValue::Table(sub) = e.get_ref() {
                        flatten(text, &format!("{path}[{i}]"), sub, out);
                    }
                }
            }
            _ => {
                let raw = text.get(v.span()).unwrap_or("").trim().to_string();
                out.push((path, raw, v.span().start));
            }
        }
    }
}

/// A variant that could not be loaded: every problem found.
#[derive(Debug, Clone, thiserror::Error)]
#[error("{}", .diagnostics.iter().map(|d| d.to_string()).collect::<Vec<_>>().join("\n"))]
pub struct LoadError {
    /// The problems, errors first.
    pub diagnostics: Vec<Diagnostic>,
    /// The files read (for rendering snippets).
    pub files: Vec<SourceFile>,
}

/// Whether `s` names a file rather than a built-in variant: it ends in
/// `.toml` or contains a path separator. Any other name is a built-in id or
/// alias, whatever files lie around (issue 37: a file `dama` beside a variant
/// was read for `extends = "dama"`).
pub fn looks_like_path(s: &str) -> bool {
    s.ends_with(".toml") || s.contains('/') || s.contains('\\')
}

/// The files beside `dir` that a bare name `name` could be mistaken for
/// (`name` itself and `name.toml`), when they exist and differ from the
/// built-in text `builtin`.
pub(super) fn shadowing_files(dir: Option<&Path>, name: &str, builtin: &str) -> Vec<PathBuf> {
    let base = dir.unwrap_or(Path::new(""));
    [name.to_string(), format!("{name}.toml")]
        .into_iter()
        .map(|n| base.join(n))
        .filter(|p| p.is_file())
        .filter(|p| read_file(p).map_or(true, |t| t != builtin))
        .collect()
}

/// The warning for a bare name that names a built-in variant while a file
/// `found` of (nearly) that name lies at hand.
pub(super) fn shadow_warning(name: &str, found: &Path, key: Option<&str>) -> Diagnostic {
    let shown = found.display().to_string();
    // The files that shadow lie beside the variant (or in the current
    // folder): what to write is `./` and the file's name.
    let path_form = format!(
        "./{}",
        found
            .file_name()
            .map_or(shown.clone(), |n| n.to_string_lossy().into_owned())
    );
    Diagnostic::warning(
        Code::W0108,
        key,
        format!("`{}` is the built-in variant, not the file {shown}", clip(name)),
    )
    .with_help(format!(
        "a bare name always means a built-in variant; to use the file, name it as a path (`{}`)",
        clip(&path_form)
    ))
}

/// Loads a variant: a built-in id or alias, or a path to a TOML file (a name
/// that ends in `.toml` or contains a path separator).
pub fn load(name_or_path: &str) -> Result<Loaded, LoadError> {
    if !looks_like_path(name_or_path) {
        let Some((id, text)) = builtin_text(name_or_path) else {
            let mut e = unknown_variant(name_or_path);
            if Path::new(name_or_path).is_file() {
                // A file by that name: it is read only when named as a path.
                for d in &mut e.diagnostics {
                    d.message = format!("no built-in variant named `{}`", clip(name_or_path));
                    d.help = Some(format!(
                        "a bare name always means a built-in variant; to read the file, name it as a path (`./{}`)",
                        clip(name_or_path)
                    ));
                }
            }
            return Err(e);
        };
        let mut loaded = load_source(Origin::Builtin(id), text, None)?;
        for found in shadowing_files(None, name_or_path, text) {
            loaded.warnings.push(shadow_warning(name_or_path, &found, None));
        }
        return Ok(loaded);
    }
    load_file(Path::new(name_or_path))
}

/// Loads the variant file at `path`, whatever its name looks like (a file
/// `dama` with no extension is read, not taken for the built-in variant): its
/// `extends` chain is resolved next to it. [`load`] reads a file only when
/// the name looks like a path.
pub fn load_file(path: &Path) -> Result<Loaded, LoadError> {
    let text = read_file(path).map_err(|d| LoadError {
        diagnostics: vec![*d],
        files: vec![],
    })?;
    load_source(Origin::File(path.to_path_buf()), &text, Some(path))
}

/// Reads a variant file's text from `r`, with the checks every file gets:
/// at most [`MAX_FILE_BYTES`] bytes, valid UTF-8. `name` is used in messages.
pub fn read_text(name: &str, r: impl Read) -> Result<String, Box<Diagnostic>> {
    let mut bytes = Vec::new();
    r.take(MAX_FILE_BYTES as u64 + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| Box::new(Diagnostic::error(Code::E0002, None, format!("cannot read {name}: {e}"))))?;
    if bytes.len() > MAX_FILE_BYTES {
        return Err(Box::new(Diagnostic::error(
            Code::E0003,
            None,
            format!("{name} is larger than {MAX_FILE_BYTES} bytes, the limit for a variant file"),
        )));
    }
    String::from_utf8(bytes).map_err(|e| {
        let good = e.utf8_error().valid_up_to();
        let prefix = String::from_utf8_lossy(&e.as_bytes()[..good]).into_owned();
        let file = SourceFile::new(Origin::Named(name.to_string()), prefix);
        let mut d = Diagnostic::error(
            Code::E0004,
            None,
            format!("{name} is not valid UTF-8 (bad byte at offset {good})"),
        )
        .with_help("save the file as UTF-8");
        d.location = Some(locate(&file, good..good));
        Box::new(d)
    })
}

pub(super) fn read_file(path: &Path) -> Result<String, Box<Diagnostic>> {
    let shown = path.display().to_string();
    let io = |e: std::io::Error| {
        Box::new(Diagnostic::error(
            Code::E0002,
            None,
            format!("cannot read {shown}: {e}"),
        ))
    };
    let meta = std::fs::metadata(path).map_err(io)?;
    if meta.is_dir() {
        return Err(Box::new(Diagnostic::error(
            Code::E0002,
            None,
            format!("{shown} is a directory, not a variant file"),
        )));
    }
    if !meta.is_file() {
        return Err(Box::new(Diagnostic::error(
            Code::E0002,
            None,
            format!("{shown} is not a regular file"),
        )));
    }
    if meta.len() > MAX_FILE_BYTES as u64 {
        return Err(Box::new(Diagnostic::error(
            Code::E0003,
            None,
            format!(
                "{shown} is {} bytes; variant files are limited to {MAX_FILE_BYTES} bytes",
                meta.len()
            ),
        )));
    }
    let file = std::fs::File::open(path).map_err(io)?;
    read_text(&shown, file)
}

/// Loads a variant from text. `path` (if any) resolves a relative `extends`
/// and gives a file without `id` its id (the file stem).
pub fn load_text(name: &str, text: &str, path: Option<&Path>) -> Result<Loaded, LoadError> {
    load_source(Origin::Named(name.to_string()), text, path)
}

/// Loads a variant from text that comes from `origin`; see [`load_text`].
pub(super) fn load_source(origin: Origin, text: &str, path: Option<&Path>) -> Result<Loaded, LoadError> {
    let name = origin.to_string();
    let name = name.as_str();
    let (files, chain_warnings) = read_chain(origin, text, path)?;
    let stem = path
        .and_then(|p| p.file_stem())
        .map(|s| s.to_string_lossy().into_owned())
        .or_else(|| {
            looks_like_path(name)
                .then(|| Path::new(name).file_stem().map(|s| s.to_string_lossy().into_owned()))
                .flatten()
        })
        .or_else(|| {
            // Text with no file (`<stdin>`): the name's letters and digits.
            let slug: String = name
                .chars()
                .filter(|c| c.is_ascii_alphanumeric() || *c == '-' || *c == '_')
                .collect();
            (!slug.is_empty()).then_some(slug)
        });
    let merged = merge_chain(&files, stem.as_deref());
    if files.len() == 1 && DeTable::parse(text).is_ok_and(|t| t.get_ref().is_empty()) {
        let mut d = Diagnostic::error(Code::E0112, None, "the variant file is empty: every required key is missing")
            .with_help("start from a built-in variant with `extends = \"dama\"` and change what differs, or state every required key (docs/variant-format.md)");
        d.location = files.first().map(|f| locate(f, 0..0));
        return Err(finish_err(vec![d], files));
    }
    let mut rec = Recovery::new(merged.clone());
    let spec = rec.run();
    let mut diags: Vec<Diagnostic> = rec.diags;
    let failed = rec.failed;
    for d in &mut diags {
        if let Some(span) = d.location.take().map(|l| l.span) {
            d.location = locate_shifted(&files, span);
        }
    }
    // Located already, in the file that names the parent.
    diags.extend(chain_warnings);
    let Some(spec) = spec else {
        return Err(finish_err(diags, files));
    };
    diags.extend(identity_checks(&spec, &files, &merged, &failed));
    let compiled = Rules::compile(&spec);
    let (rules, found) = match compiled {
        Ok((rules, w)) => (Some(rules), w),
        Err(ds) => (None, ds),
    };
    // (issue 18) A child that changes the board but inherits a table made for
    // its parent's board: say so where that table is at fault.
    let changes_board = files.len() > 1
        && files
            .first()
            .is_some_and(|f| DeTable::parse(&f.text).is_ok_and(|t| t.get_ref().contains_key("board")));
    let mut kept = 0;
    for d in found {
        if depends(d.code, d.key.as_deref()).iter().any(|s| is_failed(&failed, s)) {
            continue;
        }
        kept += 1;
        if kept > MAX_DIAGNOSTICS + 1 {
            // Enough to fill the report; locating the rest is wasted work.
            diags.push(d);
            continue;
        }
        let d = place(&files, &merged, d);
        diags.push(if changes_board {
            inherited_for_another_board(&files, d)
        } else {
            d
        });
    }
    if changes_board {
        diags.extend(setup_for_another_board(&files, &merged, &spec, &failed, &diags));
    }
    if diags.iter().any(Diagnostic::is_error) {
        return Err(finish_err(diags, files));
    }
    match rules {
        Some(rules) => Ok(Loaded {
            rules,
            warnings: finish(diags, &files),
            files,
        }),
        // Unreachable in practice: compile failed without an error we kept.
        None => {
            diags.push(Diagnostic::error(
                Code::E0114,
                None,
                "the variant could not be compiled",
            ));
            Err(finish_err(diags, files))
        }
    }
}

/// For a child that changes `[board]`: a finding about `[setup]` or
/// `[promotion]` placed in a parent file is about a table written for the
/// parent's board, and the help says to state it for the new one.
pub(super) fn inherited_for_another_board(files: &[SourceFile], mut d: Diagnostic) -> Diagnostic {
    let Some(table) = d.key.as_deref().and_then(|k| k.split(['.', '[']).next()) else {
        return d;
    };
    if !matches!(table, "setup" | "promotion") {
        return d;
    }
    let (Some(child), Some(loc)) = (files.first(), d.location.as_ref()) else {
        return d;
    };
    if loc.file == child.name {
        return d;
    }
    let hint = format!(
        "[{table}] is inherited from {}, where it fits that board; {} changes [board], so give it a [{table}] of its own{}",
        loc.file,
        child.name,
        if table == "setup" { " (`white`, `black`)" } else { "" }
    );
    d.help = Some(match d.help.take() {
        Some(h) => format!("{h}; {hint}"),
        None => hint,
    });
    d
}

/// (issue 37) A child that changes the board's size but inherits its
/// parent's whole setup: the setup was written for the other board. A
/// smaller board usually shows it by setup errors (which
/// [`inherited_for_another_board`] explains); a larger one plays on, with
/// the new files and ranks empty, so this says so.
pub(super) fn setup_for_another_board(
    files: &[SourceFile],
    merged: &DeTable<'_>,
    spec: &VariantSpec,
    failed: &BTreeSet<String>,
    diags: &[Diagnostic],
) -> Option<Diagnostic> {
    let about = |k: &str| k.starts_with("board") || k.starts_with("setup");
    if failed.iter().any(|f| about(f)) || diags.iter().any(|d| d.is_error() && d.key.as_deref().is_none_or(about)) {
        // Already reported, or the sizes are not to be trusted.
        return None;
    }
    let (child, parents) = files.split_first()?;
    let own = DeTable::parse(&child.text).ok()?;
    let own_setup = own.get_ref().get("setup").and_then(|v| v.get_ref().as_table());
    if own_setup.is_some_and(|t| t.contains_key("white") || t.contains_key("black")) {
        return None;
    }
    let parent = merge_chain(parents, None);
    let board = parent.get("board")?.get_ref().as_table()?;
    let int = |k: &str| -> Option<u32> {
        let DeValue::Integer(i) = board.get(k)?.get_ref() else {
            return None;
        };
        u32::from_str_radix(&i.as_str().replace('_', ""), i.radix()).ok()
    };
    let (pw, ph) = (int("width")?, int("height")?);
    let (w, h) = (spec.board.width, spec.board.height);
    if (pw, ph) == (w, h) {
        return None;
    }
    let from = span_of(merged, "setup.white")
        .and_then(|s| locate_shifted(files, s))
        .map_or_else(|| "the parent".to_string(), |l| l.file);
    let key = if own
        .get_ref()
        .get("board")
        .and_then(|b| b.get_ref().as_table())
        .is_some_and(|b| b.contains_key("width"))
    {
        "board.width"
    } else {
        "board.height"
    };
    let d = Diagnostic::warning(
        Code::W0708,
        Some(key),
        format!(
            "the board is {w}×{h}, but [setup] is inherited from {from}, where it was written for its {pw}×{ph} board"
        ),
    )
    .with_help(format!(
        "give {} a [setup] of its own (`white`, `black`) that fills the new board",
        child.name
    ));
    Some(place(files, merged, d))
}

pub(super) fn finish_err(diags: Vec<Diagnostic>, files: Vec<SourceFile>) -> LoadError {
    LoadError {
        diagnostics: finish(diags, &files),
        files,
    }
}

/// Sorts findings (errors first, then by file and position) and caps their number.
pub(super) fn finish(mut diags: Vec<Diagnostic>, files: &[SourceFile]) -> Vec<Diagnostic> {
    // A note from a stage that stopped early goes last, whatever the sort.
    let stopped = diags
        .iter()
        .position(|d| d.code == Code::E0005)
        .map(|i| diags.remove(i));
    let order = |d: &Diagnostic| {
        let loc = d.location.as_ref().map(|l| {
            (
                files.iter().position(|f| f.name == l.file).unwrap_or(usize::MAX),
                l.line,
                l.column,
            )
        });
        (d.severity, loc.is_none(), loc)
    };
    diags.sort_by_key(order);
    diags.dedup_by(|a, b| a.code == b.code && a.message == b.message && a.location == b.location);
    if diags.len() > MAX_DIAGNOSTICS || stopped.is_some() {
        let more = diags.len().saturating_sub(MAX_DIAGNOSTICS);
        diags.truncate(MAX_DIAGNOSTICS);
        diags.push(match stopped {
            Some(note) => note,
            None => Diagnostic::error(
                Code::E0005,
                None,
                format!("{more} more problem{} not shown", if more == 1 { "" } else { "s" }),
            ),
        });
    }
    diags
}

/// Stage 1: the files of the `extends` chain, child first, and the warnings
/// found on the way (a bare parent name with a file of that name at hand).
pub(super) fn read_chain(
    origin: Origin,
    text: &str,
    path: Option<&Path>,
) -> Result<(Vec<SourceFile>, Vec<Diagnostic>), LoadError> {
    let mut files: Vec<SourceFile> = Vec::new();
    let mut diags: Vec<Diagnostic> = Vec::new();
    let mut warnings: Vec<Diagnostic> = Vec::new();
    let mut seen: Vec<String> = Vec::new();
    let mut cur_origin = origin;
    let mut cur_text = text.to_string();
    let mut cur_path: Option<PathBuf> = path.map(Path::to_path_buf);
    loop {
        let idx = files.len();
        files.push(SourceFile::new(cur_origin.clone(), cur_text.clone()));
        let cur_name = files[idx].name.clone();
        if cur_text.len() > MAX_FILE_BYTES {
            diags.push(Diagnostic::error(
                Code::E0003,
                None,
                format!("{cur_name} is larger than {MAX_FILE_BYTES} bytes, the limit for a variant file"),
            ));
            break;
        }
        let errors = syntax_errors(&files[idx]);
        if !errors.is_empty() {
            diags.extend(errors);
            break;
        }
        let parent = match DeTable::parse(&cur_text) {
            Ok(t) => t
                .get_ref()
                .get("extends")
                .map(|v| (v.get_ref().as_str().map(str::to_string), v.span())),
            Err(_) => break, // Reported by syntax_errors.
        };
        let Some((parent, span)) = parent else { break };
        let span = shift_span(span, idx);
        let at = |d: Diagnostic| Diagnostic {
            location: locate_shifted(&files, span.clone()),
            ..d
        };
        let Some(parent) = parent else {
            diags.push(at(Diagnostic::error(
                Code::E0102,
                Some("extends"),
                "`extends` must be a string: a variant id or a path",
            )
            .with_help("write `extends = \"dama\"` or `extends = \"./base.toml\"`")));
            break;
        };
        if files.len() > MAX_CHAIN {
            diags.push(at(Diagnostic::error(
                Code::E0105,
                Some("extends"),
                format!("the `extends` chain is longer than {MAX_CHAIN} files"),
            )));
            break;
        }
        if parent.trim().is_empty() {
            diags.push(at(Diagnostic::error(
                Code::E0103,
                Some("extends"),
                "`extends` is empty: name a built-in variant or a file",
            )
            .with_help("`dama variants` lists the built-in variants")));
            break;
        }
        // Resolve the parent: a path (relative to this file) when it looks
        // like one, else a built-in id, whatever files lie beside.
        let dir = cur_path.as_ref().and_then(|p| p.parent());
        let rel = dir.map(|d| d.join(&parent));
        let (porigin, ptext, ppath) = if looks_like_path(&parent) {
            let p = rel.unwrap_or_else(|| PathBuf::from(&parent));
            match read_file(&p) {
                Ok(t) => (Origin::File(p.clone()), t, Some(p)),
                Err(d) => {
                    diags.push(at(Diagnostic::error(
                        Code::E0103,
                        Some("extends"),
                        format!("unknown parent `{}`: {}", clip(&parent), d.message),
                    )));
                    break;
                }
            }
        } else if let Some((id, t)) = builtin_text(&parent) {
            // Files beside a file on disk only: a built-in's own parents are built in.
            if cur_path.is_some() {
                for found in shadowing_files(dir, &parent, t) {
                    warnings.push(at(shadow_warning(&parent, &found, Some("extends"))));
                }
            }
            (Origin::Builtin(id), t.to_string(), None)
        } else {
            let names = builtin_names();
            let mut d = Diagnostic::error(
                Code::E0103,
                Some("extends"),
                format!("unknown parent variant `{}`", clip(&parent)),
            );
            d = match did_you_mean(&parent, names.iter().map(String::as_str)) {
                Some(s) => d.with_help(format!("did you mean `{s}`?")),
                None if rel.as_ref().is_some_and(|r| r.is_file()) => d.with_help(format!(
                    "a bare name always means a built-in variant; to extend the file beside, write `extends = \"./{}\"`",
                    clip(&parent)
                )),
                None => {
                    d.with_help("`dama variants` lists the built-in variants; a path needs `./` or the .toml extension")
                }
            };
            diags.push(at(d));
            break;
        };
        let key_of = |p: &Option<PathBuf>, n: &str| {
            p.as_ref()
                .and_then(|p| p.canonicalize().ok())
                .map(|p| p.display().to_string())
                .unwrap_or_else(|| n.to_string())
        };
        if seen.is_empty() {
            seen.push(key_of(&cur_path, &cur_name));
        }
        let pname = porigin.to_string();
        let key = key_of(&ppath, &pname);
        if seen.contains(&key) {
            let names: Vec<&str> = files.iter().map(|f| f.name.as_str()).chain([pname.as_str()]).collect();
            diags.push(at(Diagnostic::error(
                Code::E0104,
                Some("extends"),
                format!("`extends` makes a cycle: {}", names.join(" -> ")),
            )
            .with_help("a variant cannot be its own ancestor; one file of the cycle must be a root or extend a built-in variant")));
            break;
        }
        seen.push(key);
        cur_origin = porigin;
        cur_text = ptext;
        cur_path = ppath;
    }
    if diags.is_empty() {
        Ok((files, warnings))
    } else {
        Err(finish_err(diags, files))
    }
}

/// Every TOML syntax error of a file, in order, without echoes.
pub(super) fn syntax_errors(file: &SourceFile) -> Vec<Diagnostic> {
    let (_, errors) = DeTable::parse_recoverable(&file.text);
    let mut found: Vec<(usize, String, Option<std::ops::Range<usize>>)> = errors
        .iter()
        .map(|e| {
            let mut msg = first_line(e.message()).to_string();
            let span = e.span();
            if msg == "duplicate key" {
                if let Some(k) = span.clone().and_then(|s| file.text.get(s)) {
                    msg = format!("duplicate key `{}`", clip(k));
                }
            }
            (span.as_ref().map_or(0, |s| s.start), msg, span)
        })
        .collect();
    found.sort_by(|a, b| (a.0, &a.1).cmp(&(b.0, &b.1)));
    found.dedup_by(|a, b| a.0 == b.0 && a.1 == b.1);
    let total = found.len();
    let mut out: Vec<Diagnostic> = found
        .into_iter()
        .take(MAX_SYNTAX_ERRORS)
        .map(|(_, msg, span)| {
            let mut d = Diagnostic::error(Code::E0101, None, format!("TOML syntax error: {msg}"));
            d.location = Some(locate(file, span.unwrap_or(0..0)));
            if msg.contains("recurs") {
                d = d.with_help("values are nested too deeply; variant files need two levels at most");
            }
            d
        })
        .collect();
    if total > MAX_SYNTAX_ERRORS {
        out.push(Diagnostic::error(
            Code::E0101,
            None,
            format!(
                "{} more TOML syntax errors in {} not shown",
                total - MAX_SYNTAX_ERRORS,
                file.name
            ),
        ));
    }
    out
}

/// Stage 2: the files' tables merged root first, spans shifted per file.
pub(super) fn merge_chain<'a>(files: &'a [SourceFile], stem: Option<&str>) -> DeTable<'a> {
    let mut merged = DeTable::new();
    let n = files.len();
    let mut parent_name = None;
    for (idx, f) in files.iter().enumerate().rev() {
        let Ok(t) = DeTable::parse(&f.text) else { continue };
        let mut t = shift_table(t.into_inner(), idx);
        if idx > 0 {
            t.remove("extends");
        } else if n > 1 {
            // A child never inherits its parent's identity.
            for k in IDENTITY {
                merged.remove(*k);
            }
            // Nor, once it changes a rule, what is said of its parent's game.
            if changes_rules(&merged, &t) {
                for path in ABOUT_THE_GAME {
                    if lookup(&t, &segs(path)).is_none() {
                        remove_path(&mut merged, path);
                    }
                }
            }
            parent_name = merged
                .get("name")
                .and_then(|v| v.get_ref().as_str())
                .map(str::to_string);
        }
        merge(&mut merged, t);
    }
    let made_up = |s: String| Spanned::new(NOWHERE..NOWHERE, DeValue::String(Cow::Owned(s)));
    if !merged.contains_key("id") {
        if let Some(stem) = stem {
            merged.insert(
                Spanned::new(NOWHERE..NOWHERE, Cow::Borrowed("id")),
                made_up(stem.to_string()),
            );
        }
    }
    if files
        .first()
        .is_some_and(|f| DeTable::parse(&f.text).is_ok_and(|t| !t.get_ref().contains_key("name")))
    {
        if let Some(pn) = parent_name {
            // Shown next to the id by most commands: "Keny, modified (my-keny)".
            let name = format!("{pn}, modified");
            merged.insert(Spanned::new(NOWHERE..NOWHERE, Cow::Borrowed("name")), made_up(name));
        }
    }
    merged
}

/// Whether `child` states a rule key (a key of [`RULE_TABLES`]) with another
/// value than `parent`, the merged tables of its ancestors.
pub(super) fn changes_rules(parent: &DeTable<'_>, child: &DeTable<'_>) -> bool {
    RULE_TABLES.iter().any(|t| match (child.get(*t), parent.get(*t)) {
        (None, _) => false,
        (Some(c), Some(p)) => match (c.get_ref(), p.get_ref()) {
            (DeValue::Table(ct), DeValue::Table(pt)) => ct.iter().any(|(k, v)| {
                pt.get(k.get_ref().as_ref())
                    .is_none_or(|pv| !same_value(v.get_ref(), pv.get_ref()))
            }),
            _ => true,
        },
        (Some(_), None) => true,
    })
}

/// Whether two TOML values are equal, whatever their spans and spelling
/// (`8` and `0x8`, key order).
pub(super) fn same_value(a: &DeValue<'_>, b: &DeValue<'_>) -> bool {
    let int = |i: &toml::de::DeInteger<'_>| i128::from_str_radix(&i.as_str().replace('_', ""), i.radix()).ok();
    let float = |f: &toml::de::DeFloat<'_>| f.as_str().replace('_', "").parse::<f64>().ok();
    match (a, b) {
        (DeValue::String(x), DeValue::String(y)) => x == y,
        (DeValue::Integer(x), DeValue::Integer(y)) => int(x).is_some() && int(x) == int(y),
        (DeValue::Float(x), DeValue::Float(y)) => float(x).is_some() && float(x) == float(y),
        (DeValue::Boolean(x), DeValue::Boolean(y)) => x == y,
        (DeValue::Datetime(x), DeValue::Datetime(y)) => x == y,
        (DeValue::Array(x), DeValue::Array(y)) => {
            x.len() == y.len()
                && x.iter()
                    .zip(y.iter())
                    .all(|(a, b)| same_value(a.get_ref(), b.get_ref()))
        }
        (DeValue::Table(x), DeValue::Table(y)) => {
            x.len() == y.len()
                && x.iter().all(|(k, v)| {
                    y.get(k.get_ref().as_ref())
                        .is_some_and(|w| same_value(v.get_ref(), w.get_ref()))
                })
        }
        _ => false,
    }
}

fn segs(path: &[&str]) -> Vec<Seg> {
    path.iter().map(|k| Seg::Key((*k).to_string())).collect()
}

/// Removes the value at `path` (table keys), if there is one.
fn remove_path(t: &mut DeTable<'_>, path: &[&str]) {
    match path {
        [] => {}
        [last] => {
            t.remove(*last);
        }
        [first, rest @ ..] => {
            if let Some(DeValue::Table(sub)) = t.get_mut(*first).map(Spanned::get_mut) {
                remove_path(sub, rest);
            }
        }
    }
}

/// Stage 3b: the variant's identity.
pub(super) fn identity_checks(
    spec: &VariantSpec,
    files: &[SourceFile],
    merged: &DeTable<'_>,
    failed: &BTreeSet<String>,
) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    if failed.contains("id") || failed.contains("name") {
        // A stand-in value: the real problem is already reported.
        return out;
    }
    let at = |d: Diagnostic, key: &str| {
        place(
            files,
            merged,
            Diagnostic {
                key: Some(key.into()),
                ..d
            },
        )
    };
    let id = spec.id.as_str();
    if id.trim().is_empty() {
        out.push(at(
            Diagnostic::error(Code::E0106, None, "`id` is empty").with_help("an id is one word, such as `my-dama`"),
            "id",
        ));
    } else if id.chars().any(|c| c.is_whitespace() || c.is_control()) {
        out.push(at(
            Diagnostic::error(Code::E0106, None, format!("`id` must be one word, not `{}`", clip(id)))
                .with_help("use letters, digits and `-`, such as `my-dama`"),
            "id",
        ));
    }
    let top = files.first().map(|f| (&f.origin, f.text.as_str()));
    if let (Some((origin, text)), Some((bid, btext))) = (top, builtin_text(id)) {
        if origin.builtin().is_none() && text != btext {
            out.push(at(
                Diagnostic::warning(
                    Code::W0107,
                    None,
                    format!("`id` `{id}` is the name of the built-in variant `{bid}`"),
                )
                .with_help("give your variant its own id, so game records do not confuse the two"),
                "id",
            ));
        }
    }
    if spec.name.trim().is_empty() {
        out.push(at(Diagnostic::error(Code::E0106, None, "`name` is empty"), "name"));
    }
    out
}

/// Whether `dep` (a section or a dotted key) had an error of its own:
/// `failed` holds the sections and keys that did (`setup.first`), so a
/// section fails with any of its keys, and a key with its section.
pub(super) fn is_failed(failed: &BTreeSet<String>, dep: &str) -> bool {
    failed.iter().any(|f| {
        f == dep
            || f.strip_prefix(dep).is_some_and(|r| r.starts_with('.'))
            || dep.strip_prefix(f.as_str()).is_some_and(|r| r.starts_with('.'))
    })
}

/// The setup lists: the squares of the initial position depend on them, not
/// on `setup.first`.
const SETUP_LISTS: &[&str] = &["setup.white", "setup.black", "setup.white_kings", "setup.black_kings"];

/// The sections (or keys) a compile finding depends on: when one of them had
/// an error of its own, the finding is about a stand-in value and is dropped.
pub(super) fn depends(code: Code, key: Option<&str>) -> Vec<&'static str> {
    const ALL: &[&str] = &["board", "setup", "men", "kings", "capture", "promotion", "end"];
    if code.is_setup_error() || code == Code::W0502 || code == Code::W0707 {
        // (issue 37) The squares of the setup: a bad `setup.first` changes none
        // of them, so it hides none of these findings.
        let mut out = vec!["board"];
        out.extend_from_slice(SETUP_LISTS);
        if matches!(code, Code::E0705 | Code::W0502) {
            out.extend_from_slice(&["promotion", "men"]);
        }
        return out;
    }
    let extra: &[&str] = match code {
        Code::E0501 => &["board", "promotion"],
        Code::W0304 => &["men", "kings"],
        Code::W0305 => &["men", "promotion"],
        Code::W0404 => &["board", "kings"],
        Code::W0706 => ALL,
        _ => &[],
    };
    let mut out: Vec<&'static str> = extra.to_vec();
    match key.and_then(|k| k.split(['.', '[']).next()) {
        Some(first) => {
            if let Some(s) = ALL.iter().find(|s| **s == first) {
                out.push(s);
            }
        }
        None => out.extend_from_slice(ALL),
    }
    out
}

pub(super) fn first_line(s: &str) -> &str {
    s.lines().next().unwrap_or(s).trim()
}

/// Gives a compile finding (which names a key) a location: the value of that
/// key in the merged table, which is the child-most file that states it.
pub(super) fn place(files: &[SourceFile], merged: &DeTable<'_>, mut d: Diagnostic) -> Diagnostic {
    if d.location.is_some() {
        return d;
    }
    let Some(key) = d.key.clone() else { return d };
    // Walk up the key until something is found: `men.friendly_jumps` falls
    // back to the [men] header when the key itself was left to its default.
    let mut k = key.as_str();
    loop {
        if let Some(span) = span_of(merged, k) {
            d.location = locate_shifted(files, span);
            if d.location.is_some() {
                break;
            }
        }
        match k.rfind(['.', '[']) {
            Some(i) => k = &k[..i],
            None => break,
        }
    }
    d
}

/// The span of the value at a dotted key path (`setup.white[2]`).
pub(super) fn span_of(table: &DeTable<'_>, key: &str) -> Option<std::ops::Range<usize>> {
    let mut segs = Vec::new();
    for part in key.split('.') {
        let mut it = part.split('[');
        segs.push(Seg::Key(it.next()?.to_string()));
        for idx in it {
            segs.push(Seg::Index(idx.trim_end_matches(']').parse().ok()?));
        }
    }
    let (first, rest) = segs.split_first()?;
    let Seg::Key(k) = first else { return None };
    let mut cur: &Spanned<DeValue<'_>> = table.get(k.as_str())?;
    for s in rest {
        cur = match s {
            Seg::Key(k) => cur.get_ref().as_table()?.get(k.as_str())?,
            Seg::Index(i) => cur.get_ref().as_array()?.get(*i)?,
        };
    }
    Some(cur.span())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spec::{key_info, KEYS};

    #[test]
    fn every_builtin_loads_without_findings() {
        for (id, _) in BUILTIN {
            let l = load(id).unwrap_or_else(|e| panic!("{id}: {e}"));
            assert!(l.warnings.is_empty(), "{id}: {:?}", l.warnings);
            assert_eq!(l.rules.id(), *id);
        }
    }

    #[test]
    fn keys_table_matches_serde() {
        // Every key serde writes for a full spec is in KEYS, and every KEYS path is one serde knows.
        // The keys serde leaves out at their defaults are set, so that it writes them.
        let mut spec = Rules::builtin("dama").unwrap().spec().clone();
        spec.end.crowning = crate::spec::CrowningEnd::Wins;
        spec.end.material_draw = vec![crate::spec::MaterialDrawSpec {
            material: vec!["KK v K".into()],
            plies: 10,
        }];
        spec.kings.max_consecutive_moves = 3;
        spec.board.lower_left = crate::spec::SquareColor::Light;
        spec.men.capture_kings = false;
        spec.kings.halt_behind_king = true;
        spec.capture.man_value = 2;
        spec.capture.king_value = 3;
        spec.capture.priority = vec![crate::spec::Preference::ByKing];
        let text = toml::to_string(&spec).unwrap();
        let t = DeTable::parse(&text).unwrap();
        let mut found = Vec::new();
        flatten(&text, "", t.get_ref(), &mut found);
        let mut paths: Vec<String> = found.into_iter().map(|(k, _, _)| k).collect();
        for (k, v) in t.get_ref() {
            if v.get_ref().is_table() {
                paths.push(k.get_ref().to_string());
            }
        }
        for p in &paths {
            assert!(key_info(p).is_some(), "serde writes `{p}` but KEYS lacks it");
        }
        // `end.material_draw[0].plies` is the key `end.material_draw.plies`.
        let plain = |p: &str| -> String {
            let mut out = String::new();
            let mut depth = 0;
            for c in p.chars() {
                match c {
                    '[' => depth += 1,
                    ']' => depth -= 1,
                    _ if depth == 0 => out.push(c),
                    _ => {}
                }
            }
            out
        };
        for k in KEYS {
            assert!(
                k.path == "extends"
                    || paths
                        .iter()
                        .any(|p| plain(p) == k.path || p.starts_with(&format!("{}[", k.path))),
                "KEYS has `{}` but serde does not",
                k.path
            );
        }
    }

    #[test]
    fn all_problems_at_once() {
        let text = "extends = \"dama\"\n[board]\nwidht = 8\nsquares = \"drak\"\n[capture]\nmandatory = \"yes\"\nmajority = \"maximum\"\n[men]\nmoves = [\"F\", \"X\", \"l\", 3]\n";
        let e = load_text("t.toml", text, None).unwrap_err();
        let codes: Vec<_> = e
            .diagnostics
            .iter()
            .map(|d| (d.code, d.key.clone().unwrap_or_default()))
            .collect();
        assert_eq!(
            codes,
            [
                (Code::E0110, "board.widht".to_string()),
                (Code::E0111, "board.squares".to_string()),
                (Code::E0113, "capture.mandatory".to_string()),
                (Code::E0111, "capture.majority".to_string()),
                (Code::E0111, "men.moves[1]".to_string()),
                (Code::E0111, "men.moves[2]".to_string()),
                (Code::E0113, "men.moves[3]".to_string()),
            ]
        );
        let widht = &e.diagnostics[0];
        assert_eq!(widht.help.as_deref(), Some("did you mean `width`?"));
        let loc = widht.location.as_ref().unwrap();
        assert_eq!((loc.line, loc.column), (3, 1));
        assert_eq!(e.diagnostics[5].help.as_deref(), Some("did you mean `L`?"));
    }

    #[test]
    fn compile_findings_point_at_the_child() {
        let text = "extends = \"dama\"\n[setup]\nwhite = [\"a2-h3\", \"z9\"]\n";
        let e = load_text("t.toml", text, None).unwrap_err();
        assert_eq!(e.diagnostics.len(), 1, "{e}");
        let d = &e.diagnostics[0];
        assert_eq!((d.code, d.key.as_deref()), (Code::E0701, Some("setup.white[1]")));
        let loc = d.location.as_ref().unwrap();
        assert_eq!((loc.file.as_str(), loc.line, loc.column), ("t.toml", 3, 19));
    }

    #[test]
    fn child_identity() {
        let dir = std::env::temp_dir().join(format!("dama-load-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let p = dir.join("my-keny.toml");
        std::fs::write(&p, "extends = \"keny\"\n[capture]\nmajority = \"max_pieces\"\n").unwrap();
        let l = load(p.to_str().unwrap()).unwrap();
        assert_eq!(l.rules.id(), "my-keny");
        assert_eq!(l.rules.name(), "Keny, modified");
        assert!(l.rules.spec().aliases.is_empty());
        assert!(l.rules.spec().description.is_empty());
        // (issue 18) It changes a rule, so Keny's citations are not its own.
        assert!(l.rules.spec().sources.is_empty());
        std::fs::remove_dir_all(&dir).ok();
    }

    /// (issue 18) What is said of the parent's game (its sources, its PDN
    /// GameType) is inherited only by a child that changes no rule.
    #[test]
    fn citations_and_game_type_follow_the_rules() {
        let load = |text: &str| load_text("t.toml", text, None).unwrap_or_else(|e| panic!("{text}: {e}"));
        let about = |l: &Loaded| (l.rules.spec().sources.len(), l.rules.spec().pdn.game_type);
        let dama = Rules::builtin("dama").unwrap();
        let parents = (dama.spec().sources.len(), 30);
        // A new name, or a rule restated with the parent's own value: the same game.
        assert_eq!(about(&load("extends = \"dama\"\nname = \"Mine\"\n")), parents);
        assert_eq!(about(&load("extends = \"dama\"\n[board]\nwidth = 0x8\n")), parents);
        // A changed rule: another game, with nothing said of it.
        let six =
            "extends = \"dama\"\n[board]\nwidth = 6\nheight = 6\n[setup]\nwhite = [\"a2-f2\"]\nblack = [\"a5-f5\"]\n";
        let l = load(six);
        assert_eq!(about(&l), (0, 0));
        assert_eq!(crate::game::game_type_tag(&l.rules), None);
        // ... unless it states them.
        let stated = six.replacen("[board]", "sources = [\"my notes\"]\n[pdn]\ngame_type = 30\n[board]", 1);
        let l = load(&stated);
        assert_eq!(about(&l), (1, 30));
        assert_eq!(crate::game::game_type_tag(&l.rules).as_deref(), Some("30,W,6,6,A0,0"));
        // The built-in variants that change a rule state their sources.
        for id in [
            "dama-one-each-draw",
            "dama-promote-and-continue",
            "keny-majority",
            "armenian-schmidt",
        ] {
            assert!(!Rules::builtin(id).unwrap().spec().sources.is_empty(), "{id}");
        }
    }

    /// (issue 18) A child that changes the board but not the setup is told
    /// that the setup it inherits was made for the parent's board.
    #[test]
    fn an_inherited_setup_on_a_new_board_says_so() {
        let e = load_text("six.toml", "extends = \"dama\"\n[board]\nwidth = 6\n", None).unwrap_err();
        assert_eq!(e.diagnostics.len(), 2, "{e}");
        for d in &e.diagnostics {
            assert_eq!(d.code, Code::E0701);
            assert_eq!(d.location.as_ref().unwrap().file, "<builtin:dama>");
            assert_eq!(
                d.help.as_deref(),
                Some("[setup] is inherited from <builtin:dama>, where it fits that board; six.toml changes [board], so give it a [setup] of its own (`white`, `black`)")
            );
        }
        // The same finding in the child's own setup needs no such help.
        let e = load_text(
            "six.toml",
            "extends = \"dama\"\n[board]\nwidth = 6\n[setup]\nwhite = [\"h3\"]\nblack = [\"a6\"]\n",
            None,
        )
        .unwrap_err();
        assert!(e.diagnostics.iter().all(|d| d.help.is_none()), "{e}");
    }

    /// (issue 18) A direction written out is suggested by its meaning.
    #[test]
    fn directions_written_out_suggest_their_abbreviation() {
        let text = "extends = \"dama\"\n[men]\nmoves = [\"FORWARD\", \"backward\", \"Forward-Left\", \"RIGHT_FORWARD\", \"fr\", \"FORWRD\"]\n";
        let e = load_text("t.toml", text, None).unwrap_err();
        let help: Vec<&str> = e.diagnostics.iter().map(|d| d.help.as_deref().unwrap_or("")).collect();
        assert_eq!(
            help,
            [
                "did you mean `F`?",
                "did you mean `B`?",
                "did you mean `FL`?",
                "did you mean `FR`?",
                "did you mean `FR`?",
                "did you mean `FR`?",
            ]
        );
    }

    /// (issue 18) `dama show` names the squares of the board it describes.
    #[test]
    fn the_square_names_follow_the_board() {
        let six =
            "extends = \"dama\"\n[board]\nwidth = 6\nheight = 5\n[setup]\nwhite = [\"a2-f2\"]\nblack = [\"a4-f4\"]\n";
        let l = load_text("t.toml", six, None).unwrap();
        let board = &l.rules.describe()[0].lines[1];
        assert!(
            board.starts_with("Squares are named a1 to f5 from White's side"),
            "{board}"
        );
        let dama = Rules::builtin("dama").unwrap();
        assert!(dama.describe()[0].lines[1].starts_with("Squares are named a1 to h8"));
    }
}
