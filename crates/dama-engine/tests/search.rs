//! The computer opponent: known positions, the end rules it must respect,
//! legality over many games, determinism, and limits.

use std::sync::Arc;
use std::time::Duration;

use dama_engine::{load_text, Color, Position, Rules};
use dama_engine::{random_move, search::MATE, search::MATE_BOUND, Engine, Limits, Rng, SearchRoot};
use dama_engine::{Game, GameResult};

fn rules(name: &str) -> Rules {
    Rules::builtin(name).unwrap()
}

fn best(rules: &Rules, fen: &str, depth: u32) -> (String, i32, Vec<String>) {
    let pos = rules.parse_fen(fen).unwrap();
    let mut e = Engine::new(rules);
    let r = e.search(&SearchRoot::new(pos), &Limits::depth(depth));
    let m = r.best.expect("a move");
    let mut p = pos;
    let pv =
        r.pv.iter()
            .map(|m| {
                let s = rules.format_move_full(&p, m);
                p.play(m);
                s
            })
            .collect();
    (rules.format_move_full(&pos, &m), r.score, pv)
}

/// White gives a man on d5: Black must take it (d6xd4), and White's d3
/// man then takes three (d4, c5, b6), ending next to the crown.
#[test]
fn finds_a_shot_that_wins_material() {
    let r = rules("dama");
    for depth in [2, 4, 6] {
        let (m, score, pv) = best(&r, "W:Wd4,d3,d2,h2:Bd6,c5,e5,b6,h7", depth);
        assert_eq!(m, "d4-d5", "depth {depth}");
        assert_eq!(pv[..3], ["d4-d5", "d6xd4", "d3xd5xb5xb7"], "depth {depth}");
        assert!(score > 100, "depth {depth}: {score}");
    }
}

/// A capture that leaves a king against a lone man wins at once under
/// Turkish rules (`lone_piece = "king_beats_lone_man"`) and draws under the
/// one-each-draw profile: the search scores each by the variant's rules.
#[test]
fn lone_piece_rules_score_the_leaves() {
    let fen = "W:WKd1:Bd5,h6";
    let (_, score, _) = best(&rules("dama"), fen, 3);
    assert_eq!(score, MATE - 1);
    let (_, score, _) = best(&rules("dama-one-each-draw"), fen, 3);
    assert_eq!(score, 0);
}

/// A lone king against two men in Turkish: the engine wins, and the game
/// played out by the engine against itself ends in White's favour.
#[test]
fn king_beats_two_men_in_turkish() {
    let r = Arc::new(rules("dama"));
    let pos = r.parse_fen("W:WKa1:Bc7,h7").unwrap();
    let mut e = Engine::new(&r);
    let res = e.search(&SearchRoot::new(pos), &Limits::depth(6));
    assert!(res.score > MATE_BOUND, "expected a forced win, got {}", res.score);
    let mut game = Game::from_position(Arc::clone(&r), pos);
    while !game.is_over() && game.ply_count() < 40 {
        let m = e.search(&SearchRoot::from_game(&game), &Limits::depth(6)).best.unwrap();
        game.play(m).unwrap();
    }
    assert_eq!(game.outcome().map(|o| o.result), Some(GameResult::WhiteWins));
}

/// Blocking the last black man (it can neither step nor capture) wins:
/// `no_legal_move = "loss"`.
#[test]
fn blocks_the_last_piece() {
    let (m, score, _) = best(&rules("dama"), "W:Wa1,a3,b2,c1:Ba2", 3);
    assert_eq!(m, "c1-c2");
    assert_eq!(score, MATE - 1);
}

/// The only legal move is played (rules.md T3: the maximum capture).
#[test]
fn plays_the_only_move() {
    for v in ["dama", "armenian", "keny", "croda", "dameo"] {
        let (m, _, _) = best(&rules(v), "W:We4:Bd4,b4", 4);
        assert_eq!(m, "e4xc4xa4", "{v}");
    }
}

/// Keny draws after 20 plies without a capture: a big material lead is
/// worth nothing when the next ply reaches the limit and no capture is possible.
#[test]
fn respects_the_no_capture_limit() {
    let r = rules("keny");
    let pos = r.parse_fen("W:WKd1,a2,b2:Bh7").unwrap();
    let mut e = Engine::new(&r);
    let mut root = SearchRoot::new(pos);
    let fresh = e.search(&root, &Limits::depth(4)).score;
    assert!(fresh > 300, "{fresh}");
    root.clock.no_capture = 19;
    e.clear();
    let late = e.search(&root, &Limits::depth(4)).score;
    assert_eq!(late, 0);
}

/// The history a game gives the search (for repetitions and draw counters)
/// is the same whether taken from the game or from its positions.
#[test]
fn history_from_game_matches_positions() {
    let r = Arc::new(rules("dama"));
    let mut game = Game::new(Arc::clone(&r));
    for m in ["a3-a4", "h6-h5", "a4-b4", "h5-g5"] {
        game.play_text(m).unwrap();
    }
    let a = SearchRoot::from_game(&game);
    let positions: Vec<Position> = game.positions().collect();
    let b = SearchRoot::from_history(&positions).unwrap();
    assert_eq!(a.pos, b.pos);
    assert_eq!(a.earlier, b.earlier);
    assert_eq!(a.clock.no_capture, 4);
    assert_eq!(b.clock.no_capture, 4);
}

#[test]
fn same_search_same_answer() {
    for v in ["dama", "dameo"] {
        let r = rules(v);
        let pos = r.start_position();
        let run = || {
            let mut e = Engine::new(&r);
            e.set_seed(9);
            let mut lim = Limits::level(2);
            lim.nodes = None;
            let res = e.search(&SearchRoot::new(pos), &lim);
            (res.best, res.score, res.nodes)
        };
        assert_eq!(run(), run(), "{v}");
    }
}

#[test]
fn limits_stop_the_search() {
    let r = rules("armenian");
    let pos = r.start_position();
    let mut e = Engine::new(&r);
    let res = e.search(&SearchRoot::new(pos), &Limits::movetime(Duration::from_millis(30)));
    assert!(res.best.is_some());
    let mut lim = Limits::depth(40);
    lim.nodes = Some(5_000);
    let res = e.search(&SearchRoot::new(pos), &lim);
    assert!(res.best.is_some());
    assert!(res.nodes <= 5_000 + 1, "{}", res.nodes);
    assert!(res.depth < 40);
}

#[test]
fn no_move_no_best() {
    let r = rules("dama");
    let pos = r.parse_fen("B:Wa1,a3,b2,c2:Ba2").unwrap();
    let mut e = Engine::new(&r);
    let res = e.search(&SearchRoot::new(pos), &Limits::depth(3));
    assert_eq!(res.best, None);
    assert_eq!(res.score, -MATE);
}

/// Plays `games` games of the engine against a random mover and checks
/// every engine move with the game's own legality check.
fn play_many(r: &Arc<Rules>, games: u32, depth: u32, seed: u64) -> (u32, u32) {
    let mut e = Engine::new(r);
    let mut rng = Rng::new(seed);
    let (mut won, mut total) = (0, 0);
    for g in 0..games {
        let engine_side = if g % 2 == 0 { Color::White } else { Color::Black };
        let mut game = Game::new(Arc::clone(r));
        e.clear();
        while !game.is_over() && game.ply_count() < 200 {
            let m = if game.side_to_move() == engine_side {
                let res = e.search(&SearchRoot::from_game(&game), &Limits::depth(depth));
                res.best.expect("a legal move exists while the game goes on")
            } else {
                random_move(r, game.position(), &mut rng).unwrap()
            };
            assert!(
                game.legal_moves().iter().any(|o| *o == m),
                "{}: illegal move from {}",
                r.id(),
                r.to_fen(game.position())
            );
            game.play(m).unwrap();
        }
        total += 1;
        if game.outcome().and_then(|o| o.winner()) == Some(engine_side) {
            won += 1;
        }
    }
    (won, total)
}

#[test]
fn never_plays_an_illegal_move_in_any_builtin_variant() {
    let mut seen = Vec::new();
    for name in dama_engine::source::builtin_names() {
        let r = Rules::builtin(&name).unwrap();
        if seen.contains(&r.id().to_string()) {
            continue;
        }
        seen.push(r.id().to_string());
        let r = Arc::new(r);
        let (won, total) = play_many(&r, 2, 2, 3);
        assert!(
            won >= 1,
            "{}: the engine won {won} of {total} against a random mover",
            r.id()
        );
    }
    assert!(seen.len() >= 5);
}

/// A variant nobody ships: 6×6, men step forward and diagonally forward,
/// capture in every orthogonal direction, one-step kings, majority rule off.
#[test]
fn plays_a_user_defined_variant() {
    let toml = r#"
id = "tiny"
name = "Tiny draughts"
[board]
width = 6
height = 6
[setup]
white = ["a1-f2"]
black = ["a5-f6"]
first = "black"
[men]
moves = ["F", "FL", "FR"]
captures = ["F", "B", "L", "R"]
[kings]
moves = ["F", "B", "L", "R", "FL", "FR", "BL", "BR"]
move_range = 1
captures = ["F", "B", "L", "R"]
capture_range = "short"
landing = "adjacent_beyond"
[capture]
mandatory = true
majority = "none"
removal = "immediate"
no_reversal = false
promote_mid_capture = "stop"
[promotion]
rank = "last"
[end]
no_legal_move = "loss"
threefold_repetition = true
lone_piece = "none"
king_vs_king = "draw"
no_capture_draw_plies = 40
"#;
    let loaded = load_text("tiny.toml", toml, None).unwrap();
    let r = Arc::new(loaded.rules);
    let (won, total) = play_many(&r, 4, 3, 11);
    assert!(won >= 3, "won {won} of {total}");
}

/// A stop flag raised before the search (or by another thread during it)
/// ends a search without limits, which still returns a legal move.
#[test]
fn stop_flag_ends_an_unlimited_search() {
    use std::sync::atomic::{AtomicBool, Ordering};
    let r = rules("dama");
    let pos = r.start_position();
    let mut e = Engine::new(&r);
    let stop = Arc::new(AtomicBool::new(true));
    e.set_stop_flag(Some(Arc::clone(&stop)));
    let unlimited = Limits {
        depth: None,
        movetime: None,
        nodes: None,
        noise: 0,
    };
    let res = e.search(&SearchRoot::new(pos), &unlimited);
    let best = res.best.expect("a move");
    assert!(r.legal_moves(&pos).iter().any(|m| *m == best));
    // Raised from another thread while the search runs.
    stop.store(false, Ordering::Relaxed);
    let raiser = {
        let stop = Arc::clone(&stop);
        std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(50));
            stop.store(true, Ordering::Relaxed);
        })
    };
    let res = e.search(&SearchRoot::new(pos), &unlimited);
    raiser.join().unwrap();
    assert!(res.best.is_some());
    // Without the flag, limits work as before.
    e.set_stop_flag(None);
    let res = e.search(&SearchRoot::new(pos), &Limits::depth(3));
    assert_eq!(res.depth, 3);
}

/// `search_reporting` reports every completed iteration, in order, and
/// finds what `search` finds.
#[test]
fn reporting_search_reports_each_iteration() {
    let r = rules("dama");
    let pos = r.parse_fen("W:Wd4,d3,d2,h2:Bd6,c5,e5,b6,h7").unwrap();
    let mut depths = Vec::new();
    let mut last_pv = Vec::new();
    let reported = Engine::new(&r).search_reporting(&SearchRoot::new(pos), &Limits::depth(5), &mut |it| {
        depths.push(it.depth);
        assert_eq!(it.pv.first(), it.best.as_ref());
        last_pv = it.pv.clone();
    });
    assert_eq!(depths, [1, 2, 3, 4, 5]);
    let plain = Engine::new(&r).search(&SearchRoot::new(pos), &Limits::depth(5));
    assert_eq!(
        (reported.best, reported.score, reported.nodes),
        (plain.best, plain.score, plain.nodes)
    );
    assert_eq!(last_pv, plain.pv);
}

/// One draw clock for the game and the search: along random games of every
/// shipped variant, the clock and the repetition window the search gets
/// from a game equal those it derives from the game's positions alone, and
/// the window is the plies since the last capture or promotion (no position
/// before such a ply can recur), which is where `Game::repetitions` looks.
#[test]
fn repetitions_are_counted_since_the_last_capture_or_promotion() {
    let mut promotions = 0;
    for (id, _) in dama_engine::source::BUILTIN {
        let r = Arc::new(rules(id));
        let mut rng = Rng::new(7);
        for _ in 0..20 {
            let mut game = Game::new(Arc::clone(&r));
            while !game.is_over() && game.ply_count() < 200 {
                let Some(m) = random_move(&r, game.position(), &mut rng) else {
                    break;
                };
                promotions += usize::from(m.promotes());
                game.play(m).unwrap();
                let from_game = SearchRoot::from_game(&game);
                let positions: Vec<Position> = game.positions().collect();
                let from_positions = SearchRoot::from_history(&positions).unwrap();
                assert_eq!(from_game.clock, from_positions.clock, "{id}");
                assert_eq!(from_game.earlier, from_positions.earlier, "{id}");
                let clock = game.clock();
                assert_eq!(clock.no_capture, game.no_capture_plies());
                assert_eq!(clock.kings_only, game.kings_only_plies());
                let since = game
                    .plies()
                    .iter()
                    .rev()
                    .take_while(|p| !p.mv.is_capture() && !p.mv.promotes())
                    .count();
                assert_eq!(clock.reversible as usize, since, "{id}");
                assert_eq!(from_game.earlier.len(), since, "{id}");
                let key = dama_engine::search::position_key(game.position());
                let seen = from_game
                    .earlier
                    .iter()
                    .rev()
                    .skip(1)
                    .step_by(2)
                    .filter(|&&k| k == key)
                    .count();
                assert_eq!(game.repetitions() as usize, 1 + seen, "{id}");
            }
        }
    }
    assert!(promotions > 100, "only {promotions} promotions: the test sees too few");
}

/// The end rules of issue 14 in the search: it plays the pass, sees the
/// both-blocked draw, goes for a crowning where crowning wins, and aims to
/// lose its pieces where the side that cannot move wins.
#[test]
fn the_search_knows_the_other_endings() {
    // Schmidt: Black, blocked, passes; White must then take the last piece.
    let r = rules("armenian-schmidt");
    let (m, score, pv) = best(&r, "B:Wa1,b1,b2,c2:Ba2", 4);
    assert_eq!(
        (m.as_str(), &pv[..2]),
        ("--", &["--".to_string(), "a1xa3".to_string()][..])
    );
    assert!(score <= -MATE_BOUND, "{score}");
    // Both blocked: the one move is the pass and the score a draw.
    let wall = "a6,b6,c6,d6,e6,f6,g6,h6,a7,b7,c7,d7,e7,f7,g7,h7";
    let (m, score, _) = best(&r, &format!("W:W{wall}:Ba8,b8,c8,d8,e8,f8,g8,h8"), 4);
    assert_eq!((m.as_str(), score), ("--", 0));
    // Breakthrough: White crowns at once.
    let r = rules("breakthrough");
    let (m, score, _) = best(&r, "W:W6,45:B30,35", 3);
    assert_eq!(m, "6-1");
    assert!(score >= MATE_BOUND, "{score}");
    // Antidraughts: White gives its last man away (it then has no move and wins).
    let r = rules("antidraughts");
    let (m, score, _) = best(&r, "W:W28:B19,45", 3);
    assert_eq!(m, "28-23");
    assert!(score >= MATE_BOUND, "{score}");
}

/// Every setting of the search switches (`SearchOptions`) still finds the
/// shot of `finds_a_shot_that_wins_material`, and plays only legal moves.
#[test]
fn every_search_switch_finds_the_shot() {
    use dama_engine::{search::Reductions, SearchOptions};
    let r = rules("dama");
    let pos = r.parse_fen("W:Wd4,d3,d2,h2:Bd6,c5,e5,b6,h7").unwrap();
    for reductions in [Reductions::Off, Reductions::One, Reductions::Deep] {
        for aspiration in [false, true] {
            for futility in [false, true] {
                for capture_order in [false, true] {
                    let options = SearchOptions {
                        reductions,
                        aspiration,
                        futility,
                        capture_order,
                    };
                    let mut e = Engine::new(&r);
                    e.set_search_options(options);
                    assert_eq!(e.search_options(), options);
                    let res = e.search(&SearchRoot::new(pos), &Limits::depth(6));
                    let m = res.best.expect("a move");
                    assert_eq!(r.format_move_full(&pos, &m), "d4-d5", "{options}");
                    assert!(res.score > 100, "{options}: {}", res.score);
                }
            }
        }
    }
}

/// An aspiration window changes how the root is searched, not what it is
/// worth: without the other switches (whose pruning depends on the
/// window), the score of every iteration is the full-window score.
#[test]
fn aspiration_windows_keep_the_root_value() {
    use dama_engine::{search::Reductions, SearchOptions};
    let plain = SearchOptions {
        reductions: Reductions::Off,
        aspiration: false,
        futility: false,
        capture_order: false,
    };
    let windowed = SearchOptions {
        aspiration: true,
        ..plain
    };
    for (variant, seed) in [("dama", 1), ("russian", 2), ("english", 3), ("armenian", 4)] {
        let r = rules(variant);
        let mut rng = Rng::new(seed);
        let mut pos = r.start_position();
        for _ in 0..6 {
            let Some(m) = random_move(&r, &pos, &mut rng) else {
                break;
            };
            pos.play(&m);
        }
        let score = |options| {
            let mut e = Engine::new(&r);
            e.set_search_options(options);
            e.search(&SearchRoot::new(pos), &Limits::depth(6)).score
        };
        assert_eq!(score(windowed), score(plain), "{variant}");
    }
}
