//! Checking a merged table against the key table ([`KEYS`]) and then
//! building the `VariantSpec` from it with one serde call.
//!
//! The table is walked in order with its spans: unknown keys, values of the
//! wrong type, words that are not allowed, numbers out of range and missing
//! keys are each reported where they are, and the value is removed (or, for
//! a key a root variant must state, replaced by its stand-in) so that every
//! problem is reported at once and serde, judging what is left, succeeds.

// Panic audit (rel, issue 7): this module reads user input, so it may not
// unwrap; tests may. See docs/reliability.md.
#![cfg_attr(not(test), deny(clippy::unwrap_used, clippy::expect_used))]

use std::borrow::Cow;
use std::collections::{BTreeSet, HashSet};
use std::ops::Range;

use serde::de::IntoDeserializer;
use toml::de::{DeArray, DeTable, DeValue};
use toml::Spanned;

use super::load::*;
use crate::spec::{
    did_you_mean, key_info, keys_of, Code, Diagnostic, KeyInfo, Kind, Location, RelDir, VariantSpec, BOOLEAN, DIRS,
    KEYS, SQUARES, STRING, TABLE,
};
use crate::util::clip;

pub(super) struct Recovery<'a> {
    table: DeTable<'a>,
    pub(super) diags: Vec<Diagnostic>,
    /// Dotted paths whose errors were reported (a "missing" finding for them is an echo).
    reported: HashSet<String>,
    /// Sections and keys that had an error: `setup.first`, `id`, or a whole
    /// section (`board`) that is not a table or is missing.
    pub(super) failed: BTreeSet<String>,
    /// Checking stopped at [`MAX_DIAGNOSTICS`] findings.
    stopped: bool,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Seg {
    Key(String),
    Index(usize),
}

/// What is wrong with a value, in the terms of its key's [`Kind`].
#[derive(Debug)]
enum Problem {
    /// A word that is not one of `allowed`.
    UnknownWord {
        word: String,
        allowed: &'static [&'static str],
    },
    /// A value of another type, described in words.
    WrongType(String),
    /// An integer beyond 64 bits (`integer `N``).
    OutOfRange(String),
    /// A whole number outside the key's range (`integer `N``).
    Invalid(String),
    /// A number that cannot be read at all.
    Unreadable(&'static str),
}

/// What a value is, as the reader of a number, string or array sees it.
enum Read<'v> {
    Int(i128),
    Float(f64),
    Str(&'v str),
    Bool(bool),
    Array,
    /// A table, or a date-time (which is read as a table).
    Table,
}

impl<'a> Recovery<'a> {
    pub(super) fn new(table: DeTable<'a>) -> Self {
        Recovery {
            table,
            diags: Vec::new(),
            reported: HashSet::new(),
            failed: BTreeSet::new(),
            stopped: false,
        }
    }

    /// Checks the table, then deserializes what is left. `None` when no
    /// spec could be built (there is then at least one error).
    pub(super) fn run(&mut self) -> Option<VariantSpec> {
        self.check_sections();
        let mut root = std::mem::take(&mut self.table);
        self.check_table(&mut root, "", &[], 0..0);
        if self.stopped {
            return None;
        }
        let de = Spanned::new(0..0, root).into_deserializer();
        match serde_path_to_error::deserialize::<_, VariantSpec>(de) {
            Ok(spec) => Some(spec),
            Err(e) => {
                // The check above lets through only what serde reads; this
                // is a disagreement between the key table and the format.
                let segs: Vec<Seg> = e
                    .path()
                    .iter()
                    .filter_map(|s| match s {
                        serde_path_to_error::Segment::Seq { index } => Some(Seg::Index(*index)),
                        serde_path_to_error::Segment::Map { key } => Some(Seg::Key(key.clone())),
                        _ => None,
                    })
                    .collect();
                let path = dotted(&segs);
                let inner = e.into_inner();
                let mut d = Diagnostic::error(
                    Code::E0114,
                    (!path.is_empty()).then_some(path.as_str()),
                    format!("invalid `{path}`: {}", clip(first_line(inner.message()))),
                );
                d.location = inner.span().filter(|s| s.start != NOWHERE).map(pseudo_location);
                self.diags.push(d);
                None
            }
        }
    }

    /// Whether checking goes on: after [`MAX_DIAGNOSTICS`] findings, the
    /// next problem stops it with a note.
    fn go_on(&mut self) -> bool {
        if self.stopped {
            return false;
        }
        if self.diags.len() > MAX_DIAGNOSTICS {
            self.diags.push(Diagnostic::error(
                Code::E0005,
                None,
                format!("more problems not shown: checking stops after {MAX_DIAGNOSTICS}"),
            ));
            self.stopped = true;
        }
        !self.stopped
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

    /// Checks the table `t` at `segs`, whose keys are those of `table` in
    /// [`KEYS`] (`""` for the top level), in order; then the keys it lacks.
    /// `span` is the table's own, where a missing key is reported.
    fn check_table(&mut self, t: &mut DeTable<'a>, table: &str, segs: &[Seg], span: Range<usize>) {
        let keys: Vec<(String, Range<usize>)> = t.iter().map(|(k, _)| (k.get_ref().to_string(), k.span())).collect();
        for (name, key_span) in keys {
            if self.stopped {
                return;
            }
            let mut here = segs.to_vec();
            here.push(Seg::Key(name.clone()));
            let Some(info) = keys_of(table).find(|k| leaf(k.path) == name) else {
                self.unknown_key(table, &here, &name, key_span);
                t.remove(name.as_str());
                continue;
            };
            let Some(v) = t.get_mut(name.as_str()) else { continue };
            if !self.check_value(info, v, &here) {
                t.remove(name.as_str());
            }
        }
        for info in keys_of(table).filter(|k| k.default.is_none()) {
            let name = leaf(info.path);
            if t.contains_key(name) {
                continue;
            }
            if !self.go_on() {
                return;
            }
            let mut full = segs.to_vec();
            full.push(Seg::Key(name.to_string()));
            let path = dotted(&full);
            self.failed.insert(failed_key(&full));
            if self.reported.insert(path.clone()) {
                let mut d = Diagnostic::error(Code::E0112, Some(&path), format!("missing required key `{path}`"));
                d.help = Some(missing_help(&path));
                // Point at the table that lacks the key (its header), or the top of the file.
                d.location = Some(pseudo_location(span.clone()));
                self.diags.push(d);
            }
            if let Some(value) = stand_in(info) {
                t.insert(
                    Spanned::new(NOWHERE..NOWHERE, Cow::Owned(name.to_string())),
                    Spanned::new(NOWHERE..NOWHERE, value),
                );
            }
        }
    }

    /// Checks the value of the key `info` at `segs`; false when it is to be
    /// removed. Arrays lose only their wrong elements.
    fn check_value(&mut self, info: &'static KeyInfo, v: &mut Spanned<DeValue<'a>>, segs: &[Seg]) -> bool {
        let span = v.span();
        let element = match info.kind {
            Kind::Texts => Kind::Text,
            Kind::Words => Kind::Word,
            Kind::Tables => Kind::Table,
            Kind::Table => {
                if let DeValue::Table(t) = v.get_mut() {
                    self.check_table(t, info.path, segs, span);
                    return true;
                }
                let problem = Problem::WrongType(value_words(v.get_ref()));
                self.report(info, segs, span, problem, v.get_ref());
                return false;
            }
            kind => {
                return match problem(kind, info.allowed, v.get_ref()) {
                    Some(p) => {
                        self.report(info, segs, span, p, v.get_ref());
                        false
                    }
                    None => true,
                };
            }
        };
        let DeValue::Array(a) = v.get_mut() else {
            // A `Vec` read from anything else.
            let p = read(v.get_ref()).map_or_else(|p| p, |r| Problem::WrongType(read_words(&r)));
            self.report(info, segs, span, p, v.get_ref());
            return false;
        };
        let mut keep = Vec::with_capacity(a.len());
        for (i, e) in a.iter_mut().enumerate() {
            if self.stopped {
                return true;
            }
            let mut here = segs.to_vec();
            here.push(Seg::Index(i));
            let espan = e.span();
            let found = match (element, e.get_mut()) {
                (Kind::Table, DeValue::Table(t)) => {
                    self.check_table(t, info.path, &here, espan.clone());
                    None
                }
                (Kind::Table, DeValue::Datetime(_)) => Some(Problem::WrongType(value_words(e.get_ref()))),
                (Kind::Table, _) => Some(read(e.get_ref()).map_or_else(|p| p, |r| Problem::WrongType(read_words(&r)))),
                (kind, _) => problem(kind, info.allowed, e.get_ref()),
            };
            keep.push(found.is_none());
            if let Some(p) = found {
                self.report(info, &here, espan, p, e.get_ref());
            }
        }
        if keep.iter().any(|k| !k) {
            let kept: DeArray<'a> = a
                .iter()
                .zip(&keep)
                .filter(|(_, k)| **k)
                .map(|(e, _)| e.clone())
                .collect();
            *a = kept;
        }
        true
    }

    /// Records a problem with the value at `segs` of the key `info`.
    fn report(&mut self, info: &KeyInfo, segs: &[Seg], span: Range<usize>, problem: Problem, value: &DeValue<'_>) {
        if !self.go_on() {
            return;
        }
        let path = dotted(segs);
        let element = matches!(segs.last(), Some(Seg::Index(_)));
        let expected = expected_words(info, element);
        let help = type_help(info, &value_words(value));
        let (code, message, help) = match problem {
            Problem::UnknownWord { word, allowed } => {
                let word = clip(&word);
                // (issue 18) A direction written out means one abbreviation, whatever
                // the spelling: `FORWARD_LEFT` is `FL`, not the nearest letters.
                let meant = (info.ty == DIRS)
                    .then(|| RelDir::from_words(&word))
                    .flatten()
                    .map(<&'static str>::from)
                    .filter(|d| allowed.contains(d));
                let help = match meant.or_else(|| did_you_mean(&word, allowed.iter().copied())) {
                    Some(s) => format!("did you mean `{s}`?"),
                    // (issue 37) A list of words (`capture.priority`) lists them too.
                    None if !info.allowed.is_empty() => format!("allowed values: {}", list(info.allowed)),
                    None if info.ty != STRING && info.ty != DIRS => format!("expected {}", info.ty),
                    None => format!("allowed values: {}", list(allowed)),
                };
                (Code::E0111, format!("unknown value `{word}` for `{path}`"), Some(help))
            }
            Problem::WrongType(found) => (
                Code::E0113,
                format!("wrong type for `{path}`: expected {expected}, found {found}"),
                help,
            ),
            Problem::OutOfRange(big) => (
                Code::E0114,
                format!(
                    "invalid value for `{path}`: {} is out of range, expected {expected}",
                    clip(&big)
                ),
                help,
            ),
            Problem::Invalid(found) => (
                Code::E0114,
                format!("invalid value for `{path}`: {}, expected {expected}", clip(&found)),
                help,
            ),
            Problem::Unreadable(what) => (Code::E0114, format!("invalid `{path}`: {}", clip(what)), help),
        };
        let mut d = Diagnostic::error(code, Some(&path), message);
        d.help = help;
        d.location = (span.start != NOWHERE).then(|| pseudo_location(span));
        self.diags.push(d);
        // It leaves a value the file did not mean.
        self.failed.insert(failed_key(segs));
        self.reported.insert(path);
    }

    /// Records a key that `table` does not have; it is ignored.
    fn unknown_key(&mut self, table: &str, segs: &[Seg], name: &str, span: Range<usize>) {
        if !self.go_on() {
            return;
        }
        let path = dotted(segs);
        let expected: Vec<&str> = keys_of(table).map(|k| leaf(k.path)).collect();
        let (key, in_table) = match path.rsplit_once('.') {
            Some((t, k)) => (k, Some(t)),
            None => (path.as_str(), None),
        };
        let message = match in_table {
            Some(t) => format!("unknown key `{}` in [{t}]", clip(key)),
            None => format!("unknown key `{}`", clip(key)),
        };
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
        let mut d = Diagnostic::error(Code::E0110, Some(&path), message).with_help(help);
        d.location = (span.start != NOWHERE).then(|| pseudo_location(span));
        self.diags.push(d);
        // A misspelled key: the key it was meant to be is not "missing" too.
        if let Some(s) = did_you_mean(name, expected.iter().copied()) {
            let mut sib = segs.to_vec();
            if let Some(last) = sib.last_mut() {
                *last = Seg::Key(s.to_string());
            }
            self.reported.insert(dotted(&sib));
        }
        self.reported.insert(path);
    }
}

/// The last part of a dotted key path: `width` of `board.width`.
fn leaf(path: &str) -> &str {
    path.rsplit('.').next().unwrap_or(path)
}

/// What is wrong with `v` as a value of `kind` (not an array or table kind),
/// or `None` when serde reads it.
fn problem(kind: Kind, allowed: &'static [&'static str], v: &DeValue<'_>) -> Option<Problem> {
    if kind == Kind::Word {
        // A word: a string, one of the allowed ones. Numbers are not read as
        // numbers here, so none overflows.
        return match v {
            DeValue::String(s) if allowed.contains(&s.as_ref()) => None,
            DeValue::String(s) => Some(Problem::UnknownWord {
                word: s.to_string(),
                allowed,
            }),
            other => Some(Problem::WrongType(value_words(other))),
        };
    }
    let r = match read(v) {
        Ok(r) => r,
        Err(p) => return Some(p),
    };
    let count = |n: i128, max: u64| (0..=i128::from(max)).contains(&n);
    let fits = match (kind, &r) {
        (Kind::Text, Read::Str(_)) | (Kind::Bool, Read::Bool(_)) => true,
        (Kind::Count(_) | Kind::WordOrCount(_), Read::Int(n)) => {
            let max = match kind {
                Kind::Count(max) => max,
                _ => u64::from(u32::MAX),
            };
            if count(*n, max) {
                true
            } else {
                return Some(Problem::Invalid(format!("integer `{n}`")));
            }
        }
        (Kind::WordOrCount(words), Read::Str(s)) => {
            if words.contains(s) {
                true
            } else {
                return Some(Problem::UnknownWord {
                    word: s.to_string(),
                    allowed: words,
                });
            }
        }
        _ => false,
    };
    (!fits).then(|| Problem::WrongType(read_words(&r)))
}

/// How a value reaches the reader of a field that takes any type: integers
/// beyond 64 bits and numbers that overflow are problems whatever the field.
fn read<'v>(v: &'v DeValue<'_>) -> Result<Read<'v>, Problem> {
    Ok(match v {
        DeValue::Integer(i) => {
            let (s, radix) = (i.as_str(), i.radix());
            if let Some(n) = i64::from_str_radix(s, radix)
                .ok()
                .map(i128::from)
                .or_else(|| u64::from_str_radix(s, radix).ok().map(i128::from))
            {
                Read::Int(n)
            } else if let Ok(n) = i128::from_str_radix(s, radix) {
                return Err(Problem::OutOfRange(format!("integer `{n}`")));
            } else if let Ok(n) = u128::from_str_radix(s, radix) {
                return Err(Problem::OutOfRange(format!("integer `{n}`")));
            } else {
                return Err(Problem::Unreadable("integer number overflowed"));
            }
        }
        DeValue::Float(f) => match f.as_str().parse::<f64>() {
            Ok(x) if !x.is_infinite() || f.as_str().contains("inf") => Read::Float(x),
            _ => return Err(Problem::Unreadable("floating-point number overflowed")),
        },
        DeValue::String(s) => Read::Str(s.as_ref()),
        DeValue::Boolean(b) => Read::Bool(*b),
        DeValue::Array(_) => Read::Array,
        DeValue::Table(_) | DeValue::Datetime(_) => Read::Table,
    })
}

/// A value as read, in words, for "found ..." in messages.
fn read_words(r: &Read<'_>) -> String {
    clip(&match r {
        Read::Int(n) => format!("integer `{n}`"),
        Read::Float(x) => {
            let mut s = x.to_string();
            if x.is_finite() && !s.contains('.') {
                s.push_str(".0");
            }
            format!("a decimal number `{s}`")
        }
        Read::Str(s) => format!("string {s:?}"),
        Read::Bool(b) => format!("boolean `{b}`"),
        Read::Array => "an array".into(),
        Read::Table => "a table".into(),
    })
}

/// What the key (or an element of it) takes, in words.
fn expected_words(info: &KeyInfo, element: bool) -> String {
    if !element {
        return info.ty.to_string();
    }
    match info.kind {
        _ if info.ty == DIRS => "a direction".into(),
        _ if info.ty == SQUARES => "a square or range such as \"a2\" or \"a2-h3\"".into(),
        Kind::Texts => STRING.into(),
        Kind::Tables => TABLE.into(),
        _ => "another type".into(),
    }
}

/// The help for a value of the wrong type or range; `found` is the value in words.
fn type_help(info: &KeyInfo, found: &str) -> Option<String> {
    if !info.allowed.is_empty() {
        Some(format!("allowed values: {}", list(info.allowed)))
    } else if info.ty == BOOLEAN {
        Some("write true or false, without quotes".into())
    } else if info.ty.contains("integer") && found.starts_with("string") {
        Some("write the number without quotes".into())
    } else {
        None
    }
}

/// The value a missing key `info` is given so that checking goes on: its
/// stand-in, or for a section, a table of its keys' stand-ins.
fn stand_in(info: &KeyInfo) -> Option<DeValue<'static>> {
    if info.kind == Kind::Table {
        let mut t = DeTable::new();
        for k in keys_of(info.path).filter(|k| k.default.is_none()) {
            t.insert(
                Spanned::new(NOWHERE..NOWHERE, Cow::Borrowed(leaf(k.path))),
                Spanned::new(NOWHERE..NOWHERE, stand_in(k)?),
            );
        }
        return Some(DeValue::Table(t));
    }
    let v = DeValue::parse(info.stand_in?).ok()?;
    Some(respan(v.into_inner()))
}

/// `setup.white[3]`.
fn dotted(segs: &[Seg]) -> String {
    let mut out = String::new();
    for s in segs {
        match s {
            Seg::Key(k) => {
                if !out.is_empty() {
                    out.push('.');
                }
                out.push_str(k);
            }
            Seg::Index(i) => out.push_str(&format!("[{i}]")),
        }
    }
    out
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

pub(super) fn pseudo_location(span: Range<usize>) -> Location {
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

fn list(words: &[&str]) -> String {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Rules;

    /// Every key of Turkish draughts' rules, and those left out at their defaults.
    fn full() -> String {
        let mut spec = Rules::builtin("dama").unwrap().spec().clone();
        spec.end.material_draw = vec![crate::spec::MaterialDrawSpec {
            material: vec!["KK v K".into()],
            plies: 10,
        }];
        spec.kings.max_consecutive_moves = 3;
        spec.capture.priority = vec![crate::spec::Preference::ByKing];
        toml::to_string(&spec).unwrap()
    }

    /// `text`'s table with the key `path` set to the TOML value `value`, or removed.
    fn with<'a>(text: &'a str, path: &str, value: Option<&'a str>) -> DeTable<'a> {
        let mut t = DeTable::parse(text).unwrap().into_inner();
        let parts: Vec<&str> = path.split('.').collect();
        let (last, sections) = parts.split_last().unwrap();
        let mut cur = &mut t;
        for s in sections {
            cur = match cur.get_mut(*s).unwrap().get_mut() {
                DeValue::Table(t) => t,
                DeValue::Array(a) => match a.get_mut(0).unwrap().get_mut() {
                    DeValue::Table(t) => t,
                    other => panic!("{path}: {other:?}"),
                },
                other => panic!("{path}: {other:?}"),
            };
        }
        cur.remove(*last);
        if let Some(v) = value {
            let v = DeValue::parse(v).unwrap();
            cur.insert(Spanned::new(0..0, Cow::Owned(last.to_string())), v);
        }
        t
    }

    /// Whether the check finds nothing, and whether serde reads the table.
    fn judged(t: DeTable<'_>) -> (bool, bool) {
        let mut r = Recovery::new(t.clone());
        let checked = r.run().is_some() && r.diags.is_empty();
        let de = Spanned::new(0..0, t).into_deserializer();
        (
            checked,
            serde::Deserialize::deserialize(de).map(|_: VariantSpec| ()).is_ok(),
        )
    }

    /// The key table agrees with serde: whatever the check lets through,
    /// serde reads, and the other way round, so the one serde call after
    /// the check does not fail.
    #[test]
    fn the_key_table_agrees_with_serde() {
        let full = full();
        assert_eq!(judged(DeTable::parse(&full).unwrap().into_inner()), (true, true));
        for k in KEYS.iter().filter(|k| k.kind != Kind::Table) {
            let mut probes: Vec<String> = vec!["1".into(), "-1".into(), "1.5".into(), "true".into(), "\"x\"".into()];
            probes.extend(["[]", "[1]", "[\"x\"]", "{}", "1979-05-27", "99999999999999999999"].map(String::from));
            match k.kind {
                Kind::Count(max) => probes.extend([max.to_string(), (max + 1).to_string(), "0".into()]),
                Kind::Word => probes.extend(k.allowed.iter().map(|w| format!("\"{w}\""))),
                Kind::Words => probes.extend(k.allowed.iter().map(|w| format!("[\"{w}\", \"zz\"]"))),
                Kind::WordOrCount(words) => {
                    probes.extend(words.iter().map(|w| format!("\"{w}\"")));
                    probes.extend(["4294967295", "4294967296", "0"].map(String::from));
                }
                Kind::Tables => probes.extend(
                    [
                        "[{material = [\"K v K\"], plies = 2}]",
                        "[{plies = 2}]",
                        "[{material = [], plies = 2, x = 1}]",
                    ]
                    .map(String::from),
                ),
                _ => {}
            }
            probes.extend(k.stand_in.map(String::from));
            for p in &probes {
                let (checked, read) = judged(with(&full, k.path, Some(p)));
                assert!(
                    !checked || read,
                    "`{} = {p}` passes the check but serde refuses it",
                    k.path
                );
                assert!(
                    checked || !read,
                    "`{} = {p}`: serde reads it, the check refuses it",
                    k.path
                );
            }
            if let Some(s) = k.stand_in {
                assert_eq!(
                    judged(with(&full, k.path, Some(s))),
                    (true, true),
                    "{}'s stand-in",
                    k.path
                );
            }
            // A key without a default is one serde needs.
            let (checked, read) = judged(with(&full, k.path, None));
            assert_eq!(
                (checked, read),
                (k.default.is_some(), k.default.is_some()),
                "{} left out",
                k.path
            );
        }
    }
}
