//! Game records in PDN (Portable Draughts Notation).
//!
//! Writing ([`Game::to_pdn`]): the seven standard tags, `GameType` when the
//! variant declares one (`[pdn] game_type`), a `Variant` tag with our variant
//! id always, `VariantFile` for variants loaded from a file, `SetUp`/`FEN`
//! when the game did not start from the variant's initial position, the
//! movetext in the shortest unambiguous notation, and the result.
//!
//! Reading ([`read_games`]) is liberal: several games per file, comments
//! `{…}` and `;…`, variations `(…)` skipped, NAGs `$n`, move numbers `1.`
//! and `1...`, `x` or `:` separators or none, results `1-0 0-1 1/2-1/2 2-0
//! 0-2 1-1 0-0 *`, a byte-order mark, CRLF line ends. Reading checks only
//! the syntax; [`PdnGame::replay`] checks every move against the rules.
//! Every error gives a line and a column.
//!
//! ```
//! use dama_engine::{pdn, Game, Rules};
//!
//! let rules = Rules::builtin("dama").unwrap();
//! let mut game = Game::new(rules.clone());
//! game.play_text("d3-d4").unwrap();
//! let text = game.to_pdn(&pdn::PdnTags::default());
//! let games = pdn::read_games(&text).unwrap();
//! assert_eq!(games[0].tag("Variant"), Some("dama"));
//! let again = games[0].replay(rules).unwrap();
//! assert_eq!(again.position(), game.position());
//! ```

// Panic audit (rel, issue 7): this module reads user input, so it may not
// unwrap or index unchecked; tests may. See docs/reliability.md.
#![cfg_attr(not(test), deny(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing))]

use std::path::Path;
use std::sync::Arc;

use crate::board::Color;
use crate::board::Square;
use crate::game::{EndReason, Game, GameResult, Outcome, PlayError};
use crate::notation::FenError;
use crate::notation::MoveError;
use crate::rules::Rules;
use crate::spec::SquareNotation;
use crate::variant::{LoadError, Loaded};

/// The tags a caller supplies when writing a game. Empty strings are written as `?`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PdnTags {
    /// `Event`.
    pub event: String,
    /// `Site`.
    pub site: String,
    /// `Date`, `YYYY.MM.DD` (`?` for unknown parts).
    pub date: String,
    /// `Round`.
    pub round: String,
    /// `White`: the player of the white pieces.
    pub white: String,
    /// `Black`.
    pub black: String,
    /// The variant file the rules were loaded from, for user-defined
    /// variants: written as `VariantFile` so that the game can be resumed.
    pub variant_file: Option<String>,
    /// Further tags, written after the standard ones in this order.
    pub extra: Vec<(String, String)>,
}

impl Default for PdnTags {
    fn default() -> PdnTags {
        PdnTags {
            event: "?".into(),
            site: "?".into(),
            date: "????.??.??".into(),
            round: "?".into(),
            white: "?".into(),
            black: "?".into(),
            variant_file: None,
            extra: Vec::new(),
        }
    }
}

/// A tag pair read from a record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tag {
    /// The tag name, as written.
    pub name: String,
    /// The value, unescaped.
    pub value: String,
    /// 1-based line of the `[`.
    pub line: usize,
    /// 1-based column of the `[`.
    pub column: usize,
}

/// A move as written in a record, with where it was written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PdnMove {
    /// The move text, without move number or annotation marks.
    pub text: String,
    /// 1-based line.
    pub line: usize,
    /// 1-based column.
    pub column: usize,
}

/// The game termination marker as written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PdnResult {
    /// The token: `1-0`, `0-1`, `1/2-1/2`, `2-0`, `0-2`, `1-1`, `0-0` or `*`.
    pub text: String,
    /// 1-based line.
    pub line: usize,
    /// 1-based column.
    pub column: usize,
}

impl PdnResult {
    /// The result it states (`None` for `*` and `0-0`).
    pub fn result(&self) -> Option<GameResult> {
        GameResult::from_pdn(&self.text)
    }
}

/// One game read from a record (syntax only; see [`PdnGame::replay`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PdnGame {
    /// The tag pairs, in order.
    pub tags: Vec<Tag>,
    /// The moves of the main line, in order.
    pub moves: Vec<PdnMove>,
    /// The termination marker; `None` when the next game's tags began without one.
    pub result: Option<PdnResult>,
    /// 1-based line where the game begins.
    pub line: usize,
}

/// A record that cannot be read or replayed. The message names the line and column.
#[derive(Debug, Clone, thiserror::Error)]
pub enum PdnError {
    /// The text is not PDN.
    #[error("line {line}, column {column}: {message}")]
    Syntax {
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
        /// What is wrong.
        message: String,
    },
    /// A move that is not legal (or not readable, or ambiguous) where it stands.
    #[error("line {line}, column {column}: {error}")]
    Move {
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
        /// Why.
        error: MoveError,
    },
    /// A move after the game has ended by the rules.
    #[error("line {line}, column {column}: `{text}` comes after the end of the game ({outcome})")]
    AfterEnd {
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
        /// The move text.
        text: String,
        /// How the game had ended.
        outcome: Outcome,
    },
    /// The `FEN` tag cannot be read.
    #[error("line {line}, column {column}: the FEN tag is not a position of this variant: {error}")]
    Fen {
        /// 1-based line of the tag.
        line: usize,
        /// 1-based column of the tag.
        column: usize,
        /// Why.
        error: FenError,
    },
    /// The variant named by the record (or the caller) cannot be loaded.
    #[error("line {line}, column {column}: {message}")]
    Variant {
        /// 1-based line of the tag (of the game, when no tag names the variant).
        line: usize,
        /// 1-based column.
        column: usize,
        /// What is wrong.
        message: String,
        /// The loader's diagnostics, when loading failed.
        load: Option<Box<LoadError>>,
    },
    /// The record's result contradicts the end the rules give.
    #[error(
        "line {line}, column {column}: the record gives {recorded}, but by the rules the game ended {} ({outcome})",
        outcome.result.pdn()
    )]
    ResultMismatch {
        /// 1-based line of the result.
        line: usize,
        /// 1-based column.
        column: usize,
        /// The result token written.
        recorded: String,
        /// The end by the rules.
        outcome: Outcome,
    },
}

impl PdnError {
    /// `(line, column)` of the error.
    pub fn position(&self) -> (usize, usize) {
        match self {
            PdnError::Syntax { line, column, .. }
            | PdnError::Move { line, column, .. }
            | PdnError::AfterEnd { line, column, .. }
            | PdnError::Fen { line, column, .. }
            | PdnError::Variant { line, column, .. }
            | PdnError::ResultMismatch { line, column, .. } => (*line, *column),
        }
    }
}

/// The result tokens a record may end a game with.
const RESULTS: &[&str] = &["1-0", "0-1", "1/2-1/2", "½-½", "2-0", "0-2", "1-1", "0-0", "*"];

/// A cursor over the record's characters that knows its line and column.
struct Cursor<'a> {
    text: &'a str,
    i: usize,
    line: usize,
    column: usize,
}

impl<'a> Cursor<'a> {
    fn new(text: &'a str) -> Cursor<'a> {
        Cursor {
            text: text.strip_prefix('\u{feff}').unwrap_or(text),
            i: 0,
            line: 1,
            column: 1,
        }
    }
    fn peek(&self) -> Option<char> {
        self.text.get(self.i..).and_then(|t| t.chars().next())
    }
    fn bump(&mut self) -> Option<char> {
        let c = self.peek()?;
        self.i += c.len_utf8();
        if c == '\n' {
            self.line += 1;
            self.column = 1;
        } else {
            self.column += 1;
        }
        Some(c)
    }
    fn at(&self) -> (usize, usize) {
        (self.line, self.column)
    }
}

/// A character as an error message shows it.
fn shown(c: char) -> String {
    match c {
        '\n' | '\r' => "the end of the line".into(),
        '\t' => "a tab".into(),
        c if c.is_control() => format!("the control character U+{:04X}", c as u32),
        c => format!("`{c}`"),
    }
}

fn syntax<T>((line, column): (usize, usize), message: impl Into<String>) -> Result<T, PdnError> {
    Err(PdnError::Syntax {
        line,
        column,
        message: message.into(),
    })
}

/// Characters that end a word of movetext.
fn is_delimiter(c: char) -> bool {
    c.is_whitespace() || matches!(c, '{' | '}' | '(' | ')' | '[' | ']' | ';' | '"')
}

/// Characters a move (with its annotation marks) may contain.
fn is_move_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '-' | ':' | '=' | '+' | '#' | '!' | '?' | '*')
}

/// Reads every game of a PDN text. Only the syntax is checked here; moves
/// are checked against the rules by [`PdnGame::replay`].
///
/// A game ends with its result token; a game whose movetext is followed by
/// the next game's tags without a result is kept with no result. A text that
/// ends before the last game's result is an error (the record may be cut short).
///
/// This holds every game at once; [`games`] reads them one at a time.
pub fn read_games(text: &str) -> Result<Vec<PdnGame>, PdnError> {
    games(text).collect()
}

/// The games of a PDN text one at a time, as [`read_games`] reads them:
/// each is read when asked for, so only one game is held at a time however
/// long the record. After an error the iterator ends.
///
/// ```
/// use dama_engine::pdn;
///
/// let text = "[Variant \"dama\"]\n1. d3-d4 *\n\n[Variant \"dama\"]\n1. c3-c4 d6-d5 1-0\n";
/// let moves: Vec<usize> = pdn::games(text).map(|g| g.unwrap().moves.len()).collect();
/// assert_eq!(moves, [1, 2]);
/// // A syntax error ends the games, after those read before it.
/// let mut it = pdn::games("1. d3-d4 * 1. d6-d5 ) *");
/// assert!(it.next().unwrap().is_ok());
/// assert!(it.next().unwrap().is_err());
/// assert!(it.next().is_none());
/// ```
pub fn games(text: &str) -> Games<'_> {
    Games {
        cur: Cursor::new(text),
        done: false,
    }
}

/// The games of a PDN text, read one at a time: see [`games`].
pub struct Games<'a> {
    cur: Cursor<'a>,
    done: bool,
}

impl std::fmt::Debug for Games<'_> {
    /// Where the reader stands, not the whole text.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Games")
            .field("line", &self.cur.line)
            .field("column", &self.cur.column)
            .field("done", &self.done)
            .finish_non_exhaustive()
    }
}

impl Iterator for Games<'_> {
    type Item = Result<PdnGame, PdnError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        let next = next_game(&mut self.cur);
        if !matches!(next, Ok(Some(_))) {
            self.done = true;
        }
        next.transpose()
    }
}

impl std::iter::FusedIterator for Games<'_> {}

/// Reads the next game; `Ok(None)` when the text holds no more.
fn next_game(cur: &mut Cursor) -> Result<Option<PdnGame>, PdnError> {
    let mut game: Option<PdnGame> = None;
    let new_game = |line| PdnGame {
        tags: Vec::new(),
        moves: Vec::new(),
        result: None,
        line,
    };
    loop {
        // Skip white space.
        while cur.peek().is_some_and(char::is_whitespace) {
            cur.bump();
        }
        let at = cur.at();
        let Some(c) = cur.peek() else { break };
        match c {
            '[' => {
                if game.as_ref().is_some_and(|g| !g.moves.is_empty()) {
                    // The previous game's movetext ended without a result;
                    // this tag begins the next game, read on the next call.
                    return Ok(game);
                }
                let tag = read_tag(cur)?;
                game.get_or_insert_with(|| new_game(at.0)).tags.push(tag);
            }
            '{' => skip_comment(cur)?,
            '(' => skip_variation(cur)?,
            ';' => skip_line(cur),
            '%' if at.1 == 1 => skip_line(cur),
            '}' | ')' | ']' | '"' => {
                return syntax(
                    at,
                    format!("unexpected `{c}`{}", if c == '"' { "" } else { " with nothing open" }),
                )
            }
            '$' => {
                cur.bump();
                if !cur.peek().is_some_and(|c| c.is_ascii_digit()) {
                    return syntax(at, "`$` must be followed by a number (a NAG such as $1)");
                }
                while cur.peek().is_some_and(|c| c.is_ascii_digit()) {
                    cur.bump();
                }
            }
            _ => {
                // The word as a slice of the text: no allocation per word.
                let (text, start) = (cur.text, cur.i);
                while cur.peek().is_some_and(|c| !is_delimiter(c)) {
                    cur.bump();
                }
                let word = text.get(start..cur.i).unwrap_or_default();
                let g = game.get_or_insert_with(|| new_game(at.0));
                if RESULTS.contains(&word) {
                    g.result = Some(PdnResult {
                        text: word.to_string(),
                        line: at.0,
                        column: at.1,
                    });
                    return Ok(game);
                }
                read_word(g, word, at)?;
            }
        }
    }
    if let Some(g) = game {
        let end = cur.at();
        let what = if g.moves.is_empty() {
            "moves or a result"
        } else {
            "a result"
        };
        return syntax(
            end,
            format!(
                "the text ends before the game that begins on line {} is finished: expected {what} \
                 (1-0, 0-1, 1/2-1/2, or * for an unfinished game); the record may be cut short",
                g.line
            ),
        );
    }
    Ok(None)
}

/// A word of movetext that is not a result: a move number, an annotation or a move.
fn read_word(g: &mut PdnGame, word: &str, at: (usize, usize)) -> Result<(), PdnError> {
    // Move number: digits then one or more dots, possibly glued to the move.
    let digits = word.chars().take_while(char::is_ascii_digit).count();
    let mut rest = word;
    let mut column = at.1;
    if digits > 0 && word[digits..].starts_with('.') {
        let dots = word[digits..].chars().take_while(|&c| c == '.').count();
        rest = &word[digits + dots..];
        column += digits + dots;
    } else if word.starts_with("..") || word == "." {
        rest = word.trim_start_matches('.');
        column += word.len() - rest.len();
    }
    // A bare number is a move number whose dot stands apart (`5 .`) or is missing.
    if rest.is_empty() || rest.chars().all(|c| c.is_ascii_digit()) {
        return Ok(());
    }
    // Annotation marks standing alone.
    if rest.chars().all(|c| matches!(c, '!' | '?')) {
        return Ok(());
    }
    if let Some(bad) = rest.chars().find(|&c| !is_move_char(c)) {
        return syntax(
            at,
            format!(
                "`{}` is not a move, a move number or a result (unexpected {})",
                crate::util::clip(word),
                shown(bad)
            ),
        );
    }
    if !rest.chars().any(|c| c.is_ascii_digit()) {
        return syntax(
            at,
            format!("`{}` is not a move, a move number or a result", crate::util::clip(word)),
        );
    }
    g.moves.push(PdnMove {
        text: rest.trim_end_matches(['!', '?']).to_string(),
        line: at.0,
        column,
    });
    Ok(())
}

fn read_tag(cur: &mut Cursor) -> Result<Tag, PdnError> {
    let open = cur.at();
    cur.bump(); // '['
    let eof = |cur: &Cursor| {
        syntax(
            cur.at(),
            format!(
                "the text ends inside the tag that begins on line {}, column {}",
                open.0, open.1
            ),
        )
    };
    while cur.peek().is_some_and(|c| c == ' ' || c == '\t') {
        cur.bump();
    }
    let mut name = String::new();
    while let Some(c) = cur.peek().filter(|c| c.is_alphanumeric() || *c == '_') {
        name.push(c);
        cur.bump();
    }
    if name.is_empty() {
        return match cur.peek() {
            None => eof(cur),
            Some(c) => syntax(cur.at(), format!("expected a tag name after `[`, found {}", shown(c))),
        };
    }
    while cur.peek().is_some_and(|c| c == ' ' || c == '\t') {
        cur.bump();
    }
    match cur.peek() {
        Some('"') => {
            cur.bump();
        }
        None => return eof(cur),
        Some(c) => {
            return syntax(
                cur.at(),
                format!("expected the quoted value of tag `{name}`, found {}", shown(c)),
            )
        }
    }
    let mut value = String::new();
    loop {
        let at = cur.at();
        match cur.bump() {
            None => return eof(cur),
            Some('"') => break,
            Some('\\') => match cur.bump() {
                Some(c) => value.push(c),
                None => return eof(cur),
            },
            Some('\n') => {
                return syntax(
                    at,
                    format!("the value of tag `{name}` is not closed on its line (missing `\"`)"),
                )
            }
            Some('\r') => {}
            Some(c) => value.push(c),
        }
    }
    while cur.peek().is_some_and(|c| c == ' ' || c == '\t') {
        cur.bump();
    }
    match cur.peek() {
        Some(']') => {
            cur.bump();
        }
        None => return eof(cur),
        Some(c) => {
            return syntax(
                cur.at(),
                format!("expected `]` to close tag `{name}`, found {}", shown(c)),
            )
        }
    }
    Ok(Tag {
        name,
        value,
        line: open.0,
        column: open.1,
    })
}

fn skip_comment(cur: &mut Cursor) -> Result<(), PdnError> {
    let open = cur.at();
    cur.bump();
    loop {
        match cur.bump() {
            Some('}') => return Ok(()),
            Some(_) => {}
            None => {
                return syntax(
                    cur.at(),
                    format!(
                        "the text ends inside the comment that begins on line {}, column {} (missing `}}`)",
                        open.0, open.1
                    ),
                )
            }
        }
    }
}

fn skip_variation(cur: &mut Cursor) -> Result<(), PdnError> {
    let open = cur.at();
    cur.bump();
    let mut depth = 1;
    while depth > 0 {
        match cur.peek() {
            Some('{') => skip_comment(cur)?,
            Some('(') => {
                depth += 1;
                cur.bump();
            }
            Some(')') => {
                depth -= 1;
                cur.bump();
            }
            Some(';') => skip_line(cur),
            Some(_) => {
                cur.bump();
            }
            None => {
                return syntax(
                    cur.at(),
                    format!(
                        "the text ends inside the variation that begins on line {}, column {} (missing `)`)",
                        open.0, open.1
                    ),
                )
            }
        }
    }
    Ok(())
}

fn skip_line(cur: &mut Cursor) {
    while let Some(c) = cur.bump() {
        if c == '\n' {
            break;
        }
    }
}

impl PdnGame {
    /// The value of the first tag called `name` (case-insensitive).
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tag_entry(name).map(|t| t.value.as_str())
    }

    /// The first tag called `name` (case-insensitive), with where it stands.
    pub fn tag_entry(&self, name: &str) -> Option<&Tag> {
        self.tags.iter().find(|t| t.name.eq_ignore_ascii_case(name))
    }

    /// The result the record gives: its termination marker, else (when the
    /// marker is `*` or missing) its `Result` tag.
    pub fn recorded_result(&self) -> Option<GameResult> {
        self.result
            .as_ref()
            .and_then(PdnResult::result)
            .or_else(|| self.tag("Result").and_then(GameResult::from_pdn))
    }

    /// Which variant the record names, as something [`crate::load()`] accepts:
    /// the `VariantFile` tag (tried relative to `base_dir` first), else the
    /// `Variant` tag, else the built-in root variant whose `pdn.game_type`
    /// equals the number in the `GameType` tag. `None` if the record names none.
    pub fn variant_name(&self, base_dir: Option<&Path>) -> Option<String> {
        if let Some(file) = self.tag("VariantFile").filter(|v| !v.trim().is_empty()) {
            let p = Path::new(file.trim());
            if p.is_relative() {
                if let Some(joined) = base_dir.map(|d| d.join(p)).filter(|j| j.is_file()) {
                    return Some(joined.display().to_string());
                }
            }
            return Some(file.trim().to_string());
        }
        if let Some(v) = self.tag("Variant").filter(|v| !v.trim().is_empty()) {
            return Some(v.trim().to_string());
        }
        let gt = self.tag("GameType")?;
        let n: u32 = gt.split(',').next()?.trim().parse().ok()?;
        builtin_for_game_type(n)
    }

    /// Loads the variant the record names ([`PdnGame::variant_name`]), or
    /// `default` when it names none.
    pub fn load_variant(&self, default: Option<&str>, base_dir: Option<&Path>) -> Result<Loaded, PdnError> {
        let named = self.variant_name(base_dir);
        let (line, column, from) = ["VariantFile", "Variant", "GameType"]
            .iter()
            .find_map(|n| {
                self.tag_entry(n)
                    .map(|t| (t.line, t.column, format!("the {} tag", t.name)))
            })
            .unwrap_or((self.line, 1, "the caller".into()));
        let Some(name) = named.or_else(|| default.map(str::to_string)) else {
            return Err(PdnError::Variant {
                line: self.line,
                column: 1,
                message: "the record does not say which variant it is (no Variant, VariantFile or GameType tag)".into(),
                load: None,
            });
        };
        crate::variant::load(&name).map_err(|e| PdnError::Variant {
            line,
            column,
            message: format!("cannot load the variant `{}` named by {from}", crate::util::clip(&name)),
            load: Some(Box::new(e)),
        })
    }

    /// Plays the record through under `rules`: the start position from the
    /// `FEN` tag (else the variant's initial position), every move checked,
    /// and the recorded result checked against the end the rules give. A
    /// result the rules do not reach (a resignation, an agreement) becomes
    /// the game's declared outcome, with the reason from the `Termination`
    /// tag when it names one consistent with the result, else
    /// [`EndReason::Recorded`].
    pub fn replay(&self, rules: impl Into<Arc<Rules>>) -> Result<Game, PdnError> {
        let rules: Arc<Rules> = rules.into();
        let start = match self.tag_entry("FEN") {
            Some(t) if !t.value.trim().is_empty() => rules.parse_fen(&t.value).map_err(|error| PdnError::Fen {
                line: t.line,
                column: t.column,
                error,
            })?,
            _ => rules.start_position(),
        };
        let mut game = Game::from_position(rules, start);
        for m in &self.moves {
            if let Some(outcome) = game.outcome() {
                return Err(PdnError::AfterEnd {
                    line: m.line,
                    column: m.column,
                    text: crate::util::clip(&m.text),
                    outcome,
                });
            }
            match game.play_text(&m.text) {
                Ok(_) => {}
                Err(PlayError::Move(error)) => {
                    return Err(PdnError::Move {
                        line: m.line,
                        column: m.column,
                        error,
                    })
                }
                Err(PlayError::GameOver(outcome)) => {
                    return Err(PdnError::AfterEnd {
                        line: m.line,
                        column: m.column,
                        text: m.text.clone(),
                        outcome,
                    })
                }
                Err(e @ PlayError::NotLegal { .. }) => {
                    return Err(PdnError::Syntax {
                        line: m.line,
                        column: m.column,
                        message: e.to_string(),
                    })
                }
            }
        }
        let recorded = self.recorded_result();
        let (line, column, token) = match (&self.result, self.tag_entry("Result")) {
            (Some(r), _) if r.result().is_some() => (r.line, r.column, r.text.clone()),
            (_, Some(t)) => (t.line, t.column, t.value.clone()),
            (Some(r), None) => (r.line, r.column, r.text.clone()),
            (None, None) => (self.line, 1, "*".into()),
        };
        match (game.outcome(), recorded) {
            (Some(outcome), Some(r)) if outcome.result != r => Err(PdnError::ResultMismatch {
                line,
                column,
                recorded: token,
                outcome,
            }),
            (None, Some(r)) => {
                let reason = self
                    .tag("Termination")
                    .and_then(|t| reason_from_text(t, r))
                    .unwrap_or(EndReason::Recorded);
                // The game is not over, so declaring cannot fail.
                let _ = game.declare(Outcome::new(r, reason));
                Ok(game)
            }
            _ => Ok(game),
        }
    }
}

/// The declared end reason a `Termination` tag names, if consistent with `result`.
fn reason_from_text(text: &str, result: GameResult) -> Option<EndReason> {
    let text = text.trim();
    let mut candidates = vec![EndReason::Agreement];
    for c in Color::ALL {
        candidates.push(EndReason::Resignation(c));
        candidates.push(EndReason::TimeForfeit(c));
    }
    if let Some(n) = text
        .strip_prefix("adjudicated after ")
        .and_then(|r| r.strip_suffix(" plies"))
        .and_then(|n| n.parse().ok())
    {
        candidates.push(EndReason::PlyLimit(n));
    }
    candidates.into_iter().find(|r| {
        r.to_string().eq_ignore_ascii_case(text)
            && match r {
                EndReason::Agreement => result == GameResult::Draw,
                EndReason::Resignation(c) | EndReason::TimeForfeit(c) => result == GameResult::win_for(!*c),
                _ => true,
            }
    })
}

/// The built-in variant with this PDN GameType number, preferring one that
/// extends no other. The table is built once.
fn builtin_for_game_type(n: u32) -> Option<String> {
    static TABLE: std::sync::OnceLock<Vec<(u32, bool, &'static str)>> = std::sync::OnceLock::new();
    let table = TABLE.get_or_init(|| {
        crate::variant::BUILTIN
            .iter()
            .filter_map(|(id, _)| {
                let r = Rules::builtin(id).ok()?;
                Some((r.spec().pdn.game_type, r.spec().extends.is_none(), *id))
            })
            .collect()
    });
    if n == 0 {
        return None;
    }
    let mut matching = table.iter().filter(|(g, _, _)| *g == n);
    let first = matching.clone().next()?;
    let root = matching.find(|(_, root, _)| *root).unwrap_or(first);
    Some(root.2.to_string())
}

/// Quotes a tag value: `"` and `\` are escaped; an empty value becomes `?`.
fn quote(v: &str) -> String {
    let v = if v.trim().is_empty() { "?" } else { v };
    let mut s = String::with_capacity(v.len() + 2);
    s.push('"');
    for c in v.chars() {
        if c == '"' || c == '\\' {
            s.push('\\');
        }
        if c != '\n' && c != '\r' {
            s.push(c);
        }
    }
    s.push('"');
    s
}

/// The PDN `GameType` value for these rules, e.g. `30,W,8,8,A0,0`: the
/// number, the side that starts, width, height, the notation (`A`
/// alphanumeric, `N` numeric) with the corner where square a1 (or square 1)
/// lies as the starting player sees the board (0 bottom left, 1 bottom right,
/// 2 top left, 3 top right), and the invert flag (0 when that player's
/// bottom-left corner is played on). `None` when the variant declares no number.
pub fn game_type_tag(rules: &Rules) -> Option<String> {
    let n = rules.spec().pdn.game_type;
    if n == 0 {
        return None;
    }
    let first = rules.start_position().side_to_move();
    let (letter, reference) = match rules.spec().board.notation {
        SquareNotation::Algebraic => ('A', Square::new(0, 0)),
        SquareNotation::Numeric => ('N', rules.parse_square("1")),
    };
    let (w, h) = (rules.width(), rules.height());
    // Seen from the starting player's side (Black sees the board turned round).
    let view = |sq: Square| match first {
        Color::White => (sq.file(), sq.rank()),
        Color::Black => (w - 1 - sq.file(), h - 1 - sq.rank()),
    };
    let corner = reference.map_or(0, |sq| {
        let (f, r) = view(sq);
        u8::from(f >= w.div_ceil(2)) + 2 * u8::from(r >= h.div_ceil(2))
    });
    let bottom_left = match first {
        Color::White => Square::new(0, 0),
        Color::Black => Square::new(w - 1, h - 1),
    };
    let invert = u8::from(bottom_left.is_none_or(|sq| rules.board() & sq.bit() == 0));
    Some(format!("{n},{},{w},{h},{letter}{corner},{invert}", first.letter()))
}

impl Game {
    /// The game as a PDN record with the given tags: the seven standard tags
    /// (Result from the outcome, `*` while the game goes on), `GameType`
    /// when the variant declares one, `Variant` always, `VariantFile` when
    /// given, `SetUp` and `FEN` when the game did not start from the
    /// variant's initial position, `Termination` once the game is over, the
    /// extra tags, then the movetext (shortest unambiguous notation, lines
    /// of at most 80 characters) and the result.
    pub fn to_pdn(&self, tags: &PdnTags) -> String {
        let r = self.rules();
        let result = self.outcome().map_or("*", |o| o.result.pdn());
        let mut pairs: Vec<(String, String)> = vec![
            ("Event".into(), tags.event.clone()),
            ("Site".into(), tags.site.clone()),
            ("Date".into(), tags.date.clone()),
            ("Round".into(), tags.round.clone()),
            ("White".into(), tags.white.clone()),
            ("Black".into(), tags.black.clone()),
            ("Result".into(), result.into()),
        ];
        if let Some(gt) = game_type_tag(r) {
            pairs.push(("GameType".into(), gt));
        }
        pairs.push(("Variant".into(), r.id().to_string()));
        if let Some(f) = &tags.variant_file {
            pairs.push(("VariantFile".into(), f.clone()));
        }
        if !self.starts_from_initial() {
            pairs.push(("SetUp".into(), "1".into()));
            pairs.push(("FEN".into(), r.to_fen(self.start_position())));
        }
        if let Some(o) = self.outcome() {
            pairs.push(("Termination".into(), o.reason.to_string()));
        }
        for (k, v) in &tags.extra {
            if !pairs.iter().any(|(n, _)| n.eq_ignore_ascii_case(k)) && !k.is_empty() {
                pairs.push((k.clone(), v.clone()));
            }
        }
        let mut out = String::new();
        for (k, v) in &pairs {
            let name: String = k.chars().filter(|c| c.is_alphanumeric() || *c == '_').collect();
            out.push_str(&format!("[{name} {}]\n", quote(v)));
        }
        out.push('\n');
        let mut words: Vec<String> = Vec::new();
        let first = r.start_position().side_to_move();
        for (i, ply) in self.plies().iter().enumerate() {
            let n = self.move_number_of(i);
            if ply.side() == first {
                words.push(format!("{n}."));
            } else if i == 0 {
                words.push(format!("{n}..."));
            }
            words.push(ply.notation.clone());
        }
        words.push(result.to_string());
        let mut line_len = 0;
        for w in words {
            if line_len > 0 && line_len + 1 + w.len() > 80 {
                out.push('\n');
                line_len = 0;
            } else if line_len > 0 {
                out.push(' ');
                line_len += 1;
            }
            line_len += w.len();
            out.push_str(&w);
        }
        out.push('\n');
        out
    }
}

/// Writes several games as one PDN text, separated by blank lines.
pub fn write_games<'a>(games: impl IntoIterator<Item = (&'a Game, &'a PdnTags)>) -> String {
    games
        .into_iter()
        .map(|(g, t)| g.to_pdn(t))
        .collect::<Vec<_>>()
        .join("\n")
}
