//! The variants shipped with dama, found by id or alias.

// Panic audit (rel, issue 7): this module reads user input, so it may not
// unwrap; tests may. See docs/reliability.md.
#![cfg_attr(not(test), deny(clippy::unwrap_used, clippy::expect_used))]

use toml::de::DeTable;

use super::load::*;
use crate::rules::Rules;
use crate::spec::{did_you_mean, Code, Diagnostic};
use crate::util::clip;

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
    ("international", include_str!("../../../../variants/international.toml")),
    ("canadian", include_str!("../../../../variants/canadian.toml")),
    ("dama-10x10", include_str!("../../../../variants/dama-10x10.toml")),
    ("italian", include_str!("../../../../variants/italian.toml")),
    ("spanish", include_str!("../../../../variants/spanish.toml")),
    ("czech", include_str!("../../../../variants/czech.toml")),
    ("pool", include_str!("../../../../variants/pool.toml")),
    ("thai", include_str!("../../../../variants/thai.toml")),
    ("killer", include_str!("../../../../variants/killer.toml")),
    ("antidraughts", include_str!("../../../../variants/antidraughts.toml")),
    ("breakthrough", include_str!("../../../../variants/breakthrough.toml")),
    ("frisian", include_str!("../../../../variants/frisian.toml")),
    ("frysk", include_str!("../../../../variants/frysk.toml")),
];

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
            // Straight from the text: no file is looked at.
            Some((id, text)) => load_source(Origin::Builtin(id), text, None).map(|l| l.rules),
            None => Err(unknown_variant(name)),
        }
    }
}

pub(super) fn unknown_variant(name: &str) -> LoadError {
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
