//! Frisian's two rule parameters outside the move lists (which the
//! differential test and the rule cases check): orthogonal directions on
//! dark boards in validation and words, and the king runs of
//! `kings.max_consecutive_moves` in positions, FEN, keys and games.

use dama_engine::{search::position_key, Code, Color, Game, Position, Rules, Square};

fn frisian() -> Rules {
    Rules::builtin("frisian").unwrap()
}

fn sq(rules: &Rules, n: &str) -> Square {
    rules.parse_square(n).unwrap()
}

#[test]
fn a_fen_with_king_runs_reads_and_writes_back() {
    let r = frisian();
    for fen in [
        "W:WK28,46:B5:KW28/3",
        "B:WK28,46:B5,K30:KW28/1,B30/2",
        "W:W31,32:B19",
        "B:WK28,46:B5,K30:KB30/3",
    ] {
        let pos = r.parse_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        assert_eq!(r.to_fen(&pos), fen);
    }
    let pos = r.parse_fen("W:W46,K28:B5:KW28/3").unwrap();
    assert_eq!(pos.king_run(Color::White), Some((sq(&r, "28"), 3)));
    assert_eq!(pos.king_run(Color::Black), None);
    // The section may come anywhere, and squares may be algebraic.
    let same = r.parse_fen("W:KWe5/3:W46,K28:B5").unwrap();
    assert_eq!(same, pos);
}

#[test]
fn a_bad_king_run_is_refused_with_a_reason() {
    let r = frisian();
    for (fen, says) in [
        ("W:W46,K28:B5:KW28/4", "1 to 3"),
        ("W:W46,K28:B5:KW28/0", "1 to 3"),
        ("W:W46,K28:B5:KW27/1", "no White king on 27"),
        ("W:W46,K28:B5:KB28/1", "no Black king on 28"),
        ("W:WK28:B5:KW28/1", "White has no men"),
        ("W:W46,K28:B5:KW28/1,W28/2", "given twice"),
        ("W:W46,K28:B5:KW28", "no count"),
        ("W:W46,K28:B5:KW28/1:KW28/1", "given twice"),
        ("W:W46,K28:B5:KX28/1", "a king run is a side"),
    ] {
        let e = r.parse_fen(fen).unwrap_err();
        assert!(e.message.contains(says), "{fen}: {e}");
    }
    // A variant without the limit has no runs to read.
    let e = Rules::builtin("international")
        .unwrap()
        .parse_fen("W:W46,K28:B5:KW28/1")
        .unwrap_err();
    assert!(e.message.contains("does not limit"), "{e}");
}

#[test]
fn positions_of_variants_without_the_limit_are_unchanged() {
    for id in ["international", "russian", "dama"] {
        let r = Rules::builtin(id).unwrap();
        let mut pos = r.start_position();
        let before = position_key(&pos);
        let moves = r.legal_moves(&pos);
        pos.play(&moves.as_slice()[0]);
        assert_eq!(pos.king_run(Color::White), None, "{id}");
        assert!(!r.to_fen(&pos).contains(":K"), "{id}");
        assert_ne!(before, position_key(&pos));
    }
    // A king's moves leave no run either.
    let r = Rules::builtin("international").unwrap();
    let mut g = Game::from_position(r.clone(), r.parse_fen("W:W46,K28:B5").unwrap());
    g.play_text("28-23").unwrap();
    assert_eq!(g.position().king_run(Color::White), None);
}

#[test]
fn the_runs_advance_start_and_end_with_the_moves() {
    let r = frisian();
    let mut g = Game::from_position(r.clone(), r.parse_fen("W:WK36,47,K50:BK1,3").unwrap());
    let run = |g: &Game, c| g.position().king_run(c).map(|(s, n)| (r.square_name(s), n));
    g.play_text("50-44").unwrap();
    assert_eq!(run(&g, Color::White), Some(("44".into(), 1)));
    g.play_text("1-7").unwrap();
    // Black has a man on 3: its king runs too.
    assert_eq!(run(&g, Color::Black), Some(("7".into(), 1)));
    g.play_text("44-50").unwrap();
    g.play_text("7-1").unwrap();
    assert_eq!(run(&g, Color::White), Some(("50".into(), 2)));
    // Another king starts a run of one.
    g.play_text("36-41").unwrap();
    assert_eq!(run(&g, Color::White), Some(("41".into(), 1)));
    g.play_text("1-7").unwrap();
    // A man's move ends it.
    g.play_text("47-42").unwrap();
    assert_eq!(run(&g, Color::White), None);
    assert_eq!(run(&g, Color::Black), Some(("7".into(), 3)));
    // Black's king is at its limit: only the man on 3 may move.
    let mut moves: Vec<String> = g
        .legal_moves()
        .iter()
        .map(|m| r.format_move_short(g.position(), m))
        .collect();
    moves.sort();
    assert_eq!(moves, ["3-8", "3-9"]);
}

#[test]
fn runs_are_part_of_the_position_and_its_key() {
    let r = frisian();
    let plain = r.parse_fen("W:W46,K28:B5").unwrap();
    let run1 = r.parse_fen("W:W46,K28:B5:KW28/1").unwrap();
    let run3 = r.parse_fen("W:W46,K28:B5:KW28/3").unwrap();
    assert_ne!(plain, run1);
    assert_ne!(run1, run3);
    let keys = [position_key(&plain), position_key(&run1), position_key(&run3)];
    assert!(keys[0] != keys[1] && keys[1] != keys[2] && keys[0] != keys[2]);
    // A position built by hand equals the one read, once the rules track it.
    let mut hand = Position::from_parts(
        plain.pieces(Color::White),
        plain.pieces(Color::Black),
        plain.all_kings(),
        Color::White,
    );
    hand.set_king_run(Color::White, Some((sq(&r, "28"), 3)));
    assert_eq!(r.track_runs(hand), run3);
    assert_eq!(position_key(&hand), position_key(&run3));
    // Its legal moves differ: the king at its limit makes no move.
    assert_eq!(r.legal_moves(&run3).len(), 1);
    assert_eq!(r.legal_moves(&run1).len(), 16);
}

#[test]
fn orthogonal_moves_on_dark_squares_are_warned_about_but_not_captures() {
    let load = |text: &str| dama_engine::load_text("t.toml", text, None).unwrap();
    let frisian = load("extends = \"frisian\"\nid = \"f\"\nname = \"f\"\n");
    assert!(
        frisian.warnings.iter().all(|w| w.code != Code::W0307),
        "{:?}",
        frisian.warnings
    );
    let odd = load("extends = \"frisian\"\nid = \"f\"\nname = \"f\"\n[kings]\nmoves = [\"FL\", \"F\"]\n");
    let w: Vec<_> = odd.warnings.iter().filter(|w| w.code == Code::W0307).collect();
    assert_eq!(w.len(), 1, "{:?}", odd.warnings);
    assert!(w[0].message.contains("two squares"), "{}", w[0].message);
}

#[test]
fn dama_show_says_both_rules_in_words() {
    let text: Vec<String> = frisian().describe().into_iter().flat_map(|s| s.lines).collect();
    let text = text.join("\n");
    assert!(text.contains("the next dark one, two squares away"), "{text}");
    assert!(text.contains("at most 3 non-capturing moves in a row"), "{text}");
    let russian: Vec<String> = Rules::builtin("russian")
        .unwrap()
        .describe()
        .into_iter()
        .flat_map(|s| s.lines)
        .collect();
    assert!(!russian.join("\n").contains("in a row;"));
}
