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
//! 3. **Deserialize** into [`VariantSpec`] with serde as the single judge of
//!    keys, types and allowed values. On an error the offending key is
//!    recorded, removed (or, when a required key is missing, replaced by a
//!    neutral stand-in) and deserialization is retried, so all such problems
//!    are reported at once.
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
use std::collections::{BTreeSet, HashMap, HashSet};
use std::io::Read;
use std::path::{Path, PathBuf};

use serde::de::IntoDeserializer;
use toml::de::{DeArray, DeTable, DeValue};
use toml::Spanned;

use crate::rules::Rules;
use crate::spec::{did_you_mean, Code, Diagnostic, Location};
use crate::spec::{key_info, VariantSpec, BOOLEAN, DIRS, KEYS, SQUARES, STRING, TABLE};
use crate::util::clip;

/// The variants shipped with dama, as `(id, file text)`.
pub const BUILTIN: &[(&str, &str)] = &[
    ("dama", include_str!("../../../../variants/dama.toml")),
    ("armenian", include_str!("../../../../variants/armenian.toml")),
    ("keny", include_str!("../../../../variants/keny.toml")),
    ("croda", include_str!("../../../../variants/croda.toml")),
    ("dameo", include_str!("../../../../variants/dameo.toml")),
    (
        "dama-one-each-draw",
        include_str!("../../../../variants/dama-one-each-draw.toml"),
    ),
    (
        "dama-promote-and-continue",
        include_str!("../../../../variants/dama-promote-and-continue.toml"),
    ),
    (
        "armenian-schmidt",
        include_str!("../../../../variants/armenian-schmidt.toml"),
    ),
    ("keny-majority", include_str!("../../../../variants/keny-majority.toml")),
    ("russian", include_str!("../../../../variants/russian.toml")),
    ("brazilian", include_str!("../../../../variants/brazilian.toml")),
    ("english", include_str!("../../../../variants/english.toml")),
];

/// Longest `extends` chain followed before giving up.
pub const MAX_CHAIN: usize = 64;
/// Largest variant file read, in bytes.
pub const MAX_FILE_BYTES: usize = 1 << 20;
/// Most findings reported for one variant; a note says how many more there were.
pub const MAX_DIAGNOSTICS: usize = 100;
/// Most TOML syntax errors reported for one file (later ones are mostly echoes).
const MAX_SYNTAX_ERRORS: usize = 20;
/// A span start that lies in no file: values the loader made up itself.
const NOWHERE: usize = usize::MAX;
/// Keys that name one variant and are never inherited.
const IDENTITY: &[&str] = &["id", "aliases", "description"];

/// One file read while loading a variant.
#[derive(Debug, Clone)]
pub struct SourceFile {
    /// The name shown in diagnostics.
    pub name: String,
    /// Its text.
    pub text: String,
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

fn flatten(text: &str, prefix: &str, t: &DeTable<'_>, out: &mut Vec<(String, String, usize)>) {
    for (k, v) in t {
        let path = if prefix.is_empty() {
            k.get_ref().to_string()
        } else {
            format!("{prefix}.{}", k.get_ref())
        };
        match v.get_ref() {
            DeValue::Table(sub) => flatten(text, &path, sub, out),
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

/// Whether `s` names a file rather than a built-in variant.
fn looks_like_path(s: &str) -> bool {
    s.ends_with(".toml") || s.contains('/') || s.contains('\\')
}

/// The built-in variant with this id or alias.
pub fn builtin_text(name: &str) -> Option<(&'static str, &'static str)> {
    let lower = name.to_ascii_lowercase();
    for &(id, text) in BUILTIN {
        if id == lower {
            return Some((id, text));
        }
    }
    // Aliases: read each file's `aliases` cheaply.
    for &(id, text) in BUILTIN {
        if let Ok(t) = DeTable::parse(text) {
            if let Some(a) = t.get_ref().get("aliases").and_then(|v| v.get_ref().as_array()) {
                if a.iter().any(|v| v.get_ref().as_str() == Some(lower.as_str())) {
                    return Some((id, text));
                }
            }
        }
    }
    None
}

/// Ids and aliases of the built-in variants, for suggestions.
pub fn builtin_names() -> Vec<String> {
    let mut out = Vec::new();
    for &(id, text) in BUILTIN {
        out.push(id.to_string());
        if let Ok(t) = DeTable::parse(text) {
            if let Some(a) = t.get_ref().get("aliases").and_then(|v| v.get_ref().as_array()) {
                out.extend(a.iter().filter_map(|v| v.get_ref().as_str().map(str::to_string)));
            }
        }
    }
    out
}

impl Rules {
    /// Loads a built-in variant by id or alias.
    pub fn builtin(name: &str) -> Result<Rules, LoadError> {
        match builtin_text(name) {
            Some(_) => load(name).map(|l| l.rules),
            None => Err(unknown_variant(name)),
        }
    }
}

fn unknown_variant(name: &str) -> LoadError {
    let names = builtin_names();
    let mut d = Diagnostic::error(
        Code::E0001,
        None,
        format!("no variant named `{}` (and no file by that name)", clip(name)),
    );
    if let Some(s) = did_you_mean(name, names.iter().map(String::as_str)) {
        d = d.with_help(format!("did you mean `{s}`?"));
    } else {
        d = d.with_help("`dama variants` lists the built-in variants; a path to a .toml file works too");
    }
    LoadError {
        diagnostics: vec![d],
        files: vec![],
    }
}

/// Loads a variant: a built-in id or alias, or a path to a TOML file.
pub fn load(name_or_path: &str) -> Result<Loaded, LoadError> {
    if !looks_like_path(name_or_path) || !Path::new(name_or_path).exists() {
        if let Some((id, text)) = builtin_text(name_or_path) {
            return load_text(&format!("<builtin:{id}>"), text, None);
        }
        if !looks_like_path(name_or_path) && !Path::new(name_or_path).exists() {
            return Err(unknown_variant(name_or_path));
        }
    }
    let path = Path::new(name_or_path);
    let text = read_file(path).map_err(|d| LoadError {
        diagnostics: vec![*d],
        files: vec![],
    })?;
    load_text(name_or_path, &text, Some(path))
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
        let file = SourceFile {
            name: name.to_string(),
            text: prefix,
        };
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

fn read_file(path: &Path) -> Result<String, Box<Diagnostic>> {
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
    let files = read_chain(name, text, path)?;
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
    let Some(spec) = spec else {
        return Err(finish_err(diags, files));
    };
    diags.extend(identity_checks(&spec, &files, &merged, &failed));
    let compiled = Rules::compile(&spec);
    let (rules, found) = match compiled {
        Ok((rules, w)) => (Some(rules), w),
        Err(ds) => (None, ds),
    };
    let mut kept = 0;
    for d in found {
        if depends(d.code, d.key.as_deref()).iter().any(|s| failed.contains(*s)) {
            continue;
        }
        kept += 1;
        if kept > MAX_DIAGNOSTICS + 1 {
            // Enough to fill the report; locating the rest is wasted work.
            diags.push(d);
            continue;
        }
        diags.push(place(&files, &merged, d));
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

fn finish_err(diags: Vec<Diagnostic>, files: Vec<SourceFile>) -> LoadError {
    LoadError {
        diagnostics: finish(diags, &files),
        files,
    }
}

/// Sorts findings (errors first, then by file and position) and caps their number.
fn finish(mut diags: Vec<Diagnostic>, files: &[SourceFile]) -> Vec<Diagnostic> {
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

/// Stage 1: the files of the `extends` chain, child first.
fn read_chain(name: &str, text: &str, path: Option<&Path>) -> Result<Vec<SourceFile>, LoadError> {
    let mut files: Vec<SourceFile> = Vec::new();
    let mut diags: Vec<Diagnostic> = Vec::new();
    let mut seen: Vec<String> = Vec::new();
    let mut cur_name = name.to_string();
    let mut cur_text = text.to_string();
    let mut cur_path: Option<PathBuf> = path.map(Path::to_path_buf);
    loop {
        let idx = files.len();
        files.push(SourceFile {
            name: cur_name.clone(),
            text: cur_text.clone(),
        });
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
        // Resolve the parent: a path relative to this file, or a built-in id.
        let rel = cur_path.as_ref().and_then(|p| p.parent()).map(|d| d.join(&parent));
        let (pname, ptext, ppath) = if looks_like_path(&parent) || rel.as_ref().is_some_and(|r| r.is_file()) {
            let p = rel.unwrap_or_else(|| PathBuf::from(&parent));
            match read_file(&p) {
                Ok(t) => (p.display().to_string(), t, Some(p)),
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
            (format!("<builtin:{id}>"), t.to_string(), None)
        } else {
            let names = builtin_names();
            let mut d = Diagnostic::error(
                Code::E0103,
                Some("extends"),
                format!("unknown parent variant `{}`", clip(&parent)),
            );
            d = match did_you_mean(&parent, names.iter().map(String::as_str)) {
                Some(s) => d.with_help(format!("did you mean `{s}`?")),
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
        cur_name = pname;
        cur_text = ptext;
        cur_path = ppath;
    }
    if diags.is_empty() {
        Ok(files)
    } else {
        Err(finish_err(diags, files))
    }
}

/// Every TOML syntax error of a file, in order, without echoes.
fn syntax_errors(file: &SourceFile) -> Vec<Diagnostic> {
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
fn merge_chain<'a>(files: &'a [SourceFile], stem: Option<&str>) -> DeTable<'a> {
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

/// Stage 3: typed deserialization that reports every problem.
struct Recovery<'a> {
    table: DeTable<'a>,
    /// A complete, valid variant whose values stand in for missing ones.
    fallback: Option<DeTable<'static>>,
    diags: Vec<Diagnostic>,
    /// Dotted paths whose errors were reported (a "missing" error for them is an echo).
    reported: HashSet<String>,
    /// Array path -> indices (in the original array) already removed.
    removed_idx: HashMap<String, Vec<usize>>,
    /// Paths given a stand-in value.
    filled: HashSet<String>,
    /// Top-level sections that had an error.
    failed: BTreeSet<String>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Seg {
    Key(String),
    Index(usize),
}

impl<'a> Recovery<'a> {
    fn new(table: DeTable<'a>) -> Self {
        let fallback = BUILTIN
            .first()
            .and_then(|(_, text)| DeTable::parse(text).ok())
            .map(Spanned::into_inner);
        Recovery {
            table,
            fallback,
            diags: Vec::new(),
            reported: HashSet::new(),
            removed_idx: HashMap::new(),
            filled: HashSet::new(),
            failed: BTreeSet::new(),
        }
    }

    /// Deserializes, repairing and retrying after each error. `None` when
    /// no spec could be built (there is then at least one error).
    fn run(&mut self) -> Option<VariantSpec> {
        self.check_sections();
        loop {
            let de = Spanned::new(0..0, self.table.clone()).into_deserializer();
            let err = match serde_path_to_error::deserialize::<_, VariantSpec>(de) {
                Ok(spec) => return Some(spec),
                Err(e) => e,
            };
            if self.diags.len() > MAX_DIAGNOSTICS {
                self.diags.push(Diagnostic::error(
                    Code::E0005,
                    None,
                    format!("more problems not shown: checking stops after {MAX_DIAGNOSTICS}"),
                ));
                return None;
            }
            let segs: Vec<Seg> = err
                .path()
                .iter()
                .filter_map(|s| match s {
                    serde_path_to_error::Segment::Seq { index } => Some(Seg::Index(*index)),
                    serde_path_to_error::Segment::Map { key } => Some(Seg::Key(key.clone())),
                    _ => None,
                })
                .collect();
            let inner = err.into_inner();
            let msg = first_line(inner.message()).to_string();
            let span = inner.span();
            if !self.repair(segs, &msg, span) {
                if self.diags.is_empty() {
                    self.diags.push(Diagnostic::error(Code::E0114, None, msg));
                }
                return None;
            }
        }
    }

    /// Sections that are not tables. Serde would read `[[men]]` (an array
    /// of tables) as a struct written as a sequence, with a baffling message.
    fn check_sections(&mut self) {
        for k in KEYS.iter().filter(|k| k.ty == TABLE) {
            let Some(v) = self.table.get(k.path) else { continue };
            let found = match v.get_ref() {
                DeValue::Table(_) => continue,
                DeValue::Array(a) if a.iter().all(|e| e.get_ref().is_table()) && !a.is_empty() => {
                    format!("an array of tables: write [{}], not [[{}]]", k.path, k.path)
                }
                other => value_words(other),
            };
            let mut d = Diagnostic::error(
                Code::E0113,
                Some(k.path),
                format!("wrong type for `{}`: expected a table, found {found}", k.path),
            )
            .with_help(format!(
                "start the section with a [{}] line and put its keys below it",
                k.path
            ));
            d.location = (v.span().start != NOWHERE).then(|| pseudo_location(v.span()));
            self.diags.push(d);
            self.failed.insert(k.path.to_string());
            self.reported.insert(k.path.to_string());
            self.table.remove(k.path);
        }
    }

    /// Records one serde error and changes the table so that it does not
    /// recur. Returns false when no repair is possible.
    fn repair(&mut self, segs: Vec<Seg>, msg: &str, span: Option<std::ops::Range<usize>>) -> bool {
        let section = match segs.first() {
            Some(Seg::Key(k)) => k.clone(),
            _ => String::new(),
        };
        if let Some(field) = quoted(msg).filter(|_| msg.starts_with("missing field")) {
            let mut full = segs.clone();
            full.push(Seg::Key(field.to_string()));
            let path = self.dotted(&full);
            self.failed
                .insert(if section.is_empty() { field.to_string() } else { section });
            if !self.reported.contains(&path) {
                let mut d = Diagnostic::error(Code::E0112, Some(&path), format!("missing required key `{path}`"));
                d.help = Some(missing_help(&path));
                // Point at the table that lacks the key (its header), or the top of the file.
                d.location = Some(pseudo_location(span.unwrap_or(0..0)));
                self.diags.push(d);
                self.reported.insert(path.clone());
            }
            if !self.filled.insert(path) {
                return false;
            }
            let Some(value) = self.fallback.as_ref().and_then(|f| lookup(f, &full)).cloned() else {
                return false;
            };
            let value = respan(value);
            let Some(parent) = table_at(&mut self.table, &full[..full.len() - 1]) else {
                return false;
            };
            parent.insert(
                Spanned::new(NOWHERE..NOWHERE, Cow::Owned(field.to_string())),
                Spanned::new(NOWHERE..NOWHERE, value),
            );
            return true;
        }
        if segs.is_empty() {
            return false;
        }
        let path = self.dotted(&segs);
        let found = lookup(&self.table, &segs).map(value_words);
        let (code, message, help) = explain(msg, &path, &segs, found.as_deref());
        let mut d = Diagnostic::error(code, Some(&path), message);
        d.help = help;
        d.location = span.filter(|s| s.start != NOWHERE).map(pseudo_location);
        self.diags.push(d);
        if code != Code::E0110 {
            // An unknown key is ignored; anything else leaves a value the file did not mean.
            self.failed.insert(section);
        }
        self.reported.insert(path.clone());
        // A misspelled key: the key it was meant to be is not "missing" too.
        if code == Code::E0110 {
            if let Some(s) = quoted(msg).and_then(|w| suggest_from(msg, w)) {
                let mut sib = segs.clone();
                if let Some(last) = sib.last_mut() {
                    *last = Seg::Key(s.to_string());
                }
                self.reported.insert(self.dotted(&sib));
            }
        }
        self.remove(&segs)
    }

    /// Removes the value at `segs`.
    fn remove(&mut self, segs: &[Seg]) -> bool {
        let Some((last, parent)) = segs.split_last() else {
            return false;
        };
        match last {
            Seg::Key(k) => table_at(&mut self.table, parent).is_some_and(|t| t.remove(k.as_str()).is_some()),
            Seg::Index(i) => {
                let arr_path = self.dotted(parent);
                let orig = self.original_index(&arr_path, *i);
                let Some(arr) = array_at(&mut self.table, parent) else {
                    return false;
                };
                if *i >= arr.len() {
                    return false;
                }
                let kept: DeArray<'a> = arr
                    .iter()
                    .enumerate()
                    .filter(|(j, _)| j != i)
                    .map(|(_, v)| v.clone())
                    .collect();
                *arr = kept;
                let list = self.removed_idx.entry(arr_path).or_default();
                list.push(orig);
                list.sort_unstable();
                true
            }
        }
    }

    /// The index in the file of what is now element `i` of the array at `arr_path`.
    fn original_index(&self, arr_path: &str, i: usize) -> usize {
        let mut o = i;
        if let Some(removed) = self.removed_idx.get(arr_path) {
            for &r in removed {
                if r <= o {
                    o += 1;
                }
            }
        }
        o
    }

    /// `setup.white[3]`, with indices as written in the file.
    fn dotted(&self, segs: &[Seg]) -> String {
        let mut out = String::new();
        for (n, s) in segs.iter().enumerate() {
            match s {
                Seg::Key(k) => {
                    if !out.is_empty() {
                        out.push('.');
                    }
                    out.push_str(k);
                }
                Seg::Index(i) => {
                    let arr = self.dotted(&segs[..n]);
                    out.push_str(&format!("[{}]", self.original_index(&arr, *i)));
                }
            }
        }
        out
    }
}

/// A location whose span is still shifted; resolved against the files later.
fn pseudo_location(span: std::ops::Range<usize>) -> Location {
    Location {
        file: String::new(),
        line: 0,
        column: 0,
        span,
    }
}

fn lookup<'t, 'a>(t: &'t DeTable<'a>, segs: &[Seg]) -> Option<&'t DeValue<'a>> {
    let (first, rest) = segs.split_first()?;
    let Seg::Key(k) = first else { return None };
    let mut cur = t.get(k.as_str())?.get_ref();
    for s in rest {
        cur = match s {
            Seg::Key(k) => cur.as_table()?.get(k.as_str())?.get_ref(),
            Seg::Index(i) => cur.as_array()?.get(*i)?.get_ref(),
        };
    }
    Some(cur)
}

fn value_at<'t, 'a>(t: &'t mut DeTable<'a>, segs: &[Seg]) -> Option<&'t mut DeValue<'a>> {
    let (first, rest) = segs.split_first()?;
    let Seg::Key(k) = first else { return None };
    let mut cur = t.get_mut(k.as_str())?.get_mut();
    for s in rest {
        cur = match (s, cur) {
            (Seg::Key(k), DeValue::Table(t)) => t.get_mut(k.as_str())?.get_mut(),
            (Seg::Index(i), DeValue::Array(a)) => a.get_mut(*i)?.get_mut(),
            _ => return None,
        };
    }
    Some(cur)
}

fn table_at<'t, 'a>(t: &'t mut DeTable<'a>, segs: &[Seg]) -> Option<&'t mut DeTable<'a>> {
    if segs.is_empty() {
        return Some(t);
    }
    match value_at(t, segs)? {
        DeValue::Table(t) => Some(t),
        _ => None,
    }
}

fn array_at<'t, 'a>(t: &'t mut DeTable<'a>, segs: &[Seg]) -> Option<&'t mut DeArray<'a>> {
    match value_at(t, segs)? {
        DeValue::Array(a) => Some(a),
        _ => None,
    }
}

/// A stand-in value: its spans point nowhere, so no finding locates into it.
fn respan<'a>(v: DeValue<'a>) -> DeValue<'a> {
    match v {
        DeValue::Table(t) => DeValue::Table(
            t.into_iter()
                .map(|(k, v)| {
                    (
                        Spanned::new(NOWHERE..NOWHERE, k.into_inner()),
                        Spanned::new(NOWHERE..NOWHERE, respan(v.into_inner())),
                    )
                })
                .collect(),
        ),
        DeValue::Array(a) => DeValue::Array(
            a.into_iter()
                .map(|v| Spanned::new(NOWHERE..NOWHERE, respan(v.into_inner())))
                .collect(),
        ),
        other => other,
    }
}

/// The first backquoted word of a serde message.
fn quoted(msg: &str) -> Option<&str> {
    msg.split('`').nth(1)
}

/// The words serde lists after "expected" in its message.
fn expected_words(msg: &str) -> Vec<&str> {
    match msg.split_once("expected") {
        Some((_, rest)) => rest.split('`').skip(1).step_by(2).collect(),
        None => vec![],
    }
}

fn suggest_from<'m>(msg: &'m str, word: &str) -> Option<&'m str> {
    did_you_mean(word, expected_words(msg))
}

fn list(words: &[&str]) -> String {
    words.iter().map(|w| format!("`{w}`")).collect::<Vec<_>>().join(", ")
}

/// A value's type and text in words, for "found ..." in messages.
fn value_words(v: &DeValue<'_>) -> String {
    match v {
        DeValue::String(s) => format!("string \"{}\"", clip(s)),
        DeValue::Integer(i) => format!("integer `{}`", clip(i.as_str())),
        DeValue::Float(f) => format!("decimal number `{}`", clip(f.as_str())),
        DeValue::Boolean(b) => format!("boolean `{b}`"),
        DeValue::Datetime(d) => format!("date-time `{d}`"),
        DeValue::Array(_) => "an array".into(),
        DeValue::Table(_) => "a table".into(),
    }
}

/// Code, message and help for a serde error about the key at `path`;
/// `found` describes the offending value when it is known.
fn explain(msg: &str, path: &str, segs: &[Seg], found: Option<&str>) -> (Code, String, Option<String>) {
    let word = quoted(msg).map(clip).unwrap_or_default();
    if msg.starts_with("unknown field") {
        let (key, table) = match path.rsplit_once('.') {
            Some((t, k)) => (k, Some(t)),
            None => (path, None),
        };
        let message = match table {
            Some(t) => format!("unknown key `{}` in [{t}]", clip(key)),
            None => format!("unknown key `{}`", clip(key)),
        };
        let expected = expected_words(msg);
        let help = if let Some(s) = did_you_mean(key, expected.iter().copied()) {
            format!("did you mean `{s}`?")
        } else if let Some(home) = KEYS
            .iter()
            .find(|k| k.path.rsplit('.').next() == Some(key) && k.path.contains('.'))
        {
            let (sec, _) = home.path.split_once('.').unwrap_or(("", ""));
            format!("`{key}` belongs in [{sec}]")
        } else if expected.is_empty() {
            "this table takes no keys".to_string()
        } else {
            format!("the keys allowed here are {}", list(&expected))
        };
        return (Code::E0110, message, Some(help));
    }
    if msg.starts_with("unknown variant") {
        let expected = expected_words(msg);
        let help = match did_you_mean(&word, expected.iter().copied()) {
            Some(s) => format!("did you mean `{s}`?"),
            None => match key_info(path).map(|k| k.ty) {
                Some(ty) if ty != STRING && ty != DIRS => format!("expected {ty}"),
                _ => format!("allowed values: {}", list(&expected)),
            },
        };
        return (Code::E0111, format!("unknown value `{word}` for `{path}`"), Some(help));
    }
    let element = matches!(segs.last(), Some(Seg::Index(_)));
    let info = key_info(path);
    let expected = || -> String {
        let serde_expected = msg.rsplit_once(", expected ").map_or("", |(_, e)| e);
        match info {
            Some(k) if !element && k.ty != STRING => k.ty.to_string(),
            Some(k) if element && k.ty == DIRS => "a direction".into(),
            Some(k) if element && k.ty == SQUARES => "a square or range such as \"a2\" or \"a2-h3\"".into(),
            _ => humanize(serde_expected),
        }
    };
    let help = info.and_then(|k| {
        if !k.allowed.is_empty() {
            Some(format!("allowed values: {}", list(k.allowed)))
        } else if k.ty == BOOLEAN {
            Some("write true or false, without quotes".into())
        } else if k.ty.contains("integer") && found.is_some_and(|f| f.starts_with("string")) {
            Some("write the number without quotes".into())
        } else {
            None
        }
    });
    if msg.starts_with("wanted ") {
        // The TOML deserializer's words for a non-string where a word was expected.
        let found = found.unwrap_or("another type");
        return (
            Code::E0113,
            format!("wrong type for `{path}`: expected {}, found {found}", expected()),
            help,
        );
    }
    if let Some(rest) = msg.strip_prefix("invalid type: ") {
        let found = rest.split(", expected").next().unwrap_or(rest);
        if let Some(big) = found
            .strip_suffix(" as i128")
            .or_else(|| found.strip_suffix(" as u128"))
        {
            // An integer too large for any integer type serde has at hand.
            return (
                Code::E0114,
                format!(
                    "invalid value for `{path}`: {} is out of range, expected {}",
                    clip(big),
                    expected()
                ),
                help,
            );
        }
        return (
            Code::E0113,
            format!(
                "wrong type for `{path}`: expected {}, found {}",
                expected(),
                clip(&humanize(found))
            ),
            help,
        );
    }
    if let Some(rest) = msg.strip_prefix("invalid value: ") {
        let found = rest.split(", expected").next().unwrap_or(rest);
        return (
            Code::E0114,
            format!("invalid value for `{path}`: {}, expected {}", clip(found), expected()),
            help,
        );
    }
    (Code::E0114, format!("invalid `{path}`: {}", clip(msg)), help)
}

/// Serde's type words in the words of a TOML user.
fn humanize(s: &str) -> String {
    let s = s.trim();
    let out = match s {
        "u32" | "u64" | "usize" => "a whole number (0 or more)",
        "a boolean" => "true or false",
        "sequence" | "a sequence" => "an array",
        "map" | "a map" => "a table",
        _ if s.starts_with("struct ") => "a table",
        _ if s.starts_with("enum ") => "one of the allowed words",
        _ if s.starts_with("floating point") => return s.replacen("floating point", "a decimal number", 1),
        _ => return s.to_string(),
    };
    out.to_string()
}

fn missing_help(path: &str) -> String {
    let (table, key) = match path.rsplit_once('.') {
        Some((t, k)) => (Some(t), k),
        None => (None, path),
    };
    let example = match key_info(path) {
        Some(k) if k.ty == TABLE => format!("add a [{key}] section"),
        Some(k) if !k.allowed.is_empty() && k.ty == STRING => {
            format!("add `{key} = \"{}\"` (one of {})", k.allowed[0], list(k.allowed))
        }
        Some(k) => format!("add `{key} = ...` ({})", k.ty),
        None => format!("add `{key}`"),
    };
    let place = table.map(|t| format!(" to [{t}]")).unwrap_or_default();
    format!("{example}{place}; a variant without `extends` must state every required key, or start from a built-in one with `extends = \"dama\"`")
}

/// Stage 3b: the variant's identity.
fn identity_checks(
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
    let top = files.first().map(|f| (f.name.as_str(), f.text.as_str()));
    let is_builtin = |name: &str| name.starts_with("<builtin:");
    if let (Some((name, text)), Some((bid, btext))) = (top, builtin_text(id)) {
        if !is_builtin(name) && text != btext {
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

/// The sections a compile finding depends on: when one of them had an error
/// of its own, the finding is about a stand-in value and is dropped.
fn depends(code: Code, key: Option<&str>) -> Vec<&'static str> {
    const ALL: &[&str] = &["board", "setup", "men", "kings", "capture", "promotion", "end"];
    let extra: &[&str] = match code {
        Code::E0701 | Code::E0702 | Code::E0703 | Code::E0704 => &["board", "setup"],
        Code::E0705 | Code::W0502 => &["board", "setup", "promotion", "men"],
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

fn first_line(s: &str) -> &str {
    s.lines().next().unwrap_or(s).trim()
}

/// Gives a compile finding (which names a key) a location: the value of that
/// key in the merged table, which is the child-most file that states it.
fn place(files: &[SourceFile], merged: &DeTable<'_>, mut d: Diagnostic) -> Diagnostic {
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
fn span_of(table: &DeTable<'_>, key: &str) -> Option<std::ops::Range<usize>> {
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

const FILE_SHIFT: u32 = 32;
const LOCAL_MASK: usize = (1usize << FILE_SHIFT) - 1;

/// Resolves a shifted span; `None` for made-up values and for spans outside every file.
fn locate_shifted(files: &[SourceFile], span: std::ops::Range<usize>) -> Option<Location> {
    if span.start == NOWHERE {
        return None;
    }
    let idx = span.start >> FILE_SHIFT;
    let file = files.get(idx)?;
    let start = span.start & LOCAL_MASK;
    let end = if span.end >> FILE_SHIFT == idx {
        span.end & LOCAL_MASK
    } else {
        start
    };
    Some(locate(file, start..end.max(start)))
}

fn locate(file: &SourceFile, span: std::ops::Range<usize>) -> Location {
    let start = floor_char(&file.text, span.start.min(file.text.len()));
    let before = &file.text[..start];
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    Location {
        file: file.name.clone(),
        line,
        column,
        span: start..span.end.clamp(start, file.text.len()),
    }
}

fn floor_char(s: &str, mut i: usize) -> usize {
    while i > 0 && !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

fn shift_span(s: std::ops::Range<usize>, file: usize) -> std::ops::Range<usize> {
    let off = file << FILE_SHIFT;
    (s.start + off)..(s.end + off)
}

/// Shifts every span of a table into file `file`'s range.
fn shift_table(t: DeTable<'_>, file: usize) -> DeTable<'_> {
    let mut out = DeTable::new();
    for (k, v) in t {
        let ks = shift_span(k.span(), file);
        out.insert(Spanned::new(ks, k.into_inner()), shift_value(v, file));
    }
    out
}

fn shift_value(v: Spanned<DeValue<'_>>, file: usize) -> Spanned<DeValue<'_>> {
    let span = shift_span(v.span(), file);
    let val = match v.into_inner() {
        DeValue::Array(a) => DeValue::Array(a.into_iter().map(|e| shift_value(e, file)).collect::<DeArray>()),
        DeValue::Table(t) => DeValue::Table(shift_table(t, file)),
        other => other,
    };
    Spanned::new(span, val)
}

/// Merges `child` over `base`: tables merge key by key, anything else is replaced.
fn merge<'a>(base: &mut DeTable<'a>, child: DeTable<'a>) {
    for (k, v) in child {
        let (span, val) = (v.span(), v.into_inner());
        match (base.get_mut(k.get_ref().as_ref()), val) {
            (Some(existing), DeValue::Table(ct)) if existing.get_ref().is_table() => {
                let mut taken = std::mem::replace(existing, Spanned::new(0..0, DeValue::Boolean(false))).into_inner();
                if let DeValue::Table(bt) = &mut taken {
                    merge(bt, ct);
                }
                // The child's header: findings about the table point at the child-most file.
                *existing = Spanned::new(span, taken);
            }
            (_, val) => {
                base.insert(k, Spanned::new(span, val));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
        let spec = Rules::builtin("dama").unwrap().spec().clone();
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
        for k in KEYS {
            assert!(
                k.path == "extends" || paths.iter().any(|p| p == k.path),
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
        assert!(!l.rules.spec().sources.is_empty());
        std::fs::remove_dir_all(&dir).ok();
    }
}
