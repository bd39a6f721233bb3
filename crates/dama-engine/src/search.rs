//! The computer opponent: alpha-beta search for any variant.
//!
//! Negamax with principal-variation search and iterative deepening, a
//! fixed-size transposition table keyed by Zobrist hashes (fixed seed, so
//! keys are the same in every run), move ordering (table move, captures by
//! the number of pieces taken, killer moves, a history table), a capture
//! search at the horizon (where capturing is mandatory the side to move
//! keeps capturing until no capture is left; otherwise it may stand pat),
//! and one extra ply for forced replies. The end-of-game rules of the
//! variant ([`crate::rules::EndRules`]) score the leaves: no legal move,
//! the lone-piece and king-against-king rules, the no-capture counters;
//! a repeated position inside the search counts as a draw.
//!
//! Nothing is allocated per node: the move lists of every ply are reused.
//!
//! ```
//! use dama_engine::search::{Engine, Limits, SearchRoot};
//! use dama_engine::Rules;
//!
//! let rules = Rules::builtin("dama").unwrap();
//! let mut engine = Engine::new(&rules);
//! // White man d6 takes d7 and c8, and is crowned on b8.
//! let pos = rules.parse_fen("W:Wd6,a2:Bd7,c8,h7").unwrap();
//! let r = engine.search(&SearchRoot::new(pos), &Limits::depth(3));
//! let best = r.best.unwrap();
//! assert_eq!(rules.format_move_full(&pos, &best), "d6xd8xb8");
//! ```

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

use crate::color::Color;
use crate::eval::Evaluator;
use crate::game::Game;
use crate::moves::{Move, MoveList};
use crate::position::Position;
use crate::rules::Rules;
use crate::spec::NoMoveResult;
use crate::square::Squares;

/// The score of a won position at the root; a win in `n` plies scores `MATE - n`.
pub const MATE: i32 = 30_000;
/// Scores beyond this (in absolute value) are forced wins or losses.
pub const MATE_BOUND: i32 = MATE - 1_000;
/// The deepest ply the search reaches (including capture sequences).
pub const MAX_PLY: usize = 128;
const INF: i32 = 32_000;

// ---------------------------------------------------------------------------
// Random numbers and Zobrist keys.

/// A small, fast, seedable random number generator (SplitMix64). Used for
/// Zobrist keys, for variety at low levels and by random movers.
#[derive(Debug, Clone)]
pub struct Rng(u64);

impl Rng {
    /// A generator with this seed.
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }
    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        mix(self.0)
    }
    /// A number in `0..n` (0 when `n` is 0).
    pub fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            ((self.next_u64() as u128 * n as u128) >> 64) as usize
        }
    }
}

#[inline]
fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Zobrist keys: one random number per (side, man or king, square), and
/// one for Black to move. The seed is fixed, so a position's key is the
/// same in every run and every program.
#[derive(Debug, Clone)]
pub struct Zobrist {
    pieces: [[u64; 64]; 4],
    black: u64,
}

impl Zobrist {
    fn build() -> Zobrist {
        let mut rng = Rng::new(0x00da_11a5_eed0_2025);
        let mut pieces = [[0u64; 64]; 4];
        for kind in pieces.iter_mut() {
            for k in kind.iter_mut() {
                *k = rng.next_u64();
            }
        }
        Zobrist {
            pieces,
            black: rng.next_u64(),
        }
    }

    /// The shared table.
    pub fn get() -> &'static Zobrist {
        static Z: OnceLock<Zobrist> = OnceLock::new();
        Z.get_or_init(Zobrist::build)
    }

    #[inline]
    fn piece(&self, c: Color, king: bool, sq: u8) -> u64 {
        self.pieces[c.index() * 2 + king as usize][(sq & 63) as usize]
    }

    /// The key of `pos`, computed from scratch.
    pub fn key(&self, pos: &Position) -> u64 {
        let mut k = 0;
        for c in Color::ALL {
            for s in Squares(pos.men(c)) {
                k ^= self.piece(c, false, s.index());
            }
            for s in Squares(pos.kings(c)) {
                k ^= self.piece(c, true, s.index());
            }
        }
        if pos.side_to_move() == Color::Black {
            k ^= self.black;
        }
        k
    }

    /// The key after `m` is played in `pos`, whose key is `key`.
    #[inline]
    pub fn key_after(&self, key: u64, pos: &Position, m: &Move) -> u64 {
        let us = pos.side_to_move();
        let king = m.is_king_move();
        let mut k = key ^ self.black;
        k ^= self.piece(us, king, m.from_index());
        k ^= self.piece(us, king || m.promotes(), m.to_index());
        for s in Squares(m.captured()) {
            k ^= self.piece(!us, m.captured_kings() & s.bit() != 0, s.index());
        }
        k
    }
}

/// The Zobrist key of `pos` (see [`Zobrist`]).
pub fn position_key(pos: &Position) -> u64 {
    Zobrist::get().key(pos)
}

// ---------------------------------------------------------------------------
// Limits and levels.

/// How long to think.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Limits {
    /// Deepest iteration (plies); `None` = until time runs out (or [`MAX_PLY`]).
    pub depth: Option<u32>,
    /// Time budget for the move.
    pub movetime: Option<Duration>,
    /// Node budget (deterministic, unlike time).
    pub nodes: Option<u64>,
    /// Random noise added to evaluations, in hundredths of a man (0 = none):
    /// gives variety among near-equal moves. Deterministic for a given seed.
    pub noise: i32,
}

/// The number of strength levels.
pub const LEVELS: u8 = 10;
/// The level the CLI uses unless told otherwise.
pub const DEFAULT_LEVEL: u8 = 5;

impl Limits {
    /// Search to a fixed depth.
    pub fn depth(d: u32) -> Limits {
        Limits {
            depth: Some(d.max(1)),
            movetime: None,
            nodes: None,
            noise: 0,
        }
    }

    /// Search for a fixed time.
    pub fn movetime(t: Duration) -> Limits {
        Limits {
            depth: None,
            movetime: Some(t),
            nodes: None,
            noise: 0,
        }
    }

    /// The limits of strength level `level` (1 = weakest, [`LEVELS`] = strongest;
    /// out-of-range levels are clamped). Levels 1–6 are fixed depths with a
    /// node budget, so they play the same moves on every machine; levels
    /// 7–10 think for a fixed time (0.5 s, 1 s, 2 s, 5 s).
    pub fn level(level: u8) -> Limits {
        let level = level.clamp(1, LEVELS);
        let (depth, ms, nodes, noise) = match level {
            1 => (Some(1), None, Some(20_000), 60),
            2 => (Some(2), None, Some(50_000), 30),
            3 => (Some(3), None, Some(100_000), 15),
            4 => (Some(4), None, Some(200_000), 5),
            5 => (Some(6), None, Some(400_000), 0),
            6 => (Some(8), None, Some(1_500_000), 0),
            7 => (None, Some(500), None, 0),
            8 => (None, Some(1_000), None, 0),
            9 => (None, Some(2_000), None, 0),
            _ => (None, Some(5_000), None, 0),
        };
        Limits {
            depth,
            movetime: ms.map(Duration::from_millis),
            nodes,
            noise,
        }
    }

    /// A one-line description, such as `depth 6` or `1.0 s per move`.
    pub fn describe(&self) -> String {
        let mut parts = Vec::new();
        if let Some(d) = self.depth {
            parts.push(format!("depth {d}"));
        }
        if let Some(t) = self.movetime {
            parts.push(format!("{:.1} s per move", t.as_secs_f64()));
        }
        if parts.is_empty() {
            parts.push("unlimited".into());
        }
        parts.join(", ")
    }
}

// ---------------------------------------------------------------------------
// The root of a search: a position and what the game says about its past.

/// A position to search, with the game history the draw rules need.
#[derive(Debug, Clone)]
pub struct SearchRoot {
    /// The position to move from.
    pub pos: Position,
    /// Keys ([`position_key`]) of the earlier positions since the last
    /// capture, oldest first (for repetitions).
    pub earlier: Vec<u64>,
    /// Plies played since the last capture.
    pub plies_since_capture: u32,
    /// Plies of king moves without capture, in a row, up to now.
    pub kings_only_plies: u32,
}

impl SearchRoot {
    /// A position without history.
    pub fn new(pos: Position) -> SearchRoot {
        SearchRoot {
            pos,
            earlier: Vec::new(),
            plies_since_capture: 0,
            kings_only_plies: 0,
        }
    }

    /// The last position of `positions` (every position of a game, in
    /// order), with the history derived from the earlier ones: a ply
    /// captured if the mover's opponent lost pieces, and was a king move if
    /// the men did not change.
    pub fn from_history(positions: &[Position]) -> Option<SearchRoot> {
        let (&pos, before) = positions.split_last()?;
        let z = Zobrist::get();
        let mut root = SearchRoot::new(pos);
        let mut after = pos;
        for &p in before.iter().rev() {
            let capture = p.occupied().count_ones() != after.occupied().count_ones();
            if capture {
                break;
            }
            root.earlier.push(z.key(&p));
            after = p;
        }
        root.earlier.reverse();
        root.plies_since_capture = root.earlier.len() as u32;
        let mut after = pos;
        for &p in before.iter().rev() {
            let capture = p.occupied().count_ones() != after.occupied().count_ones();
            let men_same = Color::ALL.iter().all(|&c| p.men(c) == after.men(c));
            if capture || !men_same {
                break;
            }
            root.kings_only_plies += 1;
            after = p;
        }
        Some(root)
    }

    /// The current position of `game`, with its history.
    pub fn from_game(game: &Game) -> SearchRoot {
        let z = Zobrist::get();
        let mut root = SearchRoot::new(*game.position());
        for p in game.plies().iter().rev() {
            if p.mv.is_capture() {
                break;
            }
            root.earlier.push(z.key(&p.before));
        }
        root.earlier.reverse();
        root.plies_since_capture = game.no_capture_plies();
        root.kings_only_plies = game.kings_only_plies();
        root
    }
}

// ---------------------------------------------------------------------------
// Results.

/// What a search found.
#[derive(Debug, Clone)]
pub struct SearchResult {
    /// The move to play (`None` when there is no legal move).
    pub best: Option<Move>,
    /// Its score for the side to move, in hundredths of a man
    /// (beyond ±[`MATE_BOUND`]: a forced win or loss).
    pub score: i32,
    /// The last completed iteration.
    pub depth: u32,
    /// The deepest ply reached (capture sequences and extensions included).
    pub seldepth: u32,
    /// Positions visited.
    pub nodes: u64,
    /// The expected continuation, starting with `best`.
    pub pv: Vec<Move>,
    /// Time spent.
    pub elapsed: Duration,
}

impl SearchResult {
    /// Plies to a forced end: positive when the side to move wins, negative when it loses.
    pub fn mate_in(&self) -> Option<i32> {
        if self.score > MATE_BOUND {
            Some(MATE - self.score)
        } else if self.score < -MATE_BOUND {
            Some(-(MATE + self.score))
        } else {
            None
        }
    }

    /// The score in words: `+1.25`, `win in 7 plies`, `loss in 4 plies`.
    pub fn score_text(&self) -> String {
        score_text(self.score)
    }
}

/// A score in words: `+1.25` (in men), `win in 7 plies`, `loss in 4 plies`.
pub fn score_text(score: i32) -> String {
    let plies = |n: i32| {
        if n == 1 {
            "1 ply".to_string()
        } else {
            format!("{n} plies")
        }
    };
    if score > MATE_BOUND {
        format!("win in {}", plies(MATE - score))
    } else if score < -MATE_BOUND {
        format!("loss in {}", plies(MATE + score))
    } else {
        format!("{:+.2}", score as f64 / 100.0)
    }
}

// ---------------------------------------------------------------------------
// Transposition table.

const EXACT: u8 = 0;
const LOWER: u8 = 1;
const UPPER: u8 = 2;

#[derive(Debug, Clone, Copy)]
struct Entry {
    key: u64,
    mv: Option<Move>,
    score: i32,
    depth: i16,
    bound: u8,
}

const EMPTY: Entry = Entry {
    key: 0,
    mv: None,
    score: 0,
    depth: -1,
    bound: EXACT,
};

fn to_tt(score: i32, ply: usize) -> i32 {
    if score > MATE_BOUND {
        score + ply as i32
    } else if score < -MATE_BOUND {
        score - ply as i32
    } else {
        score
    }
}

fn from_tt(score: i32, ply: usize) -> i32 {
    if score > MATE_BOUND {
        score - ply as i32
    } else if score < -MATE_BOUND {
        score + ply as i32
    } else {
        score
    }
}

// ---------------------------------------------------------------------------
// The engine.

/// A computer player for one variant. Keep it for a whole game: its
/// tables help from one move to the next.
#[derive(Debug)]
pub struct Engine {
    rules: Rules,
    eval: Evaluator,
    zob: &'static Zobrist,
    tt: Vec<Entry>,
    tt_mask: usize,
    killers: Vec<[Option<Move>; 2]>,
    history: Vec<i32>,
    lists: Vec<MoveList>,
    scores: Vec<Vec<i32>>,
    scratch: MoveList,
    /// Keys of the game's earlier positions followed by the search path.
    keys: Vec<u64>,
    seed: u64,
    // Per-search state.
    nodes: u64,
    noise: i32,
    start: Instant,
    deadline: Option<Instant>,
    node_limit: u64,
    stopped: bool,
    sel_depth: usize,
    /// Raised from outside to end the search early ([`Engine::set_stop_flag`]).
    stop_flag: Option<Arc<AtomicBool>>,
}

impl Engine {
    /// An engine with a 16 MB transposition table.
    pub fn new(rules: &Rules) -> Engine {
        Engine::with_table_size(rules, 16)
    }

    /// An engine with a transposition table of about `mb` megabytes (at least 1).
    pub fn with_table_size(rules: &Rules, mb: usize) -> Engine {
        let entries = (mb.max(1) << 20) / std::mem::size_of::<Entry>();
        let size = entries.next_power_of_two() / 2;
        let size = size.max(1024);
        Engine {
            rules: rules.clone(),
            eval: Evaluator::new(rules),
            zob: Zobrist::get(),
            tt: vec![EMPTY; size],
            tt_mask: size - 1,
            killers: vec![[None; 2]; MAX_PLY + 1],
            history: vec![0; 2 * 64 * 64],
            lists: (0..=MAX_PLY).map(|_| MoveList::new()).collect(),
            scores: (0..=MAX_PLY).map(|_| Vec::with_capacity(64)).collect(),
            scratch: MoveList::new(),
            keys: Vec::with_capacity(512),
            seed: 0,
            nodes: 0,
            noise: 0,
            start: Instant::now(),
            deadline: None,
            node_limit: u64::MAX,
            stopped: false,
            sel_depth: 0,
            stop_flag: None,
        }
    }

    /// The rules this engine plays.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The evaluator.
    pub fn evaluator(&self) -> &Evaluator {
        &self.eval
    }

    /// Sets the seed of the evaluation noise (see [`Limits::noise`]).
    pub fn set_seed(&mut self, seed: u64) {
        self.seed = seed;
    }

    /// Forgets everything learnt (transposition table, history): the next
    /// search behaves as in a fresh engine.
    pub fn clear(&mut self) {
        self.tt.fill(EMPTY);
        self.history.fill(0);
        for k in &mut self.killers {
            *k = [None; 2];
        }
    }

    /// The static evaluation of `pos` for the side to move.
    pub fn evaluate(&self, pos: &Position) -> i32 {
        self.eval.evaluate(&self.rules, pos)
    }

    /// Lets another thread end a search early: while `flag` is set, a
    /// running (or starting) search stops as it does when its time is up,
    /// where it checks its time limit, and returns the best move found so
    /// far (always a legal move when there is one). The engine never clears
    /// the flag; `None` removes it.
    pub fn set_stop_flag(&mut self, flag: Option<Arc<AtomicBool>>) {
        self.stop_flag = flag;
    }

    /// Searches `root` within `limits` and returns the best move found.
    pub fn search(&mut self, root: &SearchRoot, limits: &Limits) -> SearchResult {
        self.search_inner(root, limits, None)
    }

    /// Like [`Engine::search`], and calls `report` after every completed
    /// iteration with what is known so far (best move, score, depth, nodes,
    /// time and principal variation), for engines that show their progress.
    pub fn search_reporting(
        &mut self,
        root: &SearchRoot,
        limits: &Limits,
        report: &mut dyn FnMut(&SearchResult),
    ) -> SearchResult {
        self.search_inner(root, limits, Some(report))
    }

    fn search_inner(
        &mut self,
        root: &SearchRoot,
        limits: &Limits,
        mut report: Option<&mut dyn FnMut(&SearchResult)>,
    ) -> SearchResult {
        self.start = Instant::now();
        self.deadline = limits.movetime.map(|t| self.start + t);
        self.node_limit = limits.nodes.unwrap_or(u64::MAX);
        self.noise = limits.noise.max(0);
        self.nodes = 0;
        self.stopped = false;
        self.sel_depth = 0;
        for k in &mut self.killers {
            *k = [None; 2];
        }
        for h in &mut self.history {
            *h /= 8;
        }
        self.keys.clear();
        self.keys.extend_from_slice(&root.earlier);

        let pos = root.pos;
        let key = self.zob.key(&pos);
        let mut root_moves: Vec<(Move, i32)> = self.rules.legal_moves(&pos).iter().map(|&m| (m, 0)).collect();
        let mut result = SearchResult {
            best: root_moves.first().map(|m| m.0),
            score: 0,
            depth: 0,
            seldepth: 0,
            nodes: 0,
            pv: Vec::new(),
            elapsed: Duration::ZERO,
        };
        if root_moves.is_empty() {
            result.score = self.no_move_score(0);
            return result;
        }
        let max_depth = limits
            .depth
            .unwrap_or(MAX_PLY as u32 - 8)
            .min(MAX_PLY as u32 - 8)
            .max(1);
        // Order the first iteration by a static look.
        self.order_root(&pos, &mut root_moves);

        for depth in 1..=max_depth {
            let score = self.search_root(&pos, key, root, depth as i32, &mut root_moves);
            if self.stopped && depth > 1 {
                // A partial iteration is used only if its best move was fully searched.
                if let Some(best) = score {
                    result.best = Some(root_moves[0].0);
                    result.score = best;
                }
                break;
            }
            if let Some(s) = score {
                result.best = Some(root_moves[0].0);
                result.score = s;
                result.depth = depth;
                if let Some(report) = report.as_mut() {
                    let snapshot = SearchResult {
                        nodes: self.nodes,
                        seldepth: self.sel_depth as u32,
                        elapsed: self.start.elapsed(),
                        pv: self.principal_variation(&pos, result.best),
                        ..result.clone()
                    };
                    report(&snapshot);
                }
            }
            if self.stopped {
                break;
            }
            // One legal move: no need to think further than a glance.
            if root_moves.len() == 1 && depth >= 2 {
                break;
            }
            // A forced result found within the horizon does not change with depth.
            if result.score.abs() > MATE_BOUND && (MATE - result.score.abs()) <= depth as i32 {
                break;
            }
            // Do not start an iteration that cannot finish in time.
            if let Some(t) = limits.movetime {
                if self.start.elapsed() * 2 > t {
                    break;
                }
            }
        }
        result.nodes = self.nodes;
        result.seldepth = self.sel_depth as u32;
        result.elapsed = self.start.elapsed();
        result.pv = self.principal_variation(&pos, result.best);
        result
    }

    fn order_root(&mut self, pos: &Position, moves: &mut [(Move, i32)]) {
        for (m, s) in moves.iter_mut() {
            let child = pos.after(m);
            *s = -self.eval.evaluate(&self.rules, &child)
                + if m.is_capture() {
                    1000 * m.capture_count() as i32
                } else {
                    0
                };
        }
        moves.sort_by_key(|&(_, s)| std::cmp::Reverse(s));
    }

    /// One iteration at the root. Returns the best score, or `None` when
    /// stopped before the first move was searched. Leaves the moves sorted
    /// best first.
    fn search_root(
        &mut self,
        pos: &Position,
        key: u64,
        root: &SearchRoot,
        depth: i32,
        moves: &mut [(Move, i32)],
    ) -> Option<i32> {
        let mut alpha = -INF;
        let beta = INF;
        let mut best: Option<i32> = None;
        let mut best_idx = 0;
        self.keys.push(key);
        let single = moves.len() == 1;
        for (i, entry) in moves.iter_mut().enumerate() {
            let m = entry.0;
            let child = pos.after(&m);
            let ckey = self.zob.key_after(key, pos, &m);
            let (ncap, nking) = counters(root.plies_since_capture, root.kings_only_plies, &m);
            let ext = if single { 1 } else { 0 };
            let score = if i == 0 {
                -self.negamax(&child, ckey, depth - 1 + ext, 1, -beta, -alpha, ncap, nking)
            } else {
                let s = -self.negamax(&child, ckey, depth - 1 + ext, 1, -alpha - 1, -alpha, ncap, nking);
                if s > alpha && !self.stopped {
                    -self.negamax(&child, ckey, depth - 1 + ext, 1, -beta, -alpha, ncap, nking)
                } else {
                    s
                }
            };
            if self.stopped {
                break;
            }
            entry.1 = score;
            if best.is_none_or(|b| score > b) {
                best = Some(score);
                best_idx = i;
                alpha = alpha.max(score);
            }
        }
        self.keys.pop();
        if let Some(b) = best {
            // Best first; the others keep their order.
            moves[..=best_idx].rotate_right(1);
            self.store(key, depth, 0, b, EXACT, Some(moves[0].0));
        }
        best
    }

    #[inline]
    fn check_limits(&mut self) {
        if self.nodes >= self.node_limit {
            self.stopped = true;
        }
        if self.nodes & 1023 == 0 {
            if let Some(d) = self.deadline {
                if Instant::now() >= d {
                    self.stopped = true;
                }
            }
            if self.stop_flag.as_ref().is_some_and(|f| f.load(Ordering::Relaxed)) {
                self.stopped = true;
            }
        }
    }

    fn no_move_score(&self, ply: usize) -> i32 {
        match self.rules.end().no_legal_move {
            NoMoveResult::Loss => -(MATE - ply as i32),
            NoMoveResult::Win => MATE - ply as i32,
            NoMoveResult::Draw => 0,
        }
    }

    /// The lone-piece and king-against-king rules ([`Rules::lone_piece_outcome`],
    /// as the game judges them), scored for the side to move.
    fn adjudicate(&mut self, pos: &Position, ply: usize) -> Option<i32> {
        let (rules, list) = (&self.rules, &mut self.scratch);
        let outcome = rules.lone_piece_outcome(pos, || {
            rules.generate(pos, list);
            !list.is_empty()
        })?;
        let win = MATE - ply as i32;
        Some(match outcome.winner() {
            None => 0,
            Some(w) if w == pos.side_to_move() => win,
            Some(_) => -win,
        })
    }

    /// Whether the current position (last key) repeats an earlier one
    /// with the same side to move, within the last `reversible` plies.
    fn repeated(&self, key: u64, reversible: u32) -> bool {
        let n = self.keys.len();
        let lim = (reversible as usize).min(n);
        let mut i = 2;
        while i <= lim {
            if self.keys[n - i] == key {
                return true;
            }
            i += 2;
        }
        false
    }

    /// The evaluation, with the noise of low levels, shrunk towards a draw
    /// as a no-capture or kings-only draw counter runs (by up to half at
    /// the limit): with a lead, progress now is worth more than progress later.
    #[inline]
    fn static_eval(&self, pos: &Position, key: u64, ncap: u32, nking: u32) -> i32 {
        let mut e = self.eval.evaluate(&self.rules, pos);
        let end = self.rules.end();
        for (limit, n) in [(end.no_capture_draw_plies, ncap), (end.kings_only_draw_plies, nking)] {
            if limit > 0 {
                let left = (2 * limit - n.min(limit)) as i64;
                e = (e as i64 * left / (2 * limit as i64)) as i32;
            }
        }
        if self.noise > 0 {
            let r = mix(key ^ self.seed) % (2 * self.noise as u64 + 1);
            e += r as i32 - self.noise;
        }
        e
    }

    /// A quick test for a non-capturing move by a man step or a king move.
    fn has_simple_move(&self, pos: &Position) -> bool {
        let us = pos.side_to_move();
        let side = self.rules.side(us);
        let empty = self.rules.board() & !pos.occupied();
        let men = pos.men(us);
        for d in side.man_steps.iter() {
            if self.rules.shift(men, d) & empty != 0 {
                return true;
            }
        }
        let kings = pos.kings(us);
        if kings != 0 {
            for d in side.king_moves.iter() {
                if self.rules.shift(kings, d) & empty != 0 {
                    return true;
                }
            }
        }
        false
    }

    /// Bookkeeping shared by every node: counts it, honours the limits, and
    /// returns a score at once when the search is stopped or the rules end the game here.
    fn enter_node(&mut self, pos: &Position, ply: usize) -> Option<i32> {
        self.nodes += 1;
        self.check_limits();
        if self.stopped {
            return Some(0);
        }
        self.sel_depth = self.sel_depth.max(ply);
        self.adjudicate(pos, ply)
    }

    #[allow(clippy::too_many_arguments)]
    fn negamax(
        &mut self,
        pos: &Position,
        key: u64,
        depth: i32,
        ply: usize,
        mut alpha: i32,
        beta: i32,
        ncap: u32,
        nking: u32,
    ) -> i32 {
        if let Some(s) = self.enter_node(pos, ply) {
            return s;
        }
        let end = *self.rules.end();
        if (end.no_capture_draw_plies > 0 && ncap >= end.no_capture_draw_plies)
            || (end.kings_only_draw_plies > 0 && nking >= end.kings_only_draw_plies)
            || self.repeated(key, ncap)
        {
            // As in the game, a side without a legal move is judged by that
            // rule before any draw rule.
            let list = &mut self.scratch;
            self.rules.generate(pos, list);
            return if list.is_empty() { self.no_move_score(ply) } else { 0 };
        }
        if ply >= MAX_PLY - 1 {
            return self.static_eval(pos, key, ncap, nking);
        }
        if depth <= 0 {
            return self.quiesce(pos, key, ply, alpha, beta, ncap, nking);
        }
        let pv_node = beta - alpha > 1;

        // Transposition table.
        let slot = (key as usize) & self.tt_mask;
        let e = self.tt[slot];
        let mut tt_move = None;
        if e.key == key && e.depth >= 0 {
            tt_move = e.mv;
            if !pv_node && e.depth as i32 >= depth {
                let s = from_tt(e.score, ply);
                match e.bound {
                    EXACT => return s,
                    LOWER if s >= beta => return s,
                    UPPER if s <= alpha => return s,
                    _ => {}
                }
            }
        }

        let mut list = std::mem::take(&mut self.lists[ply]);
        self.rules.generate(pos, &mut list);
        if list.is_empty() {
            self.lists[ply] = list;
            return self.no_move_score(ply);
        }
        let mut scores = std::mem::take(&mut self.scores[ply]);
        self.score_moves(pos, &list, tt_move, ply, &mut scores);
        let n = list.len();
        // A forced reply costs no depth.
        let ext = if n == 1 { 1 } else { 0 };

        self.keys.push(key);
        let orig_alpha = alpha;
        let mut best = -INF;
        let mut best_move = None;
        let mut order: [u8; 256] = [0; 256];
        let n = n.min(256);
        for (i, o) in order.iter_mut().enumerate().take(n) {
            *o = i as u8;
        }
        for i in 0..n {
            // Selection sort: bring the best remaining move forward.
            let mut bi = i;
            for j in i + 1..n {
                if scores[order[j] as usize] > scores[order[bi] as usize] {
                    bi = j;
                }
            }
            order.swap(i, bi);
            let m = list.as_slice()[order[i] as usize];
            let child = pos.after(&m);
            let ckey = self.zob.key_after(key, pos, &m);
            let (cn, ck) = counters(ncap, nking, &m);
            let mut d = depth - 1 + ext;
            // Late, quiet, unremarkable moves are searched one ply shallower first.
            let reduce = depth >= 3 && i >= 3 && !m.is_capture() && !m.promotes() && ext == 0 && !pv_node;
            if reduce {
                d -= 1;
            }
            let mut score;
            if i == 0 {
                score = -self.negamax(&child, ckey, d, ply + 1, -beta, -alpha, cn, ck);
            } else {
                score = -self.negamax(&child, ckey, d, ply + 1, -alpha - 1, -alpha, cn, ck);
                if reduce && score > alpha && !self.stopped {
                    d += 1;
                    score = -self.negamax(&child, ckey, d, ply + 1, -alpha - 1, -alpha, cn, ck);
                }
                if score > alpha && score < beta && !self.stopped {
                    score = -self.negamax(&child, ckey, d, ply + 1, -beta, -alpha, cn, ck);
                }
            }
            if self.stopped {
                break;
            }
            if score > best {
                best = score;
                best_move = Some(m);
                if score > alpha {
                    alpha = score;
                    if alpha >= beta {
                        if !m.is_capture() {
                            self.record_cutoff(pos.side_to_move(), &m, ply, depth);
                        }
                        break;
                    }
                }
            }
        }
        self.keys.pop();
        self.lists[ply] = list;
        self.scores[ply] = scores;
        if self.stopped {
            return 0;
        }
        let bound = if best >= beta {
            LOWER
        } else if best > orig_alpha {
            EXACT
        } else {
            UPPER
        };
        self.store(key, depth, ply, best, bound, best_move);
        best
    }

    #[allow(clippy::too_many_arguments)]
    fn quiesce(
        &mut self,
        pos: &Position,
        key: u64,
        ply: usize,
        mut alpha: i32,
        beta: i32,
        ncap: u32,
        nking: u32,
    ) -> i32 {
        if let Some(s) = self.enter_node(pos, ply) {
            return s;
        }
        if ply >= MAX_PLY - 1 {
            return self.static_eval(pos, key, ncap, nking);
        }
        let mandatory = self.rules.mandatory();
        let capture = self.rules.has_capture(pos);
        if !capture {
            if !self.has_simple_move(pos) {
                // Perhaps blocked: only the full generator can tell.
                let mut list = std::mem::take(&mut self.lists[ply]);
                self.rules.generate(pos, &mut list);
                let empty = list.is_empty();
                self.lists[ply] = list;
                if empty {
                    return self.no_move_score(ply);
                }
            }
            return self.static_eval(pos, key, ncap, nking);
        }
        let mut best = -INF;
        if !mandatory {
            best = self.static_eval(pos, key, ncap, nking);
            if best >= beta {
                return best;
            }
            alpha = alpha.max(best);
        }
        let mut list = std::mem::take(&mut self.lists[ply]);
        self.rules.generate(pos, &mut list);
        let n = list.len();
        for i in 0..n {
            let m = list.as_slice()[i];
            if !m.is_capture() {
                continue;
            }
            let child = pos.after(&m);
            let ckey = self.zob.key_after(key, pos, &m);
            let score = -self.quiesce(&child, ckey, ply + 1, -beta, -alpha, 0, 0);
            if self.stopped {
                break;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        self.lists[ply] = list;
        if best == -INF {
            // Captures were expected but none is legal here: score statically.
            return self.static_eval(pos, key, ncap, nking);
        }
        best
    }

    fn score_moves(&self, pos: &Position, list: &MoveList, tt_move: Option<Move>, ply: usize, out: &mut Vec<i32>) {
        out.clear();
        let side = pos.side_to_move().index();
        let killers = self.killers[ply];
        for m in list {
            let s = if Some(*m) == tt_move {
                1 << 30
            } else if m.is_capture() {
                (1 << 24)
                    + 1000 * m.capture_count() as i32
                    + 300 * m.captured_kings().count_ones() as i32
                    + 100 * m.promotes() as i32
            } else if m.promotes() {
                1 << 23
            } else if killers[0] == Some(*m) {
                1 << 22
            } else if killers[1] == Some(*m) {
                (1 << 22) - 1
            } else {
                self.history[hist_index(side, m)]
            };
            out.push(s);
        }
    }

    fn record_cutoff(&mut self, us: Color, m: &Move, ply: usize, depth: i32) {
        let k = &mut self.killers[ply];
        if k[0] != Some(*m) {
            k[1] = k[0];
            k[0] = Some(*m);
        }
        let h = &mut self.history[hist_index(us.index(), m)];
        *h = (*h + depth * depth).min(1 << 20);
    }

    fn store(&mut self, key: u64, depth: i32, ply: usize, score: i32, bound: u8, mv: Option<Move>) {
        let slot = (key as usize) & self.tt_mask;
        let e = &mut self.tt[slot];
        if e.key != key || depth as i16 >= e.depth || bound == EXACT {
            *e = Entry {
                key,
                mv: mv.or(if e.key == key { e.mv } else { None }),
                score: to_tt(score, ply),
                depth: depth.clamp(0, i16::MAX as i32) as i16,
                bound,
            };
        }
    }

    /// Follows the table's moves from `pos` after `first`.
    fn principal_variation(&self, pos: &Position, first: Option<Move>) -> Vec<Move> {
        let mut pv = Vec::new();
        let Some(first) = first else { return pv };
        let mut p = *pos;
        let mut m = first;
        let mut seen: Vec<u64> = Vec::new();
        loop {
            pv.push(m);
            p.play(&m);
            let key = self.zob.key(&p);
            if seen.contains(&key) || pv.len() >= 32 {
                break;
            }
            seen.push(key);
            let e = self.tt[(key as usize) & self.tt_mask];
            let Some(next) = e.mv.filter(|_| e.key == key) else {
                break;
            };
            if !self.rules.legal_moves(&p).iter().any(|o| *o == next) {
                break;
            }
            m = next;
        }
        pv
    }
}

#[inline]
fn hist_index(side: usize, m: &Move) -> usize {
    side * 4096 + (m.from_index() as usize & 63) * 64 + (m.to_index() as usize & 63)
}

/// The draw counters after `m`.
#[inline]
fn counters(ncap: u32, nking: u32, m: &Move) -> (u32, u32) {
    if m.is_capture() {
        (0, 0)
    } else if m.is_king_move() {
        (ncap + 1, nking + 1)
    } else {
        (ncap + 1, 0)
    }
}

/// A move chosen uniformly at random among the legal moves of `pos`.
pub fn random_move(rules: &Rules, pos: &Position, rng: &mut Rng) -> Option<Move> {
    let list = rules.legal_moves(pos);
    let n = list.len();
    if n == 0 {
        None
    } else {
        list.as_slice().get(rng.below(n)).copied()
    }
}
