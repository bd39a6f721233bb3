//! Rule cases: a position, a variant, and what the variant's rules make of
//! it, rendered as plain text so that a snapshot pins the behaviour.
//!
//! A case is a small TOML file:
//!
//! ```toml
//! variant = "dama"                 # a built-in id, or a path relative to this file
//! section = "4.6"                  # the rules-page section it illustrates
//! description = "A man crossing the last rank mid-capture goes on as a man."
//! fen = "W:Wd6:Bd7,c8"             # or: moves = ["d3-d4", "d6-d5"] from the start
//! play = []                        # moves to play first
//! show_after = "d6xd8xb8"          # also draw the position after this move
//! show_result = true               # and say whether the game is over
//! expect_moves = ["d6xd8xb8"]      # optional: the legal moves, as a source states them
//! ```
//!
//! [`RuleCase::render`] turns it into text: the board (`w b W B .`), the side
//! to move, every legal move with its full path, the captured squares in the
//! order taken, the promotion flag and the number of paths when more than one
//! path plays the move. `dama cases` and the test harness both use it.
//!
//! ```
//! use dama_engine::case::RuleCase;
//! use dama_engine::Rules;
//!
//! let case = RuleCase::parse("variant = \"dama\"\nfen = \"W:Wd6:Bd7,c8\"\n").unwrap();
//! let rules = Rules::builtin("dama").unwrap();
//! let out = case.render(&rules).unwrap();
//! assert!(out.text.contains("d6xd8xb8  captures d7, c8  promotes"));
//! assert!(out.failures.is_empty());
//! ```

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::board::Color;
use crate::board::Square;
use crate::board::{Piece, Position};
use crate::game::{Game, GameResult, PlayError};
use crate::notation::FenError;
use crate::rules::Rules;
use crate::spec::VariantSpec;
use crate::variant::{load, LoadError};

/// Largest case file read, in bytes.
pub const MAX_CASE_BYTES: u64 = 1 << 20;

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

/// A case rendered as text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rendered {
    /// The rendering: what a snapshot stores.
    pub text: String,
    /// Expectations of the case (`expect_moves`, `expect_count`,
    /// `expect_result`) that the rules do not meet, one sentence each.
    pub failures: Vec<String>,
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

fn looks_like_path(s: &str) -> bool {
    s.ends_with(".toml") || s.contains('/') || s.contains('\\')
}

impl RuleCase {
    /// Reads a case from TOML text.
    pub fn parse(text: &str) -> Result<RuleCase, CaseError> {
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
                    "`expect_result = \"{r}\"`: expected \"white wins\", \"black wins\", \"draw\" or \"none\""
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
        if looks_like_path(v) && Path::new(v).is_relative() {
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
            name: self.variant.clone(),
            error: Box::new(e),
        })
    }

    /// Renders the case under `rules`.
    pub fn render(&self, rules: &Rules) -> Result<Rendered, CaseError> {
        let mut out = String::new();
        let mut failures = Vec::new();
        field(&mut out, "variant", &self.variant);
        if let Some(s) = &self.section {
            field(&mut out, "section", s);
        }
        if let Some(d) = &self.description {
            wrapped(&mut out, "about", &d.split_whitespace().collect::<Vec<_>>());
        }

        // The start of the game.
        let start = match &self.fen {
            Some(f) => rules.parse_fen(f)?,
            None => rules.start_position(),
        };
        let mut game = Game::from_position(rules.clone(), start);
        if let Some(moves) = &self.moves {
            let played = play_all(&mut game, "moves", moves)?;
            let first = rules.start_position().side_to_move();
            wrapped(&mut out, "moves", &numbered(&played, start.side_to_move() != first));
        } else if !self.play.is_empty() {
            field(&mut out, "start", &rules.to_fen(&start));
        }
        if !self.play.is_empty() {
            let played = play_all(&mut game, "play", &self.play)?;
            wrapped(&mut out, "play", &played);
        }
        let pos = *game.position();
        field(&mut out, "position", &rules.to_fen(&pos));
        out.push('\n');
        out.push_str(&board_text(rules, &pos));
        out.push('\n');
        let listed = legal_move_lines(rules, &pos);
        out.push_str(&listed.text);

        if let Some(expected) = &self.expect_moves {
            failures.extend(check_expected_moves(expected, &listed.notations));
        }
        if let Some(n) = self.expect_count {
            if n != listed.notations.len() {
                failures.push(format!(
                    "expected {n} legal move{}, found {}",
                    plural(n),
                    listed.notations.len()
                ));
            }
        }

        if let Some(text) = &self.show_after {
            let m = game.resolve(text).map_err(|e| CaseError::Move {
                field: "show_after",
                number: 1,
                text: text.clone(),
                error: Box::new(PlayError::Move(e)),
            })?;
            let full = rules.format_move_full(&pos, &m);
            game.play(m).map_err(|e| CaseError::Move {
                field: "show_after",
                number: 1,
                text: text.clone(),
                error: Box::new(e),
            })?;
            let after = *game.position();
            out.push_str(&format!("\nafter {full}:\n"));
            field(&mut out, "position", &rules.to_fen(&after));
            out.push('\n');
            out.push_str(&board_text(rules, &after));
        }

        if self.show_result || self.expect_result.is_some() {
            let outcome = game.outcome();
            let line = match &outcome {
                Some(o) => format!("{o}"),
                None => "none, the game goes on".to_string(),
            };
            out.push('\n');
            field(&mut out, "result", &line);
            if let Some(want) = self.expect_result.as_deref().and_then(parse_expected_result) {
                let got = outcome.map(|o| o.result);
                if got != want {
                    failures.push(format!(
                        "expected result {}, found {}",
                        result_words(want),
                        result_words(got)
                    ));
                }
            }
        }
        Ok(Rendered { text: out, failures })
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
    crate::spec::did_you_mean(word, candidates).filter(|c| *c != word)
}

fn read_text(path: &Path) -> Result<String, CaseError> {
    let io = |e: std::io::Error| CaseError::Io {
        path: path.display().to_string(),
        message: e.to_string(),
    };
    let meta = std::fs::metadata(path).map_err(io)?;
    if meta.len() > MAX_CASE_BYTES {
        return Err(CaseError::Io {
            path: path.display().to_string(),
            message: format!(
                "the file is {} bytes; case files are limited to {MAX_CASE_BYTES}",
                meta.len()
            ),
        });
    }
    let bytes = std::fs::read(path).map_err(io)?;
    String::from_utf8(bytes).map_err(|e| CaseError::Io {
        path: path.display().to_string(),
        message: format!("not valid UTF-8 (bad byte at offset {})", e.utf8_error().valid_up_to()),
    })
}

fn parse_expected_result(s: &str) -> Option<Option<GameResult>> {
    match s.trim().to_ascii_lowercase().as_str() {
        "white wins" | "white" | "1-0" => Some(Some(GameResult::WhiteWins)),
        "black wins" | "black" | "0-1" => Some(Some(GameResult::BlackWins)),
        "draw" | "1/2-1/2" => Some(Some(GameResult::Draw)),
        "none" | "goes on" | "*" => Some(None),
        _ => None,
    }
}

fn result_words(r: Option<GameResult>) -> String {
    match r {
        Some(r) => format!("`{}`", r.to_string().to_lowercase()),
        None => "`none` (the game goes on)".into(),
    }
}

fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

/// Plays each move of `texts` and returns their full-path notation.
fn play_all(game: &mut Game, field: &'static str, texts: &[String]) -> Result<Vec<String>, CaseError> {
    let mut played = Vec::new();
    for (i, t) in texts.iter().enumerate() {
        let err = |e: PlayError| CaseError::Move {
            field,
            number: i + 1,
            text: t.clone(),
            error: Box::new(e),
        };
        game.play_text(t).map_err(err)?;
        played.push(game.last_ply().map(|p| p.full.clone()).unwrap_or_default());
    }
    Ok(played)
}

/// `1. e3-e4 f6-f5 2. b3-b4`; a game started by the second player begins `1...`.
fn numbered(moves: &[String], second_first: bool) -> Vec<String> {
    let mut words = Vec::new();
    let offset = usize::from(second_first);
    for (i, m) in moves.iter().enumerate() {
        let ply = i + offset;
        // The number stays on the line of its move.
        if ply % 2 == 0 {
            words.push(format!("{}. {m}", ply / 2 + 1));
        } else if i == 0 {
            words.push(format!("{}... {m}", ply / 2 + 1));
        } else {
            words.push(m.clone());
        }
    }
    words
}

const LABEL: usize = 10;
const WIDTH: usize = 78;

fn field(out: &mut String, label: &str, value: &str) {
    out.push_str(&format!("{:<LABEL$}{}\n", format!("{label}:"), value.trim_end()));
}

/// `label: words...`, wrapped at [`WIDTH`] columns with a hanging indent.
fn wrapped<S: AsRef<str>>(out: &mut String, label: &str, words: &[S]) {
    let mut line = format!("{:<LABEL$}", format!("{label}:"));
    let mut empty = true;
    for w in words {
        let w = w.as_ref();
        if !empty && line.chars().count() + 1 + w.chars().count() > WIDTH {
            out.push_str(line.trim_end());
            out.push('\n');
            line = " ".repeat(LABEL);
            empty = true;
        }
        if !empty {
            line.push(' ');
        }
        line.push_str(w);
        empty = false;
    }
    out.push_str(line.trim_end());
    out.push('\n');
}

/// The board as text: ranks from the top, `w b W B` for pieces, `.` for an
/// empty playable square, a blank for a square that is not played on, and
/// the files lettered underneath.
///
/// ```
/// let rules = dama_engine::Rules::builtin("dama").unwrap();
/// let pos = rules.parse_fen("W:WKd4:Bd7").unwrap();
/// let text = dama_engine::case::board_text(&rules, &pos);
/// assert!(text.contains("7 . . . b . . . ."));
/// assert!(text.contains("4 . . . W . . . ."));
/// assert!(text.ends_with("  a b c d e f g h\n"));
/// ```
pub fn board_text(rules: &Rules, pos: &Position) -> String {
    let (w, h) = (rules.width(), rules.height());
    let num_w = h.to_string().len();
    let mut out = String::new();
    for r in (0..h).rev() {
        let mut line = format!("{:>num_w$}", r + 1);
        for f in 0..w {
            let ch = match Square::new(f, r) {
                Some(sq) => match pos.piece_at(sq) {
                    Some(Piece::Man(Color::White)) => 'w',
                    Some(Piece::King(Color::White)) => 'W',
                    Some(Piece::Man(Color::Black)) => 'b',
                    Some(Piece::King(Color::Black)) => 'B',
                    None if rules.board() & sq.bit() != 0 => '.',
                    None => ' ',
                },
                None => ' ',
            };
            line.push(' ');
            line.push(ch);
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out.push_str(&" ".repeat(num_w));
    for f in 0..w {
        out.push(' ');
        out.push((b'a' + f) as char);
    }
    out.push('\n');
    out
}

struct Listed {
    text: String,
    /// For each legal move, the full notation of each of its paths.
    notations: Vec<Vec<String>>,
}

/// The legal moves of `pos`, one line per move (one more line per extra path).
fn legal_move_lines(rules: &Rules, pos: &Position) -> Listed {
    let legal = rules.legal_moves(pos);
    struct Row {
        key: Vec<(u8, u8)>,
        paths: Vec<(String, String)>,
        promotes: bool,
    }
    let names = |sqs: &[Square]| sqs.iter().map(|s| rules.square_name(*s)).collect::<Vec<_>>().join(", ");
    let mut rows: Vec<Row> = Vec::new();
    for m in legal.iter() {
        let paths = rules.move_paths(pos, m);
        let key = paths.first().map_or_else(
            || vec![(m.from().file(), m.from().rank()), (m.to().file(), m.to().rank())],
            |p| {
                std::iter::once(p.from)
                    .chain(p.landings.iter().copied())
                    .map(|s| (s.file(), s.rank()))
                    .collect()
            },
        );
        let paths: Vec<(String, String)> = if paths.is_empty() {
            vec![(rules.format_move_full(pos, m), String::new())]
        } else {
            paths
                .iter()
                .map(|p| {
                    let caps = if p.captures.is_empty() {
                        String::new()
                    } else {
                        format!("captures {}", names(&p.captures))
                    };
                    (rules.format_path(p, m.is_capture()), caps)
                })
                .collect()
        };
        rows.push(Row {
            key,
            paths,
            promotes: m.promotes(),
        });
    }
    rows.sort_by(|a, b| a.key.cmp(&b.key));
    let total: usize = rows.iter().map(|r| r.paths.len()).sum();
    let side = pos.side_to_move();
    let mut text = match rows.len() {
        0 => format!("{side} to move: no legal move\n"),
        n if total > n => format!("{side} to move: {n} legal move{}, {total} paths\n", plural(n)),
        n => format!("{side} to move: {n} legal move{}\n", plural(n)),
    };
    let w_not = rows
        .iter()
        .flat_map(|r| r.paths.iter().map(|p| p.0.chars().count()))
        .max()
        .unwrap_or(0);
    let w_cap = rows
        .iter()
        .flat_map(|r| r.paths.iter().map(|p| p.1.chars().count()))
        .max()
        .unwrap_or(0);
    for r in &rows {
        let mut flags = Vec::new();
        if r.promotes {
            flags.push("promotes".to_string());
        }
        if r.paths.len() > 1 {
            flags.push(format!("{} paths", r.paths.len()));
        }
        for (i, (n, c)) in r.paths.iter().enumerate() {
            let (lead, tail) = if i == 0 {
                ("  ", flags.join(", "))
            } else {
                ("  ", "(same move)".to_string())
            };
            let line = if w_cap == 0 {
                format!("{lead}{n:<w_not$}  {tail}")
            } else {
                format!("{lead}{n:<w_not$}  {c:<w_cap$}  {tail}")
            };
            text.push_str(line.trim_end());
            text.push('\n');
        }
    }
    Listed {
        text,
        notations: rows
            .into_iter()
            .map(|r| r.paths.into_iter().map(|p| p.0).collect())
            .collect(),
    }
}

/// Compares `expected` with the legal moves (each given as the notations of its paths).
fn check_expected_moves(expected: &[String], legal: &[Vec<String>]) -> Vec<String> {
    let mut failures = Vec::new();
    let mut matched = vec![false; legal.len()];
    for e in expected {
        let e = e.trim();
        match legal.iter().position(|paths| paths.iter().any(|p| p == e)) {
            Some(i) if matched[i] => failures.push(format!("expected move `{e}` is listed twice")),
            Some(i) => matched[i] = true,
            None => failures.push(format!("expected move `{e}` is not legal")),
        }
    }
    for (paths, ok) in legal.iter().zip(&matched) {
        if !ok {
            failures.push(format!(
                "legal move `{}` is not among the expected moves",
                paths.first().map_or("?", String::as_str)
            ));
        }
    }
    failures
}

/// Every `.toml` file under `paths` (files as given, directories searched
/// recursively), sorted. Hidden directories and `target` are skipped.
pub fn find_toml_files(paths: &[PathBuf]) -> Result<Vec<PathBuf>, CaseError> {
    let mut out = Vec::new();
    for p in paths {
        let meta = std::fs::metadata(p).map_err(|e| CaseError::Io {
            path: p.display().to_string(),
            message: e.to_string(),
        })?;
        if meta.is_dir() {
            walk(p, &mut out, 0)?;
        } else {
            out.push(p.clone());
        }
    }
    out.sort();
    out.dedup();
    Ok(out)
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>, depth: usize) -> Result<(), CaseError> {
    if depth > 32 {
        return Ok(());
    }
    let io = |e: std::io::Error| CaseError::Io {
        path: dir.display().to_string(),
        message: e.to_string(),
    };
    for entry in std::fs::read_dir(dir).map_err(io)? {
        let entry = entry.map_err(io)?;
        let path = entry.path();
        let name = entry.file_name().to_string_lossy().into_owned();
        let ft = entry.file_type().map_err(io)?;
        if ft.is_dir() {
            if !name.starts_with('.') && name != "target" {
                walk(&path, out, depth + 1)?;
            }
        } else if name.ends_with(".toml") {
            out.push(path);
        }
    }
    Ok(())
}

// ---------------------------------------------------------------------------
// Snapshots

/// Where the snapshot of a case lives: next to it, `<stem>.snap`. The file is
/// in insta's format (a `---` header, then the rendering), so the test
/// harness and `dama cases --check` read and write the same files.
pub fn snapshot_path(case_path: &Path) -> PathBuf {
    case_path.with_extension("snap")
}

/// The rendering stored in a snapshot file: the text after insta's `---`
/// header (the whole text when there is no header), without trailing blanks.
pub fn snapshot_body(file_text: &str) -> &str {
    let text = file_text.strip_prefix('\u{feff}').unwrap_or(file_text);
    let mut lines = text.split_inclusive('\n');
    let first = lines.next().unwrap_or("");
    if first.trim_end() != "---" {
        return text.trim_end();
    }
    let mut consumed = first.len();
    for l in lines {
        consumed += l.len();
        if l.trim_end() == "---" {
            return text[consumed..].trim_end();
        }
    }
    // An unterminated header: nothing after it.
    ""
}

/// The header of a snapshot file (through the closing `---` line), if it has one.
pub fn snapshot_header(file_text: &str) -> Option<&str> {
    let mut lines = file_text.split_inclusive('\n');
    let first = lines.next()?;
    if first.trim_end() != "---" {
        return None;
    }
    let mut consumed = first.len();
    for l in lines {
        consumed += l.len();
        if l.trim_end() == "---" {
            return Some(&file_text[..consumed]);
        }
    }
    None
}

/// A snapshot file for `body`: `header` when given (an existing file's, kept
/// so that rewriting does not churn), else a minimal insta-style header.
pub fn snapshot_file(header: Option<&str>, input_file: &str, body: &str) -> String {
    let header = match header {
        Some(h) => h.to_string(),
        None => format!("---\nsource: dama cases\ninput_file: {input_file}\n---\n"),
    };
    format!("{header}{}\n", body.trim_end())
}

/// Whether a rendering equals the body of a snapshot file.
pub fn snapshot_matches(file_text: &str, rendered: &str) -> bool {
    snapshot_body(file_text) == rendered.trim_end()
}

// ---------------------------------------------------------------------------
// Rules pages

/// The rule parameters of a variant as a Markdown table (`key | value`),
/// every key of the resolved variant file except its identity and prose.
/// Rules pages embed it between `<!-- params:begin -->` and
/// `<!-- params:end -->`, and a test regenerates it, so the page cannot
/// drift from the TOML.
pub fn params_markdown(rules: &Rules) -> String {
    let spec: &VariantSpec = rules.spec();
    let mut rows: Vec<(String, String)> = Vec::new();
    if let Ok(toml::Value::Table(t)) = toml::Value::try_from(spec) {
        for (k, v) in &t {
            if matches!(
                k.as_str(),
                "id" | "name" | "aliases" | "description" | "sources" | "extends"
            ) {
                continue;
            }
            flatten(k, v, &mut rows);
        }
    }
    let mut out = String::from("| key | value |\n|---|---|\n");
    for (k, v) in rows {
        out.push_str(&format!("| `{k}` | {v} |\n"));
    }
    out
}

fn flatten(prefix: &str, v: &toml::Value, rows: &mut Vec<(String, String)>) {
    match v {
        toml::Value::Table(t) => {
            for (k, v) in t {
                flatten(&format!("{prefix}.{k}"), v, rows);
            }
        }
        toml::Value::Array(a) if a.is_empty() => rows.push((prefix.to_string(), "none".into())),
        toml::Value::Array(a) => rows.push((
            prefix.to_string(),
            a.iter().map(value_text).collect::<Vec<_>>().join(", "),
        )),
        other => rows.push((prefix.to_string(), value_text(other))),
    }
}

fn value_text(v: &toml::Value) -> String {
    match v {
        toml::Value::String(s) => format!("`{s}`"),
        other => format!("`{other}`"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dama() -> Rules {
        Rules::builtin("dama").unwrap()
    }

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
    fn illegal_moves_say_which_field() {
        let c = RuleCase::parse("variant = \"dama\"\nfen = \"W:Wd4:Bd6\"\nplay = [\"d4-d5\", \"d4-d3\"]\n").unwrap();
        match c.render(&dama()).unwrap_err() {
            CaseError::Move { field, number, .. } => assert_eq!((field, number), ("play", 2)),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn expectations_are_checked() {
        let c = RuleCase::parse(
            "variant = \"dama\"\nfen = \"W:Wd4:Bh8\"\nexpect_moves = [\"d4-d5\", \"d4-d3\"]\nexpect_count = 2\n",
        )
        .unwrap();
        let r = c.render(&dama()).unwrap();
        assert_eq!(r.failures.len(), 4, "{:?}", r.failures);
    }

    #[test]
    fn several_paths_are_all_listed() {
        let c = RuleCase::parse("variant = \"dama\"\nfen = \"W:WKa5:Bb5,e5\"\nexpect_count = 3\n").unwrap();
        let r = c.render(&dama()).unwrap();
        assert!(r.failures.is_empty());
        assert!(r.text.contains("3 legal moves, 6 paths"), "{}", r.text);
        assert!(r.text.contains("(same move)"), "{}", r.text);
    }

    #[test]
    fn snapshot_files_round_trip() {
        let f = snapshot_file(None, "x.toml", "a\nb\n\n");
        assert_eq!(snapshot_body(&f), "a\nb");
        assert!(snapshot_matches(&f, "a\nb\n"));
        assert_eq!(
            snapshot_header(&f),
            Some("---\nsource: dama cases\ninput_file: x.toml\n---\n")
        );
        assert_eq!(snapshot_body("plain\n"), "plain");
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
