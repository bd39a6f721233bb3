//! Deserializing a merged table into a `VariantSpec` with serde as the
//! judge, recovering from each error (the key is recorded and removed or
//! replaced by a stand-in) so that every problem is reported at once.

// Panic audit (rel, issue 7): this module reads user input, so it may not
// unwrap; tests may. See docs/reliability.md.
#![cfg_attr(not(test), deny(clippy::unwrap_used, clippy::expect_used))]

/// Stage 3: typed deserialization that reports every problem.
use std::borrow::Cow;
use std::collections::{BTreeSet, HashMap, HashSet};

use serde::de::IntoDeserializer;
use toml::de::{DeArray, DeTable, DeValue};
use toml::Spanned;

use super::builtin::BUILTIN;
use super::load::*;
use crate::spec::{
    did_you_mean, key_info, Code, Diagnostic, Location, RelDir, VariantSpec, BOOLEAN, DIRS, KEYS, SQUARES, STRING,
    TABLE,
};
use crate::util::clip;

pub(super) struct Recovery<'a> {
    table: DeTable<'a>,
    /// A complete, valid variant whose values stand in for missing ones.
    fallback: Option<DeTable<'static>>,
    pub(super) diags: Vec<Diagnostic>,
    /// Dotted paths whose errors were reported (a "missing" error for them is an echo).
    reported: HashSet<String>,
    /// Array path -> indices (in the original array) already removed.
    removed_idx: HashMap<String, Vec<usize>>,
    /// Paths given a stand-in value.
    filled: HashSet<String>,
    /// Sections and keys that had an error: `setup.first`, `id`, or a whole
    /// section (`board`) that is not a table or is missing.
    pub(super) failed: BTreeSet<String>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Seg {
    Key(String),
    Index(usize),
}

impl<'a> Recovery<'a> {
    pub(super) fn new(table: DeTable<'a>) -> Self {
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
    pub(super) fn run(&mut self) -> Option<VariantSpec> {
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
        if let Some(field) = quoted(msg).filter(|_| msg.starts_with("missing field")) {
            let mut full = segs.clone();
            full.push(Seg::Key(field.to_string()));
            let path = self.dotted(&full);
            self.failed.insert(failed_key(&full));
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
            let value = self.fallback.as_ref().and_then(|f| lookup(f, &full)).cloned();
            let Some(value) = value.or_else(|| element_placeholder(&full, field)) else {
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
            self.failed.insert(failed_key(&segs));
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

/// What `failed` records for an error at `segs`: the section and key
/// (`setup.first`), or the top-level key (`id`), without array indices.
fn failed_key(segs: &[Seg]) -> String {
    segs.iter()
        .filter_map(|s| match s {
            Seg::Key(k) => Some(k.as_str()),
            Seg::Index(_) => None,
        })
        .take(2)
        .collect::<Vec<_>>()
        .join(".")
}

/// A stand-in for a key missing from a table of an array of tables
/// (`[[end.material_draw]]`), which the fallback variant has none of: it
/// lets checking go on to the rest of the file.
fn element_placeholder(full: &[Seg], field: &str) -> Option<DeValue<'static>> {
    if !full.iter().any(|s| matches!(s, Seg::Index(_))) {
        return None;
    }
    let stand_ins = DeTable::parse("plies = 0\nmaterial = []\n").ok()?.into_inner();
    stand_ins.get(field).map(|v| v.get_ref().clone())
}

pub(super) fn pseudo_location(span: std::ops::Range<usize>) -> Location {
    Location {
        file: String::new(),
        line: 0,
        column: 0,
        span,
    }
}

pub(super) fn lookup<'t, 'a>(t: &'t DeTable<'a>, segs: &[Seg]) -> Option<&'t DeValue<'a>> {
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

pub(super) fn value_at<'t, 'a>(t: &'t mut DeTable<'a>, segs: &[Seg]) -> Option<&'t mut DeValue<'a>> {
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

pub(super) fn table_at<'t, 'a>(t: &'t mut DeTable<'a>, segs: &[Seg]) -> Option<&'t mut DeTable<'a>> {
    if segs.is_empty() {
        return Some(t);
    }
    match value_at(t, segs)? {
        DeValue::Table(t) => Some(t),
        _ => None,
    }
}

pub(super) fn array_at<'t, 'a>(t: &'t mut DeTable<'a>, segs: &[Seg]) -> Option<&'t mut DeArray<'a>> {
    match value_at(t, segs)? {
        DeValue::Array(a) => Some(a),
        _ => None,
    }
}

/// A stand-in value: its spans point nowhere, so no finding locates into it.
pub(super) fn respan<'a>(v: DeValue<'a>) -> DeValue<'a> {
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
pub(super) fn quoted(msg: &str) -> Option<&str> {
    msg.split('`').nth(1)
}

/// The words serde lists after "expected" in its message.
pub(super) fn expected_words(msg: &str) -> Vec<&str> {
    match msg.split_once("expected") {
        Some((_, rest)) => rest.split('`').skip(1).step_by(2).collect(),
        None => vec![],
    }
}

pub(super) fn suggest_from<'m>(msg: &'m str, word: &str) -> Option<&'m str> {
    did_you_mean(word, expected_words(msg))
}

pub(super) fn list(words: &[&str]) -> String {
    words.iter().map(|w| format!("`{w}`")).collect::<Vec<_>>().join(", ")
}

/// A value's type and text in words, for "found ..." in messages.
pub(super) fn value_words(v: &DeValue<'_>) -> String {
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
pub(super) fn explain(msg: &str, path: &str, segs: &[Seg], found: Option<&str>) -> (Code, String, Option<String>) {
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
        let help = if let Some(s) = nearest_key(key, &expected) {
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
        // (issue 18) A direction written out means one abbreviation, whatever
        // the spelling: `FORWARD_LEFT` is `FL`, not the nearest letters.
        let meant = (key_info(path).map(|k| k.ty) == Some(DIRS))
            .then(|| RelDir::from_words(&word))
            .flatten()
            .map(<&'static str>::from)
            .filter(|d| expected.contains(d));
        let help = match meant.or_else(|| did_you_mean(&word, expected.iter().copied())) {
            Some(s) => format!("did you mean `{s}`?"),
            None => match key_info(path) {
                // (issue 37) A list of words (`capture.priority`) lists them too.
                Some(k) if !k.allowed.is_empty() => format!("allowed values: {}", list(k.allowed)),
                Some(k) if k.ty != STRING && k.ty != DIRS => format!("expected {}", k.ty),
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
    // (issue 37) Serde names no type for a word written as another type
    // (`squares = [...]`): the key's own type then.
    let expected = || -> String {
        let words = expected();
        if !words.trim().is_empty() {
            words
        } else if let Some(k) = info.filter(|_| !element) {
            k.ty.to_string()
        } else {
            "another type".to_string()
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
pub(super) fn humanize(s: &str) -> String {
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

/// `an` before a word that begins with a vowel (`an [end] section`), else `a`.
fn article(word: &str) -> &'static str {
    if word.starts_with(['a', 'e', 'i', 'o', 'u', 'A', 'E', 'I', 'O', 'U']) {
        "an"
    } else {
        "a"
    }
}

/// The key of the same table (`expected`, the keys serde allows there) that
/// `key` is most likely a typo of: within a small edit distance only, so
/// that an unrelated key is never offered (issue 37: `captures_kings` was
/// answered with `capture_kings`).
pub(super) fn nearest_key<'e>(key: &str, expected: &[&'e str]) -> Option<&'e str> {
    let lower = key.to_ascii_lowercase();
    let limit = (lower.chars().count() / 4).clamp(1, 3);
    let close: Vec<&'e str> = expected
        .iter()
        .copied()
        .filter(|c| strsim::damerau_levenshtein(&lower, &c.to_ascii_lowercase()) <= limit)
        .collect();
    did_you_mean(key, close.iter().copied()).or_else(|| close.first().copied())
}

pub(super) fn missing_help(path: &str) -> String {
    let (table, key) = match path.rsplit_once('.') {
        Some((t, k)) => (Some(t), k),
        None => (None, path),
    };
    let example = match key_info(path) {
        Some(k) if k.ty == TABLE => format!("add {} [{key}] section", article(key)),
        Some(k) if !k.allowed.is_empty() && k.ty == STRING => {
            format!("add `{key} = \"{}\"` (one of {})", k.allowed[0], list(k.allowed))
        }
        Some(k) => format!("add `{key} = ...` ({})", k.ty),
        None => format!("add `{key}`"),
    };
    let place = table.map(|t| format!(" to [{t}]")).unwrap_or_default();
    format!("{example}{place}; a variant without `extends` must state every required key, or start from a built-in one with `extends = \"dama\"`")
}
