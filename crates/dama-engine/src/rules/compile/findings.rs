//! The findings of one compilation, collected by every stage.

use crate::spec::{Code, Diagnostic};

/// Every problem found so far, errors and warnings, each naming its key.
#[derive(Debug, Default)]
pub(crate) struct Findings(pub(crate) Vec<Diagnostic>);

impl Findings {
    /// Records an error about `key`.
    pub(crate) fn error(&mut self, code: Code, key: &str, message: impl Into<String>) {
        self.0.push(Diagnostic::error(code, Some(key), message));
    }

    /// Records a warning about `key`.
    pub(crate) fn warning(&mut self, code: Code, key: &str, message: impl Into<String>) {
        self.0.push(Diagnostic::warning(code, Some(key), message));
    }

    /// Whether any error has been recorded.
    pub(crate) fn has_errors(&self) -> bool {
        self.0.iter().any(Diagnostic::is_error)
    }
}
