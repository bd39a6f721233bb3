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
//! codes; the other errors have one of the codes of [`Code`].

use dama_engine::pdn::PdnError;
use dama_engine::{LoadError, MoveError};
use serde_json::{json, Value};

use crate::out::outln;

/// The codes of the errors that are not findings about a variant file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Code {
    /// A position given with `--fen` is not one of the variant.
    Fen,
    /// An input file cannot be read (missing, a directory, too large, an I/O error).
    Read,
    /// An output file cannot be written.
    Write,
    /// A PDN record is not PDN.
    PdnSyntax,
    /// A record holds no game.
    NoGame,
    /// A move of a record cannot be read as a move.
    MoveSyntax,
    /// A move of a record is not legal where it stands.
    MoveIllegal,
    /// A move of a record could be several legal moves.
    MoveAmbiguous,
    /// A move of a record comes after the end of the game.
    AfterEnd,
    /// The FEN tag of a record is not a position of its variant.
    FenTag,
    /// The variant of a record is not named, or does not load (its
    /// diagnostics follow).
    Variant,
    /// The result of a record contradicts the end the rules give.
    ResultMismatch,
    /// A built-in variant does not load (a bug of dama).
    Builtin,
}

impl Code {
    /// Every code, as `dama --help` and README.md list them.
    #[cfg(test)]
    pub const ALL: [Code; 13] = [
        Code::Fen,
        Code::Read,
        Code::Write,
        Code::PdnSyntax,
        Code::NoGame,
        Code::MoveSyntax,
        Code::MoveIllegal,
        Code::MoveAmbiguous,
        Code::AfterEnd,
        Code::FenTag,
        Code::Variant,
        Code::ResultMismatch,
        Code::Builtin,
    ];

    /// The code as written in the JSON.
    pub fn as_str(self) -> &'static str {
        match self {
            Code::Fen => "fen",
            Code::Read => "read",
            Code::Write => "write",
            Code::PdnSyntax => "pdn-syntax",
            Code::NoGame => "no-game",
            Code::MoveSyntax => "move-syntax",
            Code::MoveIllegal => "move-illegal",
            Code::MoveAmbiguous => "move-ambiguous",
            Code::AfterEnd => "after-end",
            Code::FenTag => "fen-tag",
            Code::Variant => "variant",
            Code::ResultMismatch => "result-mismatch",
            Code::Builtin => "builtin",
        }
    }
}

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
    let code = match e {
        PdnError::Syntax { .. } => Code::PdnSyntax,
        PdnError::Move { error, .. } => match error {
            MoveError::Syntax { .. } => Code::MoveSyntax,
            MoveError::Illegal { .. } => Code::MoveIllegal,
            MoveError::Ambiguous { .. } => Code::MoveAmbiguous,
        },
        PdnError::AfterEnd { .. } => Code::AfterEnd,
        PdnError::Fen { .. } => Code::FenTag,
        PdnError::Variant { .. } => Code::Variant,
        PdnError::ResultMismatch { .. } => Code::ResultMismatch,
        PdnError::OutOfMemory { .. } | PdnError::TooLong { .. } => Code::Read,
    };
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
        for code in Code::ALL {
            let c = code.as_str();
            assert!(crate::cli::AFTER_HELP.contains(c), "`dama --help` does not list `{c}`");
            assert!(readme.contains(&format!("`{c}`")), "README.md does not list `{c}`");
        }
    }
}
