//! What `dama replay` shows of a game: its summary line, its text (tags,
//! moves, final board) and its JSON.

use dama_engine::pdn::PdnGame;
use dama_engine::Game;
use dama_play::view::GameView;

use crate::commands::Ctx;
use crate::out::{out, outln};
use crate::render;

pub(crate) fn plies(n: usize) -> String {
    if n == 1 {
        "1 ply".into()
    } else {
        format!("{n} plies")
    }
}

pub(crate) fn result_text(game: &Game) -> String {
    match game.outcome() {
        Some(o) => format!("{} ({o})", o.result.pdn()),
        None => "* (the game goes on)".to_string(),
    }
}

pub(crate) fn summary_line(n: usize, g: &PdnGame, game: &Game) -> String {
    format!(
        "game {n} (line {}): {} - {}, {}, {}, {}",
        g.line,
        dama_engine::text::printable(g.tag("White").unwrap_or("?")),
        dama_engine::text::printable(g.tag("Black").unwrap_or("?")),
        game.rules().id(),
        plies(game.ply_count()),
        result_text(game)
    )
}

/// The moves with their numbers, wrapped at 80 columns.
pub(crate) fn movetext(game: &Game) -> String {
    let first = game.rules().start_position().side_to_move();
    let mut out = String::new();
    let mut line = String::new();
    for (i, ply) in game.plies().iter().enumerate() {
        let n = game.move_number_of(i);
        let mut w = String::new();
        if ply.side() == first {
            w.push_str(&format!("{n}. "));
        } else if i == 0 {
            w.push_str(&format!("{n}... "));
        }
        w.push_str(&ply.notation);
        if !line.is_empty() && line.len() + 1 + w.len() > 78 {
            out.push_str(&line);
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&w);
    }
    out.push_str(&line);
    out
}

pub(crate) fn show_game(ctx: &Ctx, n: usize, total: usize, g: &PdnGame, game: &Game) {
    let r = game.rules();
    if total > 1 {
        outln!("Game {n} of {total} (line {})", g.line);
    }
    for t in &g.tags {
        // (issue 38) Tags are the record's text: control characters as `�`.
        outln!(
            "[{} \"{}\"]",
            dama_engine::text::printable(&t.name),
            dama_engine::text::printable(&t.value)
        );
    }
    if !g.tags.is_empty() {
        outln!();
    }
    outln!("Variant: {} ({})", dama_engine::text::printable(r.name()), r.id());
    if !game.starts_from_initial() {
        outln!("Start: {}", r.to_fen(game.start_position()));
    }
    if game.plies().is_empty() {
        outln!("No moves.");
    } else {
        outln!("{}", movetext(game));
    }
    let marks: Vec<_> = game
        .last_ply()
        .filter(|p| !p.mv.is_pass())
        .map(|p| vec![p.mv.from(), p.mv.to()])
        .unwrap_or_default();
    outln!(
        "\nFinal position after {} ({} to move, {}):\n",
        plies(game.ply_count()),
        game.side_to_move(),
        r.to_fen(game.position())
    );
    let captured: Vec<_> = game
        .last_ply()
        .map(|p| p.mv.captured_squares().collect())
        .unwrap_or_default();
    out!(
        "{}",
        render::board(r, game.position(), &marks, &captured, ctx.color_out)
    );
    outln!("\nResult: {}", result_text(game));
}

/// Adds `value` to the elements of a JSON array in `out`, laid out as
/// `serde_json::to_string_pretty` lays out an element of an array (the
/// text of each game rather than all the games' values is kept).
pub(crate) fn push_json(out: &mut String, value: &serde_json::Value) {
    let text = serde_json::to_string_pretty(value).unwrap_or_default();
    if !out.is_empty() {
        out.push_str(",\n");
    }
    for (i, line) in text.lines().enumerate() {
        if i > 0 {
            out.push('\n');
        }
        out.push_str("  ");
        out.push_str(line);
    }
}

/// A replayed game as JSON: the game's view ([`GameView`], as the web API
/// and Python give it), with the record's line and tags.
pub(crate) fn game_json(g: &PdnGame, game: &Game) -> serde_json::Value {
    let mut v = serde_json::to_value(GameView::new(game)).unwrap_or_default();
    if let Some(obj) = v.as_object_mut() {
        obj.insert("line".into(), g.line.into());
        let tags: serde_json::Map<_, _> = g
            .tags
            .iter()
            .map(|t| (t.name.clone(), serde_json::Value::String(t.value.clone())))
            .collect();
        obj.insert("tags".into(), tags.into());
    }
    v
}
