//! What each fuzz target does with its input. A panic here is a bug: every
//! entry point must turn any input into a value or an error.
//!
//! Besides "no panic", each entry checks what must hold of a successful
//! result: a FEN that was read writes back to text that reads as the same
//! position; a move that was resolved is legal and its notation resolves
//! back to it; a game that was replayed writes a PDN that replays to the
//! same game.
//!
//! Nothing here reads files: a variant text whose `extends` names a path is
//! read from the disk by `load_text`, which is part of what is fuzzed, but
//! the PDN entry only loads built-in variants.

use std::sync::{Arc, OnceLock};

use dama_engine::BUILTIN;
use dama_engine::{load_text, pdn, Position, Rules};

/// The built-in variants, compiled once.
pub fn builtins() -> &'static [Arc<Rules>] {
    static V: OnceLock<Vec<Arc<Rules>>> = OnceLock::new();
    V.get_or_init(|| {
        BUILTIN
            .iter()
            .filter_map(|&(id, _)| Rules::builtin(id).ok().map(Arc::new))
            .collect()
    })
}

/// The variant chosen by the first byte, and the rest of the input.
fn pick(data: &[u8]) -> Option<(&'static Arc<Rules>, &[u8])> {
    let (&first, rest) = data.split_first()?;
    let v = builtins();
    if v.is_empty() {
        return None;
    }
    Some((&v[first as usize % v.len()], rest))
}

/// Plays up to `plies` moves (the first legal one each time), checking that
/// each move's notation resolves back to it.
fn exercise(rules: &Rules, mut pos: Position, plies: usize) {
    for _ in 0..plies {
        let moves = rules.legal_moves(&pos);
        let Some(m) = moves.as_slice().first().copied() else {
            break;
        };
        let full = rules.format_move_full(&pos, &m);
        assert_eq!(rules.resolve_move(&pos, &full), Ok(m), "`{full}` does not resolve back");
        pos.play(&m);
    }
}

/// A variant file's text: load (with `extends`), compile, and on success
/// play a few moves from its initial position.
pub fn variant_toml(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    match load_text("fuzz.toml", &text, None) {
        Ok(loaded) => {
            let r = &loaded.rules;
            let start = r.start_position();
            let fen = r.to_fen(&start);
            assert_eq!(
                r.parse_fen(&fen),
                Ok(start),
                "initial position `{fen}` does not read back"
            );
            let _ = r.describe();
            exercise(r, start, 8);
        }
        Err(e) => {
            // Rendering the diagnostics must not panic either.
            let _ = e.to_string();
        }
    }
}

/// A FEN against a built-in variant (chosen by the first byte).
pub fn fen(data: &[u8]) {
    let Some((r, rest)) = pick(data) else { return };
    let text = String::from_utf8_lossy(rest);
    match r.parse_fen(&text) {
        Ok(pos) => {
            let fen = r.to_fen(&pos);
            assert_eq!(r.parse_fen(&fen), Ok(pos), "`{text}` -> `{fen}` does not read back");
            assert!(r.check_position(&pos).is_ok());
            exercise(r, pos, 4);
        }
        Err(e) => {
            let _ = e.to_string();
        }
    }
}

/// Move text against a position: the first byte picks the variant, then a
/// FEN line (the initial position when it does not read), then the move.
pub fn move_text(data: &[u8]) {
    let Some((r, rest)) = pick(data) else { return };
    let text = String::from_utf8_lossy(rest);
    let (fen, mv) = text.split_once('\n').unwrap_or(("", &text));
    let pos = r.parse_fen(fen).unwrap_or_else(|_| r.start_position());
    let _ = dama_engine::MoveText::parse(r, mv);
    match r.resolve_move(&pos, mv) {
        Ok(m) => {
            assert!(r.is_legal(&pos, &m), "`{mv}` resolved to an illegal move");
            let full = r.format_move_full(&pos, &m);
            assert_eq!(
                r.resolve_move(&pos, &full),
                Ok(m),
                "`{mv}` -> `{full}` does not resolve back"
            );
            let short = r.format_move_short(&pos, &m);
            assert_eq!(
                r.resolve_move(&pos, &short),
                Ok(m),
                "`{mv}` -> `{short}` does not resolve back"
            );
        }
        Err(e) => {
            let _ = e.to_string();
        }
    }
}

/// A PDN text: read every game, replay each under the built-in variant it
/// names (else the variant chosen by the first byte), and check that a
/// replayed game written back as PDN replays to the same positions.
pub fn pdn(data: &[u8]) {
    let Some((default, rest)) = pick(data) else { return };
    let text = String::from_utf8_lossy(rest);
    let games = match pdn::read_games(&text) {
        Ok(g) => g,
        Err(e) => {
            let _ = e.to_string();
            let _ = e.position();
            return;
        }
    };
    for g in &games {
        let named = g
            .variant_name(None)
            .and_then(|n| builtins().iter().find(|r| r.id() == n.trim()).cloned());
        let rules = named.unwrap_or_else(|| default.clone());
        match g.replay(rules.clone()) {
            Ok(game) => {
                let written = game.to_pdn(&pdn::PdnTags::default());
                let again = pdn::read_games(&written)
                    .unwrap_or_else(|e| panic!("a written game does not read back: {e}\n{written}"));
                assert_eq!(again.len(), 1, "one game written, {} read:\n{written}", again.len());
                let replayed = again[0]
                    .replay(rules)
                    .unwrap_or_else(|e| panic!("a written game does not replay: {e}\n{written}"));
                assert_eq!(
                    replayed.positions().collect::<Vec<_>>(),
                    game.positions().collect::<Vec<_>>(),
                    "a written game replays differently:\n{written}"
                );
            }
            Err(e) => {
                let _ = e.to_string();
            }
        }
    }
}
