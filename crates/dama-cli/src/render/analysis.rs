//! What `dama analyze` shows: the summary of each game (text), its JSON,
//! and the annotated PDN record; and the record analysed.

use dama_engine::pdn::{PdnAnnotation, PdnTags};
use dama_engine::{search::score_text, Color, Game, Loaded, Rules};
use dama_play::{GameAnalysis, PlyAnalysis};

use crate::engine_setup::variant_file;
use crate::out::outln;
use crate::records::Record;

/// Plies of the best line written in a PDN comment.
pub(crate) const COMMENT_LINE: usize = 6;

/// A score for White, in words (`+0.35`, `win in 7 plies`: White wins).
pub(crate) fn eval_text(white_score: i32) -> String {
    score_text(white_score)
}

/// The comment after a move in the annotated record.
pub(crate) fn comment(p: &PlyAnalysis) -> String {
    let eval = eval_text(p.white_score());
    if p.forced {
        format!("{eval} forced")
    } else if p.is_best() {
        eval
    } else {
        let line: Vec<&str> = p.best_line.iter().take(COMMENT_LINE).map(String::as_str).collect();
        let line = if line.is_empty() {
            p.best_notation.clone()
        } else {
            line.join(" ")
        };
        format!("{eval} best: {line} ({})", eval_text(p.white_best_score()))
    }
}

/// The game as an annotated PDN record: its tags, an `Annotator` tag, and
/// every move with its NAG and comment.
pub(crate) fn annotated(r: &Record, a: &GameAnalysis, annotator: &str, forced: Option<&Loaded>) -> String {
    let tag = |n: &str| r.pdn.tag(n).unwrap_or("?").to_string();
    let standard = ["Event", "Site", "Date", "Round", "White", "Black", "Annotator"];
    let mut extra: Vec<(String, String)> = r
        .pdn
        .tags
        .iter()
        .filter(|t| !standard.iter().any(|s| s.eq_ignore_ascii_case(&t.name)))
        .filter(|t| forced.is_none() || !t.name.eq_ignore_ascii_case("VariantFile"))
        .map(|t| (t.name.clone(), t.value.clone()))
        .collect();
    extra.push(("Annotator".into(), annotator.to_string()));
    let variant_file = match forced {
        Some(l) => variant_file(l),
        None => r.pdn.tag("VariantFile").map(str::to_string),
    };
    let tags = PdnTags {
        event: tag("Event"),
        site: tag("Site"),
        date: r.pdn.tag("Date").unwrap_or("????.??.??").to_string(),
        round: tag("Round"),
        white: tag("White"),
        black: tag("Black"),
        variant_file,
        extra,
    };
    let notes: Vec<PdnAnnotation> = a
        .plies
        .iter()
        .map(|p| PdnAnnotation {
            nag: p.judgement.map(|j| j.nag()),
            comment: Some(comment(p)),
        })
        .collect();
    r.game.to_pdn_annotated(&tags, &notes)
}

/// The move with its number: `12.` or `12...`.
pub(crate) fn numbered(game: &Game, p: &PlyAnalysis) -> String {
    let first = game.rules().start_position().side_to_move();
    let dots = if p.side == first { "." } else { "..." };
    format!("{}{dots} {}", p.move_number, p.notation)
}

pub(crate) fn show(r: &Record, a: &GameAnalysis) {
    let rules = r.game.rules();
    outln!(
        "{} - {}, {} ({}), {}; evaluations in men, for White",
        dama_engine::text::printable(r.pdn.tag("White").unwrap_or("?")),
        dama_engine::text::printable(r.pdn.tag("Black").unwrap_or("?")),
        dama_engine::text::printable(rules.name()),
        rules.id(),
        a.limits.describe()
    );
    if a.plies.is_empty() {
        outln!("No moves.");
        return;
    }
    outln!();
    let moves: Vec<String> = a.plies.iter().map(|p| numbered(&r.game, p)).collect();
    let evals: Vec<String> = a.plies.iter().map(|p| eval_text(p.white_score())).collect();
    let mw = moves.iter().map(|m| m.chars().count()).max().unwrap_or(0);
    let ew = evals.iter().map(|e| e.chars().count()).max().unwrap_or(0);
    for ((p, m), e) in a.plies.iter().zip(&moves).zip(&evals) {
        let mark = p.judgement.map_or("", |j| j.mark());
        let note = if p.forced {
            "forced".to_string()
        } else if p.is_best() {
            String::new()
        } else {
            format!(
                "best {} ({}), loss {:.2}",
                p.best_notation,
                eval_text(p.white_best_score()),
                p.loss as f64 / 100.0
            )
        };
        let line = format!("{m:<mw$}  {e:>ew$}  {mark:<2}  {note}");
        outln!("{}", line.trim_end());
    }
    outln!();
    for side in [Color::White, Color::Black] {
        let t = a.tally(side);
        let name = match side {
            Color::White => "White",
            Color::Black => "Black",
        };
        outln!(
            "{name}: {} moves ({} judged), {} {}, {} {}, {} {}, average loss {:.2}",
            t.moves,
            t.judged,
            t.inaccuracies,
            plural(t.inaccuracies, "inaccuracy", "inaccuracies"),
            t.mistakes,
            plural(t.mistakes, "mistake", "mistakes"),
            t.blunders,
            plural(t.blunders, "blunder", "blunders"),
            t.average_loss() / 100.0
        );
    }
    outln!(
        "Result: {}",
        r.game.outcome().map_or("* (the game goes on)".to_string(), |o| format!(
            "{} ({o})",
            o.result.pdn()
        ))
    );
}

pub(crate) fn plural<'a>(n: usize, one: &'a str, many: &'a str) -> &'a str {
    if n == 1 {
        one
    } else {
        many
    }
}

pub(crate) fn side_name(c: Color) -> &'static str {
    match c {
        Color::White => "white",
        Color::Black => "black",
    }
}

pub(crate) fn ply_json(rules: &Rules, game: &Game, p: &PlyAnalysis) -> serde_json::Value {
    serde_json::json!({
        "ply": p.index + 1,
        "number": p.move_number,
        "side": side_name(p.side),
        "move": p.notation,
        "full": rules.format_move_full(&p.before, &p.played),
        "fen": rules.to_fen(&p.before),
        "text": numbered(game, p),
        "forced": p.forced,
        "best": p.best_notation,
        "best_line": p.best_line,
        "best_score": p.best_score,
        "played_score": p.played_score,
        "eval": p.white_score(),
        "eval_text": eval_text(p.white_score()),
        "loss": p.loss,
        "judgement": p.judgement.map(|j| j.name()),
        "nag": p.judgement.map(|j| j.nag()),
        "depth": p.depth,
    })
}

pub(crate) fn tally_json(a: &GameAnalysis, side: Color) -> serde_json::Value {
    let t = a.tally(side);
    serde_json::json!({
        "moves": t.moves,
        "judged": t.judged,
        "inaccuracies": t.inaccuracies,
        "mistakes": t.mistakes,
        "blunders": t.blunders,
        "average_loss": (t.average_loss() * 100.0).round() / 100.0,
    })
}

pub(crate) fn game_json(r: &Record, a: &GameAnalysis) -> serde_json::Value {
    let rules = r.game.rules();
    let mut v = serde_json::json!({
        "line": r.pdn.line,
        "tags": r.pdn.tags.iter().map(|t| (t.name.clone(), serde_json::Value::String(t.value.clone()))).collect::<serde_json::Map<_, _>>(),
        "variant": rules.id(),
        "start": rules.to_fen(r.game.start_position()),
        "result": r.game.outcome().map_or("*", |o| o.result.pdn()),
        "plies": a.plies.iter().map(|p| ply_json(rules, &r.game, p)).collect::<Vec<_>>(),
        "white": tally_json(a, Color::White),
        "black": tally_json(a, Color::Black),
    });
    if let (Some(w), Some(obj)) = (&r.warning, v.as_object_mut()) {
        obj.insert("warnings".into(), serde_json::Value::Array(vec![w.clone()]));
    }
    v
}
