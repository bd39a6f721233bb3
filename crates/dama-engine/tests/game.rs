//! The game: move explanations, end-of-game rules, undo and redo.

use dama_engine::{EndReason, Game, GameResult, Outcome, PlayError};
use dama_engine::{MoveError, Rules};

fn rules(id: &str) -> Rules {
    Rules::builtin(id).unwrap()
}

/// Each case: variant, FEN, typed text; the answer is the error (or the move).
fn explain(cases: &[(&str, &str, &str)]) -> String {
    let mut out = String::new();
    for (variant, fen, text) in cases {
        let r = rules(variant);
        let pos = r.parse_fen(fen).unwrap();
        let answer = match r.resolve_move(&pos, text) {
            Ok(m) => format!("ok {}", r.format_move_full(&pos, &m)),
            Err(e) => e.to_string(),
        };
        out.push_str(&format!("{variant:<10} {fen:<28} {text:<14} => {answer}\n"));
    }
    out
}

#[test]
fn move_explanations() {
    let cases = [
        // Reading liberally.
        ("dama", "W:Wd3:Ba7", "d3-d4"),
        ("dama", "W:Wd3:Ba7", "d3d4"),
        ("dama", "W:Wd3:Ba7", "D3-D4"),
        ("dama", "W:Wd4:Bd5,f6,h7", "d4xd6"),
        ("dama", "W:Wd4:Bd5,e6", "d4:d6xf6"),
        ("dama", "W:Wd4:Bd5,e6", "d4xf6"),
        ("dama", "W:WKa5:Bb5,e5", "a5xf5"),
        ("dama", "W:WKa5:Bb5,e5", "a5xc5xf5"),
        ("dama", "W:WKd4:Bd6,f5,f3", "d4xf4"),
        // Why not.
        ("dama", "W:Wd3:Ba7", "e3-e4"),
        ("dama", "W:Wd3:Ba7", "a7-a6"),
        ("dama", "W:Wd3:Ba7", "d3-d2"),
        ("dama", "W:Wd3:Ba7", "d3-e4"),
        ("dama", "W:Wd3:Ba7", "d3-d5"),
        ("dama", "W:Wd3,d4:Ba7", "d3-d4"),
        ("dama", "W:Wd3,e4:Be5", "d3-d4"),
        ("dama", "W:Wd4,e4:Bd5,d7,e5", "d4xd6"),
        ("dama", "W:Wd4:Bd5,d7,f6", "d4xd6"),
        ("dama", "W:Wd4:Bd5,d7,f6,f8", "d4xd6xd8"),
        ("dama", "W:WKd1:Ba7", "d1-e2"),
        ("dama", "W:WKd1,d3:Ba7", "d1-d5"),
        ("dama", "W:WKd1:Ba7,d3,d4", "d1xd5"),
        ("dama", "W:WKd5:Bd3,d7", "d5xd8xd1"),
        ("dama", "W:Wd4:Bd3", "d4xd2"),
        ("dama", "W:Wd4:Ba7", "d4xd6"),
        ("dama", "W:Wd4,d5:Ba7", "d4xd6"),
        ("dama", "W:Wd4:Bd5,e5", "d4xd6xf6"),
        ("dama", "W:Wd4:Ba7,d5", "d4-e5"),
        ("dama", "W:Wd4:Ba7,d5", "d4-d9"),
        ("dama", "W:Wd4:Ba7,d5", "d4"),
        ("dama", "W:Wd4:Ba7,d5", "d4-e6"),
        ("dama", "B:Wd4:Ba7,d5", "a7-a8"),
        ("dama", "B:Wd4:Ba7,d5", "a7-b6"),
        ("armenian", "W:Wd4:Bh8", "d4-c3"),
        ("armenian", "W:WKd4:Bf6", "d4xg7"),
        ("croda", "W:We5:Bh8", "e5-d5"),
        ("croda", "W:WKd1:Bd3,f5,h4,b3", "d1xd5xh5xh3xa3"),
        ("keny", "W:Wd4,d5:Bh8", "d4-d6"),
        ("keny", "W:Wd4,c5:Bh8", "d4-d6"),
        ("keny", "W:Wd4:Bd5,c4,b5", "d4xb4"),
        ("keny-majority", "W:Wd4:Bd5,c4,b5", "d4xd6"),
        ("dameo", "W:Wd1,d2:Bh8", "d1-d4"),
        ("dameo", "W:Wd1,d2:Bh8", "d1-d3"),
        ("dama-promote-and-continue", "W:Wd6:Bd7,c8", "d6xd8"),
        ("armenian-schmidt", "W:WKd4:Bh8", "d4-d7"),
        ("armenian-schmidt", "W:WKd4:Bd6", "d4xd7"),
        ("dama", "W:Wd4:Ba7", "d4-d4"),
        ("dama", "W:Wd4:Ba7", "d4xd4"),
        ("dama", "W:Wd4:Bd5,h8", "d4-c4"),
        // Diagonal variants, numbered squares.
        ("english", "B:W21,22:B9,10", "9-5"),
        ("english", "B:W21,22:B9,10", "9-13"),
        ("english", "B:W21,22:B9,10", "9-18"),
        ("english", "B:W21,22:B9,10", "10-11"),
        ("english", "B:W18,22:B14,10", "14-18"),
        ("english", "B:W18,22:B14,10", "10-15"),
        ("english", "W:WK18:B1", "18-23"),
        ("english", "W:WK18:B1", "18-25"),
        ("russian", "W:Wc3:Bd4,h8", "c3-d4"),
        ("russian", "W:Wc3:Bd4,h8", "c3-b4"),
        ("russian", "W:Wc3:Bh8", "c3-c4"),
        ("russian", "W:WKa1:Bh8,d4", "a1-e5"),
    ];
    insta::assert_snapshot!(explain(&cases));
}

#[test]
fn ambiguous_input_lists_the_candidates() {
    let r = rules("dama");
    let pos = r.parse_fen("W:WKg2:Ba3,b6,b7,g5").unwrap();
    let err = r.resolve_move(&pos, "g2xa2").unwrap_err();
    assert_eq!(
        err.to_string(),
        "`g2xa2` is ambiguous: it could be g2xg6xa6xa2, g2xg7xa7xa2"
    );
    assert!(matches!(err, MoveError::Ambiguous { ref candidates, .. } if candidates.len() == 2));
    // The full path, or just the square where the paths part, settles it.
    let m = r.resolve_move(&pos, "g2xg7xa7xa2").unwrap();
    assert_eq!(r.resolve_move(&pos, "g2xg7xa2").unwrap(), m);
    assert_eq!(r.resolve_move(&pos, "g2:g7:a2").unwrap(), m);
    assert_eq!(r.format_move_short(&pos, &m), "g2xg7xa2");
}

fn game(variant: &str, fen: &str) -> Game {
    let r = rules(variant);
    let pos = r.parse_fen(fen).unwrap();
    Game::from_position(r, pos)
}

fn play_all(g: &mut Game, moves: &str) {
    for m in moves.split_whitespace() {
        assert!(g.outcome().is_none(), "game over before {m}: {:?}", g.outcome());
        g.play_text(m).unwrap_or_else(|e| panic!("{m}: {e}"));
    }
}

fn ended(g: &Game) -> String {
    g.outcome()
        .map_or("goes on".into(), |o| format!("{} {o}", o.result.pdn()))
}

#[test]
fn no_legal_move_loses() {
    // Black's man on a3 is walled in: no step, no capture.
    let g = game("dama", "B:Wa1,a2,b3,c3:Ba3");
    assert_eq!(ended(&g), "1-0 White wins: Black has no legal move");
    assert_eq!(
        g.outcome().unwrap(),
        Outcome::new(GameResult::WhiteWins, EndReason::NoLegalMove(dama_engine::Color::Black))
    );
    // Capturing the last piece.
    let mut g = game("dama", "W:Wd4,h2:Bd5");
    play_all(&mut g, "d4xd6");
    assert_eq!(ended(&g), "1-0 White wins: Black has no pieces left");
    // Nothing more can be played.
    assert!(matches!(g.play_text("h2-h3"), Err(PlayError::GameOver(_))));
    assert_eq!(
        g.play_text("h2-h3").unwrap_err().to_string(),
        "the game is over (White wins: Black has no pieces left)"
    );
}

#[test]
fn no_legal_move_result_follows_the_variant_file() {
    for (setting, expected) in [("win", "0-1"), ("draw", "1/2-1/2"), ("loss", "1-0")] {
        let text = format!("extends = \"dama\"\nid = \"t\"\nname = \"t\"\n[end]\nno_legal_move = \"{setting}\"\n");
        let r = dama_engine::load_text("t.toml", &text, None).unwrap().rules;
        let pos = r.parse_fen("B:Wa1,a2,b3,c3:Ba3").unwrap();
        let g = Game::from_position(r, pos);
        assert_eq!(g.outcome().unwrap().result.pdn(), expected, "{setting}");
    }
}

#[test]
fn king_beats_lone_man() {
    // Judged at the start of a turn.
    assert_eq!(
        ended(&game("dama", "B:WKa1:Bh7")),
        "1-0 White wins: king against lone man"
    );
    assert_eq!(
        ended(&game("dama", "W:Wa2:BKh8")),
        "0-1 Black wins: king against lone man"
    );
    // Reached by a capture.
    let mut g = game("dama", "W:WKd1:Bd5,h7");
    play_all(&mut g, "d1xd6");
    assert_eq!(ended(&g), "1-0 White wins: king against lone man");
    // Not while the side to move can capture (lone_piece_unless_capture): the man takes the king.
    let mut g = game("dama", "B:WKd4:Bd5");
    assert_eq!(ended(&g), "goes on");
    play_all(&mut g, "d5xd3");
    assert_eq!(ended(&g), "0-1 Black wins: White has no pieces left");
    // Man against man and king against king play on in Turkish draughts.
    assert_eq!(ended(&game("dama", "W:Wa2:Bh7")), "goes on");
    assert_eq!(ended(&game("dama", "W:WKa1:BKh8")), "goes on");
}

#[test]
fn lone_piece_unless_capture_can_be_switched_off() {
    let text = "extends = \"dama\"\nid = \"t\"\nname = \"t\"\n[end]\nlone_piece_unless_capture = false\n";
    let r = dama_engine::load_text("t.toml", text, None).unwrap().rules;
    let pos = r.parse_fen("B:WKd4:Bd5").unwrap();
    assert_eq!(
        ended(&Game::from_position(r, pos)),
        "1-0 White wins: king against lone man"
    );
}

#[test]
fn one_each_draw() {
    assert_eq!(
        ended(&game("dama-one-each-draw", "W:Wa2:Bh7")),
        "1/2-1/2 Draw: one piece each"
    );
    assert_eq!(
        ended(&game("dama-one-each-draw", "B:WKa1:Bh7")),
        "1/2-1/2 Draw: one piece each"
    );
    // A capture available is played first.
    assert_eq!(ended(&game("dama-one-each-draw", "B:WKd4:Bd5")), "goes on");
}

#[test]
fn king_against_king() {
    assert_eq!(ended(&game("dameo", "W:WKa1:BKh8")), "1/2-1/2 Draw: king against king");
    // Unless the side to move can capture: then it captures and wins.
    let mut g = game("dameo", "W:WKd4:BKd6");
    assert_eq!(ended(&g), "goes on");
    play_all(&mut g, "d4xd8");
    assert_eq!(ended(&g), "1-0 White wins: Black has no pieces left");
}

#[test]
fn threefold_repetition() {
    let mut g = game("dama", "W:WKa1,b1:BKh8,g8");
    play_all(&mut g, "a1-a2 h8-h7 a2-a1 h7-h8");
    assert_eq!(g.repetitions(), 2);
    play_all(&mut g, "a1-a2 h8-h7 a2-a1");
    assert_eq!(ended(&g), "goes on");
    play_all(&mut g, "h7-h8");
    assert_eq!(g.repetitions(), 3);
    assert_eq!(ended(&g), "1/2-1/2 Draw: threefold repetition");
    // The same squares with the other side to move do not count.
    let mut g = game("dama", "W:WKa1,b1:BKh8,g8");
    play_all(&mut g, "a1-a3 h8-h7 a3-a2 h7-h8 a2-a1");
    let a1_b1: dama_engine::Bitboard = ["a1", "b1"]
        .iter()
        .filter_map(|s| dama_engine::Square::parse_algebraic(s))
        .collect();
    assert_eq!(a1_b1.count(), 2);
    assert_eq!(g.position().pieces(dama_engine::Color::White), a1_b1);
    assert_eq!(g.repetitions(), 1);
    assert_eq!(ended(&g), "goes on");
}

#[test]
fn threefold_can_be_switched_off() {
    let text = "extends = \"dama\"\nid = \"t\"\nname = \"t\"\n[end]\nthreefold_repetition = false\n";
    let r = dama_engine::load_text("t.toml", text, None).unwrap().rules;
    let pos = r.parse_fen("W:WKa1,b1:BKh8,g8").unwrap();
    let mut g = Game::from_position(r, pos);
    play_all(&mut g, "a1-a2 h8-h7 a2-a1 h7-h8 a1-a2 h8-h7 a2-a1 h7-h8 a1-a2");
    assert_eq!(ended(&g), "goes on");
}

/// Kings touring without repeating a position: white up the a-file and back
/// along the 8th rank, black down the h-file and along the 1st rank.
const TOUR: &str = "a1-a2 h8-h7 a2-a3 h7-h6 a3-a4 h6-h5 a4-a5 h5-h4 a5-a6 h4-h3 a6-a7 h3-h2 \
                    a7-a8 h2-h1 a8-b8 h1-g1 b8-c8 g1-f1 c8-d8 f1-e1 d8-e8 e1-d1";

#[test]
fn no_capture_ply_limit() {
    // Keny: 20 plies without a capture draw.
    let mut g = game("keny", "W:WKa1:BKh8");
    let moves: Vec<&str> = TOUR.split_whitespace().collect();
    play_all(&mut g, &moves[..19].join(" "));
    assert_eq!(g.no_capture_plies(), 19);
    assert_eq!(ended(&g), "goes on");
    play_all(&mut g, moves[19]);
    assert_eq!(ended(&g), "1/2-1/2 Draw: 20 plies without a capture");
    // A capture starts the count again.
    let mut g = game("keny", "W:Wd4,a2:Bd5,h7");
    play_all(&mut g, "d4xd6 h7-h6");
    assert_eq!(g.no_capture_plies(), 1);
    // Turkish draughts has no such limit.
    let mut g = game("dama", "W:WKa1:BKh8");
    play_all(&mut g, TOUR);
    assert_eq!(ended(&g), "goes on");
}

#[test]
fn kings_only_ply_limit() {
    let text = "extends = \"dama\"\nid = \"t\"\nname = \"t\"\n[end]\nkings_only_draw_plies = 6\n";
    let r = dama_engine::load_text("t.toml", text, None).unwrap().rules;
    let pos = r.parse_fen("W:WKa1,b2:BKh8,g7").unwrap();
    let mut g = Game::from_position(r.clone(), pos);
    play_all(&mut g, "a1-b1 h8-g8 b1-c1 g8-f8 c1-d1");
    assert_eq!(g.kings_only_plies(), 5);
    assert_eq!(ended(&g), "goes on");
    play_all(&mut g, "f8-e8");
    assert_eq!(ended(&g), "1/2-1/2 Draw: 6 plies of king moves without a capture");
    // A man's move starts the count again.
    let mut g = Game::from_position(r, pos);
    play_all(&mut g, "a1-b1 h8-g8 b1-c1 g8-f8 b2-b3 f8-e8 c1-d1 e8-d8 d1-e1 d8-c8");
    assert_eq!(g.kings_only_plies(), 5);
    assert_eq!(ended(&g), "goes on");
}

#[test]
fn resignation_agreement_and_declared_ends() {
    let mut g = Game::new(rules("dama"));
    play_all(&mut g, "d3-d4");
    g.resign(dama_engine::Color::Black).unwrap();
    assert_eq!(ended(&g), "1-0 White wins: Black resigned");
    assert!(g.agree_draw().is_err());
    // Undo takes the resignation back along with the last ply.
    assert!(g.can_undo());
    g.undo();
    assert_eq!(ended(&g), "goes on");
    assert_eq!(g.ply_count(), 0);
    g.agree_draw().unwrap();
    assert_eq!(ended(&g), "1/2-1/2 Draw: draw by agreement");
    // Undo with no ply: only the agreement is taken back.
    assert_eq!(g.undo(), None);
    assert_eq!(ended(&g), "goes on");
    g.declare(Outcome::new(
        GameResult::BlackWins,
        EndReason::TimeForfeit(dama_engine::Color::White),
    ))
    .unwrap();
    assert_eq!(ended(&g), "0-1 Black wins: White lost on time");
    g.undo();
    g.declare(Outcome::new(GameResult::Draw, EndReason::PlyLimit(300)))
        .unwrap();
    assert_eq!(ended(&g), "1/2-1/2 Draw: adjudicated after 300 plies");
}

#[test]
fn undo_and_redo() {
    let r = rules("dama");
    let mut g = Game::new(r.clone());
    assert_eq!(g.undo(), None);
    assert_eq!(g.redo(), None);
    play_all(&mut g, "d3-d4 a6-a5 e3-e4");
    let after3 = *g.position();
    assert_eq!(g.move_number(), 2);
    let m = g.undo().unwrap();
    assert_eq!(r.format_move_full(g.position(), &m), "e3-e4");
    g.undo();
    assert_eq!(g.ply_count(), 1);
    assert!(g.can_redo());
    g.redo();
    g.redo();
    assert_eq!(*g.position(), after3);
    assert!(!g.can_redo());
    // A different move after undo clears what redo would have played.
    g.undo();
    play_all(&mut g, "a3-a4");
    assert!(!g.can_redo());
    // Playing the move redo would play keeps the rest of the redo list.
    g.undo();
    g.undo();
    play_all(&mut g, "a6-a5");
    assert!(g.can_redo());
    assert_eq!(g.plies().len(), 2);
    assert_eq!(g.plies()[1].notation, "a6-a5");
    assert_eq!(g.plies()[1].side(), dama_engine::Color::Black);
    // Positions: the start, then one per ply.
    assert_eq!(g.positions().count(), 3);
}

#[test]
fn undo_reopens_a_finished_game_and_the_counters_follow() {
    let mut g = game("keny", "W:WKa1:BKh8");
    play_all(
        &mut g,
        TOUR.split_whitespace().take(20).collect::<Vec<_>>().join(" ").as_str(),
    );
    assert!(g.is_over());
    g.undo();
    assert!(!g.is_over());
    assert_eq!(g.no_capture_plies(), 19);
    g.redo();
    assert_eq!(ended(&g), "1/2-1/2 Draw: 20 plies without a capture");
}

#[test]
fn play_checks_moves_given_directly() {
    let r = rules("dama");
    let mut g = Game::new(r.clone());
    let at = |s: &str| dama_engine::Square::parse_algebraic(s).unwrap();
    let other = dama_engine::Move::quiet(at("d2"), at("d5"), false, false);
    assert_eq!(g.play(other).unwrap_err().to_string(), "d2-d5 is not a legal move here");
    let first = g.legal_moves().as_slice()[0];
    g.play(first).unwrap();
    assert_eq!(g.ply_count(), 1);
    assert_eq!(g.plies()[0].before, r.start_position());
}

#[test]
fn a_game_from_a_position_numbers_its_moves() {
    let g = game("dama", "B:Wd3:Bd6,a7");
    assert!(!g.starts_from_initial());
    assert_eq!(g.move_number_of(0), 1);
    assert_eq!(g.move_number_of(1), 2);
    let g = Game::new(rules("dama"));
    assert!(g.starts_from_initial());
    assert_eq!(g.move_number_of(1), 1);
    assert_eq!(g.move_number_of(2), 2);
}

/// Explanations that name a rule parameter come from the generator with
/// that one rule relaxed: the move becomes legal without it.
#[test]
fn explanations_ask_the_generator_with_one_rule_relaxed() {
    let variant = |extra: &str| {
        let text = format!("extends = \"dama\"\nid = \"probe\"\nname = \"Probe\"\n{extra}");
        dama_engine::load_text("probe.toml", &text, None).unwrap().rules
    };
    let why = |r: &Rules, fen: &str, text: &str| {
        let pos = r.parse_fen(fen).unwrap();
        r.resolve_move(&pos, text).unwrap_err().to_string()
    };
    let stop = variant("[capture]\npromote_mid_capture = \"stop\"\n");
    assert_eq!(
        why(&stop, "W:Wd6:Bd7,c8", "d6xd8xb8"),
        "`d6xd8xb8` is not a legal move here: the man is crowned on d8 and its move ends there"
    );
    let adjacent = variant("[kings]\nlanding = \"adjacent_beyond\"\n");
    assert_eq!(
        why(&adjacent, "W:WKd1:Bd4,h8", "d1xd7"),
        "`d1xd7` is not a legal move here: a king lands right behind the piece it captures here"
    );
    let reversal = rules("dama");
    assert_eq!(
        why(&reversal, "W:WKd5:Bd3,d7", "d5xd8xd1"),
        "`d5xd8xd1` is not a legal move here: a piece may not turn back 180° between two jumps in this variant"
    );
}

/// (issue 18) A study position may put a man on its own promotion rank when
/// asked: it stays a man, and only a move ending on that rank crowns it.
#[test]
fn men_on_their_promotion_rank_in_study_positions() {
    use dama_engine::{perft, Color, CountMode, Engine, FenOptions, Limits, SearchRoot};
    let study = FenOptions {
        allow_men_on_promotion_rank: true,
    };
    let read = |id: &str, fen: &str| {
        let r = Rules::builtin(id).unwrap();
        let e = r.parse_fen(fen).unwrap_err();
        assert!(
            e.message.contains("stand on their own promotion rank"),
            "{id} {fen}: {e}"
        );
        let pos = r
            .parse_fen_with(fen, study)
            .unwrap_or_else(|e| panic!("{id} {fen}: {e}"));
        assert_eq!(r.parse_fen_with(&r.to_fen(&pos), study).unwrap(), pos, "{id} {fen}");
        (r, pos)
    };
    let moves = |r: &Rules, pos: &dama_engine::Position| -> Vec<(String, bool)> {
        let mut v: Vec<(String, bool)> = r
            .legal_moves(pos)
            .iter()
            .map(|m| (r.format_move_full(pos, m), m.promotes()))
            .collect();
        v.sort();
        v
    };
    // Turkish: a sideways step along the last rank crowns the man; it is not
    // crowned where it stands.
    let (dama, pos) = read("dama", "W:Wa8:Bh6");
    assert_eq!(pos.kings(Color::White), dama_engine::Bitboard::EMPTY);
    assert_eq!(moves(&dama, &pos), [("a8-b8".to_string(), true)]);
    // A capture along that rank ends on it: crowned too.
    let (dama, pos) = read("dama", "W:Wa8:Bb8,h6");
    assert_eq!(moves(&dama, &pos), [("a8xc8".to_string(), true)]);
    // Russian: a backward capture leaves the rank, and the man stays a man.
    let (russian, pos) = read("russian", "W:Wb8:Bc7,h2");
    assert_eq!(moves(&russian, &pos), [("b8xd6".to_string(), false)]);
    // A man that only steps forward simply stands there: no move.
    let (russian, pos) = read("russian", "W:Wb8,c3:Bh8");
    assert_eq!(
        moves(&russian, &pos),
        [("c3-b4".to_string(), false), ("c3-d4".to_string(), false)]
    );
    // Counting and searching take such positions like any other.
    assert_eq!(
        perft(
            &dama,
            &dama.parse_fen_with("W:Wa8:Bh6", study).unwrap(),
            2,
            CountMode::Moves
        ),
        2
    );
    let mut engine = Engine::new(&russian);
    assert!(engine.search(&SearchRoot::new(pos), &Limits::depth(4)).best.is_some());
}

/// Schmidt's Armenian rules: ranks 6 and 7 full of White men under Black's
/// eight men on rank 8 block both sides.
const WALL: &str = "a6,b6,c6,d6,e6,f6,g6,h6,a7,b7,c7,d7,e7,f7,g7,h7";
const ROOF: &str = "a8,b8,c8,d8,e8,f8,g8,h8";

#[test]
fn a_blocked_side_passes_where_the_variant_says_so() {
    // Black's man on a2 is walled in: in Armenian draughts Black has lost,
    // in Schmidt's rules Black passes and the game goes on.
    let g = game("armenian", "B:Wa1,b1,b2,c2:Ba2");
    assert_eq!(ended(&g), "1-0 White wins: Black has no legal move");
    let mut g = game("armenian-schmidt", "B:Wa1,b1,b2,c2:Ba2");
    assert_eq!(ended(&g), "goes on");
    let legal = g.legal_moves().to_vec();
    assert_eq!(legal.len(), 1);
    assert!(legal[0].is_pass() && !legal[0].is_capture() && !legal[0].is_king_move());
    assert_eq!(g.rules().format_move_full(g.position(), &legal[0]), "--");
    // The pass, typed as -- or pass, hands the turn to White, who must capture
    // the last black piece: Black has no pieces left, and loses.
    let before = *g.position();
    play_all(&mut g, "--");
    assert_eq!(g.plies()[0].notation, "--");
    assert_eq!(g.position().side_to_move(), dama_engine::Color::White);
    assert_eq!(g.position().occupied(), before.occupied());
    play_all(&mut g, "a1xa3");
    assert_eq!(ended(&g), "1-0 White wins: Black has no pieces left");
    // `pass` is read too; a pass that is not the one move is refused, with the reason.
    let mut g = game("armenian-schmidt", "B:Wa1,b1,b2,c2:Ba2");
    play_all(&mut g, "PASS");
    let err = g.play_text("--").unwrap_err().to_string();
    assert_eq!(
        err,
        "`--` is not a legal move here: a player passes only when it has no other move"
    );
    let mut g = game("armenian", "W:Wa1,b1,b2,c2:Ba2");
    let err = g.play_text("pass").unwrap_err().to_string();
    assert_eq!(
        err,
        "`pass` is not a legal move here: there is no passing in this variant"
    );
    // Undo takes the pass back like any move.
    let mut g = game("armenian-schmidt", "B:Wa1,b1,b2,c2:Ba2");
    play_all(&mut g, "--");
    assert!(g.undo().unwrap().is_pass());
    assert_eq!(g.position().side_to_move(), dama_engine::Color::Black);
}

#[test]
fn both_sides_blocked_is_a_draw_where_a_blocked_side_passes() {
    let g = game("armenian-schmidt", &format!("W:W{WALL}:B{ROOF}"));
    assert_eq!(ended(&g), "1/2-1/2 Draw: neither side can move");
    // Armenian rules: White, blocked, loses.
    let g = game("armenian", &format!("W:W{WALL}:B{ROOF}"));
    assert_eq!(ended(&g), "0-1 Black wins: White has no legal move");
    // A black king that can move: White passes, Black plays on.
    let mut g = game("armenian-schmidt", &format!("W:W{WALL}:B{ROOF},Kd3"));
    assert_eq!(ended(&g), "goes on");
    play_all(&mut g, "-- d3-d4 --");
    assert_eq!(ended(&g), "goes on");
}

#[test]
fn the_first_to_crown_wins_where_the_variant_says_so() {
    // White's man on 6 steps to 1 and is crowned.
    let mut g = game("breakthrough", "W:W6,45:B30,35");
    play_all(&mut g, "6-1");
    assert_eq!(ended(&g), "1-0 White wins: White crowned a king");
    // In international draughts the game goes on.
    let mut g = game("international", "W:W6,45:B30,35");
    play_all(&mut g, "6-1");
    assert_eq!(ended(&g), "goes on");
    // A crowning that leaves the opponent without a move is still won by crowning.
    let mut g = game("breakthrough", "W:W6:B30");
    play_all(&mut g, "6-1");
    assert_eq!(
        g.outcome().unwrap().reason,
        EndReason::Crowned(dama_engine::Color::White)
    );
}

/// Plays `n` plies of quiet moves that leave the opponent nothing to
/// capture and reach no position seen before (so neither a capture nor a
/// repetition ends the game), checking that it goes on until the last.
fn play_quietly(g: &mut Game, n: usize) {
    let mut seen = vec![*g.position()];
    for i in 0..n {
        assert!(g.outcome().is_none(), "over after {i} plies: {}", ended(g));
        let r = g.rules().clone();
        let fresh = |m: &dama_engine::Move| {
            let after = g.position().after(m);
            !m.is_capture() && !r.has_capture(&after) && !seen.contains(&after)
        };
        // King moves first: a man that walks on would be crowned, and the
        // new material would start its count again.
        let legal = g.legal_moves();
        let m = (legal.iter().copied())
            .find(|m| m.is_king_move() && fresh(m))
            .or_else(|| legal.iter().copied().find(|m| fresh(m)))
            .unwrap_or_else(|| panic!("no quiet fresh move after {i} plies: {}", r.to_fen(g.position())));
        g.play(m).unwrap();
        seen.push(*g.position());
    }
}

#[test]
fn the_fmjd_endgame_draws() {
    // Two kings against a lone king, a king and a man, a king alone: drawn
    // after 5 moves each (10 plies) since that material arose.
    for fen in ["W:WK46,K50:BK1", "W:WK46,36:BK1", "W:WK46:BK1", "B:WK46:BK1,K2"] {
        let mut g = game("international", fen);
        play_quietly(&mut g, 9);
        assert_eq!(ended(&g), "goes on", "{fen}");
        play_quietly(&mut g, 1);
        assert_eq!(ended(&g), "1/2-1/2 Draw: 10 plies with this material", "{fen}");
        assert_eq!(g.outcome().unwrap().reason, EndReason::Material(10));
    }
    // Three kings, two kings and a man, a king and two men against a lone
    // king: 16 moves each (32 plies).
    for fen in ["W:WK46,K50,K45:BK1", "W:WK46,K50,36:BK1", "W:WK46,36,40:BK1"] {
        let mut g = game("international", fen);
        play_quietly(&mut g, 31);
        assert_eq!(ended(&g), "goes on", "{fen}");
        play_quietly(&mut g, 1);
        assert_eq!(ended(&g), "1/2-1/2 Draw: 32 plies with this material", "{fen}");
    }
    // Four pieces against one: no material rule, only the 25-move rule.
    let mut g = game("international", "W:WK46,K50,K45,K44:BK1");
    play_quietly(&mut g, 40);
    assert_eq!(ended(&g), "goes on");
}

#[test]
fn a_capture_or_a_crowning_starts_the_material_count_again() {
    let r = rules("international");
    let pos = r.parse_fen("W:WK46,K50:BK5").unwrap();
    let end = r.end();
    let clock = dama_engine::DrawClock {
        reversible: 10,
        ..dama_engine::DrawClock::START
    };
    assert_eq!(clock.verdict(end, &pos), Some(EndReason::Material(10)));
    // Three kings against one need 32 plies.
    let pos3 = r.parse_fen("W:WK46,K50,K45:BK5").unwrap();
    assert_eq!(clock.verdict(end, &pos3), None);
    let clock32 = dama_engine::DrawClock {
        reversible: 32,
        ..dama_engine::DrawClock::START
    };
    assert_eq!(clock32.verdict(end, &pos3), Some(EndReason::Material(32)));
    // Four pieces against one are not in the rules.
    let pos4 = r.parse_fen("W:WK46,K50,K45,K44:BK5").unwrap();
    assert_eq!(clock32.verdict(end, &pos4), None);
    // Either side: Black's two kings against White's king.
    let swapped = r.parse_fen("B:WK46:BK5,K1").unwrap();
    assert_eq!(clock.verdict(end, &swapped), Some(EndReason::Material(10)));
}
