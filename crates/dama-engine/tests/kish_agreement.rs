//! Turkish draughts against an independent engine: kish 1.1.7, a
//! hand-written Turkish generator (a dev-dependency only, as for
//! `benches/vs_kish.rs`).
//!
//! For every position tested, the positions reached by our legal moves,
//! each counted once per capture path, must be exactly the positions
//! reached by kish's actions (kish lists one action per path). That checks
//! the rules we read from `variants/dama.toml` (directions, flying kings,
//! immediate removal, the 180° rule, the majority rule, promotion at the end
//! of a capture) against code written by someone else, position by
//! position, where perft only compares totals.
//!
//! Positions: random playouts from the start (both engines agree on every
//! position along the way, and on the end of the game), and random
//! placements rich in kings, where flying-king chains are long.
//! `DAMA_DEEP=1` tests twenty times as many.

use std::collections::BTreeMap;

use dama_engine::Rng;
use dama_engine::{Bitboard, Color, MoveList, Piece, Position, Rules, Square};
use kish::{Board, State, Team};

/// A position as both engines can state it: White, Black, kings, White to move.
type Key = (u64, u64, u64, bool);

fn deep() -> bool {
    std::env::var("DAMA_DEEP").is_ok_and(|v| !v.is_empty() && v != "0")
}

/// A set of squares of the 8×8 board as kish's word: bit `rank * 8 + file`.
fn word(b: Bitboard) -> u64 {
    b.iter().fold(0, |w, s| {
        assert!(s.file() < 8 && s.rank() < 8, "{s} is off the 8×8 board");
        w | 1u64 << (s.rank() * 8 + s.file())
    })
}

fn key(pos: &Position) -> Key {
    (
        word(pos.pieces(Color::White)),
        word(pos.pieces(Color::Black)),
        word(pos.all_kings()),
        pos.side_to_move() == Color::White,
    )
}

fn kish_board(pos: &Position) -> Board {
    let turn = match pos.side_to_move() {
        Color::White => Team::White,
        Color::Black => Team::Black,
    };
    Board::new(
        turn,
        State::new(
            [word(pos.pieces(Color::White)), word(pos.pieces(Color::Black))],
            word(pos.all_kings()),
        ),
    )
}

/// The children of `pos` with their number of paths, by our generator.
fn ours(rules: &Rules, pos: &Position, list: &mut MoveList) -> BTreeMap<Key, u32> {
    rules.generate(pos, list);
    let mut out = BTreeMap::new();
    for (m, &n) in list.as_slice().iter().zip(list.path_counts()) {
        *out.entry(key(&pos.after(m))).or_insert(0) += n;
    }
    out
}

/// The same by kish.
fn theirs(pos: &Position) -> BTreeMap<Key, u32> {
    let board = kish_board(pos);
    let mut out = BTreeMap::new();
    for action in board.actions() {
        let mut child = board.apply(&action);
        child.swap_turn_();
        let k = (
            child.state.pieces[0],
            child.state.pieces[1],
            child.state.kings,
            child.turn == Team::White,
        );
        *out.entry(k).or_insert(0) += 1;
    }
    out
}

/// Compares the two engines on `pos`; returns the number of paths.
fn agree(rules: &Rules, pos: &Position, list: &mut MoveList, what: &str) -> usize {
    let a = ours(rules, pos, list);
    let b = theirs(pos);
    if a != b {
        let fen = rules.to_fen(pos);
        let only_ours: Vec<_> = a.iter().filter(|(k, n)| b.get(*k) != Some(*n)).collect();
        let only_theirs: Vec<_> = b.iter().filter(|(k, n)| a.get(*k) != Some(*n)).collect();
        panic!(
            "{what}: {fen}\nours ({} paths) and kish ({} paths) differ\n\
             ours only (or other path count): {only_ours:x?}\nkish only (or other path count): {only_theirs:x?}",
            a.values().sum::<u32>(),
            b.values().sum::<u32>(),
        );
    }
    a.values().sum::<u32>() as usize
}

#[test]
fn every_position_of_random_games_has_the_same_moves_as_kish() {
    let rules = Rules::builtin("dama").unwrap();
    let games = if deep() { 4000 } else { 200 };
    let mut rng = Rng::new(0x6b69_7368);
    let mut list = MoveList::new();
    let (mut positions, mut paths, mut captures) = (0usize, 0usize, 0usize);
    for g in 0..games {
        let mut pos = rules.start_position();
        for ply in 0..300 {
            let n = agree(&rules, &pos, &mut list, &format!("game {g}, ply {ply}"));
            positions += 1;
            paths += n;
            if list.is_empty() {
                // kish agrees that the side to move has no action: the game is over.
                break;
            }
            captures += usize::from(list.as_slice()[0].is_capture());
            let m = list.as_slice()[rng.below(list.len())];
            pos.play(&m);
        }
    }
    eprintln!("{games} games: {positions} positions, {paths} paths, {captures} with a capture");
    assert!(positions > games * 20 && captures > positions / 10);
}

#[test]
fn random_positions_rich_in_kings_have_the_same_moves_as_kish() {
    let rules = Rules::builtin("dama").unwrap();
    let cases = if deep() { 200_000 } else { 10_000 };
    let mut rng = Rng::new(0x6b69_6e67);
    let mut list = MoveList::new();
    let (mut paths, mut long) = (0usize, 0usize);
    for i in 0..cases {
        let mut pos = Position::empty(if rng.below(2) == 0 { Color::White } else { Color::Black });
        let n = 2 + rng.below(14);
        for _ in 0..n {
            let i = rng.below(64) as u8;
            let sq = Square::new(i % 8, i / 8).unwrap();
            let color = if rng.below(2) == 0 { Color::White } else { Color::Black };
            // Men never stand on their own promotion rank.
            let last = match color {
                Color::White => 7,
                Color::Black => 0,
            };
            let piece = if rng.below(3) == 0 || sq.rank() == last {
                Piece::King(color)
            } else {
                Piece::Man(color)
            };
            pos.set_piece(sq, Some(piece));
        }
        paths += agree(&rules, &pos, &mut list, &format!("random position {i}"));
        long += usize::from(list.as_slice().first().is_some_and(|m| m.captured().count() >= 3));
    }
    eprintln!("{cases} positions: {paths} paths, {long} with captures of three or more pieces");
    assert!(
        long > cases / 200,
        "too few long captures ({long}) to test the capture rules"
    );
}
