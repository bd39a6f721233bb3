//! The CLI's errors: one type, rendered in one place ([`CliError::report`]):
//! `error: MESSAGE` on standard error with its help and notes below it,
//! and with `--format json` the same error as JSON on standard output
//! (`json.rs`). Findings about a variant file are diagnostics, rendered by
//! `render.rs`; everything else a command refuses is a `CliError`.

use crate::commands::Ctx;
use crate::exit::Exit;
use crate::json;

/// What a command could not do, and what the person can do about it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct CliError {
    /// The exit code: [`Exit::Usage`] for a wrong command line, else [`Exit::Failure`].
    pub exit: Exit,
    /// Its code in the JSON form; `None`: not written as JSON.
    pub code: Option<json::Code>,
    /// What went wrong, for `error: …`.
    pub message: String,
    /// What to do about it (`  = help: …`; the `help` field of the JSON).
    pub help: Option<String>,
    /// Where, for the JSON: a file (or an option) with line and column,
    /// and the message without the place it names.
    pub location: Option<(String, usize, usize, String)>,
    /// More lines after it, as they are (a FEN with a caret under the fault,
    /// `  = note: …`).
    pub lines: Vec<String>,
}

impl CliError {
    /// The input was refused (exit 1), written as JSON with `code`.
    pub fn failed(code: json::Code, message: impl Into<String>) -> CliError {
        CliError {
            exit: Exit::Failure,
            code: Some(code),
            message: message.into(),
            help: None,
            location: None,
            lines: Vec::new(),
        }
    }

    /// Something outside the input failed (the network, the terminal, a
    /// runtime): exit 1, not written as JSON.
    pub fn system(message: impl Into<String>) -> CliError {
        CliError {
            code: None,
            ..CliError::failed(json::Code::Read, message)
        }
    }

    /// The command line is wrong (exit 2).
    pub fn usage(message: impl Into<String>) -> CliError {
        CliError {
            exit: Exit::Usage,
            ..CliError::system(message)
        }
    }

    /// With what to do about it.
    pub fn help(mut self, help: impl Into<String>) -> CliError {
        self.help = Some(help.into());
        self
    }

    /// Located at `line`, `column` of `file` (in the JSON form, whose
    /// message is then `message`, without the place).
    pub fn at(mut self, file: &str, line: usize, column: usize, message: &str) -> CliError {
        self.location = Some((file.to_string(), line, column, message.to_string()));
        self
    }

    /// With a line shown after it as it is.
    pub fn line(mut self, line: impl Into<String>) -> CliError {
        self.lines.push(line.into());
        self
    }

    /// With a note (`  = note: …`).
    pub fn note(self, note: &str) -> CliError {
        self.line(format!("  = note: {note}"))
    }

    /// Says the error (on stderr; as JSON too with `--format json` when
    /// `ctx` is given and the error has a code); the exit code.
    pub fn report(&self, ctx: Option<&Ctx>) -> Exit {
        eprintln!("error: {}", self.message);
        for line in &self.lines {
            eprintln!("{line}");
        }
        if let Some(help) = &self.help {
            eprintln!("  = help: {help}");
        }
        if let (Some(ctx), Some(code)) = (ctx, self.code) {
            let (message, location) = match &self.location {
                Some((file, line, column, message)) => (message.as_str(), Some((file.as_str(), *line, *column))),
                None => (self.message.as_str(), None),
            };
            ctx.json_errors(|| vec![json::error(code, message, location, self.help.as_deref())]);
        }
        self.exit
    }
}
