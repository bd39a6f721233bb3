//! A variant pasted into the page: loaded without touching a file, and
//! validated with the same findings `dama validate` reports.
//!
//! `load_text` would read a file named by `extends` (`extends =
//! "../x.toml"`); a request never reads files, so a pasted variant may
//! extend a built-in variant only, and a path there is a finding like any
//! other, at its line.

use dama_engine::{load_text, Code, Diagnostic, LoadError, Loaded, Location, Origin, SourceFile};
use dama_play::view::rules_text;
use serde_json::{json, Value};

use super::view;

/// The name a pasted variant has in diagnostics.
pub const PASTED: &str = "variant.toml";

/// Whether `extends` would name a file, as the loader reads it.
fn names_a_file(s: &str) -> bool {
    s.ends_with(".toml") || s.contains('/') || s.contains('\\')
}

/// Loads a pasted variant; an `extends` naming a file is refused.
pub fn load(text: &str) -> Result<Loaded, LoadError> {
    if let Ok(table) = text.parse::<toml::Table>() {
        if let Some(parent) = table
            .get("extends")
            .and_then(|v| v.as_str())
            .filter(|p| names_a_file(p))
        {
            let mut d = Diagnostic::error(
                Code::E0103,
                Some("extends"),
                format!(
                    "`extends` names a file (`{}`): the server reads no files",
                    parent.chars().take(60).collect::<String>()
                ),
            )
            .with_help("extend a built-in variant (`extends = \"dama\"`), or paste the parent's keys here");
            d.location = extends_location(text);
            return Err(LoadError {
                diagnostics: vec![d],
                files: vec![SourceFile::new(Origin::Named(PASTED.into()), text)],
            });
        }
    }
    load_text(PASTED, text, None)
}

/// The line of the `extends` key.
fn extends_location(text: &str) -> Option<Location> {
    let mut offset = 0;
    for (i, line) in text.split_inclusive('\n').enumerate() {
        let lead = line.len() - line.trim_start().len();
        if line.trim_start().starts_with("extends") {
            return Some(Location {
                file: PASTED.into(),
                line: i + 1,
                column: lead + 1,
                span: offset + lead..offset + line.trim_end().len(),
            });
        }
        offset += line.len();
    }
    None
}

/// One finding, as every front end gives it.
pub fn diagnostic(d: &Diagnostic) -> Value {
    // The one shape of a diagnostic: `dama validate --format json` and
    // Python's `Diagnostic.to_dict()` give the same.
    serde_json::to_value(d).unwrap_or(Value::Null)
}

/// What the Design panel shows: the findings, and for a variant that
/// loads, the rules in words (`dama show`) and the initial position.
pub fn validate(text: &str) -> Value {
    match load(text) {
        Ok(l) => {
            let r = &l.rules;
            let start = r.start_position();
            json!({
                "ok": true,
                "diagnostics": l.warnings.iter().map(diagnostic).collect::<Vec<_>>(),
                "name": r.name(),
                "id": r.id(),
                "rules": rules_text(r),
                "variant": view::variant(r),
                "start_fen": r.to_fen(&start),
                "pieces": view::pieces(&start),
            })
        }
        Err(e) => json!({
            "ok": false,
            "diagnostics": e.diagnostics.iter().map(diagnostic).collect::<Vec<_>>(),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_typo_is_found_at_its_line_with_a_suggestion() {
        let v = validate("extends = \"dama\"\n\n[capture]\nmajorty = \"none\"\n");
        assert_eq!(v["ok"], false);
        let d = &v["diagnostics"][0];
        // The one shape of a diagnostic: its location nested (issue 31).
        assert_eq!(d["location"]["line"], 4, "{v}");
        assert!(d["help"].as_str().unwrap_or("").contains("majority"), "{v}");
    }

    #[test]
    fn a_pasted_variant_never_names_a_file() {
        let v = validate("id = \"x\"\nextends = \"../../etc/passwd.toml\"\n");
        assert_eq!(v["ok"], false);
        assert_eq!(v["diagnostics"][0]["code"], "E0103");
        assert_eq!(v["diagnostics"][0]["location"]["line"], 2);
        let ok = validate("extends = \"dama\"\n[capture]\nmajority = \"none\"\n");
        assert_eq!(ok["ok"], true, "{ok}");
        assert!(ok["rules"].as_array().is_some_and(|r| !r.is_empty()));
    }
}
