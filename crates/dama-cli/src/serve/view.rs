//! A variant, a position and a game as the page reads them (JSON).
//!
//! A square is its index, `rank * 16 + file` (the engine's `Square`), so the
//! page draws it without knowing the notation; its name in the variant's
//! notation comes with the variant. Moves carry every path the engine
//! gives (`Rules::move_paths`): the page enters a capture square by square.

use dama_engine::{Game, MoveList, Position, Rules, Square};
use dama_play::view::{move_path, path_squares};
use serde_json::{json, Value};

use super::store::{Entry, Source};
use dama_play::view::GameView;

pub use dama_play::view::color_name as color;

/// The board: size, notation, the playable squares with their names.
pub fn variant(r: &Rules) -> Value {
    let squares: Vec<Value> = r
        .board()
        .iter()
        .map(|s| json!({"i": s.index(), "name": r.square_name(s)}))
        .collect();
    json!({
        "id": r.id(),
        "name": r.name(),
        "width": r.width(),
        "height": r.height(),
        "numeric": r.numeric_notation(),
        "squares": squares,
        "first": color(r.start_position().side_to_move()),
    })
}

/// The pieces of a position.
pub fn pieces(pos: &Position) -> Vec<Value> {
    pos.iter()
        .map(|(s, p)| json!({"i": s.index(), "color": color(p.color()), "king": p.is_king()}))
        .collect()
}

fn indices(squares: impl IntoIterator<Item = Square>) -> Vec<u8> {
    squares.into_iter().map(Square::index).collect()
}

/// Every path of every legal move: `squares` is the origin and each
/// landing, `captures` the squares taken in order, `text` the move in full.
pub fn legal(r: &Rules, pos: &Position, moves: &MoveList) -> Vec<Value> {
    // All paths found in one search, at most MAX_PATHS_SENT in all (the
    // first of each move always): a variant written in the designer can have
    // millions of capture paths in one position (issue 38).
    let per_move = (MAX_PATHS_SENT / moves.len().max(1)).max(1);
    let mut out = Vec::new();
    for (m, paths) in moves.iter().zip(r.paths_of_moves(pos, moves, per_move)) {
        let text = match paths.first() {
            Some(p) => r.format_path(p, m.is_capture()),
            None => r.format_move_full(pos, m),
        };
        if m.is_pass() {
            out.push(json!({"pass": true, "squares": [], "captures": [], "text": text}));
            continue;
        }
        if paths.is_empty() {
            out.push(json!({"squares": [m.from().index(), m.to().index()], "captures": indices(m.captured_squares()), "text": text, "promotes": m.promotes()}));
        }
        for p in paths {
            let mut squares = vec![p.from.index()];
            squares.extend(p.landings.iter().map(|s| s.index()));
            out.push(json!({
                "squares": squares,
                "captures": indices(p.captures.iter().copied()),
                "text": text,
                "promotes": m.promotes(),
            }));
        }
    }
    out
}

/// The most capture paths sent to the page for one position (every move
/// keeps its first): far more than the traditional games ever have.
const MAX_PATHS_SENT: usize = 10_000;

/// A whole game: the game's view ([`GameView`], as `dama replay --format
/// json` and Python give it), with what the page needs besides: the game's
/// `id` here, the `board`, the `source` to rebuild the game on a new server
/// (a built-in id, or `pasted`: the text is the page's own, never echoed),
/// the `pieces`, the `legal`
/// moves with every path, the `last` move's path, whether a move can be
/// redone.
pub fn game(id: &str, e: &Entry) -> Value {
    let g: &Game = &e.game;
    let r = g.rules();
    let pos = g.position();
    let last = g.last_ply().map(|p| {
        json!({
            "squares": path_squares(&move_path(r, &p.before, &p.mv)),
            "captures": indices(p.mv.captured_squares()),
            "text": p.notation,
            "full": p.full,
            "side": color(p.side()),
            "promotes": p.mv.promotes(),
        })
    });
    let (variant_id, pasted) = match &e.source {
        Source::Builtin(id) => (Some(id.as_str()), false),
        Source::Pasted => (None, true),
    };
    let mut v = serde_json::to_value(GameView::new(g)).unwrap_or_default();
    if let Some(obj) = v.as_object_mut() {
        obj.insert("id".into(), id.into());
        obj.insert("board".into(), variant(r));
        obj.insert("source".into(), json!({"variant": variant_id, "pasted": pasted}));
        obj.insert("pieces".into(), pieces(pos).into());
        let legal = if g.is_over() {
            Vec::new()
        } else {
            legal(r, pos, g.legal_moves())
        };
        obj.insert("legal".into(), legal.into());
        obj.insert("last".into(), last.unwrap_or(Value::Null));
        obj.insert("redo".into(), g.can_redo().into());
    }
    v
}
