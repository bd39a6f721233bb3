//! PDN game records: writing, reading liberally, replaying, and the errors.

use dama_engine::pdn::{read_games, PdnError, PdnTags};
use dama_engine::Rng;
use dama_engine::{Color, Rules};
use dama_engine::{EndReason, Game, GameResult, Outcome, PlayError};
use std::sync::Arc;

fn rules(id: &str) -> Rules {
    Rules::builtin(id).unwrap()
}

/// A random game: random legal moves until the game ends or `max` plies;
/// sometimes from a position reached by random play (so it needs a FEN tag);
/// sometimes ended by a resignation or an agreement.
fn random_game(r: &Rules, rng: &mut Rng, max: usize) -> Game {
    let mut start = r.start_position();
    if rng.below(3) == 0 {
        let mut g = Game::new(r.clone());
        for _ in 0..rng.below(20) {
            if g.is_over() {
                break;
            }
            let ms = g.legal_moves().to_vec();
            g.play(ms[rng.below(ms.len())]).unwrap();
        }
        if !g.is_over() {
            start = *g.position();
        }
    }
    let mut g = Game::from_position(r.clone(), start);
    let plies = rng.below(max + 1);
    for _ in 0..plies {
        if g.is_over() {
            break;
        }
        let ms = g.legal_moves().to_vec();
        g.play(ms[rng.below(ms.len())]).unwrap();
    }
    if !g.is_over() {
        match rng.below(4) {
            0 => g
                .resign(if rng.below(2) == 0 { Color::White } else { Color::Black })
                .unwrap(),
            1 => g.agree_draw().unwrap(),
            _ => {}
        }
    }
    g
}

#[test]
fn random_games_survive_a_round_trip() {
    // Every built-in variant (the diagonal ones with numbered squares too).
    let variants: Vec<&str> = dama_engine::source::BUILTIN.iter().map(|(id, _)| *id).collect();
    assert!(variants.len() >= 9);
    let mut rng = Rng::new(0x5eed_0fda_3a00);
    let mut total_plies = 0;
    for id in variants {
        let r = rules(id);
        let mut games = Vec::new();
        for i in 0..12 {
            let g = random_game(&r, &mut rng, 160);
            let tags = PdnTags {
                event: format!("round trip {id}"),
                round: (i + 1).to_string(),
                white: "Random \"A\"".into(),
                black: "Random \\B".into(),
                ..PdnTags::default()
            };
            games.push((g, tags));
        }
        // One file with all the games.
        let text = dama_engine::pdn::write_games(games.iter().map(|(g, t)| (g, t)));
        let read = read_games(&text).unwrap_or_else(|e| panic!("{id}: {e}\n{text}"));
        assert_eq!(read.len(), games.len(), "{id}");
        for ((g, tags), pg) in games.iter().zip(&read) {
            assert_eq!(pg.tag("Variant"), Some(id));
            assert_eq!(pg.tag("White"), Some(tags.white.as_str()));
            assert_eq!(pg.tag("Black"), Some(tags.black.as_str()));
            assert_eq!(pg.tag("FEN").is_some(), !g.starts_from_initial());
            // The variant comes from the record itself.
            let loaded = pg.load_variant(None, None).unwrap();
            assert_eq!(loaded.rules.id(), id);
            let back = pg
                .replay(loaded.rules)
                .unwrap_or_else(|e| panic!("{id}: {e}\n{}", g.to_pdn(tags)));
            assert_eq!(back.start_position(), g.start_position());
            let a: Vec<_> = g.plies().iter().map(|p| p.mv).collect();
            let b: Vec<_> = back.plies().iter().map(|p| p.mv).collect();
            assert_eq!(a, b, "{id}");
            assert_eq!(back.outcome(), g.outcome(), "{id}:\n{}", g.to_pdn(tags));
            // Writing the replayed game gives the same text.
            assert_eq!(back.to_pdn(tags), g.to_pdn(tags));
            total_plies += g.ply_count();
        }
    }
    assert!(
        total_plies > 3000,
        "the random games are too short: {total_plies} plies"
    );
}

/// The pydraughts Turkish test game (rules.md §8.3 T9), origin and destination only.
const T9: &str = "e3-e4 f6-f5 b3-b4 f5-g5 f3-f4 a6-a5 a3-a4 a5xa1 b4-a4 a1xa6 e4-e5 e6xg4 c3-b3 a6-a3 \
                  d3-d4 a3xe1 d2-d3 e1-f1 d4-e4";

#[test]
fn writes_the_standard_tags_and_numbered_moves() {
    let mut g = Game::new(rules("dama"));
    for m in T9.split_whitespace() {
        g.play_text(m).unwrap();
    }
    let tags = PdnTags {
        event: "Test".into(),
        date: "2024.05.01".into(),
        white: "pydraughts".into(),
        ..PdnTags::default()
    };
    insta::assert_snapshot!("t9", g.to_pdn(&tags));
    // A finished game from a set-up position, with a user variant file.
    let r = rules("dama");
    let pos = r.parse_fen("B:WKd1:Bd5,a7").unwrap();
    let mut g = Game::from_position(r, pos);
    g.play_text("a7-a6").unwrap();
    g.play_text("d1xd6").unwrap();
    let tags = PdnTags {
        variant_file: Some("variants/my-dama.toml".into()),
        extra: vec![("Annotator".into(), "dama".into()), ("Result".into(), "ignored".into())],
        ..PdnTags::default()
    };
    insta::assert_snapshot!("from_fen", g.to_pdn(&tags));
}

#[test]
fn reads_liberally() {
    let text = "\u{feff}[Event \"Liberal\"]\r\n[Site \"?\"]\r\n[GameType \"30,W,8,8,A0,0\"]\r\n\r\n\
        1.e3-e4 {a comment, with (parens) and 1-0 inside} f6f5 $1 2. b3:b4 (2. a3-a4 {side line} a6-a5 (2... h6-h5)) \
        2... f5-g5! 3. f3-f4?! a6-a5\r\n; a line comment 1-0\r\n4. a3-a4 a5:a3:a1 5 . b4-a4 a1xa6 6. e4e5 e6:e4:g4 \
        7. c3-b3 a6-a3 8. d3-d4 a3xe1 9. d2-d3 e1-f1 10. d4-e4 *\r\n\
        \r\n[Event \"second\"]\n[Variant \"keny\"]\n1. d3-d4 2-0\n\
        1. d3-d4 d6-d5 0-0\n\
        1. d3-d4 d6-d5 2. e3-e4 1/2-1/2\n\
        [Event \"no result before the next tags\"]\n[Variant \"croda\"]\n1. d3-d4\n[Event \"last\"]\n1-1\n";
    let games = read_games(text).unwrap();
    assert_eq!(games.len(), 6);
    // Game 1: numbers glued or spaced, `:` and missing separators, comments,
    // nested variations, NAGs, annotation marks, `2...`, a line comment.
    let g = &games[0];
    assert_eq!(g.tag("event"), Some("Liberal"));
    assert_eq!(g.moves.len(), 19);
    assert_eq!((g.moves[0].line, g.moves[0].column), (5, 3));
    assert_eq!(g.moves[1].text, "f6f5");
    assert_eq!(g.moves[3].text, "f5-g5");
    let r = rules(&g.variant_name(None).unwrap());
    assert_eq!(r.id(), "dama");
    let game = g.replay(r).unwrap();
    assert_eq!(game.ply_count(), 19);
    assert_eq!(
        game.rules().to_fen(game.position()),
        "B:Wb2,c2,d3,e4,f2,g2,g3,h2,h3:Ba7,b6,b7,c6,c7,d6,d7,e7,Kf1,f7,g4,g5,g6,g7,h6,h7"
    );
    assert_eq!(game.legal_moves().len(), 6);
    assert_eq!(game.plies()[7].full, "a5xa3xa1");
    assert_eq!(game.plies()[11].full, "e6xe4xg4");
    assert_eq!(game.plies()[15].full, "a3xe3xe1");
    // International result tokens and unfinished games.
    assert_eq!(games[1].result.as_ref().unwrap().text, "2-0");
    assert_eq!(games[1].recorded_result(), Some(GameResult::WhiteWins));
    assert_eq!(games[2].recorded_result(), None);
    assert_eq!(games[3].recorded_result(), Some(GameResult::Draw));
    assert!(games[4].result.is_none());
    assert_eq!(games[4].moves.len(), 1);
    assert_eq!(games[5].recorded_result(), Some(GameResult::Draw));
    // A result the rules do not reach is kept as declared.
    let k = games[1].replay(rules("keny")).unwrap();
    assert_eq!(
        k.outcome(),
        Some(Outcome::new(GameResult::WhiteWins, EndReason::Recorded))
    );
}

#[test]
fn termination_tag_gives_the_reason_back() {
    let text = "[Variant \"dama\"]\n[Result \"0-1\"]\n[Termination \"White resigned\"]\n1. d3-d4 0-1\n\
                [Variant \"dama\"]\n[Termination \"White resigned\"]\n1. d3-d4 1-0\n\
                [Variant \"dama\"]\n[Termination \"draw by agreement\"]\n1/2-1/2\n";
    let games = read_games(text).unwrap();
    let g0 = games[0].replay(rules("dama")).unwrap();
    assert_eq!(g0.outcome().unwrap().reason, EndReason::Resignation(Color::White));
    // Inconsistent with the result: recorded without a reason.
    let g1 = games[1].replay(rules("dama")).unwrap();
    assert_eq!(g1.outcome().unwrap().reason, EndReason::Recorded);
    let g2 = games[2].replay(rules("dama")).unwrap();
    assert_eq!(g2.outcome().unwrap().reason, EndReason::Agreement);
}

#[test]
fn the_variant_comes_from_the_record() {
    let text = "[GameType \"30\"]\n1. d3-d4 *\n[Variant \"croda\"]\n[GameType \"30\"]\n*\n[Event \"x\"]\n*\n\
                [GameType \"20,W,10,10,N2,0\"]\n*\n[VariantFile \"no/such/file.toml\"]\n*\n\
                [GameType \"40,W,10,10,N2,0\"]\n*\n[GameType \"28\"]\n*\n[GameType \"22\"]\n*\n";
    let games = read_games(text).unwrap();
    assert_eq!(games[0].variant_name(None).as_deref(), Some("dama"));
    assert_eq!(games[1].variant_name(None).as_deref(), Some("croda"));
    assert_eq!(games[2].variant_name(None), None);
    assert_eq!(games[2].load_variant(Some("keny"), None).unwrap().rules.id(), "keny");
    let e = games[2].load_variant(None, None).unwrap_err();
    assert_eq!(
        e.to_string(),
        "line 6, column 1: the record does not say which variant it is (no Variant, VariantFile or GameType tag)"
    );
    // GameType 20 is international draughts, 40 Frisian and 22 Italian (all
    // shipped); 28, Portuguese, is not.
    assert_eq!(games[3].variant_name(None).as_deref(), Some("international"));
    assert_eq!(games[5].variant_name(None).as_deref(), Some("frisian"));
    assert_eq!(games[6].variant_name(None), None);
    assert_eq!(games[7].variant_name(None).as_deref(), Some("italian"));
    let e = games[4].load_variant(None, None).unwrap_err();
    assert!(matches!(e, PdnError::Variant { load: Some(_), .. }));
    assert_eq!(
        e.to_string(),
        "line 10, column 1: cannot load the variant `no/such/file.toml` named by the VariantFile tag"
    );
}

#[test]
fn a_variant_file_tag_is_found_next_to_the_record() {
    let dir = std::env::temp_dir().join(format!("dama-pdn-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("mine.toml");
    std::fs::write(
        &file,
        "extends = \"dama\"\nname = \"Mine\"\n[end]\nno_capture_draw_plies = 4\n",
    )
    .unwrap();
    let loaded = dama_engine::load(file.to_str().unwrap()).unwrap();
    let mut g = Game::new(loaded.rules);
    for m in "d3-d4 a6-a5 e3-e4 h6-h5".split_whitespace() {
        g.play_text(m).unwrap();
    }
    let text = g.to_pdn(&PdnTags {
        variant_file: Some("mine.toml".into()),
        ..PdnTags::default()
    });
    assert!(
        text.contains("[Variant \"mine\"]\n[VariantFile \"mine.toml\"]"),
        "{text}"
    );
    let pg = &read_games(&text).unwrap()[0];
    let r = pg.load_variant(None, Some(&dir)).unwrap().rules;
    let back = pg.replay(r).unwrap();
    assert_eq!(back.outcome().unwrap().to_string(), "Draw: 4 plies without a capture");
    std::fs::remove_dir_all(&dir).ok();
}

/// (issue 38) A `Variant` tag names a built-in variant, never a file: not
/// `/etc/passwd`, not a variant file that exists.
#[test]
fn a_variant_tag_never_reads_a_file() {
    let dir = std::env::temp_dir().join(format!("dama-pdn-tag-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("mine.toml");
    std::fs::write(&file, "extends = \"dama\"\nname = \"Mine\"\n").unwrap();
    for named in [
        file.display().to_string(),
        "/etc/passwd".to_string(),
        "mine.toml".to_string(),
    ] {
        let text = format!("[Event \"x\"]\n[Variant \"{named}\"]\n1. d3-d4 *\n");
        let g = &read_games(&text).unwrap()[0];
        let e = g.load_variant(None, Some(&dir)).unwrap_err();
        assert!(matches!(e, PdnError::Variant { load: None, .. }), "{named}: {e:?}");
        let shown = e.to_string();
        assert!(
            shown.starts_with("line 2, column 1: the Variant tag names `") && shown.contains("not a built-in variant"),
            "{shown}"
        );
        assert!(shown.lines().count() == 1 && shown.len() < 300, "{shown}");
    }
    // Built-in ids and aliases still load; a VariantFile tag still names a file.
    let g = &read_games("[Variant \"turkish\"]\n*\n").unwrap()[0];
    assert_eq!(g.load_variant(None, None).unwrap().rules.id(), "dama");
    let text = format!("[Variant \"mine\"]\n[VariantFile \"{}\"]\n*\n", file.display());
    let g = &read_games(&text).unwrap()[0];
    assert_eq!(g.load_variant(None, None).unwrap().rules.name(), "Mine");
    std::fs::remove_dir_all(&dir).ok();
}

/// Replays `text` with the variant it names (else dama) and returns the error.
fn replay_error(text: &str) -> String {
    let games = match read_games(text) {
        Ok(g) => g,
        Err(e) => return e.to_string(),
    };
    for g in &games {
        let r = match g.load_variant(Some("dama"), None) {
            Ok(l) => l.rules,
            Err(e) => return e.to_string(),
        };
        if let Err(e) = g.replay(r) {
            return e.to_string();
        }
    }
    "no error".into()
}

#[test]
fn errors_say_where_and_why() {
    let cases = [
        // Illegal moves, in the game's terms.
        "[Variant \"dama\"]\n\n1. d3-d4 d6-d5 2. d4-d3 *",
        "1. d3-d4 a6-a5\n2. e3-e4 h6-h5 3. e4-f5 *",
        "1. d3-d4 d6-d5 2. d4-d5 *",
        "1. d3-d4 a6-a5 2. e3-e4 h6-h5 3. e4-d4 *",
        "1. d3-d4 a6-a5 2. e3-e4 a5-a5 *",
        "1. d3-d4 a6-a5 2. e3-e4 a5xa3 *",
        "1. d3-d4 d7-d6 *",
        "1. d3-d4 d3-d5 *",
        "1. d3-d4 e6-e5 2. d4-d5 e5-e4 3. a3-a4 *",
        "[FEN \"W:Wd4:Bd5,e6,f7,f8\"]\n1. d4xd6 *",
        "[FEN \"W:Wd4:Bd5,d7,c4,b5\"]\n1. d4xd6 *",
        "[Variant \"croda\"]\n1. d2-d3 f7-e7 *",
        "[Variant \"armenian\"]\n[FEN \"W:WKd1:Ba7\"]\n1. d1-e3 *",
        "1. d3-d4 h6-h5 2. d4-d5 e6xc6 *",
        "1. z9-a1 *",
        "1. d3-d4 d6-d5 2. e3 *",
        // The game had ended.
        "[FEN \"W:Wd4,h2:Bd5\"]\n1. d4xd6 h7-h6 1-0",
        "[FEN \"B:Wa1,a2,b3,c3:Ba3\"]\n1... a3-b3 *",
        "[FEN \"W:Wd4,h2:Bd5\"]\n1. d4xd6 0-1",
        // Tags and FEN.
        "[FEN \"W:Wd4,Kd4:Bd5\"]\n1. d4xd6 *",
        "[Variant \"nosuch\"]\n*",
        // Syntax and truncation.
        "[Event \"x\"]\n1. d3-d4 {unclosed comment\n2. e3-e4",
        "[Event \"x\"]\n1. d3-d4 (2. e3-e4",
        "[Event \"x\"\n1. d3-d4 *",
        "[Event \"x]\n1. d3-d4 *",
        "[Event x]\n*",
        "[\"x\"]\n*",
        "[Event \"x\"]\n[Site",
        "[Event \"x\"]\n\n1. d3-d4 d6-d5 2.",
        "[Event \"x\"]\n",
        "1. d3-d4 } *",
        "1. d3-d4 $ *",
        "1. d3-d4 d6-d5 2. e3–e4 *",
        "1. d3-d4 hello *",
    ];
    let mut out = String::new();
    for c in cases {
        out.push_str(&format!("{}\n  => {}\n", c.replace('\n', "⏎"), replay_error(c)));
    }
    insta::assert_snapshot!(out);
}

#[test]
fn truncated_and_garbled_records_never_panic() {
    let mut g = Game::new(rules("dama"));
    for m in T9.split_whitespace() {
        g.play_text(m).unwrap();
    }
    g.resign(Color::White).unwrap();
    let text = format!(
        "{}{{a comment}} (1. a3-a4) $3\n{}",
        g.to_pdn(&PdnTags::default()),
        g.to_pdn(&PdnTags::default())
    );
    // Every prefix: a clear error or a valid (shorter) record.
    let chars: Vec<char> = text.chars().collect();
    let mut errors = 0;
    for cut in 0..chars.len() {
        let prefix: String = chars[..cut].iter().collect();
        let msg = replay_error(&prefix);
        if msg != "no error" {
            errors += 1;
            assert!(msg.starts_with("line "), "{msg}");
        }
    }
    assert!(errors > chars.len() / 2);
    // Garbage: random bytes and random PDN-ish characters.
    let mut rng = Rng::new(42);
    let alphabet: Vec<char> = "[]{}()\"\\;%$.:-x*/0123456789abcdefghKWB \n\r\t½é".chars().collect();
    for _ in 0..3000 {
        let len = rng.below(60);
        let s: String = (0..len).map(|_| alphabet[rng.below(alphabet.len())]).collect();
        let _ = replay_error(&s);
        let bytes: Vec<u8> = (0..len).map(|_| rng.next_u64() as u8).collect();
        let _ = replay_error(&String::from_utf8_lossy(&bytes));
    }
}

#[test]
fn sample_records_replay() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/pdn");
    let mut n = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().and_then(|e| e.to_str()) != Some("pdn") {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let result = read_games(&text).and_then(|games| {
            games
                .iter()
                .map(|g| {
                    let r = g.load_variant(None, Some(&dir))?.rules;
                    g.replay(r)
                })
                .collect::<Result<Vec<_>, _>>()
        });
        if name.starts_with("bad-") {
            assert!(result.is_err(), "{name} should fail");
        } else {
            let games = result.unwrap_or_else(|e| panic!("{name}: {e}"));
            assert!(!games.is_empty(), "{name}");
        }
        n += 1;
    }
    assert!(n >= 3, "sample records missing from {}", dir.display());
}

#[test]
fn game_type_tags_follow_the_variant() {
    use dama_engine::pdn::game_type_tag;
    assert_eq!(game_type_tag(&rules("dama")).as_deref(), Some("30,W,8,8,A0,0"));
    assert_eq!(game_type_tag(&rules("keny")), None);
    for (id, expected) in [("english", "21,B,8,8,N1,0"), ("russian", "25,W,8,8,A0,0")] {
        if let Ok(r) = Rules::builtin(id) {
            assert_eq!(game_type_tag(&r).as_deref(), Some(expected), "{id}");
        }
    }
}

#[test]
fn passes_and_the_new_endings_survive_a_round_trip() {
    // A pass is written `--` and read back; the both-blocked draw, the
    // crowning win and the material draw are found again on replay.
    let wall = "a6,b6,c6,d6,e6,f6,g6,h6,a7,b7,c7,d7,e7,f7,g7,h7";
    let cases = [
        ("armenian-schmidt", "B:Wa1,b1,b2,c2:Ba2", "-- a1xa3", "1-0"),
        (
            "armenian-schmidt",
            &*format!("W:W{wall}:Ba8,b8,c8,d8,e8,f8,g8,h8,Kd3"),
            "-- d3-e3 -- e3-e4",
            "*",
        ),
        ("breakthrough", "W:W6,45:B30,35", "6-1", "1-0"),
        // Ten quiet king moves, none repeating a position (chosen below).
        ("international", "W:WK46,K50:BK1", "", "1/2-1/2"),
    ];
    for (id, fen, moves, result) in cases {
        let r = rules(id);
        let mut g = Game::from_position(r.clone(), r.parse_fen(fen).unwrap());
        for m in moves.split_whitespace() {
            g.play_text(m).unwrap_or_else(|e| panic!("{id} {m}: {e}"));
        }
        let mut seen = vec![*g.position()];
        while moves.is_empty() && !g.is_over() {
            let m = g
                .legal_moves()
                .iter()
                .copied()
                .find(|m| {
                    let after = g.position().after(m);
                    !m.is_capture() && !r.has_capture(&after) && !seen.contains(&after)
                })
                .unwrap();
            g.play(m).unwrap();
            seen.push(*g.position());
        }
        if id == "international" {
            assert_eq!(g.ply_count(), 10);
        }
        let text = g.to_pdn(&PdnTags::default());
        assert!(text.contains(&format!(" {result}\n")), "{id}:\n{text}");
        if id == "armenian-schmidt" {
            assert!(text.contains("1... --") || text.contains("1. --"), "{text}");
        }
        let back = read_games(&text).unwrap()[0].replay(r.clone()).unwrap();
        assert_eq!(back.outcome(), g.outcome(), "{id}:\n{text}");
        assert_eq!(back.to_pdn(&PdnTags::default()), text);
    }
    // `pass` is read in movetext too.
    let text =
        "[Variant \"armenian-schmidt\"]\n[SetUp \"1\"]\n[FEN \"B:Wa1,b1,b2,c2:Ba2\"]\n\n1... pass 2. a1xa3 1-0\n";
    let g = read_games(text).unwrap()[0].replay(rules("armenian-schmidt")).unwrap();
    assert_eq!(g.outcome().unwrap().reason, EndReason::NoPieces(Color::Black));
}

/// Issue 37: a record that goes on after a threefold repetition (as players
/// record games the arbiter did not stop) replays to its end; the game keeps
/// where it went past the end, and the result is the record's.
#[test]
fn a_record_that_goes_on_after_a_threefold_repetition_replays_to_its_end() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/pdn/past-end");
    let text = std::fs::read_to_string(dir.join("international-threefold.pdn")).unwrap();
    let record = &read_games(&text).unwrap()[0];
    let r = rules("international");
    let game = record.replay(r.clone()).unwrap();
    assert_eq!(game.ply_count(), 10);
    let passed = game.passed_end().expect("the game went past an end");
    assert_eq!(passed.ply, 8);
    assert_eq!(passed.outcome, Outcome::new(GameResult::Draw, EndReason::Threefold));
    // The result is the record's.
    assert_eq!(
        game.outcome(),
        Some(Outcome::new(GameResult::WhiteWins, EndReason::Recorded))
    );
    let pe = record.past_end(&game).unwrap();
    assert_eq!((pe.line, pe.column, pe.text.as_str()), (13, 4, "47-41"));
    assert_eq!((pe.ply, pe.move_number), (9, 5));
    assert_eq!(
        pe.to_string(),
        "line 13, column 4: the rules ended the game before `47-41` (ply 9, move 5): \
         Draw: threefold repetition; the record goes on, replayed to its end"
    );
    // Strict: refused, as before.
    match record.replay_strict(r.clone()) {
        Err(PdnError::AfterEnd {
            line, column, outcome, ..
        }) => {
            assert_eq!((line, column), (13, 4));
            assert_eq!(outcome.reason, EndReason::Threefold);
        }
        other => panic!("{other:?}"),
    }
    // Written back, it reads and replays the same, past the same end.
    let written = game.to_pdn(&PdnTags::default());
    assert!(written.contains("[Result \"1-0\"]"), "{written}");
    let again = read_games(&written).unwrap()[0].replay(r).unwrap();
    assert_eq!(
        again.positions().collect::<Vec<_>>(),
        game.positions().collect::<Vec<_>>()
    );
    assert_eq!(again.passed_end(), game.passed_end());
    assert_eq!(again.outcome().map(|o| o.result), Some(GameResult::WhiteWins));
}

/// A walk of king moves from `fen` until the rules end the game: each to a
/// position not seen before, and none that gives the other side a capture.
fn king_walk(r: &Rules, fen: &str) -> Game {
    let mut game = Game::from_position(r.clone(), r.parse_fen(fen).unwrap());
    while !game.is_over() {
        let seen: Vec<_> = game.positions().collect();
        let next = game
            .legal_moves()
            .iter()
            .copied()
            .find(|m| {
                let after = game.position().after(m);
                m.is_king_move()
                    && !m.is_capture()
                    && !seen.contains(&after)
                    && !r.legal_moves(&after).iter().any(|m| m.is_capture())
            })
            .expect("a king move to a new position");
        game.play(next).unwrap();
    }
    game
}

/// Issue 37: the same after a draw by the kings-only clock (Russian: 15
/// moves each of king moves only), with every result a record may give.
#[test]
fn a_record_that_goes_on_after_a_kings_only_draw_replays_to_its_end() {
    let r = rules("russian");
    let mut game = king_walk(&r, "W:WKc1,h2:BKf8,a7");
    assert_eq!(game.outcome().unwrap().reason, EndReason::KingsOnly(30));
    assert_eq!(game.ply_count(), 30);
    game.go_past_end().unwrap();
    assert!(!game.is_over());
    game.play_text("h2-g3").unwrap();
    assert_eq!(game.passed_end().unwrap().ply, 30);
    assert!(game.outcome().is_none(), "a man moved: the clock starts again");
    let written = game.to_pdn(&PdnTags::default());
    for (result, expected) in [
        ("*", None),
        ("1-0", Some(Outcome::new(GameResult::WhiteWins, EndReason::Recorded))),
        ("1/2-1/2", Some(Outcome::new(GameResult::Draw, EndReason::Recorded))),
    ] {
        let text = written
            .replace(" *\n", &format!(" {result}\n"))
            .replace("\"*\"", &format!("\"{result}\""));
        let record = &read_games(&text).unwrap()[0];
        let again = record
            .replay(r.clone())
            .unwrap_or_else(|e| panic!("{result}: {e}\n{text}"));
        assert_eq!(again.outcome(), expected, "{result}");
        assert_eq!(again.passed_end(), game.passed_end(), "{result}");
        let pe = record.past_end(&again).unwrap();
        assert_eq!((pe.ply, pe.text.as_str()), (31, "h2-g3"));
        assert!(matches!(
            record.replay_strict(r.clone()),
            Err(PdnError::AfterEnd { .. })
        ));
    }
    // A record that stops within the clock draw: the last position's end,
    // unless the record gives another result, which stands.
    let mut within = king_walk(&r, "W:WKc1,h2:BKf8,a7");
    within.go_past_end().unwrap();
    let m = within
        .legal_moves()
        .iter()
        .copied()
        .find(|m| m.is_king_move() && !m.is_capture())
        .unwrap();
    within.play(m).unwrap();
    assert_eq!(within.outcome().unwrap().reason, EndReason::KingsOnly(30));
    let written = within.to_pdn(&PdnTags::default());
    let again = read_games(&written).unwrap()[0].replay(r.clone()).unwrap();
    assert_eq!(again.outcome(), within.outcome());
    let text = written.replace("1/2-1/2", "0-1");
    let again = read_games(&text).unwrap()[0].replay(r.clone()).unwrap();
    assert_eq!(again.outcome().map(|o| o.result), Some(GameResult::BlackWins));
}

/// Issue 37: an end nobody can play on from is never gone past: a move
/// after it is refused, as before.
#[test]
fn no_move_after_an_end_without_a_legal_move() {
    let mut game = Game::from_position(rules("dama"), rules("dama").parse_fen("B:Wa1,a2,b3,c3:Ba3").unwrap());
    let o = game.outcome().unwrap();
    assert_eq!(game.go_past_end(), Err(dama_engine::PlayError::GameOver(o)));
    let mut game = Game::new(rules("dama"));
    game.resign(Color::White).unwrap();
    assert!(game.go_past_end().is_err(), "a resignation is not gone past");
}

/// Undo back to the end forgets that the game went past it.
#[test]
fn undo_to_a_passed_end_forgets_it() {
    let r = rules("russian");
    let mut game = king_walk(&r, "W:WKc1,h2:BKf8,a7");
    game.go_past_end().unwrap();
    game.play_text("h2-g3").unwrap();
    assert!(game.passed_end().is_some());
    game.undo();
    assert_eq!(game.passed_end(), None);
    assert!(game.is_over());
}

/// A record of `plies` plies: two kings each way go round a cycle (the
/// repetitions past the first end are warnings, not errors).
fn cycling_record(plies: usize) -> String {
    let cycle = ["47-41", "4-9", "41-47", "9-4"];
    let mut s = String::from("[Variant \"international\"]\n[SetUp \"1\"]\n[FEN \"W:WK47,46:BK4,5\"]\n\n");
    for i in 0..plies {
        if i % 2 == 0 {
            s.push_str(&format!("{}. ", i / 2 + 1));
        }
        s.push_str(cycle[i % 4]);
        s.push(if i % 16 == 15 { '\n' } else { ' ' });
    }
    s.push_str("*\n");
    s
}

/// Issue 38.4: a one-game record of 18 MB took gigabytes and aborted under a
/// memory limit. A game holds at most `Game::MAX_PLIES` plies: a record of
/// that many replays, one more is refused where it goes past, and a game in
/// play refuses the ply after the last.
#[test]
fn a_game_holds_at_most_max_plies() {
    let r = Arc::new(rules("international"));
    let games = read_games(&cycling_record(Game::MAX_PLIES)).unwrap();
    let game = games[0]
        .replay(Arc::clone(&r))
        .expect("a record of MAX_PLIES plies replays");
    assert_eq!(game.ply_count(), Game::MAX_PLIES);
    let mut game = game;
    let _ = game.go_past_end();
    let next = game.legal_moves().as_slice()[0];
    assert_eq!(game.play(next), Err(PlayError::TooLong { limit: Game::MAX_PLIES }));

    let e = read_games(&cycling_record(Game::MAX_PLIES + 1)).unwrap_err();
    assert!(
        matches!(
            e,
            PdnError::TooLong {
                limit: Game::MAX_PLIES,
                ..
            }
        ),
        "{e:?}"
    );
    let (line, _) = e.position();
    // Four lines of tags, then sixteen plies a line.
    assert_eq!(line, 5 + Game::MAX_PLIES / 16, "{e}");
    assert!(e.to_string().contains("past 100000 moves"), "{e}");
}
