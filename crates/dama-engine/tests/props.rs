//! Property tests (issue 7): invariants of the move generator, positions,
//! FEN and notation, checked over random legal playouts and random
//! positions in every shipped variant (the list comes from
//! [`dama_engine::source::BUILTIN`], so a new variant is covered the day it ships).
//!
//! Cases: [`PLAYOUT_CASES`] playouts (each one played in every variant) and
//! [`POSITION_CASES`] random positions by default; `PROPTEST_CASES=N` runs N
//! of each instead. Failing inputs are kept in
//! `crates/dama-engine/proptest-regressions/props.txt` and replayed first on
//! every later run.
//!
//! For each position reached:
//! - no square holds two pieces, kings are pieces, every piece stands on a
//!   playable square, no man stands on its own promotion rank;
//! - FEN write -> read is the identity;
//! - for each generated move: play then undo restores the position exactly;
//!   the piece count drops by exactly the number captured (and only the
//!   opponent loses pieces); the mover lands on the destination, crowned
//!   exactly when the move says so; the move's paths agree with its path count
//!   and its captured set; the full and the short notation both resolve back to
//!   the same move; `is_legal` accepts it;
//! - the validator accepts nothing that is not generated: random move texts
//!   built from squares resolve only to generated moves with the same ends, a
//!   two-square text resolves exactly when one generated move has those ends,
//!   and random `Move` values are legal exactly when generated.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::OnceLock;

use dama_engine::source::BUILTIN;

#[path = "common/synthetic.rs"]
mod synthetic;
use dama_engine::{Bitboard, Color, Move, MoveError, MoveText, Position, Rules, Square};
use proptest::prelude::*;
use proptest::test_runner::FileFailurePersistence;

/// Random playouts by default (each is played in every shipped variant).
const PLAYOUT_CASES: u32 = 16;
/// Random positions by default (each in one variant).
const POSITION_CASES: u32 = 256;
/// Cases of the test on boards larger than 8×8 (each played on every such variant).
const LARGE_CASES: u32 = 8;
/// The most capture paths of a position checked on a board larger than 8×8
/// (random placements of flying kings can have hundreds of thousands, and
/// the checks of every move look at every path of every move).
const LARGE_PATHS: u64 = 2_000;
/// Longest playout, in plies.
const MAX_PLIES: usize = 120;

fn config(default_cases: u32) -> ProptestConfig {
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(default_cases);
    ProptestConfig {
        cases,
        // Relative to the package root, where cargo runs integration tests.
        failure_persistence: Some(Box::new(FileFailurePersistence::Direct(
            "proptest-regressions/props.txt",
        ))),
        ..ProptestConfig::default()
    }
}

/// Positions and moves checked so far (printed with `DAMA_PROPS_STATS=1`).
static POSITIONS: AtomicUsize = AtomicUsize::new(0);
static MOVES: AtomicUsize = AtomicUsize::new(0);

fn stats(test: &str) {
    if std::env::var_os("DAMA_PROPS_STATS").is_some() {
        eprintln!(
            "{test}: {} positions, {} moves checked so far",
            POSITIONS.load(Ordering::Relaxed),
            MOVES.load(Ordering::Relaxed)
        );
    }
}

/// Every shipped variant, compiled once.
fn variants() -> &'static [(&'static str, Rules)] {
    static V: OnceLock<Vec<(&'static str, Rules)>> = OnceLock::new();
    V.get_or_init(|| {
        BUILTIN
            .iter()
            .map(|&(id, _)| {
                let rules = Rules::builtin(id).unwrap_or_else(|e| panic!("built-in {id} does not load: {e}"));
                (id, rules)
            })
            .collect()
    })
}

/// The synthetic variants on boards larger than 8×8 (`tests/common/synthetic.rs`), compiled once.
fn large_variants() -> &'static [(&'static str, Rules)] {
    static V: OnceLock<Vec<(&'static str, Rules)>> = OnceLock::new();
    V.get_or_init(|| {
        synthetic::SYNTHETIC
            .iter()
            .map(|&(id, text)| {
                let text = format!("id = \"{id}\"\nname = \"{id}\"\n{text}");
                let loaded = dama_engine::load_text(&format!("<test:{id}>"), &text, None)
                    .unwrap_or_else(|e| panic!("synthetic {id} does not load: {e}"));
                (id, loaded.rules)
            })
            .filter(|(_, r)| r.width() > 8 || r.height() > 8)
            .collect()
    })
}

/// A random probe of the move validator: up to four square numbers (each
/// taken modulo the number of squares of the board's grid, see
/// [`grid_square`], so some are off the playable squares), a separator and
/// a flag.
type Probe = (u8, u8, u8, u8, u8);

fn probe() -> impl Strategy<Value = Probe> {
    (any::<u8>(), any::<u8>(), any::<u8>(), any::<u8>(), any::<u8>())
}

/// The square numbered `i` (modulo width × height) of `r`'s grid, row by
/// row from a1: on 8×8, square `i % 64` in the order a1, b1, ... h8.
fn grid_square(r: &Rules, i: u8) -> Square {
    let (w, h) = (u16::from(r.width()), u16::from(r.height()));
    let i = u16::from(i) % (w * h);
    Square::new((i % w) as u8, (i / w) as u8).unwrap_or_else(|| unreachable!())
}

/// The number of `s` in `r`'s grid, row by row from a1 (`rank * 8 + file` on 8×8).
fn grid_index(r: &Rules, s: Square) -> usize {
    usize::from(s.rank()) * usize::from(r.width()) + usize::from(s.file())
}

/// The squares of `set` whose grid number (modulo 64) is a one bit of `mask`:
/// on 8×8, the set `mask & set` of 64-bit squares.
fn masked(r: &Rules, mask: u64, set: Bitboard) -> Bitboard {
    set.iter()
        .filter(|&s| mask >> (grid_index(r, s) % 64) & 1 != 0)
        .collect()
}

/// The static invariants of a position.
fn check_position(r: &Rules, pos: &Position) -> Result<(), TestCaseError> {
    let (w, b) = (pos.pieces(Color::White), pos.pieces(Color::Black));
    prop_assert_eq!(w & b, Bitboard::EMPTY, "a square holds two pieces");
    prop_assert_eq!(
        pos.all_kings() & !(w | b),
        Bitboard::EMPTY,
        "a king flag on an empty square"
    );
    prop_assert_eq!(
        (w | b) & !r.board(),
        Bitboard::EMPTY,
        "a piece off the playable squares"
    );
    for c in Color::ALL {
        prop_assert_eq!(
            pos.men(c) & r.side(c).promotion,
            Bitboard::EMPTY,
            "a {} man stands on its own promotion rank",
            c
        );
    }
    prop_assert!(
        r.check_position(pos).is_ok(),
        "check_position: {:?}",
        r.check_position(pos)
    );
    let fen = r.to_fen(pos);
    prop_assert_eq!(r.parse_fen(&fen), Ok(*pos), "FEN round trip through `{}`", fen);
    Ok(())
}

/// Everything about the legal moves of `pos`.
fn check_moves(r: &Rules, pos: &Position, probes: &[Probe]) -> Result<(), TestCaseError> {
    let list = r.legal_moves(pos);
    let moves = list.as_slice();
    POSITIONS.fetch_add(1, Ordering::Relaxed);
    MOVES.fetch_add(moves.len(), Ordering::Relaxed);
    let us = pos.side_to_move();
    let them = !us;
    prop_assert_eq!(list.path_counts().len(), moves.len());
    for (i, m) in moves.iter().enumerate() {
        for o in &moves[i + 1..] {
            prop_assert!(!m.same_identity(o), "move listed twice: {:?}", m);
        }
    }
    // Either every move captures or none does, when capturing is mandatory.
    if r.capture().mandatory && moves.iter().any(Move::is_capture) {
        prop_assert!(
            moves.iter().all(Move::is_capture),
            "a quiet move beside a mandatory capture"
        );
    }
    for (m, &paths) in moves.iter().zip(list.path_counts()) {
        let fen = r.to_fen(pos);
        // Who moves.
        let mover = pos.piece_at(m.from());
        prop_assert!(
            mover.is_some_and(|p| p.color() == us),
            "{:?} does not start on a piece of the side to move in {}",
            m,
            fen
        );
        prop_assert_eq!(mover.is_some_and(|p| p.is_king()), m.is_king_move());
        // Captures take enemy pieces only, and the kings among them are marked.
        prop_assert_eq!(
            m.captured() & !pos.pieces(them),
            Bitboard::EMPTY,
            "captures a non-enemy square"
        );
        prop_assert_eq!(m.captured_kings(), m.captured() & pos.all_kings());
        prop_assert_eq!(m.is_capture(), !m.captured().is_empty());

        // Play, undo.
        let mut after = *pos;
        after.play(m);
        let mut back = after;
        back.undo(m);
        if r.kings().max_consecutive_moves == 0 {
            prop_assert_eq!(back, *pos, "undo does not restore {} after {:?}", fen, m);
        } else {
            // The king runs of `kings.max_consecutive_moves` are not restored
            // (a move does not say what they were; `Position::undo` says so):
            // everything else is.
            let mut runs_restored = back;
            for c in Color::ALL {
                runs_restored.set_king_run(c, pos.king_run(c));
            }
            prop_assert_eq!(runs_restored, *pos, "undo does not restore {} after {:?}", fen, m);
        }
        prop_assert_eq!(after, pos.after(m));
        prop_assert_eq!(after.side_to_move(), them);
        // Piece counts.
        prop_assert_eq!(after.count(us), pos.count(us), "the mover's side changed size");
        prop_assert_eq!(
            pos.count(them) - after.count(them),
            m.capture_count(),
            "pieces removed != pieces captured, {} {:?}",
            fen,
            m
        );
        prop_assert_eq!(after.pieces(them), pos.pieces(them) & !m.captured());
        // The mover lands, crowned exactly when the move says so.
        let landed = after.piece_at(m.to());
        prop_assert!(
            landed.is_some_and(|p| p.color() == us),
            "nothing landed on the destination"
        );
        prop_assert_eq!(landed.is_some_and(|p| p.is_king()), m.is_king_move() || m.promotes());
        prop_assert!(!(m.is_king_move() && m.promotes()), "a king cannot be crowned");
        if m.from() != m.to() {
            prop_assert!(after.piece_at(m.from()).is_none(), "the origin is not emptied");
        }
        check_position(r, &after)?;

        // Paths.
        let all = r.move_paths(pos, m);
        prop_assert!(!all.is_empty(), "a generated move has no path");
        prop_assert_eq!(
            all.len() as u32,
            paths,
            "path count differs from move_paths for {:?}",
            m
        );
        for p in &all {
            prop_assert_eq!(p.from, m.from());
            prop_assert_eq!(p.landings.last().copied(), Some(m.to()));
            let set = p.captures.iter().fold(Bitboard::EMPTY, |bb, s| bb | s.bit());
            prop_assert_eq!(set, m.captured(), "a path captures other pieces than its move");
            prop_assert_eq!(p.captures.len() as u32, m.capture_count(), "a piece captured twice");
        }

        // Validator accepts it; notation round trips.
        prop_assert!(r.is_legal(pos, m));
        let full = r.format_move_full(pos, m);
        prop_assert!(MoveText::parse(r, &full).is_ok(), "`{}` does not parse", full);
        prop_assert_eq!(
            r.resolve_move(pos, &full),
            Ok(*m),
            "full notation `{}` in {}",
            full,
            fen
        );
        let short = r.format_move_short(pos, m);
        prop_assert_eq!(
            r.resolve_move(pos, &short),
            Ok(*m),
            "short notation `{}` in {}",
            short,
            fen
        );
        prop_assert!(
            short.len() <= full.len(),
            "short `{}` longer than full `{}`",
            short,
            full
        );

        // Two squares name a move exactly when one generated move has those ends.
        let plain = format!("{}-{}", r.square_name(m.from()), r.square_name(m.to()));
        let same_ends = moves
            .iter()
            .filter(|o| o.from() == m.from() && o.to() == m.to())
            .count();
        match r.resolve_move(pos, &plain) {
            Ok(x) => {
                // Unique ends, or the one move that jumps straight from one end to the other.
                let direct = |o: &Move| r.move_paths(pos, o).iter().any(|p| p.landings.len() == 1);
                prop_assert_eq!((x.from(), x.to()), (m.from(), m.to()));
                prop_assert!(same_ends == 1 || direct(&x), "`{}` resolved though ambiguous", plain);
                prop_assert!(moves.contains(&x));
            }
            Err(MoveError::Ambiguous { candidates, .. }) => {
                prop_assert!(same_ends > 1);
                prop_assert_eq!(candidates.len(), same_ends);
            }
            Err(e) => return Err(TestCaseError::fail(format!("`{plain}` in {fen}: {e}"))),
        }
    }

    // The validator accepts nothing the generator does not produce.
    for &(a, b, c, d, flags) in probes {
        let sq = |i: u8| grid_square(r, i);
        let n = 2 + (flags & 3) as usize % 3; // 2..=4 squares
        let squares: Vec<Square> = [a, b, c, d][..n].iter().map(|&i| sq(i)).collect();
        let sep = if flags & 4 != 0 { "x" } else { "-" };
        let text = squares
            .iter()
            .map(|&s| {
                if flags & 8 != 0 {
                    s.to_string()
                } else {
                    r.square_name(s)
                }
            })
            .collect::<Vec<_>>()
            .join(sep);
        let on_board = squares.iter().all(|s| r.board().contains(s));
        let resolved = r.resolve_move(pos, &text);
        prop_assert_eq!(
            matches!(resolved, Err(MoveError::Syntax { .. })),
            !on_board,
            "`{}`",
            text
        );
        match resolved {
            Ok(m) => {
                prop_assert!(moves.contains(&m), "`{}` resolved to an ungenerated move {:?}", text, m);
                prop_assert_eq!(m.from(), squares[0]);
                prop_assert_eq!(m.to(), squares[n - 1]);
            }
            Err(MoveError::Syntax { .. }) => {
                // Every playable square has a name the reader accepts.
                prop_assert!(!on_board, "`{}` names playable squares but is refused as syntax", text);
            }
            Err(MoveError::Illegal { .. }) => {
                if n == 2 {
                    let ends = moves
                        .iter()
                        .filter(|o| o.from() == squares[0] && o.to() == squares[1])
                        .count();
                    prop_assert_eq!(ends, 0, "`{}` refused though generated", text);
                }
            }
            Err(MoveError::Ambiguous { candidates, .. }) => {
                prop_assert!(candidates.len() > 1);
            }
        }
        // A random Move value is legal exactly when it is generated.
        let enemy = pos.pieces(them);
        let cap = masked(
            r,
            u64::from(a).wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ (u64::from(flags) << 7),
            enemy,
        );
        let king = pos.all_kings().contains(sq(a));
        let candidates = [
            Move::quiet(sq(a), sq(b), king, flags & 16 != 0),
            Move::capture(sq(a), sq(b), king, flags & 16 != 0, cap, cap & pos.all_kings()),
            Move::capture(
                sq(a),
                sq(d),
                king,
                false,
                sq(c).bit() & enemy,
                sq(c).bit() & enemy & pos.all_kings(),
            ),
        ];
        for m in candidates {
            prop_assert_eq!(r.is_legal(pos, &m), moves.contains(&m), "is_legal disagrees on {:?}", m);
        }
        // A generated move with one field changed is legal only if it is itself generated.
        if let Some(g) = moves.get(a as usize % moves.len().max(1)) {
            let variants = [
                Move::capture(
                    g.from(),
                    g.to(),
                    g.is_king_move(),
                    g.promotes(),
                    g.captured() ^ cap,
                    Bitboard::EMPTY,
                ),
                Move::quiet(g.from(), sq(b), g.is_king_move(), g.promotes()),
                Move::quiet(g.from(), g.to(), !g.is_king_move(), g.promotes()),
            ];
            for m in variants {
                prop_assert_eq!(r.is_legal(pos, &m), moves.contains(&m));
            }
        }
    }
    Ok(())
}

/// A random position on `r`'s board: pieces on playable squares only, and a
/// man that would stand on its own promotion rank made a king. Square `s` is
/// in set `j` when bit [`grid_index`] of `bits[j]` is one (on 8×8 the six
/// words are sets of the 64 squares); a grid of more than 64 squares takes
/// its further words from `bits[j]` by a mixing function.
fn random_position(r: &Rules, bits: [u64; 6], side: bool) -> Position {
    let set = |j: usize| random_set(r, bits[j]);
    let white = set(0) & set(1);
    let black = set(2) & set(3) & !white;
    let mut kings = set(4) & set(5) & (white | black);
    kings |= white & r.side(Color::White).promotion;
    kings |= black & r.side(Color::Black).promotion;
    Position::from_parts(white, black, kings, if side { Color::White } else { Color::Black })
}

/// The playable squares of `r` whose [`grid_index`] is a one bit of `bits`
/// (bit `i % 64` of word `i / 64`, word 0 being `bits` itself and the
/// others mixed from it).
fn random_set(r: &Rules, bits: u64) -> Bitboard {
    let word = |k: usize| if k == 0 { bits } else { splitmix(bits ^ k as u64) };
    r.board()
        .iter()
        .filter(|&s| {
            let i = grid_index(r, s);
            word(i / 64) >> (i % 64) & 1 != 0
        })
        .collect()
}

/// SplitMix64's output function.
fn splitmix(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

proptest! {
    #![proptest_config(config(PLAYOUT_CASES))]

    /// Random legal playouts from the initial position, in every shipped variant.
    #[test]
    fn playouts_keep_every_invariant(
        choices in prop::collection::vec(any::<u16>(), 0..MAX_PLIES),
        probes in prop::collection::vec(probe(), 1..4),
    ) {
        for (id, r) in variants() {
            let mut pos = r.start_position();
            for (ply, &choice) in choices.iter().enumerate() {
                check_position(r, &pos).map_err(|e| TestCaseError::fail(format!("{id}, ply {ply}: {e}")))?;
                check_moves(r, &pos, &probes).map_err(|e| TestCaseError::fail(format!("{id}, ply {ply}: {e}")))?;
                let moves = r.legal_moves(&pos);
                if moves.is_empty() {
                    break;
                }
                let m = moves.as_slice()[choice as usize % moves.len()];
                pos.play(&m);
            }
        }
        stats("playouts");
    }
}

proptest! {
    #![proptest_config(config(POSITION_CASES))]

    /// Random positions (random piece placement, either side to move), in a random
    /// shipped variant, followed by a short random playout.
    #[test]
    fn random_positions_keep_every_invariant(
        variant in 0..BUILTIN.len(),
        bits in any::<[u64; 6]>(),
        side in any::<bool>(),
        choices in prop::collection::vec(any::<u16>(), 0..12),
        probes in prop::collection::vec(probe(), 1..6),
    ) {
        let (id, r) = &variants()[variant];
        let mut pos = random_position(r, bits, side);
        for (ply, &choice) in std::iter::once(&0).chain(&choices).enumerate() {
            let fen = r.to_fen(&pos);
            check_position(r, &pos).map_err(|e| TestCaseError::fail(format!("{id} {fen}, ply {ply}: {e}")))?;
            check_moves(r, &pos, &probes).map_err(|e| TestCaseError::fail(format!("{id} {fen}, ply {ply}: {e}")))?;
            let moves = r.legal_moves(&pos);
            if moves.is_empty() {
                break;
            }
            let m = moves.as_slice()[choice as usize % moves.len()];
            pos.play(&m);
        }
        stats("random positions");
    }
}

proptest! {
    #![proptest_config(config(LARGE_CASES))]

    /// On every synthetic variant larger than 8×8: a random legal playout
    /// from the initial position, and a random position (an eighth as dense
    /// as those of `random_positions_keep_every_invariant`) followed by a
    /// short random playout. A playout stops at a position of more than
    /// [`LARGE_PATHS`] capture paths.
    #[test]
    fn large_boards_keep_every_invariant(
        choices in prop::collection::vec(any::<u16>(), 0..MAX_PLIES),
        probes in prop::collection::vec(probe(), 1..4),
        bits in any::<[u64; 6]>(),
        thin in any::<[u64; 3]>(),
        side in any::<bool>(),
    ) {
        for (id, r) in large_variants() {
            let placed = random_position(r, bits, side);
            let keep = thin.iter().fold(r.board(), |k, &t| k & random_set(r, t));
            let placed = Position::from_parts(
                placed.pieces(Color::White) & keep,
                placed.pieces(Color::Black) & keep,
                placed.all_kings() & keep,
                placed.side_to_move(),
            );
            for (from, mut pos, plies) in [("start", r.start_position(), MAX_PLIES), ("placed", placed, 12)] {
                for (ply, &choice) in std::iter::once(&0).chain(&choices).take(plies).enumerate() {
                    let moves = r.legal_moves(&pos);
                    if moves.total_paths() > LARGE_PATHS {
                        break;
                    }
                    let fen = r.to_fen(&pos);
                    let at = |e: TestCaseError| TestCaseError::fail(format!("{id} ({from}) {fen}, ply {ply}: {e}"));
                    check_position(r, &pos).map_err(at)?;
                    check_moves(r, &pos, &probes).map_err(at)?;
                    if moves.is_empty() {
                        break;
                    }
                    let m = moves.as_slice()[choice as usize % moves.len()];
                    pos.play(&m);
                }
            }
        }
        stats("large boards");
    }
}

/// FEN round trips on boards of 11 files or more, where `k` is a file:
/// a man on the k file is written `k6`, a king there `Kk6`.
#[test]
fn fen_round_trips_with_pieces_on_the_k_file() {
    let wide: Vec<_> = large_variants().iter().filter(|(_, r)| r.width() >= 11).collect();
    assert!(!wide.is_empty());
    for (id, r) in wide {
        let start = r.start_position();
        let on_k: Vec<Square> = r.board().iter().filter(|s| s.file() == 10).collect();
        let mut pos = Position::empty(Color::White);
        pos.set_piece(on_k[1], Some(dama_engine::Piece::Man(Color::White)));
        pos.set_piece(on_k[2], Some(dama_engine::Piece::King(Color::White)));
        pos.set_piece(on_k[3], Some(dama_engine::Piece::Man(Color::Black)));
        for p in [start, pos] {
            let fen = r.to_fen(&p);
            assert_eq!(r.parse_fen(&fen), Ok(p), "{id}: FEN round trip through `{fen}`");
        }
    }
}

/// Every shipped variant is covered (a guard against an empty or broken list).
#[test]
fn every_builtin_variant_compiles() {
    assert!(variants().len() >= 5);
    for (id, r) in variants() {
        assert!(!r.legal_moves(&r.start_position()).is_empty(), "{id} has no first move");
    }
}
