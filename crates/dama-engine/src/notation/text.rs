//! Move notation: writing moves in PDN style and reading what people type.
//!
//! Reading happens in two layers, as in shakmaty: [`MoveText::parse`]
//! checks the syntax only; [`Rules::resolve_move`] finds the legal move it
//! names, or says why there is none.

// Panic audit (rel, issue 7): this module reads user input, so it may not
// unwrap; tests may. See docs/reliability.md.
#![cfg_attr(not(test), deny(clippy::unwrap_used, clippy::expect_used))]

use crate::board::{Move, MovePath, Position, Square};
use crate::notation::IllegalReason;
use crate::rules::Rules;

/// Parsed move text: the squares named, in order, and whether it was written as a capture.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MoveText {
    /// The squares, origin first.
    pub squares: Vec<Square>,
    /// Whether `x` or `:` separated the squares.
    pub capture: bool,
}

/// Move text that does not name exactly one legal move.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MoveError {
    /// The text is not a move at all.
    #[error("cannot read `{text}` as a move: {reason}")]
    Syntax {
        /// What was typed.
        text: String,
        /// Why it cannot be read.
        reason: String,
    },
    /// No legal move matches; `reason` says why, in the game's terms.
    #[error("`{text}` is not a legal move here: {reason}")]
    Illegal {
        /// What was typed.
        text: String,
        /// Why it is not legal.
        reason: IllegalReason,
    },
    /// Several legal moves match.
    #[error("`{text}` is ambiguous: it could be {}", candidates.join(", "))]
    Ambiguous {
        /// What was typed.
        text: String,
        /// The matching moves, in full notation.
        candidates: Vec<String>,
    },
}

/// Longest move text read, in bytes: far more than the longest capture on any board.
const MAX_MOVE_TEXT: usize = 512;

/// How a pass is written (`end.no_legal_move = "pass"`): `--`, the null
/// move of PGN readers and writers (SCID, ChessBase, pgn-extract).
pub const PASS_TEXT: &str = "--";

/// Whether `text` names a pass: `--`, or `pass` in any case (annotation
/// marks aside).
pub fn is_pass_text(text: &str) -> bool {
    let t = text.trim().trim_end_matches(['!', '?']);
    t == PASS_TEXT || t.eq_ignore_ascii_case("pass")
}

impl MoveText {
    /// Reads `d3-d4`, `d3d4`, `d4xd6xf6`, `d4:d6`, `12-16`, `a3xe1`; a
    /// trailing `=K`, `+`, `!` or `?` is ignored.
    pub fn parse(rules: &Rules, text: &str) -> Result<MoveText, MoveError> {
        // (rel, issue 7) Messages quote at most a clipped copy of the text,
        // and no move is longer than MAX_MOVE_TEXT, so a hostile line is
        // never echoed back whole.
        let err = |reason: &str| MoveError::Syntax {
            text: crate::util::clip(text),
            reason: reason.to_string(),
        };
        let t = text.trim();
        if t.len() > MAX_MOVE_TEXT {
            return Err(err(&format!(
                "it is {} characters long; no move takes more than {MAX_MOVE_TEXT}",
                t.chars().count()
            )));
        }
        let t = t.trim_end_matches(['!', '?', '+', '*']);
        let t = t.strip_suffix("=K").or_else(|| t.strip_suffix("=k")).unwrap_or(t);
        if t.is_empty() {
            return Err(err("it is empty"));
        }
        let capture = t.contains(['x', 'X', ':']);
        let mut squares = Vec::new();
        let bytes = t.as_bytes();
        let mut i = 0;
        while i < bytes.len() {
            let c = bytes[i];
            if matches!(c, b'-' | b'x' | b'X' | b':' | b' ') {
                i += 1;
                continue;
            }
            let start = i;
            if c.is_ascii_alphabetic() {
                i += 1;
                while i < bytes.len() && bytes[i].is_ascii_digit() {
                    i += 1;
                }
            } else if c.is_ascii_digit() {
                while i < bytes.len() && bytes[i].is_ascii_digit() {
                    i += 1;
                }
            } else {
                let c = t[i..].chars().next().unwrap_or('?');
                return Err(err(&if c.is_control() {
                    format!("unexpected control character U+{:04X}", c as u32)
                } else {
                    format!("unexpected character `{c}`")
                }));
            }
            let name = &t[start..i];
            let sq = rules
                .geometry
                .read_square(name)
                .ok_or_else(|| err(&rules.why_not_a_square(name)))?;
            squares.push(sq);
        }
        if squares.len() < 2 {
            return Err(err("a move names at least two squares, such as d3-d4"));
        }
        Ok(MoveText { squares, capture })
    }

    /// Whether this text describes `path`: same origin and destination, and
    /// every other square named is a landing square of the path, in order.
    pub fn matches_path(&self, path: &MovePath) -> bool {
        // `squares` is a public field: no length is assumed (panic audit, issue 7).
        let (Some((&first, rest)), Some((_, landed))) = (self.squares.split_first(), path.landings.split_last()) else {
            return false;
        };
        let Some((&last, inner)) = rest.split_last() else {
            return false;
        };
        if first != path.from || path.landings.last() != Some(&last) {
            return false;
        }
        let mut it = landed.iter();
        inner.iter().all(|s| it.any(|l| l == s))
    }
}

impl Rules {
    /// Why `name` is not a playable square of this board. A number is
    /// explained by what numbers mean here (issue 18): out of range where
    /// squares are numbered, or not this variant's notation at all.
    pub(crate) fn why_not_a_square(&self, name: &str) -> String {
        let count = self.board().count();
        if !name.is_empty() && name.bytes().all(|b| b.is_ascii_digit()) {
            let name = crate::util::clip(name);
            if self.geometry.reads_square_numbers() {
                return format!("square {name} is not on the board (squares are numbered 1 to {count})");
            }
            return format!(
                "`{name}` is a square number, but {} names squares by file and rank, such as {}",
                self.id(),
                self.geometry.example_square()
            );
        }
        match Square::parse_algebraic(name) {
            Some(sq) if sq.file() < self.width() && sq.rank() < self.height() => {
                format!("`{name}` is not one of the squares played on")
            }
            _ => format!("`{name}` is not a square of this board"),
        }
    }

    /// Writes one path of `m` with every landing square: `d3-d4`, `d4xd6xf6`.
    pub fn format_path(&self, path: &MovePath, capture: bool) -> String {
        let sep = if capture { "x" } else { "-" };
        let mut s = self.square_name(path.from);
        for l in &path.landings {
            s.push_str(sep);
            s.push_str(&self.square_name(*l));
        }
        s
    }

    /// The full-path notation of `m` (its first path, when several play it;
    /// [`PASS_TEXT`] for a pass).
    pub fn format_move_full(&self, pos: &Position, m: &Move) -> String {
        if m.is_pass() {
            return PASS_TEXT.to_string();
        }
        let paths = self.move_paths(pos, m);
        match paths.first() {
            Some(p) => self.format_path(p, m.is_capture()),
            None => self.format_plain(m),
        }
    }

    /// [`Rules::format_move_full`] of each of `moves` (moves of `pos`), the
    /// paths of all the captures found in one search: time linear in the
    /// paths however many moves there are, where one search a move is
    /// quadratic (a 16×16 variant can have hundreds of thousands).
    pub fn format_moves_full(&self, pos: &Position, moves: &[Move]) -> Vec<String> {
        let firsts = if moves.iter().any(Move::is_capture) {
            self.capture_paths(pos, moves, 1, None)
        } else {
            Vec::new()
        };
        moves
            .iter()
            .enumerate()
            .map(|(i, m)| match firsts.get(i).and_then(|paths| paths.first()) {
                Some(p) if m.is_capture() => self.format_path(p, true),
                // A non-capturing move or a pass: no search.
                _ => self.format_move_full(pos, m),
            })
            .collect()
    }

    fn format_plain(&self, m: &Move) -> String {
        if m.is_pass() {
            return PASS_TEXT.to_string();
        }
        let sep = if m.is_capture() { "x" } else { "-" };
        format!("{}{sep}{}", self.square_name(m.from()), self.square_name(m.to()))
    }

    /// The shortest unambiguous PDN notation of `m` among the legal moves of
    /// `pos`: origin and destination, plus the landing squares needed to tell
    /// it from other legal moves with the same ends.
    pub fn format_move_short(&self, pos: &Position, m: &Move) -> String {
        if m.is_pass() {
            return PASS_TEXT.to_string();
        }
        let legal = self.legal_moves(pos);
        let rivals: Vec<&Move> = legal
            .iter()
            .filter(|o| o.from() == m.from() && o.to() == m.to() && !o.same_identity(m))
            .collect();
        if rivals.is_empty() {
            return self.format_plain(m);
        }
        let paths = self.move_paths(pos, m);
        let Some(path) = paths.first() else {
            return self.format_plain(m);
        };
        let rival_paths: Vec<MovePath> = rivals.iter().flat_map(|r| self.move_paths(pos, r)).collect();
        // Add landing squares one at a time until no rival path matches.
        let mut squares = vec![path.from];
        let inner = &path.landings[..path.landings.len() - 1];
        let mut chosen: Vec<Square> = Vec::new();
        for &l in inner {
            let text = MoveText {
                squares: squares.iter().chain(chosen.iter()).copied().chain([m.to()]).collect(),
                capture: true,
            };
            if !rival_paths.iter().any(|rp| text.matches_path(rp)) {
                break;
            }
            chosen.push(l);
        }
        squares.extend(chosen);
        squares.push(m.to());
        let sep = if m.is_capture() { "x" } else { "-" };
        squares
            .iter()
            .map(|s| self.square_name(*s))
            .collect::<Vec<_>>()
            .join(sep)
    }

    /// Finds the legal move that `text` names ([`PASS_TEXT`] or `pass` for
    /// a pass, where the rules make it the one legal move).
    pub fn resolve_move(&self, pos: &Position, text: &str) -> Result<Move, MoveError> {
        if is_pass_text(text) {
            let legal = self.legal_moves(pos);
            return match legal.iter().find(|m| m.is_pass()) {
                Some(m) => Ok(*m),
                None => Err(MoveError::Illegal {
                    text: text.trim().to_string(),
                    reason: IllegalReason::NoPass {
                        passing: self.end().passes(),
                    },
                }),
            };
        }
        let mt = MoveText::parse(self, text)?;
        let (Some(&first), Some(&last)) = (mt.squares.first(), mt.squares.last()) else {
            return Err(MoveError::Syntax {
                text: crate::util::clip(text),
                reason: "a move names at least two squares, such as d3-d4".into(),
            });
        };
        let legal = self.legal_moves(pos);
        let mut found: Vec<Move> = Vec::new();
        for m in &legal {
            if m.from() != first || m.to() != last {
                continue;
            }
            if mt.squares.len() == 2 || self.move_paths(pos, m).iter().any(|p| mt.matches_path(p)) {
                found.push(*m);
            }
        }
        // (rel, issue 7: found by tests/props.rs) Text that spells out a whole
        // path names that move even when other moves' paths pass through the
        // same squares: in Keny `g5xg1` (one jump) must not be "ambiguous"
        // with `g5xc5xc3xg3xg1`, or the printed full/short notation of the
        // one-jump move could never be typed back.
        if found.len() > 1 {
            let exact = |m: &Move| {
                self.move_paths(pos, m)
                    .iter()
                    .any(|p| p.from == first && mt.squares.get(1..) == Some(&p.landings[..]))
            };
            let mut exact: Vec<Move> = found.iter().copied().filter(exact).collect();
            if exact.len() > 1 {
                exact.retain(|m| m.is_capture() == mt.capture);
            }
            if let [only] = exact[..] {
                return Ok(only);
            }
        }
        match found.len() {
            1 => Ok(found[0]),
            0 => Err(MoveError::Illegal {
                text: text.trim().to_string(),
                reason: self.explain_illegal(pos, &mt),
            }),
            _ => Err(MoveError::Ambiguous {
                text: text.trim().to_string(),
                candidates: found.iter().map(|m| self.format_move_full(pos, m)).collect(),
            }),
        }
    }
}
