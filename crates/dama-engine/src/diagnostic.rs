//! Problems found in a variant file, all reported at once.
//!
//! Each finding has a stable code (`E0110`, `W0305`, ...), documented with
//! its meaning in docs/variant-format.md. The JSON form (`dama validate
//! --format json`) always has the fields `severity`, `code`, `message`,
//! `key`, `location` (`file`, `line`, `column`) and `help`; absent ones are `null`.

use std::fmt;

/// How serious a finding is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// The variant cannot be used.
    Error,
    /// The variant works, but something in it is probably not what was meant.
    Warning,
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
        })
    }
}

/// Where in which file a finding points.
#[derive(Debug, Clone, PartialEq, Eq, Hash, serde::Serialize)]
pub struct Location {
    /// The file as the user named it (or `<builtin:ID>` for shipped variants).
    pub file: String,
    /// 1-based line.
    pub line: usize,
    /// 1-based column (in characters).
    pub column: usize,
    /// Byte range in the file.
    #[serde(skip)]
    pub span: std::ops::Range<usize>,
}

/// One finding about a variant file.
#[derive(Debug, Clone, PartialEq, Eq, Hash, serde::Serialize)]
pub struct Diagnostic {
    /// Error or warning.
    pub severity: Severity,
    /// A stable code such as `E0101`, documented in docs/variant-format.md.
    pub code: &'static str,
    /// What is wrong, in one sentence.
    pub message: String,
    /// The key the finding is about, as a dotted path (`men.moves`), when there is one.
    pub key: Option<String>,
    /// Where it is, when known.
    pub location: Option<Location>,
    /// A suggestion, such as the nearest valid key.
    pub help: Option<String>,
}

impl Diagnostic {
    /// A new error about `key`.
    pub fn error(code: &'static str, key: Option<&str>, message: impl Into<String>) -> Self {
        Diagnostic {
            severity: Severity::Error,
            code,
            message: message.into(),
            key: key.map(str::to_owned),
            location: None,
            help: None,
        }
    }

    /// A new warning about `key`.
    pub fn warning(code: &'static str, key: Option<&str>, message: impl Into<String>) -> Self {
        Diagnostic {
            severity: Severity::Warning,
            ..Diagnostic::error(code, key, message)
        }
    }

    /// Adds a suggestion.
    pub fn with_help(mut self, help: impl Into<String>) -> Self {
        self.help = Some(help.into());
        self
    }

    /// Whether this is an error (not a warning).
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(loc) = &self.location {
            write!(f, "{}:{}:{}: ", loc.file, loc.line, loc.column)?;
        }
        write!(f, "{}[{}]: {}", self.severity, self.code, self.message)?;
        if let Some(h) = &self.help {
            write!(f, " ({h})")?;
        }
        Ok(())
    }
}

/// The nearest of `candidates` to `word`, if it is close enough to be a likely typo.
pub fn did_you_mean<'a>(word: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    if word.is_empty() || word.len() > 64 {
        return None;
    }
    let mut best: Option<(f64, &str)> = None;
    for c in candidates {
        let score = strsim::jaro_winkler(&word.to_ascii_lowercase(), &c.to_ascii_lowercase());
        if score > 0.7 && best.is_none_or(|(s, _)| score > s) {
            best = Some((score, c));
        }
    }
    best.map(|(_, c)| c)
}
