//! The rule-case format: a case file's fields, reading and checking them,
//! and loading the variant a case names.

use std::path::Path;

use dama_engine::{load, text::did_you_mean, FenError, GameResult, LoadError, PlayError, Rules};
use serde::{Deserialize, Serialize};

/// Largest case file read, in bytes.
pub const MAX_CASE_BYTES: u64 = 1 << 20;
/// Largest snapshot file read, in bytes: far more than the rendering of any
/// case (a board and its legal moves).
pub const MAX_SNAPSHOT_BYTES: u64 = 4 << 20;

/// One rule case, as written in its TOML file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RuleCase {
    /// The variant: a built-in id or alias, or a path to a variant file
    /// (relative to the case file).
    pub variant: String,
    /// The position, in PDN FEN. Give this or `moves`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fen: Option<String>,
    /// A sequence of moves from the variant's initial position. Give this or `fen`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub moves: Option<Vec<String>>,
    /// What the case shows, in a sentence or two.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// The section of the variant's rules page this case illustrates (`"4.3"`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub section: Option<String>,
    /// Moves to play before the position is rendered.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub play: Vec<String>,
    /// A legal move whose resulting position is rendered as well.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub show_after: Option<String>,
    /// Render the game result (or that the game goes on) for the last position shown.
    #[serde(default)]
    pub show_result: bool,
    /// The legal moves a source states, in full-path notation (`d6xd8xb8`),
    /// in any order. Every legal move must be listed, and nothing else.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expect_moves: Option<Vec<String>>,
    /// The number of legal moves a source states.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expect_count: Option<usize>,
    /// The result a source states for the last position shown: `"white wins"`,
    /// `"black wins"`, `"draw"` or `"none"` (the game goes on). Implies `show_result`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expect_result: Option<String>,
}

/// A case that cannot be read or rendered.
#[derive(Debug, Clone, thiserror::Error)]
pub enum CaseError {
    /// The file cannot be read.
    #[error("cannot read {path}: {message}")]
    Io {
        /// The file.
        path: String,
        /// Why.
        message: String,
    },
    /// The TOML is malformed, or a key is unknown or has the wrong type.
    #[error("line {line}, column {column}: {message}")]
    Toml {
        /// What is wrong.
        message: String,
        /// 1-based line (0 when unknown).
        line: usize,
        /// 1-based column (0 when unknown).
        column: usize,
    },
    /// The fields do not make a case.
    #[error("{0}")]
    Invalid(String),
    /// Several problems of one file (unknown keys), in file order.
    #[error("{}", .0.iter().map(ToString::to_string).collect::<Vec<_>>().join("\n"))]
    Several(Vec<CaseError>),
    /// The variant does not load.
    #[error("variant `{name}` does not load: {error}")]
    Variant {
        /// The variant as the case names it.
        name: String,
        /// The loader's diagnostics.
        error: Box<LoadError>,
    },
    /// The FEN cannot be read.
    #[error("`fen`: {0}")]
    Fen(#[from] FenError),
    /// A move of `moves`, `play` or `show_after` cannot be played.
    #[error("`{field}` move {number} (`{text}`): {error}")]
    Move {
        /// Which field: `moves`, `play` or `show_after`.
        field: &'static str,
        /// 1-based index in that field.
        number: usize,
        /// The move as written.
        text: String,
        /// Why it cannot be played.
        error: Box<PlayError>,
    },
}

/// What a TOML file in a cases directory is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FileKind {
    /// A rule case (it has a top-level `variant`, `fen` or `moves` key).
    Case,
    /// A variant file (it has `id`, `extends`, `board` or another variant table).
    Variant,
    /// Neither: reading it as a case will say what is missing.
    Unknown,
}

/// Tells case files from variant files kept in the same directory.
pub fn classify(text: &str) -> FileKind {
    let Ok(table) = text.parse::<toml::Table>() else {
        return FileKind::Unknown;
    };
    if ["variant", "fen", "moves"].iter().any(|k| table.contains_key(*k)) {
        FileKind::Case
    } else if ["id", "extends", "board", "setup", "men", "kings", "capture", "end"]
        .iter()
        .any(|k| table.contains_key(*k))
    {
        FileKind::Variant
    } else {
        FileKind::Unknown
    }
}

fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let mut off = offset.min(text.len());
    while off > 0 && !text.is_char_boundary(off) {
        off -= 1;
    }
    let before = &text[..off];
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, column)
}

/// The keys of a case file, as [`RuleCase`] names its fields.
const FIELDS: &[&str] = &[
    "variant",
    "fen",
    "moves",
    "description",
    "section",
    "play",
    "show_after",
    "show_result",
    "expect_moves",
    "expect_count",
    "expect_result",
];

/// Most unknown keys reported one by one; a last line says how many more.
const MAX_UNKNOWN_KEYS: usize = 20;

/// `s` for a message: at most 60 characters, control characters replaced,
/// `…` when cut (issue 38: a hostile field is never echoed whole).
pub(crate) fn clip(s: &str) -> String {
    const MAX: usize = 60;
    let mut out: String = s
        .chars()
        .take(MAX)
        .map(|c| if c.is_control() { '\u{fffd}' } else { c })
        .collect();
    if s.chars().nth(MAX).is_some() {
        out.push('…');
    }
    out
}

/// Every unknown top-level key of a case file, each with its place
/// (issue 37: serde stops at the first one). `None` when there is none, or
/// when the text is not TOML (serde then says why).
fn unknown_keys(text: &str) -> Option<CaseError> {
    let table = toml::de::DeTable::parse(text).ok()?;
    let mut found: Vec<(usize, String)> = table
        .get_ref()
        .iter()
        .filter(|(k, _)| !FIELDS.contains(&k.get_ref().as_ref()))
        .map(|(k, _)| (k.span().start, k.get_ref().to_string()))
        .collect();
    if found.is_empty() {
        return None;
    }
    found.sort();
    let allowed = FIELDS.iter().map(|f| format!("`{f}`")).collect::<Vec<_>>().join(", ");
    let total = found.len();
    let mut errors: Vec<CaseError> = found
        .iter()
        .take(MAX_UNKNOWN_KEYS)
        .map(|(start, key)| {
            let (line, column) = line_col(text, *start);
            let mut message = format!("unknown field `{}`, expected one of {allowed}", clip(key));
            if let Some(hint) = did_you_mean(key, FIELDS.iter().copied()) {
                message.push_str(&format!(" (did you mean `{hint}`?)"));
            }
            CaseError::Toml { message, line, column }
        })
        .collect();
    if total > MAX_UNKNOWN_KEYS {
        errors.push(CaseError::Invalid(format!(
            "and {} more unknown keys",
            total - MAX_UNKNOWN_KEYS
        )));
    }
    if errors.len() == 1 {
        errors.pop()
    } else {
        Some(CaseError::Several(errors))
    }
}

impl RuleCase {
    /// Reads a case from TOML text. Every unknown key is reported, each with
    /// its place ([`CaseError::Several`] when there are more than one).
    pub fn parse(text: &str) -> Result<RuleCase, CaseError> {
        if let Some(e) = unknown_keys(text) {
            return Err(e);
        }
        let case: RuleCase = toml::from_str(text).map_err(|e| {
            let (line, column) = e.span().map_or((0, 0), |s| line_col(text, s.start));
            let mut message = e.message().lines().next().unwrap_or("").trim().to_string();
            if let Some(hint) = suggestion(&message).map(str::to_string) {
                message.push_str(&format!(" (did you mean `{hint}`?)"));
            }
            CaseError::Toml { message, line, column }
        })?;
        match (&case.fen, &case.moves) {
            (Some(_), Some(_)) => {
                return Err(CaseError::Invalid(
                    "give either `fen` or `moves` (a sequence from the initial position), not both".into(),
                ))
            }
            (None, None) => {
                return Err(CaseError::Invalid(
                    "a case needs a position: `fen = \"W:Wd4:Bd6\"` or `moves = [\"d3-d4\", ...]`".into(),
                ))
            }
            _ => {}
        }
        if let Some(r) = &case.expect_result {
            if parse_expected_result(r).is_none() {
                return Err(CaseError::Invalid(format!(
                    "`expect_result = \"{}\"`: expected \"white wins\", \"black wins\", \"draw\" or \"none\"",
                    clip(r)
                )));
            }
        }
        if case.variant.trim().is_empty() {
            return Err(CaseError::Invalid("`variant` is empty".into()));
        }
        Ok(case)
    }

    /// Reads a case file.
    pub fn read(path: &Path) -> Result<RuleCase, CaseError> {
        RuleCase::parse(&read_text(path)?)
    }

    /// Where the variant named by this case lives: a built-in name as is, a
    /// path joined to the case file's directory.
    pub fn variant_location(&self, case_path: &Path) -> String {
        let v = self.variant.trim();
        if dama_engine::source::looks_like_path(v) && Path::new(v).is_relative() {
            case_path
                .parent()
                .unwrap_or(Path::new(""))
                .join(v)
                .display()
                .to_string()
        } else {
            v.to_string()
        }
    }

    /// Loads the variant this case names (relative paths from `case_path`'s directory).
    pub fn load_rules(&self, case_path: &Path) -> Result<Rules, CaseError> {
        let loc = self.variant_location(case_path);
        load(&loc).map(|l| l.rules).map_err(|e| CaseError::Variant {
            name: clip(&self.variant),
            error: Box::new(e),
        })
    }
}

/// For serde's "unknown field `x`, expected one of `a`, `b`" messages, the nearest key.
fn suggestion(msg: &str) -> Option<&str> {
    if !msg.starts_with("unknown field") {
        return None;
    }
    let word = msg.split('`').nth(1)?;
    let rest = msg.split_once("expected")?.1;
    let candidates: Vec<&str> = rest.split('`').skip(1).step_by(2).collect();
    did_you_mean(word, candidates).filter(|c| *c != word)
}

fn read_text(path: &Path) -> Result<String, CaseError> {
    read_bounded(path, MAX_CASE_BYTES, "case files")
}

/// Reads the UTF-8 text file at `path`, refusing it before reading when it
/// holds more than `limit` bytes: the size is checked first (so a huge file
/// is refused at once, without reading it), and at most `limit + 1` bytes are
/// read whatever the size says (a file that grows, a device such as
/// `/dev/zero`, which claims no size, is refused before it reaches memory).
/// `what` names the files in the message: `"case files"` gives "the file is
/// 104857600 bytes; case files are limited to 1048576".
///
/// ```
/// let dir = std::env::temp_dir().join(format!("dama-cases-doc-{}", std::process::id()));
/// std::fs::create_dir_all(&dir).unwrap();
/// let path = dir.join("big.toml");
/// std::fs::File::create(&path).unwrap().set_len(100 << 20).unwrap(); // sparse: nothing written
/// let e = dama_cases::read_bounded(&path, dama_cases::MAX_CASE_BYTES, "case files").unwrap_err();
/// assert!(e.to_string().contains("case files are limited to 1048576"), "{e}");
/// std::fs::remove_dir_all(&dir).unwrap();
/// ```
pub fn read_bounded(path: &Path, limit: u64, what: &str) -> Result<String, CaseError> {
    use std::io::Read;
    let shown = || path.display().to_string();
    let io = |e: std::io::Error| CaseError::Io {
        path: shown(),
        message: e.to_string(),
    };
    let too_big = |len: String| CaseError::Io {
        path: shown(),
        message: format!("the file is {len} bytes; {what} are limited to {limit}"),
    };
    let meta = std::fs::metadata(path).map_err(io)?;
    if meta.is_dir() {
        return Err(CaseError::Io {
            path: shown(),
            message: "it is a directory, not a file".into(),
        });
    }
    if meta.len() > limit {
        return Err(too_big(meta.len().to_string()));
    }
    let mut bytes = Vec::new();
    std::fs::File::open(path)
        .and_then(|f| f.take(limit + 1).read_to_end(&mut bytes))
        .map_err(io)?;
    if bytes.len() as u64 > limit {
        return Err(too_big(format!("more than {limit}")));
    }
    String::from_utf8(bytes).map_err(|e| CaseError::Io {
        path: shown(),
        message: format!("not valid UTF-8 (bad byte at offset {})", e.utf8_error().valid_up_to()),
    })
}

pub(crate) fn parse_expected_result(s: &str) -> Option<Option<GameResult>> {
    match s.trim().to_ascii_lowercase().as_str() {
        "white wins" | "white" | "1-0" => Some(Some(GameResult::WhiteWins)),
        "black wins" | "black" | "0-1" => Some(Some(GameResult::BlackWins)),
        "draw" | "1/2-1/2" => Some(Some(GameResult::Draw)),
        "none" | "goes on" | "*" => Some(None),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unknown_key_is_an_error_with_a_place() {
        let e = RuleCase::parse("variant = \"dama\"\nfen = \"W:Wd4:Bd6\"\nshow_afterr = \"d4-d5\"\n").unwrap_err();
        match e {
            CaseError::Toml { line, message, .. } => {
                assert_eq!(line, 3);
                assert!(message.contains("unknown field"), "{message}");
                assert!(message.contains("did you mean `show_after`?"), "{message}");
            }
            other => panic!("{other:?}"),
        }
    }

    /// (issue 37) Two unknown keys are both reported, each where it stands.
    #[test]
    fn every_unknown_key_is_reported() {
        let e = RuleCase::parse("variant = \"dama\"\nfen = \"W:Wd4:Bd6\"\nshow_afterr = \"d4-d5\"\nexpect_cout = 2\n")
            .unwrap_err();
        let CaseError::Several(all) = e else { panic!("{e:?}") };
        let found: Vec<(usize, bool)> = all
            .iter()
            .map(|e| match e {
                CaseError::Toml { line, message, .. } => (*line, message.contains("did you mean")),
                other => panic!("{other:?}"),
            })
            .collect();
        assert_eq!(found, [(3, true), (4, true)]);
        assert!(all[1].to_string().contains("`expect_cout`"), "{}", all[1]);
        // A thousand of them: twenty, and a count of the rest.
        let text: String = std::iter::once("variant = \"dama\"\nfen = \"W:Wd4:Bd6\"\n".to_string())
            .chain((0..1000).map(|i| format!("k{i} = 1\n")))
            .collect();
        let e = RuleCase::parse(&text).unwrap_err();
        assert!(e.to_string().ends_with("and 980 more unknown keys"), "{e}");
        assert_eq!(e.to_string().lines().count(), 21);
    }

    /// Every field of the case is a key [`FIELDS`] knows.
    #[test]
    fn fields_match_the_struct() {
        let full = RuleCase {
            variant: "dama".into(),
            fen: Some("W:Wd4:Bd6".into()),
            moves: Some(vec![]),
            description: Some(String::new()),
            section: Some(String::new()),
            play: vec!["d4-d5".into()],
            show_after: Some(String::new()),
            show_result: true,
            expect_moves: Some(vec![]),
            expect_count: Some(1),
            expect_result: Some("draw".into()),
        };
        let t: toml::Table = toml::from_str(&toml::to_string(&full).unwrap()).unwrap();
        let mut keys: Vec<&str> = t.keys().map(String::as_str).collect();
        keys.sort_unstable();
        let mut fields = FIELDS.to_vec();
        fields.sort_unstable();
        assert_eq!(keys, fields);
    }

    #[test]
    fn a_case_needs_exactly_one_position() {
        assert!(matches!(
            RuleCase::parse("variant = \"dama\"\n"),
            Err(CaseError::Invalid(_))
        ));
        assert!(matches!(
            RuleCase::parse("variant = \"dama\"\nfen = \"W:Wd4:Bd6\"\nmoves = []\n"),
            Err(CaseError::Invalid(_))
        ));
    }

    #[test]
    fn oversized_files_are_refused_unread() {
        let dir = std::env::temp_dir().join(format!("dama-cases-big-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let big = dir.join("big.toml");
        // Sparse: 100 MB that take no room and would take long to read.
        std::fs::File::create(&big).unwrap().set_len(100 << 20).unwrap();
        let e = RuleCase::read(&big).unwrap_err().to_string();
        assert!(
            e.contains("the file is 104857600 bytes; case files are limited to 1048576"),
            "{e}"
        );
        // A file that claims no size is read no further than the limit.
        #[cfg(unix)]
        {
            let e = RuleCase::read(Path::new("/dev/zero")).unwrap_err().to_string();
            assert!(e.contains("more than 1048576 bytes"), "{e}");
        }
        let e = RuleCase::read(&dir).unwrap_err().to_string();
        assert!(e.contains("is a directory"), "{e}");
        std::fs::remove_dir_all(&dir).ok();
    }

    #[test]
    fn classify_tells_cases_from_variants() {
        assert_eq!(classify("variant = \"dama\"\nfen = \"W\"\n"), FileKind::Case);
        assert_eq!(
            classify("extends = \"dama\"\n[capture]\nno_reversal = false\n"),
            FileKind::Variant
        );
        assert_eq!(classify("description = \"x\"\n"), FileKind::Unknown);
    }
}
