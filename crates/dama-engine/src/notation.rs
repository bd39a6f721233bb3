//! Move notation: writing moves in PDN style and reading what people type.
//!
//! Reading happens in two layers, as in shakmaty: [`MoveText::parse`]
//! checks the syntax only; [`Rules::resolve_move`] finds the legal move it
//! names, or says why there is none.

use crate::moves::{Move, MovePath};
use crate::position::Position;
use crate::rules::Rules;
use crate::square::Square;

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
    /// No legal move matches.
    #[error("illegal move `{text}`")]
    Illegal {
        /// What was typed.
        text: String,
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

impl MoveText {
    /// Reads `d3-d4`, `d3d4`, `d4xd6xf6`, `d4:d6`, `12-16`, `a3xe1`; a
    /// trailing `=K`, `+`, `!` or `?` is ignored.
    pub fn parse(rules: &Rules, text: &str) -> Result<MoveText, MoveError> {
        let err = |reason: &str| MoveError::Syntax {
            text: text.to_string(),
            reason: reason.to_string(),
        };
        let t = text.trim();
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
                return Err(err(&format!(
                    "unexpected character `{}`",
                    t[i..].chars().next().unwrap_or('?')
                )));
            }
            let name = &t[start..i];
            let sq = rules
                .parse_square(name)
                .ok_or_else(|| err(&format!("`{name}` is not a square of this board")))?;
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
        let (first, last) = (self.squares[0], self.squares[self.squares.len() - 1]);
        if first != path.from || path.landings.last() != Some(&last) {
            return false;
        }
        let mut it = path.landings[..path.landings.len() - 1].iter();
        self.squares[1..self.squares.len() - 1]
            .iter()
            .all(|s| it.any(|l| l == s))
    }
}

impl Rules {
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

    /// The full-path notation of `m` (its first path, when several play it).
    pub fn format_move_full(&self, pos: &Position, m: &Move) -> String {
        let paths = self.move_paths(pos, m);
        match paths.first() {
            Some(p) => self.format_path(p, m.is_capture()),
            None => self.format_plain(m),
        }
    }

    fn format_plain(&self, m: &Move) -> String {
        let sep = if m.is_capture() { "x" } else { "-" };
        format!("{}{sep}{}", self.square_name(m.from()), self.square_name(m.to()))
    }

    /// The shortest unambiguous PDN notation of `m` among the legal moves of
    /// `pos`: origin and destination, plus the landing squares needed to tell
    /// it from other legal moves with the same ends.
    pub fn format_move_short(&self, pos: &Position, m: &Move) -> String {
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

    /// Finds the legal move that `text` names.
    pub fn resolve_move(&self, pos: &Position, text: &str) -> Result<Move, MoveError> {
        let mt = MoveText::parse(self, text)?;
        let legal = self.legal_moves(pos);
        let mut found: Vec<Move> = Vec::new();
        for m in &legal {
            if m.from() != mt.squares[0] || m.to() != *mt.squares.last().unwrap_or(&mt.squares[0]) {
                continue;
            }
            if mt.squares.len() == 2 || self.move_paths(pos, m).iter().any(|p| mt.matches_path(p)) {
                found.push(*m);
            }
        }
        match found.len() {
            1 => Ok(found[0]),
            0 => Err(MoveError::Illegal {
                text: text.trim().to_string(),
            }),
            _ => Err(MoveError::Ambiguous {
                text: text.trim().to_string(),
                candidates: found.iter().map(|m| self.format_move_full(pos, m)).collect(),
            }),
        }
    }
}
