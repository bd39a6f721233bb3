//! The tables against published counts, against the generator (every
//! predecessor is a position the generator plays from, and none is
//! missed) and against themselves (every value is the best of its moves).

use std::path::PathBuf;

use super::build::Unmoves;
use super::index::Squares;
use super::*;
use crate::board::{Bits, Color, Node, PlyList, Runs};
use crate::rules::{with_pack, Rules};
use crate::util::Rng;

fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("dama-egtb-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

fn deep() -> bool {
    std::env::var("DAMA_EGTB_DEEP").is_ok_and(|v| !v.is_empty() && v != "0")
}

/// English checkers: 120, 6,972, 261,224, 7,092,774 and 148,688,232
/// positions with one to five pieces, side to move left out (the counts
/// of the Chinook project, Schaeffer et al.).
#[test]
fn english_counts_are_the_published_ones() {
    let rules = Rules::builtin("english").unwrap();
    assert_eq!(
        position_counts(&rules, 5),
        vec![120, 6_972, 261_224, 7_092_774, 148_688_232]
    );
}

/// A random position of `pieces` pieces (men off their promotion squares).
fn random_node<B: Bits>(p: &crate::rules::Pack<B>, sq: &Squares, rng: &mut Rng, pieces: usize) -> Node<B> {
    let squares = sq.playable_bits();
    let mut n = Node {
        white: B::ZERO,
        black: B::ZERO,
        kings: B::ZERO,
        side: if rng.below(2) == 0 { Color::White } else { Color::Black },
        runs: Runs::NONE,
    };
    let mut placed = 0;
    while placed < pieces {
        let b = squares[rng.below(squares.len())];
        if n.occupied().has(b) {
            continue;
        }
        let white = rng.below(2) == 0;
        let king = rng.below(2) == 0;
        let c = if white { 0 } else { 1 };
        if !king && p.promotion[c].has(b) {
            continue;
        }
        if white {
            n.white |= B::bit(b);
        } else {
            n.black |= B::bit(b);
        }
        if king {
            n.kings |= B::bit(b);
        }
        placed += 1;
    }
    n
}

/// On random positions of several variants, the predecessors are exactly
/// the positions from which the generator plays a quiet, non-crowning move
/// (or a pass) to the position: each forward move's target lists its
/// source, and each listed predecessor has that move in its legal list.
#[test]
fn predecessors_are_the_generator_inverse() {
    let mut checked = 0;
    for id in [
        "dama",
        "english",
        "russian",
        "frisian",
        "armenian",
        "dameo",
        "armenian-schmidt",
        "international",
    ] {
        let rules = Rules::builtin(id).unwrap();
        with_pack!(rules, p => {
            let sq = Squares::new(p);
            let un = Unmoves::new(&rules, p, &sq);
            let mut rng = Rng::new(7);
            let mut list = PlyList::new();
            for round in 0..600 {
                let n = random_node(p, &sq, &mut rng, 2 + round % 6);
                // Forward: every in-slice move of n has n among the target's predecessors.
                rules.generate_in(p, &n, &mut list);
                for (m, _) in list.iter() {
                    if m.is_capture() || m.promotes() {
                        continue;
                    }
                    let child = n.after(m);
                    let mut found = false;
                    un.each(&rules, p, &child, |q| found |= *q == n);
                    assert!(found, "{id}: {} -> {} not found", rules.to_fen(&p.position(&n)), rules.to_fen(&p.position(&child)));
                    checked += 1;
                }
                // Backward: each predecessor plays a listed move to n.
                let mut preds = Vec::new();
                un.each(&rules, p, &n, |q| preds.push(*q));
                let mut l2 = PlyList::new();
                for q in preds {
                    rules.generate_in(p, &q, &mut l2);
                    assert!(
                        l2.iter().any(|(m, _)| !m.is_capture() && !m.promotes() && q.after(m) == n),
                        "{id}: {} is no predecessor of {}", rules.to_fen(&p.position(&q)), rules.to_fen(&p.position(&n))
                    );
                    checked += 1;
                }
            }
        });
    }
    assert!(checked > 10_000, "{checked}");
}

/// Every entry of a built table is what its moves give: the end rules'
/// verdict where the game is over, else the best of the children's values
/// (the quickest win, the slowest loss).
fn check_tables(rules: &Rules, dir: &std::path::Path, pieces: u8) {
    with_pack!(rules, p => {
        let sq = Squares::new(p);
        let mut tb = Tablebase::open(rules, dir);
        let mut list = PlyList::new();
        for m in Material::up_to(pieces) {
            let shape = sq.shape(m).unwrap();
            for e in 0..2 * shape.per_side {
                let Some(n) = sq.node_in(p, &shape, e) else { continue };
                let got = tb.entry(&sq, &n).unwrap();
                let want = match judge::judge(rules, p, &n, &mut list) {
                    Some(v) => v,
                    None => {
                        let mut best = value::UNKNOWN;
                        for (mv, _) in list.iter() {
                            let c = n.after(mv);
                            best = value::better(best, value::back(tb.entry(&sq, &c).unwrap()));
                        }
                        best
                    }
                };
                assert_eq!(got, want, "{} {m}: {}", rules.id(), rules.to_fen(&p.position(&n)));
            }
        }
    });
}

#[test]
fn small_tables_are_consistent() {
    for (id, pieces) in [
        ("english", 3),
        ("dama", 3),
        ("russian", 3),
        ("antidraughts", 3),
        ("breakthrough", 3),
    ] {
        let rules = Rules::builtin(id).unwrap();
        let dir = tmp(id);
        let report = build(&rules, &dir, pieces, None, &|_| {}).unwrap();
        assert_eq!(report.built, report.tables.len());
        check_tables(&rules, &dir, pieces);
        // Building again reads the files.
        let again = build(&rules, &dir, pieces, None, &|_| {}).unwrap();
        assert_eq!(again.built, 0);
        assert_eq!(again.tables, report.tables);
        let _ = std::fs::remove_dir_all(&dir);
    }
}

/// The positions of `m` with `side` to move that pass `keep`, by value.
fn sorted(
    rules: &Rules,
    dir: &std::path::Path,
    m: Material,
    side: Color,
    keep: impl Fn(&Position) -> bool,
) -> (Vec<Position>, Vec<Position>, Vec<Position>) {
    let mut tb = Tablebase::open(rules, dir);
    let (mut w, mut d, mut l) = (Vec::new(), Vec::new(), Vec::new());
    with_pack!(rules, p => {
        let sq = Squares::new(p);
        let shape = sq.shape(m).unwrap();
        let start = if side == Color::White { 0 } else { shape.per_side };
        for e in start..start + shape.per_side {
            let Some(node) = sq.node_in(p, &shape, e) else { continue };
            let pos = p.position(&node);
            if !keep(&pos) {
                continue;
            }
            match tb.probe(&pos).unwrap().wdl {
                Wdl::Win => w.push(pos),
                Wdl::Draw => d.push(pos),
                Wdl::Loss => l.push(pos),
            }
        }
    });
    (w, d, l)
}

fn kings(w: u8, b: u8) -> Material {
    Material {
        white_men: 0,
        white_kings: w,
        black_men: 0,
        black_kings: b,
    }
}

fn fens(rules: &Rules, ps: &[Position], n: usize) -> String {
    ps.iter()
        .take(n)
        .map(|p| rules.to_fen(p))
        .collect::<Vec<_>>()
        .join("  ")
}

/// English: two kings beat one from almost every position; one king
/// against one is mostly a draw, but not where the side to move takes the
/// opposition against a king on the edge (each of its moves is then taken)
/// or captures at once.
#[test]
fn english_kings() {
    let rules = Rules::builtin("english").unwrap();
    let dir = tmp("english-kings");
    build_for(&rules, &dir, &[kings(2, 1)], None, &|_| {}).unwrap();
    let no_capture = |p: &Position| !rules.has_capture(p);
    let (w, d, l) = sorted(&rules, &dir, kings(1, 1), Color::White, no_capture);
    let n = w.len() + d.len() + l.len();
    eprintln!(
        "english K v K, no capture: {} wins, {} draws, {} losses of {n}; wins e.g. {}",
        w.len(),
        d.len(),
        l.len(),
        fens(&rules, &w, 3)
    );
    assert!(d.len() * 100 >= n * 60, "K v K is mostly drawn");
    let (w, d, l) = sorted(&rules, &dir, kings(2, 1), Color::White, no_capture);
    let n = w.len() + d.len() + l.len();
    eprintln!(
        "english KK v K, kings to move, no capture: {} wins, {} draws, {} losses of {n}; draws e.g. {}",
        w.len(),
        d.len(),
        l.len(),
        fens(&rules, &d, 3)
    );
    assert!(w.len() * 100 >= n * 95, "KK v K is won");
    let (w, d, l) = sorted(&rules, &dir, kings(2, 1), Color::Black, no_capture);
    eprintln!(
        "english KK v K, lone king to move, no capture: {} wins, {} draws, {} losses; not lost e.g. {} {}",
        w.len(),
        d.len(),
        l.len(),
        fens(&rules, &w, 2),
        fens(&rules, &d, 2)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Russian: three kings beat one unless the lone king holds the long
/// diagonal a1-h8 (Petrov's triangle).
#[test]
fn russian_petrov_triangle() {
    let rules = Rules::builtin("russian").unwrap();
    let dir = tmp("russian-petrov");
    build_for(&rules, &dir, &[kings(3, 1)], None, &|_| {}).unwrap();
    let diagonal: Vec<crate::board::Square> = ["a1", "b2", "c3", "d4", "e5", "f6", "g7", "h8"]
        .iter()
        .map(|s| rules.parse_square(s).unwrap())
        .collect();
    let on = |p: &Position| diagonal.iter().any(|&s| p.kings(Color::Black).contains(s));
    let white_on = |p: &Position| diagonal.iter().any(|&s| p.kings(Color::White).contains(s));
    let (w, d, _) = sorted(&rules, &dir, kings(3, 1), Color::White, |p| {
        !rules.has_capture(p) && !on(p)
    });
    eprintln!(
        "russian KKK v K, kings to move, no capture, lone king off the long diagonal: {} wins, {} draws; draws e.g. {}",
        w.len(),
        d.len(),
        fens(&rules, &d, 3)
    );
    let (w2, d2, _) = sorted(&rules, &dir, kings(3, 1), Color::White, |p| {
        !rules.has_capture(p) && on(p)
    });
    let w2_sac = w2.iter().filter(|p| white_on(p)).count();
    eprintln!("russian KKK v K, kings to move, no capture, lone king on the long diagonal: {} wins ({} with a white king on it too), {} draws; wins e.g. {}", w2.len(), w2_sac, d2.len(), fens(&rules, &w2, 3));
    let share = |w: usize, d: usize| w as f64 / (w + d) as f64;
    assert!(share(w.len(), d.len()) > 0.95, "off the diagonal the kings win");
    assert!(
        share(w2.len(), d2.len()) < 0.5,
        "on the diagonal the lone king mostly holds"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn english_four_pieces_deep() {
    if !deep() {
        return;
    }
    let rules = Rules::builtin("english").unwrap();
    let dir = tmp("english-4");
    let report = build(&rules, &dir, 4, None, &|_| {}).unwrap();
    let positions: u64 = report.tables.iter().map(TableHeader::positions).sum();
    assert_eq!(positions, 2 * (120 + 6_972 + 261_224 + 7_092_774));
    check_tables(&rules, &dir, 4);
    let _ = std::fs::remove_dir_all(&dir);
}

/// The search plays the tables' move where they hold the root.
#[test]
fn the_search_plays_from_the_tables() {
    let rules = Rules::builtin("english").unwrap();
    let dir = tmp("english-search");
    build_for(&rules, &dir, &[kings(2, 1)], None, &|_| {}).unwrap();
    let pos = rules.parse_fen("W:WK1,K2:BK32").unwrap();
    let mut tb = Tablebase::open(&rules, &dir);
    let value = tb.probe(&pos).unwrap();
    assert_eq!(value.wdl, Wdl::Win);
    let mut engine = crate::Engine::new(&rules);
    engine.set_tables(Some(Tablebase::open(&rules, &dir)));
    let r = engine.search(&crate::SearchRoot::new(pos), &crate::Limits::depth(1));
    assert_eq!(r.mate_in(), Some(value.plies as i32));
    assert_eq!(r.best, tb.best_move(&pos).unwrap().map(|(m, _)| m));
    let _ = std::fs::remove_dir_all(&dir);
}

/// Where the rules keep the left-right mirror (Turkish draughts), the build
/// solves one position of each mirror pair: every position and its image
/// have one value, and the tables pass [`check_tables`] (above, in
/// `small_tables_are_consistent`).
#[test]
fn mirror_images_have_one_value() {
    let rules = Rules::builtin("dama").unwrap();
    let dir = tmp("dama-mirror");
    build(&rules, &dir, 3, None, &|_| {}).unwrap();
    with_pack!(rules, p => {
        let mirror = symmetry::Mirror::of(&rules, p).expect("dama keeps the mirror");
        let sq = Squares::new(p);
        let mut tb = Tablebase::open(&rules, &dir);
        let mut pairs = 0;
        for m in Material::up_to(3) {
            let shape = sq.shape(m).unwrap();
            for e in 0..2 * shape.per_side {
                let Some(n) = sq.node_in(p, &shape, e) else { continue };
                let image = mirror.node(&n);
                if image != n {
                    pairs += 1;
                }
                assert_eq!(tb.entry(&sq, &n).unwrap(), tb.entry(&sq, &image).unwrap(), "{m}");
            }
        }
        assert!(pairs > 0);
    });
    let _ = std::fs::remove_dir_all(&dir);
}

/// The mirror changes how a table is built, not what it holds: on a small
/// Turkish board, the tables built with it equal those built without it,
/// entry by entry (2 kings against 2 and a king and a man each, where
/// positions that are their own image are common).
#[test]
fn the_mirror_does_not_change_the_tables() {
    let text = "id = \"dama-5x5\"\nextends = \"dama\"\n[board]\nwidth = 5\nheight = 5\n\
                [setup]\nwhite = [\"a2-e2\"]\nblack = [\"a4-e4\"]\n";
    let rules = crate::variant::load_text("dama-5x5.toml", text, None).unwrap().rules;
    let targets = [
        kings(2, 2),
        Material {
            white_men: 1,
            white_kings: 1,
            black_men: 1,
            black_kings: 1,
        },
    ];
    let (with, without) = (tmp("mirror-on"), tmp("mirror-off"));
    let a = build_with_mirror(&rules, &with, &targets, None, &|_| {}, true, None).unwrap();
    let b = build_with_mirror(&rules, &without, &targets, None, &|_| {}, false, None).unwrap();
    assert_eq!(a.tables, b.tables);
    for h in &a.tables {
        let name = h.material.file_name();
        let read = |d: &std::path::Path| std::fs::read(table_dir(d, &rules).join(&name)).unwrap();
        assert!(read(&with) == read(&without), "{}", h.material);
    }
    let _ = std::fs::remove_dir_all(&with);
    let _ = std::fs::remove_dir_all(&without);
}

/// Below the root, the search takes the tables' value: from four kings
/// where every move captures into a three-piece table (English captures
/// are forced), the score is the quickest table win plus the capture,
/// the move is one that reaches it, and the search visits fewer nodes
/// than without the tables at the same depth.
#[test]
fn the_search_probes_the_tables_below_the_root() {
    let rules = Rules::builtin("english").unwrap();
    let dir = tmp("english-probe");
    build(&rules, &dir, 3, None, &|_| {}).unwrap();
    let mut tb = Tablebase::open(&rules, &dir);
    assert_eq!(tb.max_pieces(), Some(3));
    // The first position (in square order) with White kings on two
    // squares and Black kings on two, White to move, where White has at
    // least two captures and they lead to different values.
    let mut found = None;
    'search: for a in 1..=32 {
        for b in a + 1..=32 {
            for c in 1..=32 {
                for d in c + 1..=32 {
                    if [a, b].contains(&c) || [a, b].contains(&d) {
                        continue;
                    }
                    let pos = rules.parse_fen(&format!("W:WK{a},K{b}:BK{c},K{d}")).unwrap();
                    let moves: Vec<Move> = rules.legal_moves(&pos).as_slice().to_vec();
                    if moves.len() < 2 || !moves.iter().all(|m| m.is_capture()) {
                        continue;
                    }
                    let values: Vec<TableValue> = moves.iter().map(|m| tb.probe(&pos.after(m)).unwrap()).collect();
                    if values.iter().any(|v| v.wdl == Wdl::Loss) && values.iter().any(|v| *v != values[0]) {
                        found = Some((pos, moves, values));
                        break 'search;
                    }
                }
            }
        }
    }
    let (pos, moves, values) = found.expect("a position of four kings with captures into the tables");
    // The quickest win: the child lost in the fewest plies.
    let quickest = values
        .iter()
        .filter(|v| v.wdl == Wdl::Loss)
        .map(|v| v.plies)
        .min()
        .unwrap();
    let root = crate::SearchRoot::new(pos);
    let limits = crate::Limits::depth(5);
    let mut with = crate::Engine::new(&rules);
    with.set_tables(Some(Tablebase::open(&rules, &dir)));
    assert!(with.has_tables());
    let r = with.search(&root, &limits);
    assert_eq!(r.mate_in(), Some(quickest as i32 + 1), "{}", rules.to_fen(&pos));
    let best = r.best.unwrap();
    let i = moves.iter().position(|m| *m == best).unwrap();
    assert_eq!(
        values[i],
        TableValue {
            wdl: Wdl::Loss,
            plies: quickest
        }
    );
    assert!(r.table_hits > 0);
    let mut without = crate::Engine::new(&rules);
    let plain = without.search(&root, &limits);
    assert_eq!(plain.table_hits, 0);
    eprintln!(
        "{}: depth 5, {} nodes with the tables ({} hits, {}), {} without ({})",
        rules.to_fen(&pos),
        r.nodes,
        r.table_hits,
        r.score_text(),
        plain.nodes,
        plain.score_text()
    );
    assert!(
        r.nodes < plain.nodes,
        "{} with the tables, {} without",
        r.nodes,
        plain.nodes
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A folder without tables for the rules: nothing to probe, and the
/// search plays as without tables; a slice that is not there is looked
/// for once.
#[test]
fn the_search_without_slices_searches() {
    let rules = Rules::builtin("english").unwrap();
    let dir = tmp("english-none");
    std::fs::create_dir_all(&dir).unwrap();
    let tb = Tablebase::open(&rules, &dir);
    assert_eq!(tb.max_pieces(), None);
    let mut engine = crate::Engine::new(&rules);
    engine.set_tables(Some(tb));
    assert!(!engine.has_tables());
    let pos = rules.parse_fen("W:WK1,K2:BK32").unwrap();
    let r = engine.search(&crate::SearchRoot::new(pos), &crate::Limits::depth(3));
    assert!(r.best.is_some());
    assert_eq!(r.table_hits, 0);
    // Tables for other rules are not used.
    let mut engine = crate::Engine::new(&Rules::builtin("russian").unwrap());
    engine.set_tables(Some(Tablebase::open(&rules, &dir)));
    assert!(!engine.has_tables());
    let _ = std::fs::remove_dir_all(&dir);
}

/// A slice missing from a folder that holds others is asked of the file
/// system once, then remembered.
#[test]
fn a_missing_slice_is_remembered() {
    let rules = Rules::builtin("english").unwrap();
    let dir = tmp("english-missing");
    build_for(&rules, &dir, &[kings(1, 1)], None, &|_| {}).unwrap();
    with_pack!(rules, p => {
        let mut t = NodeTables::new(Tablebase::open(&rules, &dir), p);
        assert_eq!(t.max_pieces(), 2);
        let kk = p.node(&rules.parse_fen("W:WK1:BK32").unwrap());
        assert!(t.probe(&kk).is_some());
        // One man each: a two-piece slice that was not built.
        let mm = p.node(&rules.parse_fen("W:W21:B12").unwrap());
        assert!(t.probe(&mm).is_none());
        // Even once its file appears, the slice stays missing for this search.
        build(&rules, &dir, 2, None, &|_| {}).unwrap();
        assert!(t.probe(&mm).is_none());
        assert!(NodeTables::new(Tablebase::open(&rules, &dir), p).probe(&mm).is_some());
    });
    let _ = std::fs::remove_dir_all(&dir);
}

/// A position with more pieces than any table (the start position, every
/// lesser count up to it) is a typed "no table" answer from every way in:
/// `probe`, `best_move`, the search's root and its nodes. It is never
/// indexed into a slice it does not belong to.
#[test]
fn a_full_board_is_no_table() {
    for id in ["english", "dama", "russian", "international"] {
        let rules = Rules::builtin(id).unwrap();
        let dir = tmp(&format!("full-{id}"));
        build(&rules, &dir, 2, None, &|_| {}).unwrap();
        let start = rules.start_position();
        let mut tb = Tablebase::open(&rules, &dir);
        assert!(
            matches!(tb.probe(&start), Err(EgtbError::Missing { .. })),
            "{id}: {:?}",
            tb.probe(&start)
        );
        assert!(matches!(tb.best_move(&start), Err(EgtbError::Missing { .. })), "{id}");
        // Every piece count from the start position's down to 3, one side
        // losing men: none is in the tables.
        with_pack!(rules, p => {
            let mut t = NodeTables::new(Tablebase::open(&rules, &dir), p);
            let mut n = p.node(&start);
            while n.occupied().ones() > 2 {
                let pos = rules.track_runs(p.position(&n));
                assert!(matches!(tb.probe(&pos), Err(EgtbError::Missing { .. })), "{id}");
                assert!(t.probe(&n).is_none(), "{id}");
                drop_one(&mut n);
            }
        });
        let mut engine = crate::Engine::new(&rules);
        engine.set_tables(Some(Tablebase::open(&rules, &dir)));
        assert!(engine.has_tables());
        let r = engine.search(&crate::SearchRoot::new(start), &crate::Limits::depth(2));
        assert!(r.best.is_some(), "{id}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}

/// `n` without the lowest piece of the side with more pieces.
fn drop_one<B: Bits>(n: &mut Node<B>) {
    let side = if n.white.ones() >= n.black.ones() {
        &mut n.white
    } else {
        &mut n.black
    };
    *side = side.without_lowest();
    n.kings &= n.white | n.black;
}

/// A table with one entry byte changed, bytes appended, its end cut or a
/// sparse extension to 20 GB: each is reported with the file and what is
/// wrong, and no wrong size is read.
#[test]
fn damaged_tables_are_reported() {
    let rules = Rules::builtin("english").unwrap();
    let dir = tmp("english-damaged");
    build(&rules, &dir, 2, None, &|_| {}).unwrap();
    let d = table_dir(&dir, &rules);
    let kk = kings(1, 1);
    let path = d.join(kk.file_name());
    let good = std::fs::read(&path).unwrap();
    assert!(verify(&rules, &dir).iter().all(|(_, r)| r.is_ok()));
    let check = |bytes: Option<&[u8]>, len: Option<u64>, what: &str| {
        if let Some(b) = bytes {
            std::fs::write(&path, b).unwrap();
        }
        if let Some(n) = len {
            std::fs::OpenOptions::new()
                .write(true)
                .open(&path)
                .unwrap()
                .set_len(n)
                .unwrap();
        }
        let bad: Vec<_> = verify(&rules, &dir).into_iter().filter(|(_, r)| r.is_err()).collect();
        assert_eq!(bad.len(), 1, "{what}");
        assert_eq!(bad[0].0, kk, "{what}");
        let e = bad[0].1.as_ref().unwrap_err().to_string();
        assert!(e.contains(&path.display().to_string()) && e.contains(what), "{e}");
        let mut tb = Tablebase::open(&rules, &dir);
        let e = tb
            .probe(&rules.parse_fen("W:WK1:BK32").unwrap())
            .unwrap_err()
            .to_string();
        assert!(e.contains(what), "{e}");
    };
    // One entry byte: the checksum (the header alone is fine).
    let mut flipped = good.clone();
    let at = good.len() - 8 - 100;
    flipped[at] ^= 0x40;
    check(Some(&flipped), None, "checksum");
    assert!(headers(&rules, &dir).is_ok());
    // Bytes appended, the end cut, a sparse extension: the size.
    let mut longer = good.clone();
    longer.extend_from_slice(b"more");
    check(Some(&longer), None, "longer than its header says");
    assert!(headers(&rules, &dir).is_err());
    check(Some(&good[..good.len() - 3]), None, "shorter than its header says");
    check(Some(&good), Some(20 << 30), "longer than its header says");
    assert!(headers(&rules, &dir).is_err());
    std::fs::write(&path, &good).unwrap();
    assert!(verify(&rules, &dir).iter().all(|(_, r)| r.is_ok()));
    let _ = std::fs::remove_dir_all(&dir);
}

/// A build spread over tasks, one slice each in the plan's order, writes
/// the same files as one build; a slice whose dependencies are not built
/// is refused, naming the first one missing.
#[test]
fn slices_built_one_by_one_are_the_files_of_one_build() {
    let rules = Rules::builtin("english").unwrap();
    let target: Material = "KM v K".parse().unwrap();
    let (whole, parts) = (tmp("only-whole"), tmp("only-parts"));
    let one = build_for(&rules, &whole, &[target], None, &|_| {}).unwrap();
    let missing = build_only(&rules, &parts, target, None, &|_| {}).unwrap_err();
    assert!(
        matches!(missing, EgtbError::Missing { material, .. } if material.to_string() == "- v K"),
        "{missing}"
    );
    let order = plan(&[target]);
    assert_eq!(order.len(), one.tables.len());
    for m in &order {
        let r = build_only(&rules, &parts, *m, None, &|_| {}).unwrap();
        assert_eq!(r.built, 1, "{m}");
        assert_eq!(r.tables.last().map(|h| h.material), Some(*m));
    }
    for m in &order {
        let read = |d: &std::path::Path| std::fs::read(table_dir(d, &rules).join(m.file_name())).unwrap();
        assert!(read(&whole) == read(&parts), "{m}");
    }
    // Built already: read, not built again.
    assert_eq!(build_only(&rules, &parts, target, None, &|_| {}).unwrap().built, 0);
    let _ = std::fs::remove_dir_all(&whole);
    let _ = std::fs::remove_dir_all(&parts);
}
