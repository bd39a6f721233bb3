//! What every front end shows of a game, in one form: a move's path, a line
//! of moves as text, an outcome in words, the rules in words, a colour's
//! name, and the serializable views (a move, a game, a search's report, a
//! variant in a list) that `--format json`, the web API and Python's
//! `to_dict()` all give. The terminal, the web server and the Python
//! package call these instead of keeping their own copies (issue 31).

mod game;
mod search;
mod variant;

pub use game::{GameView, PassedEndView, PlyView, ResultView};
pub use search::{BestMoveView, SearchInfo};
pub use variant::VariantSummary;

use dama_engine::{Color, EndReason, GameResult, Move, MovePath, Outcome, Position, Rules};
use serde::Serialize;

/// The way `mv` is played from `pos`: its first capture path by landing
/// squares, or, for a move the generator gives no path for, its origin,
/// destination and captured squares. A pass has no landing.
pub fn move_path(rules: &Rules, pos: &Position, mv: &Move) -> MovePath {
    if mv.is_pass() {
        return MovePath {
            from: mv.from(),
            landings: Vec::new(),
            captures: Vec::new(),
        };
    }
    rules
        .move_paths(pos, mv)
        .into_iter()
        .next()
        .unwrap_or_else(|| MovePath {
            from: mv.from(),
            landings: vec![mv.to()],
            captures: mv.captured_squares().collect(),
        })
}

/// A legal move as every front end's JSON gives it (`dama moves --format
/// json`, Python's `Move.to_dict()`): its full notation, origin and
/// destination, the landing squares and captured squares of its first
/// path, all by their names in the variant's notation, and whether it
/// crowns.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct MoveView {
    /// The move in full notation (every landing square of a capture).
    pub notation: String,
    /// Where it starts.
    pub from: String,
    /// Where it ends.
    pub to: String,
    /// Every landing square of its first path, in order.
    pub path: Vec<String>,
    /// The squares it captures on, in order.
    pub captures: Vec<String>,
    /// Whether the piece is crowned.
    pub promotes: bool,
}

impl MoveView {
    /// `mv`, a legal move of `pos`.
    pub fn new(rules: &Rules, pos: &Position, mv: &Move) -> MoveView {
        MoveView::with_path(rules, mv, &move_path(rules, pos, mv), rules.format_move_full(pos, mv))
    }

    /// `mv` played along `path` (one of its paths), written `notation`: for
    /// a caller that has found the paths of many moves in one search.
    pub fn with_path(rules: &Rules, mv: &Move, path: &MovePath, notation: String) -> MoveView {
        let names = |squares: &[dama_engine::Square]| squares.iter().map(|s| rules.square_name(*s)).collect();
        MoveView {
            notation,
            from: rules.square_name(mv.from()),
            to: rules.square_name(mv.to()),
            path: names(&path.landings),
            captures: names(&path.captures),
            promotes: mv.promotes(),
        }
    }
}

/// The squares a path visits, origin first, as indices (`rank * 16 +
/// file`); none for a pass.
pub fn path_squares(path: &MovePath) -> Vec<u8> {
    if path.landings.is_empty() {
        return Vec::new();
    }
    std::iter::once(path.from.index())
        .chain(path.landings.iter().map(|s| s.index()))
        .collect()
}

/// A line of moves from `pos` in short notation, at most `max` of them,
/// stopping before the first that is not legal where it stands (a line
/// from a table or an older search may not be).
pub fn line_text(rules: &Rules, pos: &Position, line: &[Move], max: usize) -> Vec<String> {
    let mut p = *pos;
    let mut out = Vec::new();
    for m in line.iter().take(max) {
        if !rules.legal_moves(&p).as_slice().iter().any(|l| l.same_identity(m)) {
            break;
        }
        out.push(rules.format_move_short(&p, m));
        p = p.after(m);
    }
    out
}

/// An outcome in words: `White wins (no legal move)`, `draw (by agreement)`.
pub fn outcome_text(o: &Outcome) -> String {
    let lead = match o.result {
        GameResult::WhiteWins => "White wins",
        GameResult::BlackWins => "Black wins",
        GameResult::Draw => "draw",
    };
    let reason = match o.reason {
        EndReason::Agreement => "by agreement".to_string(),
        r => format!("{r}"),
    };
    format!("{lead} ({reason})")
}

/// A colour as the JSON views write it: `white`, `black`.
pub fn color_name(c: Color) -> &'static str {
    match c {
        Color::White => "white",
        Color::Black => "black",
    }
}

/// One section of the rules in words ([`Rules::describe`]), as every
/// front end's JSON gives it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RulesSection {
    /// The heading.
    pub title: &'static str,
    /// The sentences.
    pub lines: Vec<String>,
}

/// The rules in words, section by section.
pub fn rules_text(rules: &Rules) -> Vec<RulesSection> {
    rules
        .describe()
        .into_iter()
        .map(|s| RulesSection {
            title: s.title,
            lines: s.lines,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_quiet_move_is_its_origin_and_destination() {
        let r = Rules::builtin("dama").unwrap();
        let start = r.start_position();
        let m = r.legal_moves(&start).as_slice()[0];
        let p = move_path(&r, &start, &m);
        assert_eq!(path_squares(&p), vec![m.from().index(), m.to().index()]);
        assert!(p.captures.is_empty());
    }

    #[test]
    fn a_move_view_names_its_squares() {
        let r = Rules::builtin("dama").unwrap();
        let pos = r.parse_fen("W:Wd6:Bd7,c8").unwrap();
        let m = r.legal_moves(&pos).as_slice()[0];
        let v = MoveView::new(&r, &pos, &m);
        assert_eq!(v.notation, "d6xd8xb8");
        assert_eq!((v.from.as_str(), v.to.as_str()), ("d6", "b8"));
        assert_eq!(v.path, ["d8", "b8"]);
        assert_eq!(v.captures, ["d7", "c8"]);
    }

    #[test]
    fn a_line_stops_at_an_illegal_move() {
        let r = Rules::builtin("dama").unwrap();
        let start = r.start_position();
        let m = r.legal_moves(&start).as_slice()[0];
        assert_eq!(line_text(&r, &start, &[m, m], 8).len(), 1);
    }
}
