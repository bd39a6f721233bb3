//! Reading PDN: games, tags, moves and results, with the line and column
//! of every error. Only the syntax is checked here.

// Panic audit (rel, issue 7): this module reads user input, so it may not
// unwrap or index unchecked; tests may. See docs/reliability.md.
#![cfg_attr(not(test), deny(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing))]

use super::*;
use crate::game::Game;

/// The result tokens a record may end a game with.
pub(super) const RESULTS: &[&str] = &["1-0", "0-1", "1/2-1/2", "½-½", "2-0", "0-2", "1-1", "0-0", "*"];

/// A cursor over the record's characters that knows its line and column.
pub(super) struct Cursor<'a> {
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
pub(super) fn shown(c: char) -> String {
    match c {
        '\n' | '\r' => "the end of the line".into(),
        '\t' => "a tab".into(),
        c if c.is_control() => format!("the control character U+{:04X}", c as u32),
        c => format!("`{c}`"),
    }
}

pub(super) fn syntax<T>((line, column): (usize, usize), message: impl Into<String>) -> Result<T, PdnError> {
    Err(PdnError::Syntax {
        line,
        column,
        message: message.into(),
    })
}

/// Characters that end a word of movetext.
pub(super) fn is_delimiter(c: char) -> bool {
    c.is_whitespace() || matches!(c, '{' | '}' | '(' | ')' | '[' | ']' | ';' | '"')
}

/// Characters a move (with its annotation marks) may contain.
pub(super) fn is_move_char(c: char) -> bool {
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
pub(super) fn next_game(cur: &mut Cursor) -> Result<Option<PdnGame>, PdnError> {
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
pub(super) fn read_word(g: &mut PdnGame, word: &str, at: (usize, usize)) -> Result<(), PdnError> {
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
    // A pass (`--`, or `pass`): the rules decide at replay whether it is legal.
    if crate::notation::is_pass_text(rest) {
        return push_move(g, rest, at.0, column);
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
    push_move(g, rest, at.0, column)
}

/// Adds a move to the game; a game longer than [`Game::MAX_PLIES`], or a
/// list of moves that cannot grow (the memory this process may have is used
/// up), is an error, not an abort.
fn push_move(g: &mut PdnGame, text: &str, line: usize, column: usize) -> Result<(), PdnError> {
    if g.moves.len() >= Game::MAX_PLIES {
        return Err(PdnError::TooLong {
            line,
            column,
            limit: Game::MAX_PLIES,
        });
    }
    if g.moves.try_reserve(1).is_err() {
        return Err(PdnError::OutOfMemory {
            line,
            column,
            moves: g.moves.len(),
        });
    }
    g.moves.push(PdnMove {
        text: text.trim_end_matches(['!', '?']).to_string(),
        line,
        column,
    });
    Ok(())
}

pub(super) fn read_tag(cur: &mut Cursor) -> Result<Tag, PdnError> {
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

pub(super) fn skip_comment(cur: &mut Cursor) -> Result<(), PdnError> {
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

pub(super) fn skip_variation(cur: &mut Cursor) -> Result<(), PdnError> {
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

pub(super) fn skip_line(cur: &mut Cursor) {
    while let Some(c) = cur.bump() {
        if c == '\n' {
            break;
        }
    }
}
