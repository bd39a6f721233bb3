//! Openings of a match read from a file: a PDN file (each game's `FEN` tag,
//! or the initial position, and then its moves), or a text file with one
//! PDN FEN per line (`#` begins a comment; blank lines are skipped).

use std::sync::Arc;

use dama_engine::pdn::{read_games, PdnError};
use dama_engine::FenError;
use dama_engine::{Game, Move, Position, Rules};

/// Where the games of a pair of a match begin: a position and the moves
/// played from it before the players take over.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Opening {
    /// The position the game starts from.
    pub start: Position,
    /// The opening moves from `start`.
    pub moves: Vec<Move>,
}

/// A file of openings that cannot be used.
#[derive(Debug, Clone, thiserror::Error)]
pub enum OpeningsError {
    /// A PDN game that cannot be read or replayed.
    #[error("{0}")]
    Pdn(#[from] PdnError),
    /// A line of a FEN list that is not a position of the variant.
    #[error("line {line}: {error}")]
    Fen {
        /// 1-based line.
        line: usize,
        /// Why.
        error: FenError,
    },
    /// An opening where the game is already over.
    #[error("line {line}: the game is already over in this opening")]
    Over {
        /// 1-based line where the opening is.
        line: usize,
    },
    /// No opening in the file.
    #[error("the file holds no opening")]
    Empty,
}

/// The openings of `text`: a PDN file when its first non-blank,
/// non-comment character is `[` (a tag) or it reads as PDN games with
/// moves, else one FEN per line.
///
/// ```
/// use dama_engine::Rules;
/// use dama_play::read_openings;
///
/// let rules = Rules::builtin("dama").unwrap();
/// let fens = "# two positions\nW:Wa3,b3:Ba6,b6\n\nB:Wa3,b3:Ba6,b6\n";
/// let openings = read_openings(&rules, fens).unwrap();
/// assert_eq!(openings.len(), 2);
/// let pdn = "[Variant \"dama\"]\n1. d3-d4 d6-d5 *\n";
/// assert_eq!(read_openings(&rules, pdn).unwrap()[0].moves.len(), 2);
/// ```
pub fn read_openings(rules: &Rules, text: &str) -> Result<Vec<Opening>, OpeningsError> {
    let first = text
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty() && !l.starts_with('#'))
        .unwrap_or("");
    let openings = if first.starts_with('[') || first.starts_with("1.") {
        pdn_openings(rules, text)?
    } else {
        fen_openings(rules, text)?
    };
    if openings.is_empty() {
        return Err(OpeningsError::Empty);
    }
    Ok(openings)
}

fn pdn_openings(rules: &Rules, text: &str) -> Result<Vec<Opening>, OpeningsError> {
    let rules = Arc::new(rules.clone());
    let mut out = Vec::new();
    for g in read_games(text)? {
        let game: Game = g.replay(Arc::clone(&rules))?;
        if game.is_over() {
            return Err(OpeningsError::Over { line: g.line });
        }
        out.push(Opening {
            start: *game.start_position(),
            moves: game.plies().iter().map(|p| p.mv).collect(),
        });
    }
    Ok(out)
}

fn fen_openings(rules: &Rules, text: &str) -> Result<Vec<Opening>, OpeningsError> {
    let mut out = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let start = rules
            .parse_fen(line)
            .map_err(|error| OpeningsError::Fen { line: i + 1, error })?;
        if rules.legal_moves(&start).is_empty() {
            return Err(OpeningsError::Over { line: i + 1 });
        }
        out.push(Opening {
            start,
            moves: Vec::new(),
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fen_lines_with_comments() {
        let rules = Rules::builtin("dama").unwrap();
        let text = "W:Wa3,b3:Ba6,b6  # a comment\n# only a comment\n\n";
        let o = read_openings(&rules, text).unwrap();
        assert_eq!(o.len(), 1);
        assert_eq!(o[0].start, rules.parse_fen("W:Wa3,b3:Ba6,b6").unwrap());
        assert!(o[0].moves.is_empty());
    }

    #[test]
    fn bad_entries_name_their_line() {
        let rules = Rules::builtin("dama").unwrap();
        let e = read_openings(&rules, "W:Wa3:Ba6\nnot a fen\n").unwrap_err();
        assert!(matches!(e, OpeningsError::Fen { line: 2, .. }), "{e}");
        assert!(e.to_string().starts_with("line 2: "), "{e}");
        let e = read_openings(&rules, "# nothing\n\n").unwrap_err();
        assert!(matches!(e, OpeningsError::Empty), "{e}");
        // White has nothing left: the game is over before it begins.
        let e = read_openings(&rules, "W:W:Ba6\n").unwrap_err();
        assert!(
            matches!(e, OpeningsError::Over { line: 1 } | OpeningsError::Fen { line: 1, .. }),
            "{e}"
        );
    }

    #[test]
    fn pdn_games_and_their_errors() {
        let rules = Rules::builtin("dama").unwrap();
        let text = "[Variant \"dama\"]\n1. d3-d4 *\n\n[Variant \"dama\"]\n[FEN \"W:Wa3,b3:Ba6,b6\"]\n1. a3-a4 *\n";
        let o = read_openings(&rules, text).unwrap();
        assert_eq!(o.len(), 2);
        assert_eq!(o[0].start, rules.start_position());
        assert_eq!(o[0].moves.len(), 1);
        assert_eq!(o[1].start, rules.parse_fen("W:Wa3,b3:Ba6,b6").unwrap());
        let bad = "[Variant \"dama\"]\n1. d3-d4 *\n\n[Variant \"dama\"]\n1. a1-a8 *\n";
        let e = read_openings(&rules, bad).unwrap_err();
        assert!(e.to_string().starts_with("line 5, column "), "{e}");
    }
}
