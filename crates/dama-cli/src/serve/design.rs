//! A variant pasted into the page: loaded without touching a file, and
//! validated with the same findings `dama validate` reports.
//!
//! A request never reads files: the text is a [`VariantSource::Pasted`],
//! whose `extends` may name a built-in variant only (a path there is a
//! finding like any other, at its line).

use dama_engine::{Diagnostic, LoadError, Loaded};
use dama_play::source::{VariantSource, PASTED};
use dama_play::view::rules_text;
use serde_json::{json, Value};

use super::view;

/// The largest pasted variant, in bytes: the longest shipped file is a
/// tenth of it.
pub const MAX_PASTED: usize = 32 << 10;

/// Refuses a pasted text over [`MAX_PASTED`] (413, code `too-large`).
pub fn check_size(text: &str) -> Result<(), super::error::ApiError> {
    if text.len() <= MAX_PASTED {
        return Ok(());
    }
    Err(super::error::ApiError {
        status: axum::http::StatusCode::PAYLOAD_TOO_LARGE,
        code: dama_play::ErrorCode::TooLarge,
        message: format!(
            "the variant is {} bytes; a pasted variant may have at most {MAX_PASTED} (`dama serve` plays a longer file once it is a built-in, or use `dama play FILE`)",
            text.len()
        ),
    })
}

/// Loads a pasted variant; an `extends` naming a file is refused.
pub fn load(text: &str) -> Result<Loaded, LoadError> {
    VariantSource::Pasted { name: PASTED, text }.load()
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
