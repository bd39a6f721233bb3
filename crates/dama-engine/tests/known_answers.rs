//! Positions with known answers: every case of rules.md §8.3 (T1-T9,
//! A1-A3, K1-K4, C1-C4, D1-D7) and the small kish perft positions of §8.1,
//! each under the variant and rule setting it names.
//!
//! Expected moves are written in full path notation (every landing square).
//! A move that several paths play matches when any of its paths is written;
//! the number of distinct moves must equal the number of strings given.

use dama_engine::{load_text, MoveList, Position, Rules};

/// Rule settings named by the cases that no shipped variant has.
const SETTINGS: &[(&str, &str)] = &[
    (
        "dama-stop",
        "extends = \"dama\"\n[capture]\npromote_mid_capture = \"stop\"\n",
    ),
    ("dama-reversal", "extends = \"dama\"\n[capture]\nno_reversal = false\n"),
    (
        "keny-promote-and-continue",
        "extends = \"keny\"\n[capture]\npromote_mid_capture = \"promote_and_continue\"\n",
    ),
    ("dameo-optional", "extends = \"dameo\"\n[capture]\nmandatory = false\n"),
];

/// A shipped variant, or one of [`SETTINGS`].
fn rules(id: &str) -> Rules {
    if let Some((_, text)) = SETTINGS.iter().find(|(n, _)| *n == id) {
        let text = format!("id = \"{id}\"\nname = \"{id}\"\n{text}");
        return load_text(id, &text, None).unwrap_or_else(|e| panic!("{id}: {e}")).rules;
    }
    Rules::builtin(id).unwrap_or_else(|e| panic!("{id}: {e}"))
}

/// Every path of `m` in full notation.
fn paths_of(r: &Rules, pos: &Position, m: &dama_engine::Move) -> Vec<String> {
    r.move_paths(pos, m)
        .iter()
        .map(|p| r.format_path(p, m.is_capture()))
        .collect()
}

/// The legal moves, each as the sorted list of its paths, for messages.
fn listing(r: &Rules, pos: &Position, list: &MoveList) -> String {
    list.iter()
        .map(|m| paths_of(r, pos, m).join("|"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Checks that the legal moves of `fen` under `variant` are exactly `expected`.
fn expect(variant: &str, fen: &str, expected: &[&str]) -> (Rules, Position, MoveList) {
    let r = rules(variant);
    let pos = r.parse_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
    let list = r.legal_moves(&pos);
    let all: Vec<Vec<String>> = list.iter().map(|m| paths_of(&r, &pos, m)).collect();
    let mut used = vec![false; list.len()];
    for want in expected {
        let hits: Vec<usize> = (0..list.len()).filter(|&i| all[i].iter().any(|p| p == want)).collect();
        assert_eq!(
            hits.len(),
            1,
            "{variant} {fen}: `{want}` should be one legal move; legal: {}",
            listing(&r, &pos, &list)
        );
        assert!(
            !used[hits[0]],
            "{variant} {fen}: `{want}` is listed twice in the expectation"
        );
        used[hits[0]] = true;
    }
    assert_eq!(
        list.len(),
        expected.len(),
        "{variant} {fen}: expected {} moves; legal: {}",
        expected.len(),
        listing(&r, &pos, &list)
    );
    (r, pos, list)
}

/// The move of `list` one of whose paths is `text`.
fn find(r: &Rules, pos: &Position, list: &MoveList, text: &str) -> (dama_engine::Move, u32) {
    list.iter()
        .zip(list.path_counts())
        .find(|(m, _)| paths_of(r, pos, m).iter().any(|p| p == text))
        .map(|(m, &n)| (*m, n))
        .unwrap_or_else(|| panic!("no legal move {text}"))
}

// ---------------------------------------------------------------------------
// Turkish

#[test]
fn t1_man_continues_as_man_through_last_rank() {
    let (r, pos, list) = expect("dama", "W:Wd6:Bd7,c8", &["d6xd8xb8"]);
    let (m, _) = find(&r, &pos, &list, "d6xd8xb8");
    assert!(m.promotes(), "the man is crowned on b8 at the end of the move");
    assert_eq!(m.capture_count(), 2);
}

#[test]
fn t1_promote_and_continue_gives_two_moves() {
    let (r, pos, list) = expect("dama-promote-and-continue", "W:Wd6:Bd7,c8", &["d6xd8xb8", "d6xd8xa8"]);
    for text in ["d6xd8xb8", "d6xd8xa8"] {
        assert!(find(&r, &pos, &list, text).0.promotes());
    }
}

#[test]
fn t1_stop_ends_the_move_on_the_last_rank() {
    let (r, pos, list) = expect("dama-stop", "W:Wd6:Bd7,c8", &["d6xd8"]);
    let (m, _) = find(&r, &pos, &list, "d6xd8");
    assert!(m.promotes());
    assert_eq!(m.capture_count(), 1);
}

#[test]
fn t1_mirror_black_man_continues_as_man() {
    let (r, pos, list) = expect("dama", "B:Wd2,c1:Bd3", &["d3xd1xb1"]);
    assert!(find(&r, &pos, &list, "d3xd1xb1").0.promotes());
}

#[test]
fn t2_king_cannot_reverse_between_jumps() {
    let (_, _, list) = expect("dama", "W:WKd5:Bd3,d7", &["d5xd8", "d5xd2", "d5xd1"]);
    assert!(list.iter().all(|m| m.capture_count() == 1));
}

#[test]
fn t2_without_the_180_degree_rule_four_two_piece_moves() {
    // rules.md counts four 2-piece sequences; two of them end on d8 with the
    // same captures, so under A12 they are one move with two paths.
    let (r, pos, list) = expect("dama-reversal", "W:WKd5:Bd3,d7", &["d5xd1xd8", "d5xd8xd1", "d5xd8xd2"]);
    assert!(list.iter().all(|m| m.capture_count() == 2));
    assert_eq!(list.total_paths(), 4);
    let (m, n) = find(&r, &pos, &list, "d5xd2xd8");
    assert_eq!(n, 2);
    assert_eq!(paths_of(&r, &pos, &m), vec!["d5xd1xd8", "d5xd2xd8"]);
}

#[test]
fn t3_maximum_capture_in_all_five_games() {
    for v in ["dama", "armenian", "keny", "croda", "dameo"] {
        expect(v, "W:We4:Bd4,b4", &["e4xc4xa4"]);
    }
}

#[test]
fn t4_immediate_removal_opens_the_rank() {
    let (_, _, list) = expect("dama", "W:WKd1:Bd3,f5,h4,b3", &["d1xd5xh5xh3xa3"]);
    assert_eq!(list.as_slice()[0].capture_count(), 4);
}

#[test]
fn t4_end_of_move_removal_blocks_in_dameo() {
    let (_, _, list) = expect(
        "dameo",
        "W:WKd1:Bd3,f5,h4,b3",
        &["d1xd5xh5xh1", "d1xd5xh5xh2", "d1xd5xh5xh3"],
    );
    assert!(list.iter().all(|m| m.capture_count() == 3));
}

#[test]
fn t5_men_and_kings_count_equally() {
    expect("dama", "W:Wd4:BKd5,c4,b5", &["d4xb4xb6"]);
}

#[test]
fn t6_king_cannot_jump_two_pieces_at_once() {
    let (r, pos, list) = expect(
        "dama",
        "W:WKa4:Bc4,d4",
        &["a4-a1", "a4-a2", "a4-a3", "a4-a5", "a4-a6", "a4-a7", "a4-a8", "a4-b4"],
    );
    assert!(!r.has_capture(&pos));
    assert!(list.iter().all(|m| !m.is_capture()));
}

#[test]
fn t7_paths_differing_only_in_a_landing_are_one_move() {
    let (r, pos, list) = expect("dama", "W:WKa5:Bb5,e5", &["a5xc5xf5", "a5xc5xg5", "a5xc5xh5"]);
    assert_eq!(list.total_paths(), 6);
    assert!(list.path_counts().iter().all(|&n| n == 2));
    for end in ["f5", "g5", "h5"] {
        let (m, _) = find(&r, &pos, &list, &format!("a5xd5x{end}"));
        assert_eq!(
            paths_of(&r, &pos, &m),
            vec![format!("a5xc5x{end}"), format!("a5xd5x{end}")]
        );
    }
    assert_eq!(dama_engine::perft(&r, &pos, 1, dama_engine::CountMode::Paths), 6);
    assert_eq!(dama_engine::perft(&r, &pos, 1, dama_engine::CountMode::Moves), 3);
}

#[test]
fn t8_captured_piece_removed_immediately_allows_crossing() {
    let (_, _, list) = expect("dama", "W:WKa4:Bc4,e4", &["a4xd4xf4", "a4xd4xg4", "a4xd4xh4"]);
    assert!(list.iter().all(|m| m.capture_count() == 2));
}

/// The pydraughts Turkish game (tests/test_variants.py), origin and destination only.
const T9_GAME: &[&str] = &[
    "e3-e4", "f6-f5", "b3-b4", "f5-g5", "f3-f4", "a6-a5", "a3-a4", "a5xa1", "b4-a4", "a1xa6", "e4-e5", "e6xg4",
    "c3-b3", "a6-a3", "d3-d4", "a3xe1", "d2-d3", "e1-f1", "d4-e4",
];
/// Legal moves before each move of [`T9_GAME`] (paths = moves throughout).
const T9_COUNTS: &[usize] = &[8, 8, 13, 13, 18, 12, 19, 1, 18, 2, 15, 1, 10, 17, 11, 5, 12, 26, 13];

#[test]
fn t9_pydraughts_game_replays_move_by_move() {
    let r = rules("dama");
    let mut pos = r.start_position();
    for (i, (text, &count)) in T9_GAME.iter().zip(T9_COUNTS).enumerate() {
        let list = r.legal_moves(&pos);
        assert_eq!(list.len(), count, "before move {} ({text})", i + 1);
        assert_eq!(list.total_paths(), count as u64, "before move {} ({text})", i + 1);
        let m = r
            .resolve_move(&pos, text)
            .unwrap_or_else(|e| panic!("move {} ({text}): {e}", i + 1));
        let full = r.format_move_full(&pos, &m);
        match *text {
            "a5xa1" => {
                assert_eq!(full, "a5xa3xa1");
                assert!(m.promotes());
            }
            "a1xa6" => assert_eq!(full, "a1xa6"),
            "e6xg4" => assert_eq!(full, "e6xe4xg4"),
            "a3xe1" => assert_eq!(full, "a3xe3xe1"),
            _ => assert!(!m.is_capture(), "{text} is not a capture"),
        }
        pos.play(&m);
    }
    let want = r
        .parse_fen("B:Wb2,c2,d3,e4,f2,g2,g3,h2,h3:Ba7,b6,b7,c6,c7,d6,d7,e7,Kf1,f7,g4,g5,g6,g7,h6,h7")
        .expect("final position");
    assert_eq!(pos, want, "final position {}", r.to_fen(&pos));
    assert_eq!(r.legal_moves(&pos).len(), 6);
}

// ---------------------------------------------------------------------------
// kish perft positions (§8.1)

#[test]
fn kish_lone_man_has_three_moves() {
    expect("dama", "W:Wd4:Bh8", &["d4-d5", "d4-c4", "d4-e4"]);
}

#[test]
fn kish_lone_king_has_fourteen_moves() {
    let (_, _, list) = expect(
        "dama",
        "W:WKd4:Bh8",
        &[
            "d4-d1", "d4-d2", "d4-d3", "d4-d5", "d4-d6", "d4-d7", "d4-d8", "d4-a4", "d4-b4", "d4-c4", "d4-e4", "d4-f4",
            "d4-g4", "d4-h4",
        ],
    );
    assert_eq!(list.len(), 14);
}

#[test]
fn kish_man_facing_man_must_capture() {
    expect("dama", "W:Wd4:Bd5", &["d4xd6"]);
}

// ---------------------------------------------------------------------------
// Armenian

#[test]
fn a1_man_steps_forward_diagonally_and_sideways() {
    expect("armenian", "W:Wd4:Bh8", &["d4-d5", "d4-c5", "d4-e5", "d4-c4", "d4-e4"]);
}

#[test]
fn a2_king_moves_like_a_queen_but_never_captures_diagonally() {
    let (r, pos, list) = expect(
        "armenian",
        "W:WKd4:Bf6",
        &[
            "d4-d5", "d4-d6", "d4-d7", "d4-d8", "d4-d3", "d4-d2", "d4-d1", "d4-e4", "d4-f4", "d4-g4", "d4-h4", "d4-c4",
            "d4-b4", "d4-a4", "d4-e5", "d4-c5", "d4-b6", "d4-a7", "d4-e3", "d4-f2", "d4-g1", "d4-c3", "d4-b2", "d4-a1",
        ],
    );
    assert!(!r.has_capture(&pos));
    assert_eq!(list.len(), 24);
}

#[test]
fn a3_man_never_captures_backward() {
    expect("armenian", "W:Wd4:Bd3", &["d4-d5", "d4-c5", "d4-e5", "d4-c4", "d4-e4"]);
}

// ---------------------------------------------------------------------------
// Keny

#[test]
fn k1_man_jumps_over_an_own_man() {
    expect(
        "keny",
        "W:Wd4,d5:Bh8",
        &["d4-c4", "d4-e4", "d4-d6", "d5-d6", "d5-c5", "d5-e5"],
    );
}

#[test]
fn k2_man_captures_backward() {
    expect("keny", "W:Wd4:Bd3", &["d4xd2"]);
}

#[test]
fn k3_no_majority_rule_by_default() {
    expect("keny", "W:Wd4:Bd5,c4,b5", &["d4xd6", "d4xb4xb6"]);
}

#[test]
fn k3_majority_reading_keeps_only_the_longest() {
    expect("keny-majority", "W:Wd4:Bd5,c4,b5", &["d4xb4xb6"]);
}

#[test]
fn k4_man_captures_through_the_last_rank_and_ends_a_man() {
    let (r, pos, list) = expect("keny", "W:Wd6:Bd7,c8,b7", &["d6xd8xb8xb6"]);
    let (m, _) = find(&r, &pos, &list, "d6xd8xb8xb6");
    assert!(!m.promotes());
    assert_eq!(m.capture_count(), 3);
}

#[test]
fn k4_promote_and_continue_gives_seven_moves() {
    let (r, pos, list) = expect(
        "keny-promote-and-continue",
        "W:Wd6:Bd7,c8,b7",
        &[
            "d6xd8xa8",
            "d6xd8xb8xb6",
            "d6xd8xb8xb5",
            "d6xd8xb8xb4",
            "d6xd8xb8xb3",
            "d6xd8xb8xb2",
            "d6xd8xb8xb1",
        ],
    );
    assert!(list.iter().all(|m| m.promotes()));
    assert_eq!(find(&r, &pos, &list, "d6xd8xa8").0.capture_count(), 2);
}

// ---------------------------------------------------------------------------
// Croda

#[test]
fn c1_man_steps_forward_and_diagonally_never_sideways() {
    expect("croda", "W:We5:Bh8", &["e5-e6", "e5-d6", "e5-f6"]);
}

#[test]
fn c2_man_captures_backward() {
    expect("croda", "W:We5:Be4", &["e5xe3"]);
}

#[test]
fn c3_dead_pieces_block_until_the_move_ends() {
    let (_, _, list) = expect(
        "croda",
        "W:WKd1:Bd3,f5,h4,b3",
        &["d1xd5xh5xh1", "d1xd5xh5xh2", "d1xd5xh5xh3"],
    );
    assert!(list.iter().all(|m| m.capture_count() == 3));
}

#[test]
fn c4_no_promotion_when_passing_the_last_rank() {
    let (r, pos, list) = expect("croda", "W:Wd6:Bd7,c8,b7", &["d6xd8xb8xb6"]);
    assert!(!find(&r, &pos, &list, "d6xd8xb8xb6").0.promotes());
}

// ---------------------------------------------------------------------------
// Dameo

#[test]
fn d1_initial_position_has_52_moves() {
    let r = rules("dameo");
    let pos = r.start_position();
    let list = r.legal_moves(&pos);
    assert_eq!(list.len(), 52, "{}", listing(&r, &pos, &list));
    for text in ["d1-b3", "d1-d4", "d1-g4", "d2-d4"] {
        find(&r, &pos, &list, text);
    }
    let from = |sq: &str| list.iter().filter(|m| m.from().to_string() == sq).count();
    assert_eq!(from("c3"), 3);
    assert_eq!(from("a1"), 2);
    assert_eq!(from("h1"), 2);
    assert_eq!(from("d1"), 3);
}

#[test]
fn d2_king_takes_one_piece_with_ten_landings() {
    let (_, _, list) = expect(
        "dameo",
        "W:WKd4:Bc4,Kd3,d5,e4",
        &[
            "d4xa4", "d4xb4", "d4xd1", "d4xd2", "d4xd6", "d4xd7", "d4xd8", "d4xf4", "d4xg4", "d4xh4",
        ],
    );
    assert!(list.iter().all(|m| m.capture_count() == 1));
}

#[test]
fn d3_man_passing_the_last_rank_is_not_crowned() {
    let (r, pos, list) = expect("dameo", "W:Wd6:Bb7,c8,d7", &["d6xd8xb8xb6"]);
    assert!(!find(&r, &pos, &list, "d6xd8xb8xb6").0.promotes());
}

#[test]
fn d4_longest_capture_is_compulsory() {
    expect("dameo", "W:Wc4:Bc5,d4,e3", &["c4xe4xe2"]);
}

#[test]
fn d5_king_takes_five_and_the_man_on_b1_is_blocked() {
    let fen = "W:WKa2,b1,Kb2,b3,c2,Kd3:BKc6,d7,e6,Ke7,e8,Kf7";
    expect("dameo", fen, &["d3xd8xf8xf6xd6xa6", "d3xd8xf8xf6xd6xb6"]);
    // With captures optional, the non-capturing moves show: none for b1.
    let r = rules("dameo-optional");
    let pos = r.parse_fen(fen).expect("fen");
    let list = r.legal_moves(&pos);
    assert!(list.iter().any(|m| !m.is_capture()));
    assert!(
        list.iter().all(|m| m.from().to_string() != "b1"),
        "b1 should have no move: {}",
        listing(&r, &pos, &list)
    );
}

#[test]
fn d6_king_moves_like_a_queen() {
    let r = rules("dameo");
    let pos = r.parse_fen("W:WKc3:BKe7").expect("fen");
    let list = r.legal_moves(&pos);
    assert_eq!(list.len(), 25, "{}", listing(&r, &pos, &list));
    assert!(list.iter().all(|m| !m.is_capture()));
}

#[test]
fn d7_loop_capture_two_paths_one_move() {
    let (r, pos, list) = expect("dameo", "W:Wc4:Bc5,d4,d6,e5", &["c4xc6xe6xe4xc4"]);
    let m = list.as_slice()[0];
    assert_eq!(m.from(), m.to(), "the loop ends on its start square");
    assert_eq!(m.capture_count(), 4);
    assert_eq!(list.path_counts(), &[2]);
    let mut paths = paths_of(&r, &pos, &m);
    paths.sort();
    assert_eq!(paths, vec!["c4xc6xe6xe4xc4", "c4xe4xe6xc6xc4"]);
    // The move is played: all four pieces leave, the man is back on c4.
    assert_eq!(r.to_fen(&pos.after(&m)), "B:Wc4:B");
}
