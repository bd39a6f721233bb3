//! Finding and reading variant files: built-in ids, user paths, `extends`.
//!
//! Each file is parsed into a raw TOML table with spans. A child's tables
//! are merged over its parent's before anything is deserialized, so a child
//! states only what differs. Spans are shifted by `file index << 32` so that
//! an error anywhere in the merged table still points at the right file.

use std::borrow::Cow;
use std::path::{Path, PathBuf};

use serde::de::IntoDeserializer;
use serde::Deserialize;
use toml::de::{DeArray, DeTable, DeValue};
use toml::Spanned;

use crate::diagnostic::{did_you_mean, Diagnostic, Location};
use crate::rules::Rules;
use crate::spec::VariantSpec;

/// The variants shipped with dama, as `(id, file text)`.
pub const BUILTIN: &[(&str, &str)] = &[
    ("dama", include_str!("../../../variants/dama.toml")),
    ("armenian", include_str!("../../../variants/armenian.toml")),
    ("keny", include_str!("../../../variants/keny.toml")),
    ("croda", include_str!("../../../variants/croda.toml")),
    ("dameo", include_str!("../../../variants/dameo.toml")),
    (
        "dama-one-each-draw",
        include_str!("../../../variants/dama-one-each-draw.toml"),
    ),
    (
        "dama-promote-and-continue",
        include_str!("../../../variants/dama-promote-and-continue.toml"),
    ),
    (
        "armenian-schmidt",
        include_str!("../../../variants/armenian-schmidt.toml"),
    ),
    ("keny-majority", include_str!("../../../variants/keny-majority.toml")),
];

/// Longest `extends` chain followed before giving up.
pub const MAX_CHAIN: usize = 64;
/// Largest variant file read, in bytes.
pub const MAX_FILE_BYTES: usize = 1 << 20;

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
        "E0001",
        None,
        format!("no variant named `{name}` (and no file by that name)"),
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
        diagnostics: vec![d],
        files: vec![],
    })?;
    load_text(name_or_path, &text, Some(path))
}

fn read_file(path: &Path) -> Result<String, Diagnostic> {
    let meta = std::fs::metadata(path)
        .map_err(|e| Diagnostic::error("E0002", None, format!("cannot read {}: {e}", path.display())))?;
    if meta.is_dir() {
        return Err(Diagnostic::error(
            "E0002",
            None,
            format!("{} is a directory, not a variant file", path.display()),
        ));
    }
    if meta.len() > MAX_FILE_BYTES as u64 {
        return Err(Diagnostic::error(
            "E0003",
            None,
            format!(
                "{} is {} bytes; variant files are limited to {} bytes",
                path.display(),
                meta.len(),
                MAX_FILE_BYTES
            ),
        ));
    }
    let bytes = std::fs::read(path)
        .map_err(|e| Diagnostic::error("E0002", None, format!("cannot read {}: {e}", path.display())))?;
    String::from_utf8(bytes).map_err(|e| {
        Diagnostic::error(
            "E0004",
            None,
            format!(
                "{} is not valid UTF-8 (bad byte at offset {})",
                path.display(),
                e.utf8_error().valid_up_to()
            ),
        )
    })
}

/// Loads a variant from text. `path` (if any) is used to resolve a relative `extends`.
pub fn load_text(name: &str, text: &str, path: Option<&Path>) -> Result<Loaded, LoadError> {
    // Phase 1: read the chain of files, child first.
    let mut files: Vec<SourceFile> = Vec::new();
    let mut diags: Vec<Diagnostic> = Vec::new();
    let mut seen: Vec<String> = Vec::new();
    let mut cur_name = name.to_string();
    let mut cur_text = text.to_string();
    let mut cur_path: Option<PathBuf> = path.map(Path::to_path_buf);
    let stem_id = path
        .and_then(|p| p.file_stem())
        .map(|s| s.to_string_lossy().into_owned());
    loop {
        let idx = files.len();
        files.push(SourceFile {
            name: cur_name.clone(),
            text: cur_text.clone(),
        });
        if cur_text.len() > MAX_FILE_BYTES {
            diags.push(Diagnostic::error(
                "E0003",
                None,
                format!("{cur_name} is larger than {MAX_FILE_BYTES} bytes"),
            ));
            break;
        }
        let parent = match DeTable::parse(&cur_text) {
            Ok(t) => t
                .get_ref()
                .get("extends")
                .map(|v| (v.get_ref().as_str().map(str::to_string), v.span())),
            Err(e) => {
                let mut d = Diagnostic::error("E0101", None, format!("TOML syntax error: {}", first_line(e.message())));
                d.location = e.span().map(|s| locate(&files[idx], s));
                diags.push(d);
                break;
            }
        };
        let Some((parent, span)) = parent else { break };
        let span = shift_span(span, (idx as u64) << 32);
        let Some(parent) = parent else {
            let mut d = Diagnostic::error(
                "E0102",
                Some("extends"),
                "`extends` must be a string: a variant id or a path",
            );
            d.location = Some(locate_shifted(&files, span));
            diags.push(d);
            break;
        };
        if files.len() > MAX_CHAIN {
            let mut d = Diagnostic::error(
                "E0105",
                Some("extends"),
                format!("the `extends` chain is longer than {MAX_CHAIN} files"),
            );
            d.location = Some(locate_shifted(&files, span));
            diags.push(d);
            break;
        }
        // Resolve the parent: a path relative to this file, or a built-in id.
        let rel = cur_path.as_ref().and_then(|p| p.parent()).map(|d| d.join(&parent));
        let (pname, ptext, ppath) = if looks_like_path(&parent) || rel.as_ref().is_some_and(|r| r.is_file()) {
            let p = rel.unwrap_or_else(|| PathBuf::from(&parent));
            match read_file(&p) {
                Ok(t) => (p.display().to_string(), t, Some(p)),
                Err(mut d) => {
                    d.code = "E0103";
                    d.key = Some("extends".into());
                    d.message = format!("unknown parent `{parent}`: {}", d.message);
                    d.location = Some(locate_shifted(&files, span));
                    diags.push(d);
                    break;
                }
            }
        } else if let Some((id, t)) = builtin_text(&parent) {
            (format!("<builtin:{id}>"), t.to_string(), None)
        } else {
            let names = builtin_names();
            let mut d = Diagnostic::error("E0103", Some("extends"), format!("unknown parent variant `{parent}`"));
            if let Some(s) = did_you_mean(&parent, names.iter().map(String::as_str)) {
                d = d.with_help(format!("did you mean `{s}`?"));
            }
            d.location = Some(locate_shifted(&files, span));
            diags.push(d);
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
            let mut d = Diagnostic::error(
                "E0104",
                Some("extends"),
                format!("`extends` makes a cycle: {} -> {}", seen.join(" -> "), key),
            );
            d.location = Some(locate_shifted(&files, span));
            diags.push(d);
            break;
        }
        seen.push(key);
        cur_name = pname;
        cur_text = ptext;
        cur_path = ppath;
    }
    if !diags.is_empty() {
        return Err(LoadError {
            diagnostics: diags,
            files,
        });
    }
    // Phase 2: parse every file, shift its spans, merge root first.
    let mut merged = DeTable::new();
    let n = files.len();
    for (idx, f) in files.iter().enumerate().rev() {
        let Ok(t) = DeTable::parse(&f.text) else { continue };
        let mut t = shift_table(t.into_inner(), (idx as u64) << 32);
        if idx > 0 {
            t.remove("extends");
        }
        if idx == 0 && n > 1 {
            // A child never inherits its parent's identity.
            merged.remove("aliases");
            merged.remove("id");
            if !t.contains_key("name") {
                if let Some(pn) = merged
                    .get("name")
                    .and_then(|v| v.get_ref().as_str())
                    .map(str::to_string)
                {
                    let suffix = stem_id.clone().unwrap_or_else(|| "modified".into());
                    merged.insert(
                        Spanned::new(0..0, Cow::Borrowed("name")),
                        Spanned::new(0..0, DeValue::String(Cow::Owned(format!("{pn} ({suffix})")))),
                    );
                }
            }
            if !t.contains_key("id") {
                if let Some(stem) = &stem_id {
                    merged.insert(
                        Spanned::new(0..0, Cow::Borrowed("id")),
                        Spanned::new(0..0, DeValue::String(Cow::Owned(stem.clone()))),
                    );
                }
            }
        }
        merge(&mut merged, t);
    }
    let spec = deserialize(&files, merged)?;
    match Rules::compile(&spec) {
        Ok((rules, warnings)) => {
            let warnings = warnings.into_iter().map(|d| place(&files, d)).collect();
            Ok(Loaded { rules, warnings, files })
        }
        Err(ds) => {
            let diagnostics = ds.into_iter().map(|d| place(&files, d)).collect();
            Err(LoadError { diagnostics, files })
        }
    }
}

fn deserialize(files: &[SourceFile], merged: DeTable<'_>) -> Result<VariantSpec, LoadError> {
    let spanned = Spanned::new(0..0, merged);
    match VariantSpec::deserialize(spanned.into_deserializer()) {
        Ok(s) => Ok(s),
        Err(e) => {
            let msg = first_line(e.message()).to_string();
            let mut d = Diagnostic::error(code_for(&msg), None, msg.clone());
            if let Some(help) = suggestion(&msg) {
                d = d.with_help(help);
            }
            d.location = e
                .span()
                .filter(|s| s.end > 0 || s.start > 0)
                .map(|s| locate_shifted(files, s));
            Err(LoadError {
                diagnostics: vec![d],
                files: files.to_vec(),
            })
        }
    }
}

fn code_for(msg: &str) -> &'static str {
    if msg.starts_with("unknown field") {
        "E0110"
    } else if msg.starts_with("unknown variant") {
        "E0111"
    } else if msg.starts_with("missing field") {
        "E0112"
    } else if msg.starts_with("invalid type") {
        "E0113"
    } else {
        "E0114"
    }
}

/// For serde's "unknown field `x`, expected one of `a`, `b`" messages, the nearest candidate.
fn suggestion(msg: &str) -> Option<String> {
    let word = msg.split('`').nth(1)?;
    let rest = msg.split_once("expected")?.1;
    let candidates: Vec<&str> = rest.split('`').skip(1).step_by(2).collect();
    did_you_mean(word, candidates.iter().copied()).map(|s| format!("did you mean `{s}`?"))
}

fn first_line(s: &str) -> &str {
    s.lines().next().unwrap_or(s).trim()
}

/// Gives a compile diagnostic (which names a key) a location in the files.
fn place(files: &[SourceFile], mut d: Diagnostic) -> Diagnostic {
    if d.location.is_some() {
        return d;
    }
    let Some(key) = d.key.clone() else { return d };
    // Find the key in the child-most file that defines it.
    for f in files {
        if let Some(span) = find_key(&f.text, &key) {
            d.location = Some(locate(f, span));
            break;
        }
    }
    d
}

/// The span of the value at a dotted key path (`setup.white[2]`) in `text`.
fn find_key(text: &str, key: &str) -> Option<std::ops::Range<usize>> {
    let table = DeTable::parse(text).ok()?;
    let mut parts: Vec<&str> = key.split('.').collect();
    let mut index = None;
    if let Some(last) = parts.last_mut() {
        if let Some((k, rest)) = last.split_once('[') {
            index = rest.trim_end_matches(']').parse::<usize>().ok();
            *last = k;
        }
    }
    let mut cur: &Spanned<DeValue> = table.get_ref().get(parts[0])?;
    for p in &parts[1..] {
        cur = cur.get_ref().as_table()?.get(*p)?;
    }
    if let Some(i) = index {
        if let Some(a) = cur.get_ref().as_array() {
            if let Some(v) = a.get(i) {
                return Some(v.span());
            }
        }
    }
    Some(cur.span())
}

fn locate_shifted(files: &[SourceFile], span: std::ops::Range<usize>) -> Location {
    let idx = (span.start as u64 >> 32) as usize;
    let mask = (1usize << 32) - 1;
    let file = files.get(idx).unwrap_or(&files[0]);
    locate(file, (span.start & mask)..(span.end & mask))
}

fn locate(file: &SourceFile, span: std::ops::Range<usize>) -> Location {
    let start = span.start.min(file.text.len());
    let before = &file.text[..floor_char(&file.text, start)];
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    Location {
        file: file.name.clone(),
        line,
        column,
        span,
    }
}

fn floor_char(s: &str, mut i: usize) -> usize {
    while i > 0 && !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

fn shift_span(s: std::ops::Range<usize>, off: u64) -> std::ops::Range<usize> {
    (s.start + off as usize)..(s.end + off as usize)
}

/// Shifts every span of a table by `off`.
fn shift_table(t: DeTable<'_>, off: u64) -> DeTable<'_> {
    let mut out = DeTable::new();
    for (k, v) in t {
        let ks = shift_span(k.span(), off);
        out.insert(Spanned::new(ks, k.into_inner()), shift_value(v, off));
    }
    out
}

fn shift_value(v: Spanned<DeValue<'_>>, off: u64) -> Spanned<DeValue<'_>> {
    let span = shift_span(v.span(), off);
    let val = match v.into_inner() {
        DeValue::Array(a) => DeValue::Array(a.into_iter().map(|e| shift_value(e, off)).collect::<DeArray>()),
        DeValue::Table(t) => DeValue::Table(shift_table(t, off)),
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
                let existing_span = existing.span();
                let mut taken = std::mem::replace(existing, Spanned::new(0..0, DeValue::Boolean(false))).into_inner();
                if let DeValue::Table(bt) = &mut taken {
                    merge(bt, ct);
                }
                *existing = Spanned::new(if span.start > 0 { span } else { existing_span }, taken);
            }
            (_, val) => {
                base.insert(k, Spanned::new(span, val));
            }
        }
    }
}
