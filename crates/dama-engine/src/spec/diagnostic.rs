//! Problems found in a variant file, all reported at once.
//!
//! Each finding has a stable code (`E0110`, `W0305`, ...), documented with
//! its meaning in docs/variant-format.md. The JSON form (`dama validate
//! --format json`) always has the fields `severity`, `code`, `message`,
//! `key`, `location` (`file`, `line`, `column`) and `help`; absent ones are `null`.

use std::fmt;

/// The stable code of a finding, as documented in docs/variant-format.md:
/// `E` codes are errors, `W` codes warnings; the first two digits name the
/// section (01 the file, 02 the board, 03 men, 04 kings, 05 promotion, 06
/// capture, 07 setup, 08 end). Written as the code itself (`E0701`).
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Hash,
    strum::Display,
    strum::IntoStaticStr,
    strum::EnumString,
    serde::Serialize,
)]
pub enum Code {
    /// No built-in variant has this name, and no file either.
    E0001,
    /// The file cannot be read: missing, a directory, not a regular file, no permission.
    E0002,
    /// The file is larger than 1 MiB.
    E0003,
    /// The file is not valid UTF-8; the location is the first bad byte.
    E0004,
    /// More findings than the report holds (100); says how many were left out.
    E0005,
    /// TOML syntax error (unclosed bracket, duplicate key, bad string, NUL byte, nesting too deep, ...). Every syntax error of the file is listed.
    E0101,
    /// `extends` is not a string.
    E0102,
    /// The parent named by `extends` is unknown: no such built-in variant, or the file cannot be read.
    E0103,
    /// `extends` makes a cycle: a file is its own ancestor.
    E0104,
    /// The `extends` chain is longer than 64 files.
    E0105,
    /// `id` is empty or not one word, or `name` is empty.
    E0106,
    /// The `id` is that of a built-in variant, but the file differs from it.
    W0107,
    /// A bare name (`extends = "dama"`, or a variant named on the command
    /// line) means the built-in variant, but a file of that name (or that name
    /// with `.toml`) lies beside: the file is not read.
    W0108,
    /// Unknown key, with the nearest valid key, or the section the key belongs in, or the keys allowed.
    E0110,
    /// Unknown value for a key that takes one of a fixed set of words, with the nearest allowed value.
    E0111,
    /// A required key is missing (a root variant must state every required key), or the file is empty.
    E0112,
    /// Wrong type: a string where a number is expected, a number where a table is, `[[men]]` (an array of tables) for `[men]`, ...
    E0113,
    /// Invalid value of the right type: a negative or too large number, ...
    E0114,
    /// The board has no file or no rank (width or height 0).
    E0201,
    /// The board is larger than 16×16.
    E0202,
    /// `board.lower_left = "light"` on a board played on every square: it has no effect.
    W0203,
    /// A direction is listed twice in the same list.
    W0301,
    /// Men can neither move nor capture: no step, capture, friendly jump or linear move.
    E0302,
    /// Men have no non-capturing move: they can only ever capture.
    W0303,
    /// No piece can capture (men and kings have no capture direction): the capture rules never apply.
    W0304,
    /// Men never move forward (no `F`, `FL` or `FR` anywhere), so they can never be crowned.
    W0305,
    /// `friendly_jump_over` or `friendly_jump_chain` is set but `men.friendly_jumps` is empty.
    W0306,
    /// A non-capturing move goes orthogonally on a board of dark squares,
    /// where an orthogonal step is two squares (captures there are Frisian's).
    W0307,
    /// `kings.move_range` is 0.
    E0401,
    /// Kings can neither move nor capture.
    E0402,
    /// `capture_range = "short"` with `landing = "any_beyond"`: a short capture still lands anywhere beyond.
    W0403,
    /// `landing_must_continue` with `landing = "adjacent_beyond"`: there is only one landing square, so it has no effect.
    W0404,
    /// `move_range` reaches across the whole board: it is the same as `"flying"`.
    W0405,
    /// `promotion.rank` is 0 or beyond the board.
    E0501,
    /// Men set up beyond their promotion rank, with no backward move, can never be crowned.
    W0502,
    /// `majority` is set while capturing is optional (`mandatory = false`): the rule has little meaning.
    W0601,
    /// A piece value (`capture.man_value`, `capture.king_value`) is 0 or above 10000.
    E0602,
    /// A piece value is set but `majority` is not `"max_value"`, so it has no effect.
    W0603,
    /// A preference is listed twice in `capture.priority`.
    W0604,
    /// Kings land on any square beyond in so many directions on so long a board that a capture can go on in more than 64 ways at each jump: one position can have millions of capture paths.
    W0605,
    /// `halt_behind_king` with `landing = "adjacent_beyond"`: the king always lands right behind, so it has no effect.
    W0406,
    /// Not a square (`2a`, `a0`, an empty string), a square off the board, or a range that mixes a number and a name.
    E0701,
    /// A single square that is not played on (a light square when `board.squares = "dark"`).
    E0702,
    /// A square listed twice: twice for one side, or for two lists (white and black, men and kings).
    E0703,
    /// A side has no piece in the initial position.
    E0704,
    /// A man stands on its own promotion rank in the initial position.
    E0705,
    /// The side that moves first has no legal move in the initial position: the game is over at once.
    W0706,
    /// A range holds no playable square.
    W0707,
    /// A child changes the board's size but inherits its parent's setup,
    /// written for the parent's board.
    W0708,
    /// A draw limit of 1 ply draws every game after its first move.
    W0801,
    /// `kings_only_draw_plies` is not smaller than `no_capture_draw_plies`, so the no-capture limit always draws first.
    W0802,
    /// A material pattern of `end.material_draw` cannot be read: not two sides of `K` (king) and `M` (man) letters separated by `v`.
    E0803,
    /// A material pattern is listed twice in `end.material_draw`: only the smaller limit can apply.
    W0804,
    /// `end.crowning = "wins"` with kings in the initial position: the game is over before it starts.
    W0805,
}

impl Code {
    /// The code as text, such as `"E0701"`.
    pub fn as_str(self) -> &'static str {
        self.into()
    }

    /// Whether the finding is about the setup (the `E07` errors).
    pub fn is_setup_error(self) -> bool {
        matches!(
            self,
            Code::E0701 | Code::E0702 | Code::E0703 | Code::E0704 | Code::E0705
        )
    }
}

impl PartialEq<&str> for Code {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

impl PartialEq<Code> for &str {
    fn eq(&self, other: &Code) -> bool {
        *self == other.as_str()
    }
}

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
    pub code: Code,
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
    pub fn error(code: Code, key: Option<&str>, message: impl Into<String>) -> Self {
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
    pub fn warning(code: Code, key: Option<&str>, message: impl Into<String>) -> Self {
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
///
/// A candidate equal to `word` but for case wins, then one that `word`
/// begins, case aside (an abbreviation: `prom` is `promotion`, however
/// similar another candidate looks), then the closest by Jaro-Winkler
/// similarity above 0.7; ties keep the first candidate. (A candidate that
/// begins `word` is not preferred: `turk` is not what `turksh` means.)
///
/// ```
/// use dama_engine::text::did_you_mean;
///
/// let dirs = ["F", "B", "L", "R", "FL", "FR", "BL", "BR"];
/// assert_eq!(did_you_mean("fl", dirs), Some("FL"));
/// assert_eq!(did_you_mean("Max", ["none", "max_pieces"]), Some("max_pieces"));
/// assert_eq!(did_you_mean("widht", ["width", "height"]), Some("width"));
/// assert_eq!(did_you_mean("zzz", ["width", "height"]), None);
/// ```
pub fn did_you_mean<'a>(word: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    if word.is_empty() || word.len() > 64 {
        return None;
    }
    let lower = word.to_ascii_lowercase();
    // (tier, score): a higher tier wins whatever the score.
    let mut best: Option<((u8, f64), &str)> = None;
    for c in candidates {
        let cl = c.to_ascii_lowercase();
        let score = strsim::jaro_winkler(&lower, &cl);
        let tier = if cl == lower {
            2
        } else if cl.starts_with(&lower) {
            1
        } else if score > 0.7 {
            0
        } else {
            continue;
        };
        if best.is_none_or(|(b, _)| (tier, score) > b) {
            best = Some(((tier, score), c));
        }
    }
    best.map(|(_, c)| c)
}
