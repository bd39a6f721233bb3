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

use dama_engine::source::BUILTIN;
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

/// The most jumps of capture search one position of [`random_variant`] may
/// take: a variant whose capture tree explodes (`W0605`) is refused at that
/// position rather than listed for hours.
pub const RANDOM_VARIANT_JUMPS: u64 = 1 << 16;
/// The most plies [`random_variant`] plays.
pub const RANDOM_VARIANT_PLIES: usize = 48;

/// Reads the fuzz input a few bits at a time (zeros once it runs out).
struct Bytes<'a>(&'a [u8]);

impl Bytes<'_> {
    fn byte(&mut self) -> u8 {
        match self.0.split_first() {
            Some((&b, rest)) => {
                self.0 = rest;
                b
            }
            None => 0,
        }
    }
    /// A number below `n` (n >= 1).
    fn below(&mut self, n: usize) -> usize {
        self.byte() as usize % n
    }
    fn flag(&mut self) -> bool {
        self.byte() & 1 == 1
    }
    /// A subset of the eight directions, as a TOML array.
    fn dirs(&mut self) -> String {
        const DIRS: [&str; 8] = ["F", "B", "L", "R", "FL", "FR", "BL", "BR"];
        let mask = self.byte();
        let list: Vec<String> = (0..8)
            .filter(|i| mask & (1 << i) != 0)
            .map(|i| format!("\"{}\"", DIRS[i]))
            .collect();
        format!("[{}]", list.join(", "))
    }
    /// One of `words`, quoted.
    fn word(&mut self, words: &[&str]) -> String {
        format!("\"{}\"", words[self.below(words.len())])
    }
}

/// The text of a root variant file made from the input: a board up to
/// 16×16, and every rule key chosen by the input's bytes.
pub fn random_variant_text(data: &[u8]) -> String {
    let mut b = Bytes(data);
    let width = 2 + b.below(15);
    let height = 3 + b.below(14);
    let squares = b.word(&["all", "dark"]);
    let rows = 1 + b.below((height - 1) / 2);
    let file = (b'a' + width as u8 - 1) as char;
    let white = format!("a1-{file}{rows}");
    let black = format!("a{}-{file}{height}", height + 1 - rows);
    let first = b.word(&["white", "black"]);
    let men_moves = b.dirs();
    let men_captures = b.dirs();
    let friendly = if b.below(4) == 0 { b.dirs() } else { "[]".to_string() };
    let over = b.word(&["men", "any"]);
    let chain = b.flag();
    let linear = if b.below(8) == 0 { b.dirs() } else { "[]".to_string() };
    let capture_kings = b.below(4) != 0;
    let king_moves = b.dirs();
    let move_range = match b.below(4) {
        0 => "\"flying\"".to_string(),
        n => n.to_string(),
    };
    let king_captures = b.dirs();
    let capture_range = b.word(&["flying", "short"]);
    let landing = b.word(&["any_beyond", "adjacent_beyond"]);
    let must_continue = b.below(4) == 0;
    let halt = b.below(4) == 0;
    let max_moves = if b.below(4) == 0 { b.below(4) } else { 0 };
    let mandatory = b.below(4) != 0;
    let majority = b.word(&["none", "max_pieces", "max_value"]);
    let man_value = 1 + b.below(3);
    let king_value = 1 + b.below(5);
    let priority = match b.below(6) {
        0 => "[\"by_king\"]",
        1 => "[\"most_kings\"]",
        2 => "[\"kings_first\"]",
        3 => "[\"by_king\", \"most_kings\"]",
        _ => "[]",
    };
    let removal = b.word(&["immediate", "end_of_move"]);
    let no_reversal = b.flag();
    let mid = b.word(&[
        "continue_as_man",
        "promote_and_continue",
        "promote_and_continue_any_direction",
        "stop",
    ]);
    let no_move = b.word(&["loss", "win", "draw", "pass"]);
    let lone = b.word(&["king_beats_lone_man", "one_each_draw", "none"]);
    let kvk = b.word(&["draw", "none"]);
    let crowning = b.word(&["none", "none", "none", "wins"]);
    let draw_plies = [0, 0, 2, 20, 50][b.below(5)];
    format!(
        "id = \"fuzz\"\nname = \"Fuzz\"\n\
         [board]\nwidth = {width}\nheight = {height}\nsquares = {squares}\n\
         [setup]\nwhite = [\"{white}\"]\nblack = [\"{black}\"]\nfirst = {first}\n\
         [men]\nmoves = {men_moves}\ncaptures = {men_captures}\nfriendly_jumps = {friendly}\n\
         friendly_jump_over = {over}\nfriendly_jump_chain = {chain}\nlinear_moves = {linear}\n\
         capture_kings = {capture_kings}\n\
         [kings]\nmoves = {king_moves}\nmove_range = {move_range}\ncaptures = {king_captures}\n\
         capture_range = {capture_range}\nlanding = {landing}\nlanding_must_continue = {must_continue}\n\
         halt_behind_king = {halt}\nmax_consecutive_moves = {max_moves}\n\
         [capture]\nmandatory = {mandatory}\nmajority = {majority}\nman_value = {man_value}\n\
         king_value = {king_value}\npriority = {priority}\nremoval = {removal}\nno_reversal = {no_reversal}\n\
         promote_mid_capture = {mid}\n\
         [promotion]\nrank = \"last\"\n\
         [end]\nno_legal_move = {no_move}\nthreefold_repetition = true\nlone_piece = {lone}\n\
         king_vs_king = {kvk}\nno_capture_draw_plies = {draw_plies}\ncrowning = {crowning}\n"
    )
}

/// A random variant built from the input ([`random_variant_text`]): on
/// success, random legal moves (chosen by the rest of the input) are played
/// from its initial position, each checked to resolve back from its
/// notation. Bounded per input: at most [`RANDOM_VARIANT_PLIES`] plies, and
/// a position whose captures need more than [`RANDOM_VARIANT_JUMPS`] jumps
/// of search ends the game (`Rules::generate_within`).
pub fn random_variant(data: &[u8]) {
    // The first 40 bytes make the rules; the rest choose the moves.
    let (rules_bytes, moves_bytes) = data.split_at(data.len().min(40));
    let text = random_variant_text(rules_bytes);
    let loaded = match load_text("fuzz.toml", &text, None) {
        Ok(l) => l,
        Err(e) => {
            let _ = e.to_string();
            return;
        }
    };
    let r = &loaded.rules;
    let mut pos = r.start_position();
    let mut list = dama_engine::MoveList::new();
    let mut choose = Bytes(moves_bytes);
    for _ in 0..RANDOM_VARIANT_PLIES {
        if !r.generate_within(&pos, &mut list, RANDOM_VARIANT_JUMPS) {
            break;
        }
        if list.is_empty() {
            break;
        }
        let i = (choose.byte() as usize | (choose.byte() as usize) << 8) % list.len();
        let m = list.as_slice()[i];
        if !m.is_pass() {
            let full = r.format_move_full(&pos, &m);
            assert_eq!(
                r.resolve_move(&pos, &full),
                Ok(m),
                "`{full}` does not resolve back\n{text}"
            );
        }
        // The counter agrees with the list (the same capture tree: as bounded).
        let n = r.count_moves(&pos, dama_engine::CountMode::Moves);
        assert_eq!(n, list.len() as u64, "count_moves differs from the list\n{text}");
        pos.play(&m);
    }
}
