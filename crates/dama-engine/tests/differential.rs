//! Differential tests: the engine's move generator against the plain
//! reference generator in `tests/reference/`, on the start position of every
//! shipped variant, on synthetic variants that switch single parameters, and
//! on random positions (random playouts, and random placements of men and
//! kings).
//!
//! Each position is compared move by move: the set of (from, to, captured
//! set, promotes), the number of paths per move, the position after each
//! move, `has_capture`, the bulk counts and the unordered move walk perft
//! uses (`perft` to depth 1, `Rules::for_each_move`), and for a share of
//! positions every capture path (`Rules::move_paths`). Perft to depth 3 is compared by walking the
//! reference's tree and comparing both generators at every node.
//!
//! Boards larger than 8×8 (up to 16×16): the shipped international (10×10),
//! canadian (12×12) and dama-10x10, and the synthetic variants on such
//! boards in `tests/common/synthetic.rs`: Russian rules on 10×10, an 11×9
//! dark-square board, and, played on every square, Keny and Dameo rules on
//! 10×10 and Turkish rules on 16×16. There, random positions with more than
//! [`MAX_PATHS`] capture paths are left out (see [`too_many_paths`]).
//!
//! `DAMA_DEEP=1` compares many more positions and checks the perft tables in
//! `tests/perft/` against the reference to a larger node budget.

mod reference;
#[path = "common/synthetic.rs"]
mod synthetic;

use dama_engine::{load_text, perft, Color, CountMode, Move, Piece, Position, Rules};
use reference::{board_of, cell_of, cells_of, path_text, position_with_runs, runs_of, RefMove, Reference};

// ---------------------------------------------------------------------------
// Variants

use synthetic::SYNTHETIC;

/// A variant under test: its rules and the reference built from the same spec.
struct Variant {
    id: String,
    rules: Rules,
    reference: Reference,
}

fn variant(id: &str, text: &str) -> Variant {
    let text = format!("id = \"{id}\"\nname = \"{id}\"\n{text}");
    let loaded = load_text(&format!("<test:{id}>"), &text, None).unwrap_or_else(|e| panic!("{id}: {e}"));
    let reference = Reference::new(loaded.rules.spec());
    Variant {
        id: id.to_string(),
        rules: loaded.rules,
        reference,
    }
}

fn builtin(id: &str) -> Variant {
    let rules = Rules::builtin(id).unwrap_or_else(|e| panic!("{id}: {e}"));
    let reference = Reference::new(rules.spec());
    Variant {
        id: id.to_string(),
        rules,
        reference,
    }
}

fn synthetic(id: &str) -> Variant {
    let (_, text) = SYNTHETIC
        .iter()
        .find(|(n, _)| *n == id)
        .unwrap_or_else(|| panic!("no synthetic variant {id}"));
    variant(id, text)
}

/// Every variant shipped with dama, then every synthetic one.
fn all_variants() -> Vec<Variant> {
    let mut out: Vec<Variant> = dama_engine::source::BUILTIN.iter().map(|(id, _)| builtin(id)).collect();
    out.extend(SYNTHETIC.iter().map(|(id, text)| variant(id, text)));
    out
}

fn deep() -> bool {
    std::env::var("DAMA_DEEP").is_ok_and(|v| !v.is_empty() && v != "0")
}

// ---------------------------------------------------------------------------
// A small seeded PRNG (SplitMix64)

struct Rng(u64);

impl Rng {
    fn new(seed: u64) -> Rng {
        Rng(seed)
    }
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    /// A number in `0..n` (`n > 0`).
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    /// True with probability `num / den`.
    fn chance(&mut self, num: u64, den: u64) -> bool {
        self.next() % den < num
    }
}

fn seed_of(id: &str) -> u64 {
    id.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
        (h ^ b as u64).wrapping_mul(0x100_0000_01b3)
    })
}

// ---------------------------------------------------------------------------
// Random positions

/// Positions met in random games from the start (uniform random moves).
fn playout_positions(v: &Variant, rng: &mut Rng, n: usize) -> Vec<Position> {
    let mut out = Vec::with_capacity(n);
    while out.len() < n {
        let mut pos = v.rules.start_position();
        for _ in 0..200 {
            if out.len() >= n {
                break;
            }
            if rng.chance(1, 5) {
                out.push(pos);
            }
            let moves = v.rules.legal_moves(&pos);
            if moves.is_empty() {
                break;
            }
            let m = moves.as_slice()[rng.below(moves.len())];
            pos.play(&m);
        }
    }
    out
}

/// A random position: 1 to 14 pieces a side (20 on boards of more than 64
/// squares), one to three in seven of them kings, no man on its own
/// promotion rank.
fn placed_position(v: &Variant, rng: &mut Rng) -> Position {
    let squares: Vec<usize> = v.reference.playable_squares();
    let most = if squares.len() > 64 { 20 } else { 14 };
    let max = (squares.len() / 3).clamp(1, most);
    let mut pos = Position::empty(if rng.chance(1, 2) { Color::White } else { Color::Black });
    for c in Color::ALL {
        let n = 1 + rng.below(max);
        let kings = rng.below(3); // 0: few kings, 1: some, 2: many
        for _ in 0..n {
            let free: Vec<usize> = squares
                .iter()
                .copied()
                .filter(|&s| pos.piece_at(sq(s)).is_none())
                .collect();
            if free.is_empty() {
                break;
            }
            let s = free[rng.below(free.len())];
            let king = rng.chance(kings as u64 + 1, 7) || v.reference.on_promotion_rank(c, s);
            pos.set_piece(sq(s), Some(if king { Piece::King(c) } else { Piece::Man(c) }));
        }
    }
    // A king run on either side, up to the limit, in half of the positions
    // of a variant with `kings.max_consecutive_moves`.
    let limit = v.rules.kings().max_consecutive_moves as usize;
    if limit > 0 {
        for c in Color::ALL {
            let kings: Vec<_> = pos.kings(c).iter().collect();
            if !kings.is_empty() && !pos.men(c).is_empty() && rng.chance(1, 2) {
                let k = kings[rng.below(kings.len())];
                pos.set_king_run(c, Some((k, 1 + rng.below(limit) as u32)));
            }
        }
    }
    v.rules.track_runs(pos)
}

fn sq(i: usize) -> dama_engine::Square {
    reference::square(i)
}

// ---------------------------------------------------------------------------
// Comparison

/// A move's identity in the reference's cells: (from, to, captured cells in
/// increasing order, promotes).
type Key = (usize, usize, Vec<usize>, bool);

/// The identity of an engine's move.
fn key_of(m: &Move) -> Key {
    (cell_of(m.from()), cell_of(m.to()), cells_of(m.captured()), m.promotes())
}

fn key_text(k: &Key) -> String {
    let caps: Vec<String> = k.2.iter().map(|&i| reference::name(i)).collect();
    format!(
        "{}{}{}{}{}",
        reference::name(k.0),
        if k.2.is_empty() { "-" } else { "x" },
        reference::name(k.1),
        if caps.is_empty() {
            String::new()
        } else {
            format!(" taking {}", caps.join(","))
        },
        if k.3 { " (crowns)" } else { "" }
    )
}

/// Compares the two generators on one position; returns what differs, or
/// the reference's moves.
fn compare(v: &Variant, pos: &Position, check_paths: bool) -> Result<Vec<RefMove>, String> {
    let fail = |what: String| Err(format!("{}: {}: {what}", v.id, v.rules.to_fen(pos)));
    let (board, side) = board_of(pos);
    let list = v.rules.legal_moves(pos);
    let mut gen: Vec<(Key, u64, Position)> = Vec::with_capacity(list.len());
    for (m, &n) in list.iter().zip(list.path_counts()) {
        let k = key_of(m);
        if m.is_capture() == m.captured().is_empty() {
            return fail(format!("{} has a wrong capture flag", key_text(&k)));
        }
        gen.push((k, n as u64, pos.after(m)));
    }
    gen.sort_by(|a, b| a.0.cmp(&b.0));
    if let Some(w) = gen.windows(2).find(|w| w[0].0 == w[1].0) {
        return fail(format!("the generator lists {} twice", key_text(&w[0].0)));
    }
    // Sorted by key.
    let refs = v.reference.legal_moves_with_runs(&board, side, &runs_of(pos));
    // Paths with one identity but a different crowning cannot be one engine move.
    if let Some(w) = refs
        .windows(2)
        .find(|w| (w[0].from, w[0].to, &w[0].captured) == (w[1].from, w[1].to, &w[1].captured))
    {
        return fail(format!(
            "two paths with the same origin, destination and captures differ in crowning: {}",
            key_text(&w[0].key())
        ));
    }
    let same_keys = gen.len() == refs.len() && gen.iter().zip(&refs).all(|(g, r)| g.0 == r.key());
    if !same_keys {
        let missing: Vec<String> = refs
            .iter()
            .filter(|r| !gen.iter().any(|g| g.0 == r.key()))
            .map(|r| key_text(&r.key()))
            .collect();
        let extra: Vec<String> = gen
            .iter()
            .filter(|g| !refs.iter().any(|r| g.0 == r.key()))
            .map(|g| key_text(&g.0))
            .collect();
        return fail(format!(
            "move sets differ; missing from the generator: [{}]; not in the reference: [{}]",
            missing.join("; "),
            extra.join("; ")
        ));
    }
    for ((k, n, after), r) in gen.iter().zip(&refs) {
        if *n != r.paths {
            return fail(format!("{}: {n} paths, the reference finds {}", key_text(k), r.paths));
        }
        let rafter = position_with_runs(&r.after, !side, &r.runs);
        if *after != rafter {
            return fail(format!(
                "{}: position after is {}, the reference gives {}",
                key_text(k),
                v.rules.to_fen(after),
                v.rules.to_fen(&rafter)
            ));
        }
    }
    // The bulk counters perft uses at the last ply, and the unordered walk it
    // uses above it, must agree with the list.
    let ref_paths: u64 = refs.iter().map(|r| r.paths).sum();
    let counted = (
        perft(&v.rules, pos, 1, CountMode::Paths),
        perft(&v.rules, pos, 1, CountMode::Moves),
    );
    if counted != (ref_paths, refs.len() as u64) {
        return fail(format!(
            "perft 1 counts {} paths / {} moves, the reference {ref_paths} / {}",
            counted.0,
            counted.1,
            refs.len()
        ));
    }
    let mut walked: Vec<(Key, u64)> = Vec::with_capacity(refs.len());
    v.rules.for_each_move(pos, |m, n| walked.push((key_of(m), n as u64)));
    walked.sort();
    if walked
        .iter()
        .map(|w| (w.0.clone(), w.1))
        .ne(refs.iter().map(|r| (r.key(), r.paths)))
    {
        return fail("for_each_move does not list the legal moves with their path counts".into());
    }
    let ref_has_capture = refs.iter().any(|r| !r.captured.is_empty());
    if v.rules.has_capture(pos) != ref_has_capture {
        return fail(format!(
            "has_capture says {}, the reference {}",
            v.rules.has_capture(pos),
            ref_has_capture
        ));
    }
    if check_paths {
        let ref_paths = v.reference.legal_capture_paths(&board, side);
        for m in list.iter().filter(|m| m.is_capture()) {
            let mut got: Vec<(Vec<usize>, Vec<usize>)> = v
                .rules
                .move_paths(pos, m)
                .iter()
                .map(|p| {
                    let l = p.landings.iter().map(|&s| cell_of(s)).collect();
                    let c = p.captures.iter().map(|&s| cell_of(s)).collect();
                    (l, c)
                })
                .collect();
            let k = key_of(m);
            let mut want: Vec<(Vec<usize>, Vec<usize>)> = ref_paths
                .iter()
                .filter(|p| p.from == k.0 && p.landings.last() == Some(&k.1) && p.captured_set() == k.2)
                .map(|p| (p.landings.clone(), p.captures.clone()))
                .collect();
            got.sort();
            want.sort();
            if got != want {
                let show = |ps: &[(Vec<usize>, Vec<usize>)]| {
                    ps.iter()
                        .map(|(l, c)| {
                            path_text(&reference::RefPath {
                                from: k.0,
                                landings: l.clone(),
                                captures: c.clone(),
                                promotes: false,
                            })
                        })
                        .collect::<Vec<_>>()
                        .join(", ")
                };
                return fail(format!(
                    "{}: move_paths gives [{}], the reference [{}]",
                    key_text(&k),
                    show(&got),
                    show(&want)
                ));
            }
        }
    }
    Ok(refs)
}

/// Walks the reference's tree `depth` plies deep, comparing both generators
/// at every node with children; returns the reference perft (paths, moves).
fn walk(v: &Variant, pos: &Position, depth: u32, errors: &mut Vec<String>) -> (u64, u64) {
    if depth == 0 {
        return (1, 1);
    }
    let refs = match compare(v, pos, false) {
        Ok(r) => r,
        Err(e) => {
            errors.push(e);
            return (0, 0);
        }
    };
    if depth == 1 {
        return (refs.iter().map(|m| m.paths).sum(), refs.len() as u64);
    }
    let side = pos.side_to_move();
    let mut total = (0, 0);
    for m in refs {
        let child = v.rules.track_runs(position_with_runs(&m.after, !side, &m.runs));
        let (p, n) = walk(v, &child, depth - 1, errors);
        total.0 += p * m.paths;
        total.1 += n;
    }
    total
}

/// Compares perft from `pos` to `depth` in both counting modes, node by node.
fn check_perft(v: &Variant, pos: &Position, depth: u32, errors: &mut Vec<String>) {
    let before = errors.len();
    let (paths, moves) = walk(v, pos, depth, errors);
    if errors.len() > before {
        return;
    }
    let gp = perft(&v.rules, pos, depth, CountMode::Paths);
    let gm = perft(&v.rules, pos, depth, CountMode::Moves);
    if (gp, gm) != (paths, moves) {
        errors.push(format!(
            "{}: {}: perft {depth}: generator {gp} paths / {gm} moves, reference {paths} / {moves}",
            v.id,
            v.rules.to_fen(pos)
        ));
    }
}

fn report(errors: &[String]) {
    if !errors.is_empty() {
        let shown: Vec<&str> = errors.iter().take(20).map(String::as_str).collect();
        panic!(
            "{} disagreement(s) between the generator and the reference:\n{}",
            errors.len(),
            shown.join("\n")
        );
    }
}

/// Compares `played` positions from random games and `placed` random
/// placements of `v`; perft to depth 3 on every `perft_every`-th of them.
fn random_positions(v: &Variant, (played, placed, perft_every): (usize, usize, usize)) {
    let mut rng = Rng::new(seed_of(&v.id));
    let mut positions = playout_positions(v, &mut rng, played);
    positions.extend((0..placed).map(|_| placed_position(v, &mut rng)));
    let mut errors = Vec::new();
    let mut skipped = 0;
    for (i, pos) in positions.iter().enumerate() {
        if too_many_paths(v, pos) {
            skipped += 1;
            continue;
        }
        if let Err(e) = compare(v, pos, i % 4 == 0) {
            errors.push(e);
            continue;
        }
        if perft_every > 0 && i % perft_every == 0 {
            check_perft(v, pos, 3, &mut errors);
        }
    }
    if skipped > 0 {
        println!(
            "{}: {skipped} of {} positions skipped (more than {MAX_PATHS} capture paths)",
            v.id,
            positions.len()
        );
    }
    assert!(
        skipped * 50 <= positions.len(),
        "{}: {skipped} of {} positions skipped",
        v.id,
        positions.len()
    );
    report(&errors);
}

/// The most capture paths of a random position compared on a board larger
/// than 8×8.
const MAX_PATHS: usize = 20_000;

/// Whether `pos` is left out for its number of capture paths: random
/// placements of many flying kings on large boards can have hundreds of
/// thousands of paths (97,010 moves by 644,230 paths in one Keny position
/// on 10×10), and the generator groups paths into moves in time that grows
/// with paths × moves. Never on boards of up to 8×8.
fn too_many_paths(v: &Variant, pos: &Position) -> bool {
    if v.reference.playable_squares().len() <= 64 {
        return false;
    }
    let (board, side) = board_of(pos);
    v.reference.capture_paths(&board, side).len() > MAX_PATHS
}

/// Positions from random games, random placements, and how often perft 3 runs.
fn budget(shipped: bool) -> (usize, usize, usize) {
    match (deep(), shipped) {
        (true, _) => (5_000, 5_000, 10),
        (false, true) => (1_000, 500, 60),
        (false, false) => (150, 150, 60),
    }
}

// ---------------------------------------------------------------------------
// Tests

#[test]
fn start_positions_agree_to_depth_3() {
    let mut errors = Vec::new();
    for v in all_variants() {
        let start = v.rules.start_position();
        if let Err(e) = compare(&v, &start, true) {
            errors.push(e);
            continue;
        }
        check_perft(&v, &start, 3, &mut errors);
    }
    report(&errors);
}

/// The perft tables in `tests/perft/` recomputed by the reference: every
/// figure up to 100,000 nodes (20,000,000 with `DAMA_DEEP=1`, or
/// `DAMA_REF_BUDGET=<nodes>`).
#[test]
fn perft_tables_agree_with_the_reference() {
    let budget = std::env::var("DAMA_REF_BUDGET")
        .ok()
        .and_then(|v| v.replace('_', "").parse().ok())
        .unwrap_or(if deep() { 20_000_000 } else { 100_000 });
    let mut errors = Vec::new();
    let mut checked = 0;
    for entry in reference::perft_file::all_entries() {
        let spec_rules = if entry.variant.ends_with(".toml") {
            let path = reference::perft_file::dir().join(&entry.variant);
            dama_engine::load(&path.to_string_lossy()).map(|l| l.rules)
        } else {
            Rules::builtin(&entry.variant)
        };
        let Ok(rules) = spec_rules else {
            errors.push(format!("{}: unknown variant {}", entry.label(), entry.variant));
            continue;
        };
        let r = Reference::new(rules.spec());
        let pos = match &entry.fen {
            None => rules.start_position(),
            Some(f) => match rules.parse_fen(f) {
                Ok(p) => p,
                Err(e) => {
                    errors.push(format!("{}: {e}", entry.label()));
                    continue;
                }
            },
        };
        let (board, side) = board_of(&pos);
        for fig in entry.figures.iter().filter(|f| f.nodes <= budget) {
            checked += 1;
            let got = r.perft(&board, side, fig.depth, entry.count == CountMode::Paths);
            if got != fig.nodes {
                errors.push(format!(
                    "{}:{}: {} perft {} ({}): the table says {}, the reference counts {got}",
                    entry.file, fig.line, entry.id, fig.depth, entry.count, fig.nodes
                ));
            } else {
                println!(
                    "{}:{}: {} perft {} = {got}: ok",
                    entry.file, fig.line, entry.id, fig.depth
                );
            }
        }
    }
    println!("{checked} perft figures recomputed by the reference (budget {budget} nodes)");
    assert!(checked > 0);
    report(&errors);
}

/// Hand-picked positions for rules that random positions seldom reach,
/// with the moves that must (and must not) be legal.
#[test]
fn corner_positions_agree() {
    let cases: &[(&str, &str, &[&str], &[&str])] = &[
        // A chained friendly jump that reaches the last rank stops there,
        // even with a king to jump next to it.
        ("keny-chain-any", "W:Wd6,d7,Ke8:Bh5", &["d6-d8"], &["d6-f8"]),
        // A chain never lands back on the square it left.
        ("keny-chain", "W:Wd4,e4,g4:Bh8", &["d4-f4", "d4-h4"], &["d4-d4"]),
        ("keny-chain", "W:Wd2,d3,d5,c6:Bh8", &["d2-d4", "d2-d6", "d2-b6"], &[]),
        // Only men are jumped unless friendly_jump_over = "any".
        ("keny", "W:Wd4,Kd5:Bh8", &[], &["d4-d6"]),
        ("keny-over-any", "W:Wd4,Kd5:Bh8", &["d4-d6"], &[]),
        // Linear moves start from the edge of the board too, and stop at an own king.
        ("dameo", "W:Wa1,b2,c3:Bh8", &["a1-d4", "b2-d4"], &[]),
        ("dameo", "W:Wd1,Kd2,e1,e2,e3:Bh8", &["e1-e4", "e2-e4"], &["d1-d3"]),
        // A king passes over its own start square during a capture.
        ("croda", "W:WKd4:Bd6,f8,b8,b2", &[], &[]),
        ("dameo", "W:WKd4:Bd6,f8,f2,b2", &[], &[]),
        // A man crowned mid-capture then captures as a king, backward too.
        ("keny-promote-and-continue", "W:Wd6:Bd7,e8,e3,Kb1", &[], &[]),
        ("russian", "W:Wf6:Be7,b6,Kh2", &["f6xd8xa5"], &[]),
        // A blocked side passes; White then has to capture (perft 3 walks the pass).
        ("armenian-schmidt", "B:Wa1,b1,b2,c2:Ba2", &["--"], &[]),
        // Both sides blocked: the pass is still the one move (the game judges the draw).
        (
            "armenian-schmidt",
            "W:Wa6,b6,c6,d6,e6,f6,g6,h6,a7,b7,c7,d7,e7,f7,g7,h7:Ba8,b8,c8,d8,e8,f8,g8,h8",
            &["--"],
            &[],
        ),
        // A side with no pieces has no move, not even a pass.
        ("armenian-schmidt", "B:Wd4:B", &[], &["--"]),
        ("diagonal-6x6-pass", "W:Wa5:Bb6,Kf2", &["--"], &[]),
    ];
    let mut errors = Vec::new();
    for (id, fen, must, must_not) in cases {
        let v = if SYNTHETIC.iter().any(|(n, _)| n == id) {
            synthetic(id)
        } else {
            builtin(id)
        };
        let pos = v.rules.parse_fen(fen).unwrap_or_else(|e| panic!("{id} {fen}: {e}"));
        if let Err(e) = compare(&v, &pos, true) {
            errors.push(e);
        }
        check_perft(&v, &pos, 3, &mut errors);
        let legal: Vec<String> = v
            .rules
            .legal_moves(&pos)
            .iter()
            .map(|m| v.rules.format_move_full(&pos, m))
            .collect();
        for m in *must {
            if !legal.iter().any(|l| l == m) {
                errors.push(format!("{id}: {fen}: {m} should be legal; legal: {}", legal.join(", ")));
            }
        }
        for m in *must_not {
            if legal.iter().any(|l| l == m) {
                errors.push(format!("{id}: {fen}: {m} should not be legal"));
            }
        }
    }
    report(&errors);
}

macro_rules! random_tests {
    ($($name:ident: $kind:ident $id:literal,)*) => {$(
        #[test]
        fn $name() {
            let (v, shipped) = match stringify!($kind) {
                "builtin" => (builtin($id), true),
                _ => (synthetic($id), false),
            };
            random_positions(&v, budget(shipped));
        }
    )*};
}

random_tests! {
    random_dama: builtin "dama",
    random_armenian: builtin "armenian",
    random_keny: builtin "keny",
    random_croda: builtin "croda",
    random_dameo: builtin "dameo",
    random_dama_promote_and_continue: builtin "dama-promote-and-continue",
    random_dama_one_each_draw: builtin "dama-one-each-draw",
    random_armenian_schmidt: builtin "armenian-schmidt",
    random_keny_majority: builtin "keny-majority",
    random_russian: builtin "russian",
    random_brazilian: builtin "brazilian",
    random_english: builtin "english",
    random_italian: builtin "italian",
    random_spanish: builtin "spanish",
    random_czech: builtin "czech",
    random_pool: builtin "pool",
    random_thai: builtin "thai",
    random_dama_end_of_move: synthetic "dama-end-of-move",
    random_dama_reversal: synthetic "dama-reversal",
    random_dama_no_majority: synthetic "dama-no-majority",
    random_dama_max_value: synthetic "dama-max-value",
    random_dama_priorities: synthetic "dama-priorities",
    random_dama_men_spare_kings: synthetic "dama-men-spare-kings",
    random_dama_s2r: synthetic "dama-s2r",
    random_dama_halt_behind_king: synthetic "dama-halt-behind-king",
    random_russian_halt_behind_king: synthetic "russian-halt-behind-king",
    random_russian_light_corner: synthetic "russian-light-corner",
    random_dama_stop: synthetic "dama-stop",
    random_dama_king_step: synthetic "dama-king-step",
    random_dama_king_range_2: synthetic "dama-king-range-2",
    random_dama_short_king: synthetic "dama-short-king",
    random_dama_short_king_any_landing: synthetic "dama-short-king-any-landing",
    random_dama_adjacent_landing: synthetic "dama-adjacent-landing",
    random_dama_must_continue: synthetic "dama-must-continue",
    random_dama_optional: synthetic "dama-optional",
    random_dama_optional_free: synthetic "dama-optional-free",
    random_dama_promotion_rank_7: synthetic "dama-promotion-rank-7",
    random_dama_6x6: synthetic "dama-6x6",
    random_dama_5x7: synthetic "dama-5x7",
    random_keny_chain_any: synthetic "keny-chain-any",
    random_keny_chain: synthetic "keny-chain",
    random_keny_over_any: synthetic "keny-over-any",
    random_keny_promote_and_continue: synthetic "keny-promote-and-continue",
    random_keny_stop: synthetic "keny-stop",
    random_keny_end_of_move_reversal: synthetic "keny-end-of-move-reversal",
    random_croda_immediate: synthetic "croda-immediate",
    random_croda_promote_and_continue: synthetic "croda-promote-and-continue",
    random_dameo_stop: synthetic "dameo-stop",
    random_dameo_friendly_chain: synthetic "dameo-friendly-chain",
    random_all_eight: synthetic "all-eight",
    random_diagonal_8x8: synthetic "diagonal-8x8",
    random_diagonal_6x6_short: synthetic "diagonal-6x6-short",
    random_diagonal_7x5_immediate: synthetic "diagonal-7x5-immediate",
    // Boards larger than 8×8.
    random_international: builtin "international",
    random_canadian: builtin "canadian",
    random_killer: builtin "killer",
    random_dama_10x10: builtin "dama-10x10",
    random_frisian: builtin "frisian",
    random_frysk: builtin "frysk",
    random_russian_10x10: synthetic "russian-10x10",
    random_diagonal_11x9_short: synthetic "diagonal-11x9-short",
    random_keny_10x10: synthetic "keny-10x10",
    random_dameo_10x10: synthetic "dameo-10x10",
    random_dama_16x16: synthetic "dama-16x16",
    // Other endings (the same moves as international, and a pass).
    random_antidraughts: builtin "antidraughts",
    random_breakthrough: builtin "breakthrough",
    random_diagonal_6x6_pass: synthetic "diagonal-6x6-pass",
    random_frisian_8x8: synthetic "frisian-8x8",
    random_frisian_12x12_immediate: synthetic "frisian-12x12-immediate",
}

#[test]
fn every_synthetic_variant_has_a_random_test() {
    // The macro above lists tests by hand; keep it in step with SYNTHETIC.
    let src = include_str!("differential.rs");
    for (id, _) in SYNTHETIC {
        assert!(
            src.contains(&format!("synthetic \"{id}\",")),
            "synthetic variant {id} has no random_* test"
        );
    }
    for (id, _) in dama_engine::source::BUILTIN {
        assert!(
            src.contains(&format!("builtin \"{id}\",")),
            "shipped variant {id} has no random_* test"
        );
    }
}
