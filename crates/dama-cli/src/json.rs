//! Errors as JSON, for `--format json` (issue 18).
//!
//! A command run with `--format json` that fails writes, besides its usual
//! message on stderr, one JSON object on stdout:
//!
//! ```text
//! {"errors": [{"severity", "code", "message", "key", "location", "help"}, ...]}
//! ```
//!
//! Each element has the fields of a diagnostic of `dama validate --format
//! json` (absent ones are null; `location` is {`file`, `line`, `column`}).
//! A variant that does not load gives its diagnostics, with their `E`/`W`
//! codes; the other errors have one of the play tier's stable codes
//! ([`Code`], `dama_play::ErrorCode`, which the web API gives too).

use dama_engine::pdn::PdnError;
use dama_engine::LoadError;
use serde_json::{json, Value};

pub use dama_play::ErrorCode as Code;

use crate::out::outln;

/// One error, in the shape of a diagnostic.
pub fn error(code: Code, message: &str, location: Option<(&str, usize, usize)>, help: Option<&str>) -> Value {
    json!({
        "severity": "error",
        "code": code.as_str(),
        "message": message,
        "key": null,
        "location": location.map(|(file, line, column)| json!({"file": file, "line": line, "column": column})),
        "help": help,
    })
}

/// The diagnostics of a variant that does not load.
pub fn load_error(e: &LoadError) -> Vec<Value> {
    e.diagnostics
        .iter()
        .map(|d| serde_json::to_value(d).unwrap_or(Value::Null))
        .collect()
}

/// A record's error, located in `file`; a variant that does not load adds its diagnostics.
pub fn pdn_error(file: &str, e: &PdnError) -> Vec<Value> {
    let (line, column) = e.position();
    let code = Code::of_pdn(e);
    // The message without its own "line L, column C: " prefix, as on stderr.
    let msg = e.to_string();
    let msg = msg.split_once(": ").map_or(msg.as_str(), |(_, m)| m);
    let help = match e {
        PdnError::Variant { load: None, .. } => Some("give the variant with --variant, e.g. --variant dama"),
        _ => None,
    };
    let mut errors = vec![error(code, msg, Some((file, line, column)), help)];
    if let PdnError::Variant { load: Some(le), .. } = e {
        errors.extend(load_error(le));
    }
    errors
}

/// Writes `{"errors": [...]}` on stdout.
pub fn print(errors: Vec<Value>) {
    let v = json!({ "errors": errors });
    outln!("{}", serde_json::to_string_pretty(&v).unwrap_or_default());
}

#[cfg(test)]
mod tests {
    use super::Code;

    #[test]
    fn every_code_is_documented() {
        let readme = include_str!("../../../README.md");
        for code in Code::CLI {
            let c = code.as_str();
            assert!(crate::cli::AFTER_HELP.contains(c), "`dama --help` does not list `{c}`");
            assert!(readme.contains(&format!("`{c}`")), "README.md does not list `{c}`");
        }
    }
}
