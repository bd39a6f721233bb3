//! The weights of the evaluation's terms, and the small TOML file that
//! stores them for one variant.
//!
//! [`EvalWeights::derived`] gives the weights the evaluation has always
//! used, derived from the compiled rules alone (the king's worth from its
//! mobility and reach; fixed weights for the other terms; 0 for the terms
//! that only tuning switches on). `dama tune` fits them to the results of
//! self-play games ([`tune`](crate::tune)) and writes them as a file:
//!
//! ```toml
//! # Evaluation weights for dama (dama tune)
//! format = 1
//! variant = "dama"
//! rules = "89abcdef01234567"
//!
//! [weights]
//! king = 265
//! advancement = 100
//! # ...
//! ```
//!
//! `rules` is the [`Rules::fingerprint`] of the compiled rules the weights
//! were tuned for: a file for other rules is refused
//! ([`WeightsError::OtherRules`]), since a change of rule can make any
//! weight wrong. A weight the file leaves out keeps its derived value.
//!
//! ```
//! use dama_engine::{EvalWeights, Rules};
//! let rules = Rules::builtin("russian").unwrap();
//! let mut w = EvalWeights::derived(&rules);
//! w.tempo = 2;
//! let text = w.to_toml(&rules);
//! assert_eq!(EvalWeights::parse(&text, &rules).unwrap(), w);
//! ```

// This module reads user input, so it may not unwrap; tests may.
#![cfg_attr(not(test), deny(clippy::unwrap_used, clippy::expect_used))]

use std::path::{Path, PathBuf};

use serde::Deserialize;
use toml::de::{DeTable, DeValue};

use crate::rules::Rules;
use crate::spec::did_you_mean;

/// The version of the weights file format this program reads and writes.
pub const WEIGHTS_FORMAT: u32 = 1;

/// The largest weights file read (bytes).
const MAX_WEIGHTS_BYTES: u64 = 64 * 1024;

/// The largest absolute value of a weight.
pub const MAX_WEIGHT: i32 = 10_000;

macro_rules! weights {
    ($($(#[doc = $doc:literal])* $name:ident,)*) => {
        /// The weights of the evaluation's terms, in hundredths of a man
        /// per unit of the term (see each field). [`EvalWeights::derived`]
        /// gives today's evaluation exactly.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub struct EvalWeights {
            $($(#[doc = $doc])* pub $name: i32,)*
        }

        /// The names of the weights, in file order, with their meaning.
        pub const WEIGHT_NAMES: &[(&str, &str)] = &[$((stringify!($name), concat!($($doc),*)),)*];

        /// The `[weights]` table as written: every weight optional.
        #[derive(Debug, Default, Deserialize)]
        #[serde(deny_unknown_fields)]
        struct WeightsSpec {
            $($name: Option<i32>,)*
        }

        impl EvalWeights {
            /// The weights as a list, in the order of [`WEIGHT_NAMES`].
            pub fn values(&self) -> Vec<i32> {
                vec![$(self.$name,)*]
            }

            /// Sets the weights from a list in the order of
            /// [`WEIGHT_NAMES`] (extra values are ignored, missing ones
            /// leave their weight as it is).
            pub fn set_values(&mut self, values: &[i32]) {
                let mut it = values.iter().copied();
                $(if let Some(v) = it.next() { self.$name = v; })*
            }

            fn fill(&mut self, spec: &WeightsSpec) {
                $(if let Some(v) = spec.$name { self.$name = v; })*
            }
        }
    };
}

weights! {
    /// The value of a king (a man is 100).
    king,
    /// The scale of the advancement table, in percent (100: as derived).
    advancement,
    /// Per free step of a man.
    man_mobility,
    /// Per square a king can move to.
    king_mobility,
    /// Per man on a promotion square of the opponent while the opponent has men that can crown.
    guard,
    /// The trade-down bonus, in percent (100: a lead counts a quarter more on an empty board).
    trade,
    /// Per step of progress of each man toward its promotion squares (tempo).
    tempo,
    /// Per man with a piece of its own one step behind it.
    support,
    /// Per empty promotion square a man can step onto at its next move (a runaway).
    runaway,
    /// Per square a king would reach on an empty board from where it stands (centralisation).
    king_centre,
}

impl EvalWeights {
    /// The weights derived from the rules: the evaluation as it has always
    /// been ([`Evaluator::new`](crate::Evaluator::new)).
    pub fn derived(rules: &Rules) -> EvalWeights {
        EvalWeights {
            king: derived_king_value(rules),
            advancement: 100,
            man_mobility: 3,
            king_mobility: 1,
            guard: 6,
            trade: 100,
            tempo: 0,
            support: 0,
            runaway: 0,
            king_centre: 0,
        }
    }

    /// The weights for `rules`: the tuned weights shipped with dama for
    /// these exact rules (same fingerprint), else the derived ones.
    pub fn for_rules(rules: &Rules) -> EvalWeights {
        shipped(rules).unwrap_or_else(|| EvalWeights::derived(rules))
    }

    /// Reads a weights file for `rules`.
    pub fn parse(text: &str, rules: &Rules) -> Result<EvalWeights, WeightsError> {
        let table = DeTable::parse(text).map_err(|e| {
            let (line, column) = e.span().map_or((0, 0), |s| line_column(text, s.start));
            WeightsError::Syntax {
                line,
                column,
                message: e.message().to_string(),
            }
        })?;
        // Unknown weight names first, with a suggestion.
        if let Some(w) = table.get_ref().get("weights") {
            if let DeValue::Table(t) = w.get_ref() {
                for (k, _) in t.iter() {
                    let name = k.get_ref();
                    if !WEIGHT_NAMES.iter().any(|(n, _)| n == name) {
                        let (line, column) = line_column(text, k.span().start);
                        return Err(WeightsError::UnknownWeight {
                            name: name.to_string(),
                            line,
                            column,
                            suggestion: did_you_mean(name, WEIGHT_NAMES.iter().map(|(n, _)| *n)).map(str::to_string),
                        });
                    }
                }
            }
        }
        let file: FileSpec = toml::from_str(text).map_err(|e| {
            let (line, column) = e.span().map_or((0, 0), |s| line_column(text, s.start));
            WeightsError::Syntax {
                line,
                column,
                message: e.message().to_string(),
            }
        })?;
        if file.format != WEIGHTS_FORMAT {
            return Err(WeightsError::Version {
                found: file.format,
                expected: WEIGHTS_FORMAT,
            });
        }
        let expected = rules.fingerprint();
        if u64::from_str_radix(file.rules.trim(), 16).ok() != Some(expected) {
            return Err(WeightsError::OtherRules {
                variant: file.variant,
                fingerprint: file.rules,
                expected_variant: rules.id().to_string(),
                expected_fingerprint: format!("{expected:016x}"),
            });
        }
        let mut w = EvalWeights::derived(rules);
        w.fill(&file.weights.unwrap_or_default());
        for ((name, _), v) in WEIGHT_NAMES.iter().zip(w.values()) {
            if v.abs() > MAX_WEIGHT || (*name == "king" && v <= 0) {
                return Err(WeightsError::OutOfRange {
                    name: (*name).to_string(),
                    value: v,
                });
            }
        }
        Ok(w)
    }

    /// Reads the weights file at `path` for `rules`.
    pub fn read(path: &Path, rules: &Rules) -> Result<EvalWeights, WeightsError> {
        use std::io::Read;
        let io = |source| WeightsError::Io {
            path: path.to_path_buf(),
            source,
        };
        let file = std::fs::File::open(path).map_err(io)?;
        let mut bytes = Vec::new();
        file.take(MAX_WEIGHTS_BYTES + 1).read_to_end(&mut bytes).map_err(io)?;
        if bytes.len() as u64 > MAX_WEIGHTS_BYTES {
            return Err(WeightsError::TooLarge {
                path: path.to_path_buf(),
                limit: MAX_WEIGHTS_BYTES,
            });
        }
        let text = String::from_utf8(bytes).map_err(|_| WeightsError::NotText {
            path: path.to_path_buf(),
        })?;
        EvalWeights::parse(&text, rules).map_err(|e| e.in_file(path))
    }

    /// The weights as a file for `rules`.
    pub fn to_toml(&self, rules: &Rules) -> String {
        let mut out = format!(
            "# Evaluation weights for {} (written by dama tune; see docs/strength.md)\n\
             format = {WEIGHTS_FORMAT}\nvariant = \"{}\"\n# Rules::fingerprint of the compiled rules these weights are for.\n\
             rules = \"{:016x}\"\n\n[weights]\n",
            rules.name(),
            rules.id(),
            rules.fingerprint()
        );
        for ((name, doc), v) in WEIGHT_NAMES.iter().zip(self.values()) {
            out.push_str(&format!("# {doc}\n{name} = {v}\n"));
        }
        out
    }
}

/// A weights file as written.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct FileSpec {
    format: u32,
    variant: String,
    rules: String,
    weights: Option<WeightsSpec>,
}

/// What can be wrong with a weights file.
#[derive(Debug, thiserror::Error)]
pub enum WeightsError {
    /// The file could not be read.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// What the system said.
        source: std::io::Error,
    },
    /// The file is larger than a weights file can be.
    #[error("{} is larger than {limit} bytes, the limit for a weights file", path.display())]
    TooLarge {
        /// The file.
        path: PathBuf,
        /// The limit.
        limit: u64,
    },
    /// The file is not UTF-8 text.
    #[error("{} is not UTF-8 text", path.display())]
    NotText {
        /// The file.
        path: PathBuf,
    },
    /// Not TOML, or not the shape of a weights file.
    #[error("line {line}, column {column}: {message}")]
    Syntax {
        /// Line (1-based; 0 when unknown).
        line: usize,
        /// Column (1-based, in characters; 0 when unknown).
        column: usize,
        /// What is wrong.
        message: String,
    },
    /// A weight this program does not know.
    #[error("line {line}, column {column}: unknown weight `{name}`{}", suggestion.as_ref().map(|s| format!(" (did you mean `{s}`?)")).unwrap_or_default())]
    UnknownWeight {
        /// The name in the file.
        name: String,
        /// Line (1-based).
        line: usize,
        /// Column (1-based).
        column: usize,
        /// The closest known name.
        suggestion: Option<String>,
    },
    /// The file is in another version of the format.
    #[error("weights file format {found}; this program reads format {expected}")]
    Version {
        /// Its version.
        found: u32,
        /// The version read here.
        expected: u32,
    },
    /// The weights were tuned for other rules.
    #[error(
        "the weights are for the rules of {variant} ({fingerprint}), not those of {expected_variant} \
         ({expected_fingerprint}): tune again with `dama tune`"
    )]
    OtherRules {
        /// The variant the file names.
        variant: String,
        /// The fingerprint the file gives.
        fingerprint: String,
        /// The variant played.
        expected_variant: String,
        /// Its rules' fingerprint.
        expected_fingerprint: String,
    },
    /// A weight outside the range a weight may take.
    #[error("weight `{name}` = {value} is out of range (at most {MAX_WEIGHT} in absolute value; a king is worth more than 0)")]
    OutOfRange {
        /// The weight.
        name: String,
        /// Its value.
        value: i32,
    },
    /// An error in a file (the error, and the file's path).
    #[error("{}: {error}", path.display())]
    InFile {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        error: Box<WeightsError>,
    },
}

impl WeightsError {
    /// The line of the error in its file, where known.
    pub fn line(&self) -> Option<usize> {
        match self {
            WeightsError::Syntax { line, .. } | WeightsError::UnknownWeight { line, .. } if *line > 0 => Some(*line),
            WeightsError::InFile { error, .. } => error.line(),
            _ => None,
        }
    }

    fn in_file(self, path: &Path) -> WeightsError {
        WeightsError::InFile {
            path: path.to_path_buf(),
            error: Box::new(self),
        }
    }
}

/// Line and column (1-based, columns in characters) of byte `offset` of `text`.
fn line_column(text: &str, offset: usize) -> (usize, usize) {
    let before = text.get(..offset.min(text.len())).unwrap_or("");
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().unwrap_or("").chars().count() + 1;
    (line, column)
}

/// The tuned weights shipped with dama, by variant id (see docs/strength.md:
/// only variants where the tuned weights beat the derived ones in an SPRT).
const SHIPPED: &[(&str, &str)] = &[
    ("dama", include_str!("../../../../variants/eval/dama.toml")),
    ("croda", include_str!("../../../../variants/eval/croda.toml")),
    ("english", include_str!("../../../../variants/eval/english.toml")),
    ("armenian", include_str!("../../../../variants/eval/armenian.toml")),
];

/// The shipped weights for `rules`, if a shipped file is for these exact rules.
pub(crate) fn shipped(rules: &Rules) -> Option<EvalWeights> {
    SHIPPED
        .iter()
        .filter(|(id, _)| *id == rules.id())
        .find_map(|(_, text)| EvalWeights::parse(text, rules).ok())
}

/// The value of a king, derived from its mobility and capture reach: a
/// one-step king is worth about two men, a flying rook-king about three
/// and a half, a flying queen-king four and a half (clamped to 2–5 men).
fn derived_king_value(rules: &Rules) -> i32 {
    use crate::board::Color;
    use crate::engine::MAN;
    let board = rules.board();
    let squares = board.count().max(1) as i32;
    // King mobility on an empty board, averaged over the playable squares.
    let white = rules.side(Color::White);
    let range = rules.kings().range.max_steps();
    let mut king_moves = 0i32;
    for sq in board.iter() {
        for d in white.king_moves.iter() {
            let mut t = rules.step(sq, d);
            let mut n = 0usize;
            while let Some(s) = t.filter(|_| n < range) {
                king_moves += 1;
                n += 1;
                t = rules.step(s, d);
            }
        }
    }
    // In hundredths of a move per square.
    let avg_king_moves = king_moves * 100 / squares;
    let capture_dirs = white.king_captures.iter().count() as i32;
    let capture_bonus = if white.king_captures.is_empty() {
        0
    } else if rules.kings().capture_flying {
        50 + 5 * capture_dirs
    } else {
        5 * capture_dirs
    };
    // 1.3 men + 0.12 men per average move + capture reach.
    (130 + avg_king_moves * 12 / 100 + capture_bonus).clamp(2 * MAN, 5 * MAN)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip() {
        for v in ["dama", "russian", "english", "croda", "armenian"] {
            let rules = Rules::builtin(v).unwrap();
            let mut w = EvalWeights::derived(&rules);
            let n = w.values().len();
            w.set_values(&(0..n as i32).map(|i| i * 7 - 20).collect::<Vec<_>>());
            w.king = 321;
            let text = w.to_toml(&rules);
            assert_eq!(EvalWeights::parse(&text, &rules).unwrap(), w, "{v}");
        }
    }

    #[test]
    fn missing_weights_keep_their_derived_value() {
        let rules = Rules::builtin("dama").unwrap();
        let text = format!(
            "format = 1\nvariant = \"dama\"\nrules = \"{:016x}\"\n[weights]\ntempo = 4\n",
            rules.fingerprint()
        );
        let w = EvalWeights::parse(&text, &rules).unwrap();
        let mut d = EvalWeights::derived(&rules);
        d.tempo = 4;
        assert_eq!(w, d);
    }

    #[test]
    fn an_unknown_weight_is_named_with_its_line_and_a_suggestion() {
        let rules = Rules::builtin("dama").unwrap();
        let text = format!(
            "format = 1\nvariant = \"dama\"\nrules = \"{:016x}\"\n[weights]\nking = 250\n  kng_mobility = 2\n",
            rules.fingerprint()
        );
        let e = EvalWeights::parse(&text, &rules).unwrap_err();
        match &e {
            WeightsError::UnknownWeight {
                name,
                line,
                column,
                suggestion,
            } => {
                assert_eq!(name, "kng_mobility");
                assert_eq!((*line, *column), (6, 3));
                assert_eq!(suggestion.as_deref(), Some("king_mobility"));
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(e.line(), Some(6));
        assert!(e.to_string().contains("did you mean `king_mobility`"), "{e}");
    }

    #[test]
    fn bad_values_and_keys_give_their_line() {
        let rules = Rules::builtin("dama").unwrap();
        let fp = rules.fingerprint();
        let e = EvalWeights::parse(
            &format!("format = 1\nvariant = \"dama\"\nrules = \"{fp:016x}\"\n[weights]\nking = \"x\"\n"),
            &rules,
        )
        .unwrap_err();
        assert_eq!(e.line(), Some(5), "{e}");
        let e = EvalWeights::parse(
            &format!("format = 1\nvariant = \"dama\"\nrules = \"{fp:016x}\"\ncolour = 2\n"),
            &rules,
        )
        .unwrap_err();
        assert_eq!(e.line(), Some(4), "{e}");
        let e = EvalWeights::parse("format = 1\nvariant = [\n", &rules).unwrap_err();
        assert!(matches!(e, WeightsError::Syntax { .. }), "{e}");
        let e = EvalWeights::parse(
            &format!("format = 1\nvariant = \"dama\"\nrules = \"{fp:016x}\"\n[weights]\nking = 0\n"),
            &rules,
        )
        .unwrap_err();
        assert!(matches!(e, WeightsError::OutOfRange { .. }), "{e}");
        let e = EvalWeights::parse(
            &format!("format = 9\nvariant = \"dama\"\nrules = \"{fp:016x}\"\n"),
            &rules,
        )
        .unwrap_err();
        assert!(matches!(e, WeightsError::Version { found: 9, .. }), "{e}");
    }

    #[test]
    fn weights_for_other_rules_are_refused() {
        let dama = Rules::builtin("dama").unwrap();
        let russian = Rules::builtin("russian").unwrap();
        let text = EvalWeights::derived(&dama).to_toml(&dama);
        let e = EvalWeights::parse(&text, &russian).unwrap_err();
        assert!(matches!(e, WeightsError::OtherRules { .. }), "{e}");
        assert!(e.to_string().contains("dama tune"), "{e}");
    }

    #[test]
    fn shipped_files_parse_for_their_variant() {
        for (id, text) in SHIPPED {
            let rules = Rules::builtin(id).unwrap();
            EvalWeights::parse(text, &rules).unwrap();
            assert_eq!(shipped(&rules), Some(EvalWeights::parse(text, &rules).unwrap()));
        }
    }
}
