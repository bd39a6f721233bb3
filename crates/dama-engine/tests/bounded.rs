//! Nothing unbounded (issue 38): a user's 16×16 variant whose capture tree
//! explodes (tests/variants/big16.toml: flying kings in eight
//! directions landing anywhere beyond, captured pieces removed at the end of
//! the move, no majority, no reversal rule). One position there has 81.7
//! million capture paths. Listing and counting must cost time linear in the
//! paths, and a search must stay within its limits.

use std::time::{Duration, Instant};

use dama_engine::{load_text, CountMode, Engine, Limits, MoveList, Position, Rules, SearchRoot};

const BIG16: &str = include_str!("../../../tests/variants/big16.toml");
/// The position of the issue: a white king against fourteen men.
const HUGE: &str = "W:WKa7:Bg13,a2,p8,g3,a10,k15,e2,b2,d11,c5,e9,g14,g16,n5";
/// The same with seven men: a few thousand paths.
const SMALL: &str = "W:WKa7:Bg13,a2,p8,g3,a10,k15,e2";

fn big16() -> Rules {
    load_text("big16.toml", BIG16, None).expect("big16.toml loads").rules
}

fn pos(r: &Rules, fen: &str) -> Position {
    r.parse_fen(fen).expect("a valid FEN")
}

/// Merged moves: each identity once, with every path counted (the list is
/// long enough to go through the hash index).
#[test]
fn a_long_capture_list_merges_every_path() {
    let r = big16();
    let p = pos(&r, SMALL);
    let moves = r.legal_moves(&p);
    assert!(moves.len() > 64, "{} moves: too few to use the index", moves.len());
    let all = moves.as_slice();
    for (i, m) in all.iter().enumerate() {
        assert!(!all[..i].iter().any(|o| o.same_identity(m)), "{m:?} listed twice");
    }
    assert_eq!(moves.total_paths(), r.count_moves(&p, CountMode::Paths));
    assert_eq!(moves.len() as u64, r.count_moves(&p, CountMode::Moves));
    // The paths of every move, found in one search, are those found one move at a time.
    let ways = r.paths_of_moves(&p, &moves, usize::MAX);
    for ((m, &n), found) in all.iter().zip(moves.path_counts()).zip(&ways) {
        assert_eq!(found, &r.move_paths(&p, m), "{m:?}");
        assert_eq!(found.len(), n as usize, "{m:?}");
    }
    // At most `per_move` of them.
    for (found, &n) in r.paths_of_moves(&p, &moves, 2).iter().zip(moves.path_counts()) {
        assert_eq!(found.len(), (n as usize).min(2));
    }
}

/// A budget of jumps refuses the huge position at once, and changes
/// nothing where the tree is small.
#[test]
fn generate_within_refuses_a_huge_tree() {
    let r = big16();
    let mut list = MoveList::new();
    let t = Instant::now();
    assert!(!r.generate_within(&pos(&r, HUGE), &mut list, 1 << 16));
    assert!(list.is_empty());
    assert!(t.elapsed() < Duration::from_secs(5), "{:?}", t.elapsed());
    let small = pos(&r, SMALL);
    assert!(r.generate_within(&small, &mut list, 1 << 30));
    assert_eq!(list.as_slice(), r.legal_moves(&small).as_slice());
    let dama = Rules::builtin("dama").unwrap();
    let start = dama.start_position();
    assert!(dama.generate_within(&start, &mut list, 1));
    assert_eq!(list.as_slice(), dama.legal_moves(&start).as_slice());
}

/// Listing the root's 81.7 million paths took the search 55 s at
/// `nodes = 10` and 57 s at one second a move: the limits are now checked
/// inside the capture search (the bounds here are generous, for a loaded
/// machine: the searches take about a second).
#[test]
fn search_limits_hold_in_a_huge_capture_tree() {
    let r = big16();
    let root = SearchRoot::new(pos(&r, HUGE));
    for limits in [
        Limits {
            nodes: Some(10),
            ..Limits::depth(30)
        },
        Limits::movetime(Duration::from_millis(1000)),
    ] {
        let mut e = Engine::new(&r);
        let t = Instant::now();
        let res = e.search(&root, &limits);
        let took = t.elapsed();
        assert!(took < Duration::from_secs(10), "{limits:?}: {took:?}");
        let best = res.best.expect("a move");
        assert!(best.is_capture(), "{best:?}");
        assert_eq!(best.from(), r.parse_square("a7").unwrap(), "{best:?}");
    }
}

/// The validator warns about the rules whose capture tree explodes
/// (`W0605`), and not about the shipped variants' rules.
#[test]
fn exploding_king_captures_are_flagged() {
    let loaded = load_text("big16.toml", BIG16, None).expect("big16.toml loads");
    assert!(
        loaded.warnings.iter().any(|d| d.code == dama_engine::Code::W0605),
        "{:?}",
        loaded.warnings
    );
    let adjacent = BIG16.replace("landing = \"any_beyond\"", "landing = \"adjacent_beyond\"");
    let loaded = load_text("big16.toml", &adjacent, None).expect("loads");
    assert!(!loaded.warnings.iter().any(|d| d.code == dama_engine::Code::W0605));
}
