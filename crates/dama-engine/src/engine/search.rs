//! The computer opponent: alpha-beta search for any variant.
//!
//! Negamax with principal-variation search and iterative deepening, a
//! fixed-size transposition table keyed by Zobrist hashes (fixed seed, so
//! keys are the same in every run), move ordering (table move, captures by
//! the number of pieces taken, killer moves, a history table), a capture
//! search at the horizon (where capturing is mandatory the side to move
//! keeps capturing until no capture is left; otherwise it may stand pat),
//! and one extra ply for forced replies. Switches ([`SearchOptions`]) turn
//! late-move reductions, aspiration windows, futility pruning and the
//! ordering of captures in the capture search on and off; the defaults are
//! the settings that won their self-play tests (docs/strength.md). The end-of-game rules of the
//! variant ([`crate::rules::EndRules`]) score the leaves: no legal move,
//! the lone-piece and king-against-king rules, the draw clock
//! ([`DrawClock`], kept as the game keeps it);
//! a repeated position inside the search counts as a draw.
//!
//! With endgame tables ([`Engine::set_tables`]) a position they hold is
//! not searched: the root plays the tables' move, and a node below it
//! takes the tables' exact value (a win in `n` plies from ply `p` scores
//! `MATE - (p + n)`, as if searched to the end). The tables ignore the
//! draw clock ([`crate::endgame::ASSUMPTION`]); the search does not: a table
//! draw is a draw, but a table win or loss is taken only where it ends
//! before any draw counter could reach its limit, and is searched on
//! where it may not.
//!
//! Nothing is allocated per node: the move lists of every ply are reused.
//!
//! ```
//! use dama_engine::{Engine, Limits, SearchRoot};
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
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::board::{Bitboard, Bits, Color, Move, Node, Ply, PlyList, Position};
use crate::endgame::{NodeTables, Tablebase, Wdl};
use crate::engine::tt::{from_tt, to_tt, Entry, EXACT, LOWER, UPPER};
use crate::engine::{
    EvalWeights, Evaluator, Limits, Reductions, SearchOptions, SearchResult, SearchRoot, Zobrist, MAN,
};
use crate::game::DrawClock;
use crate::rules::{Pack, Rules};
use crate::spec::{CrowningEnd, NoMoveResult};
use crate::util::mix;

/// The score of a won position at the root; a win in `n` plies scores `MATE - n`.
pub const MATE: i32 = 30_000;

/// The jumps of capture search one move list makes before the rest counts
/// towards the node limit (one node per 4096 jumps): far more than any
/// position of the traditional games needs, so their node counts are those
/// of the search without the bound.
const FREE_JUMPS: u64 = 1 << 16;
/// The most jumps of capture search spent checking one move of the
/// principal variation.
const PV_JUMPS: u64 = 1 << 20;
/// Scores beyond this (in absolute value) are forced wins or losses.
pub const MATE_BOUND: i32 = MATE - 1_000;
/// The deepest ply the search reaches (including capture sequences).
pub const MAX_PLY: usize = 128;
const INF: i32 = 32_000;
/// The longest forced end a score can tell (in plies).
const MATE_BOUND_PLIES: u32 = (MATE - MATE_BOUND - 1) as u32;

/// A computer player for one variant. Keep it for a whole game: its
/// tables help from one move to the next.
#[derive(Debug)]
pub struct Engine {
    inner: Inner,
}

/// The search compiled for the word of the variant's board.
#[derive(Debug)]
enum Inner {
    W64(Box<Searcher<u64>>),
    W128(Box<Searcher<u128>>),
    W256(Box<Searcher<Bitboard>>),
}

/// Runs `$e` with `$s` bound to the engine's searcher.
macro_rules! searcher {
    ($engine:expr, $s:ident => $e:expr) => {
        match $engine {
            Inner::W64($s) => $e,
            Inner::W128($s) => $e,
            Inner::W256($s) => $e,
        }
    };
}

impl Engine {
    /// An engine with a 16 MB transposition table.
    pub fn new(rules: &Rules) -> Engine {
        Engine::with_table_size(rules, 16)
    }

    /// An engine with a transposition table of about `mb` megabytes (at least 1).
    pub fn with_table_size(rules: &Rules, mb: usize) -> Engine {
        use crate::rules::Packing;
        let inner = match &rules.geometry().packing {
            Packing::W64(p) => Inner::W64(Box::new(Searcher::new(rules, p, mb))),
            Packing::W128(p) => Inner::W128(Box::new(Searcher::new(rules, p, mb))),
            Packing::W256(p) => Inner::W256(Box::new(Searcher::new(rules, p, mb))),
        };
        Engine { inner }
    }

    /// Plays from endgame tables: when `tables` hold the root position, a
    /// search returns the tables' best move at once (the quickest win, the
    /// slowest loss, a move that keeps the draw) with its distance as a
    /// mate score, and the table line as its principal variation. Below the
    /// root, a position the tables hold takes their value instead of being
    /// searched (see the module's notes on the draw clock), and counts in
    /// [`SearchResult::table_hits`]. The folder is looked at once, here,
    /// for the slices it holds; a slice is read the first time it is
    /// needed. Tables for other rules than this engine's are ignored
    /// (their files say which rules they are for).
    pub fn set_tables(&mut self, tables: Option<Tablebase>) {
        let fingerprint = self.rules().fingerprint();
        let tables = tables.filter(|t| t.rules().fingerprint() == fingerprint);
        searcher!(&mut self.inner, s => s.tables = tables.map(|t| NodeTables::new(t, &s.pack)))
    }

    /// Whether the engine has tables that hold at least one slice.
    pub fn has_tables(&self) -> bool {
        searcher!(&self.inner, s => s.tables.as_ref().is_some_and(|t| t.max_pieces() > 0))
    }

    /// The tables' answer at the root, if they hold it.
    fn table_answer(&mut self, root: &SearchRoot) -> Option<SearchResult> {
        let tables = searcher!(&mut self.inner, s => s.tables.as_mut())?.tables();
        let start = Instant::now();
        let value = tables.probe(&root.pos).ok()?;
        let (best, _) = tables.best_move(&root.pos).ok()??;
        let pv = tables.line(&root.pos, 24).unwrap_or_else(|_| vec![best]);
        let plies = value.plies.min(MATE_BOUND as u32 / 2) as i32;
        let score = match value.wdl {
            Wdl::Win => MATE - plies,
            Wdl::Loss => -(MATE - plies),
            Wdl::Draw => 0,
        };
        Some(SearchResult {
            best: Some(best),
            score,
            depth: 0,
            seldepth: 0,
            nodes: 0,
            table_hits: 1,
            pv,
            elapsed: start.elapsed(),
        })
    }

    /// The rules this engine plays.
    pub fn rules(&self) -> &Rules {
        searcher!(&self.inner, s => &s.rules)
    }

    /// The evaluator.
    pub fn evaluator(&self) -> &Evaluator {
        searcher!(&self.inner, s => &s.eval)
    }

    /// Evaluates with these weights from now on (an engine starts with
    /// [`EvalWeights::for_rules`]: the tuned weights shipped for its rules,
    /// else the derived ones).
    pub fn set_weights(&mut self, weights: &EvalWeights) {
        searcher!(&mut self.inner, s => s.eval = Evaluator::with_weights(&s.rules, weights))
    }

    /// Searches with these switches from now on (an engine starts with
    /// [`SearchOptions::default`]).
    pub fn set_search_options(&mut self, options: SearchOptions) {
        searcher!(&mut self.inner, s => s.options = options)
    }

    /// The search's switches.
    pub fn search_options(&self) -> SearchOptions {
        searcher!(&self.inner, s => s.options)
    }

    /// Sets the seed of the evaluation noise (see [`Limits::noise`]).
    pub fn set_seed(&mut self, seed: u64) {
        searcher!(&mut self.inner, s => s.seed = seed)
    }

    /// Forgets everything learnt (transposition table, history): the next
    /// search behaves as in a fresh engine.
    pub fn clear(&mut self) {
        searcher!(&mut self.inner, s => s.clear())
    }

    /// The static evaluation of `pos` for the side to move.
    pub fn evaluate(&self, pos: &Position) -> i32 {
        let rules = self.rules();
        self.evaluator().evaluate(rules, pos)
    }

    /// Lets another thread end a search early: while `flag` is set, a
    /// running (or starting) search stops as it does when its time is up,
    /// where it checks its time limit, and returns the best move found so
    /// far (always a legal move when there is one). The engine never clears
    /// the flag; `None` removes it.
    pub fn set_stop_flag(&mut self, flag: Option<Arc<AtomicBool>>) {
        searcher!(&mut self.inner, s => s.stop_flag = flag)
    }

    /// Searches `root` within `limits` and returns the best move found.
    pub fn search(&mut self, root: &SearchRoot, limits: &Limits) -> SearchResult {
        if let Some(r) = self.table_answer(root) {
            return r;
        }
        searcher!(&mut self.inner, s => s.search_inner(root, limits, None, None))
    }

    /// Searches only `mv` at the root, within `limits`, as [`Engine::search`]
    /// would search it: its score for the side to move, and the line that
    /// follows it as the principal variation (starting with `mv`). Game
    /// analysis compares it with the best move's score. The endgame tables
    /// are not asked at the root (they may be below it). `None` when `mv` is
    /// not a legal move of `root`.
    ///
    /// ```
    /// use dama_engine::{Engine, Limits, Rules, SearchRoot};
    ///
    /// let rules = Rules::builtin("dama").unwrap();
    /// let mut engine = Engine::new(&rules);
    /// let pos = rules.start_position();
    /// let m = rules.resolve_move(&pos, "d3-d4").unwrap();
    /// let r = engine.search_move(&SearchRoot::new(pos), &Limits::depth(3), &m).unwrap();
    /// assert_eq!(r.best, Some(m));
    /// assert_eq!(r.pv[0], m);
    /// ```
    pub fn search_move(&mut self, root: &SearchRoot, limits: &Limits, mv: &Move) -> Option<SearchResult> {
        let r = searcher!(&mut self.inner, s => s.search_inner(root, limits, None, Some(mv)));
        r.best.is_some().then_some(r)
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
        if let Some(r) = self.table_answer(root) {
            report(&r);
            return r;
        }
        searcher!(&mut self.inner, s => s.search_inner(root, limits, Some(report), None))
    }
}

/// The search in the board's own numbering and word `B`.
#[derive(Debug)]
struct Searcher<B: Bits> {
    rules: Rules,
    pack: Pack<B>,
    eval: Evaluator,
    zob: &'static Zobrist,
    tt: Vec<Entry<B>>,
    tt_mask: usize,
    killers: Vec<[Option<Ply<B>>; 2]>,
    history: Vec<i32>,
    lists: Vec<PlyList<B>>,
    scores: Vec<Vec<i32>>,
    scratch: PlyList<B>,
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
    /// The rules' capture trees can be huge ([`Rules::large_capture_trees`]):
    /// the search then checks its limits inside each capture search too.
    bounded_gen: bool,
    /// `end.crowning = "wins"`: a king on the board ends the game.
    crowning_wins: bool,
    /// Endgame tables probed at the nodes ([`Engine::set_tables`]).
    tables: Option<NodeTables>,
    /// Nodes the tables answered in this search.
    table_hits: u64,
    /// This search looks at only some of the root's moves ([`Engine::search_move`]).
    root_restricted: bool,
    /// The search's switches ([`Engine::set_search_options`]).
    options: SearchOptions,
    /// `Reductions::Deep`: the reduction of the move of rank `i` (0-based)
    /// at depth `d`, `reduction[d][i]`, both capped at [`REDUCTION_CAP`]` - 1`.
    reduction: Box<[[u8; REDUCTION_CAP]; REDUCTION_CAP]>,
}

/// The depths and move ranks told apart by the deep reductions.
const REDUCTION_CAP: usize = 64;
/// The first aspiration window, either side of the last score (a fifth of a man).
const ASPIRATION_DELTA: i32 = 20;
/// The depth from which the root is searched in an aspiration window.
const ASPIRATION_DEPTH: u32 = 4;
/// Futility margins at depth 1 and 2 (in hundredths of a man).
const FUTILITY_MARGIN: [i32; 3] = [0, 120, 250];

/// The deep reductions: `ln d × ln (i+1) / 2`, at least one ply.
fn reduction_table() -> Box<[[u8; REDUCTION_CAP]; REDUCTION_CAP]> {
    let mut t = Box::new([[0u8; REDUCTION_CAP]; REDUCTION_CAP]);
    for (d, row) in t.iter_mut().enumerate().skip(1) {
        for (i, r) in row.iter_mut().enumerate().skip(1) {
            let x = (d as f64).ln() * ((i + 1) as f64).ln() / 2.0;
            *r = (x as u8).max(1);
        }
    }
    t
}

impl<B: Bits> Searcher<B> {
    fn new(rules: &Rules, pack: &Pack<B>, mb: usize) -> Searcher<B> {
        let entries = (mb.max(1) << 20) / std::mem::size_of::<Entry<B>>();
        let size = entries.next_power_of_two() / 2;
        let size = size.max(1024);
        Searcher {
            rules: rules.clone(),
            pack: pack.clone(),
            eval: Evaluator::with_weights(rules, &EvalWeights::for_rules(rules)),
            zob: Zobrist::get(),
            tt: vec![Entry::EMPTY; size],
            tt_mask: size - 1,
            killers: vec![[None; 2]; MAX_PLY + 1],
            history: vec![0; 2 * 256 * 256],
            lists: (0..=MAX_PLY).map(|_| PlyList::new()).collect(),
            scores: (0..=MAX_PLY).map(|_| Vec::with_capacity(64)).collect(),
            scratch: PlyList::new(),
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
            bounded_gen: rules.large_capture_trees(),
            crowning_wins: rules.end().crowning == CrowningEnd::Wins,
            tables: None,
            table_hits: 0,
            root_restricted: false,
            options: SearchOptions::default(),
            reduction: reduction_table(),
        }
    }

    fn clear(&mut self) {
        self.tt.fill(Entry::EMPTY);
        self.history.fill(0);
        for k in &mut self.killers {
            *k = [None; 2];
        }
    }

    fn search_inner(
        &mut self,
        root: &SearchRoot,
        limits: &Limits,
        mut report: Option<&mut dyn FnMut(&SearchResult)>,
        only: Option<&Move>,
    ) -> SearchResult {
        self.start = Instant::now();
        self.deadline = limits.movetime.map(|t| self.start + t);
        self.node_limit = limits.nodes.unwrap_or(u64::MAX);
        self.noise = limits.noise.max(0);
        self.nodes = 0;
        self.table_hits = 0;
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

        let pos = self.pack.node(&root.pos);
        let key = self.zob.key(&root.pos);
        let mut list = PlyList::new();
        if !self.generate(&pos, &mut list) {
            // The limits ran out while listing the root's captures. Where
            // the rules do not rank captures, every one found is legal, and
            // the first is played; else the list is completed (a ranked
            // capture found early may not be legal).
            if !self.pack.plan.ranked() && !list.is_empty() {
                return SearchResult {
                    best: list.as_slice().first().map(|m| self.pack.export(m)),
                    score: 0,
                    depth: 0,
                    seldepth: 0,
                    nodes: self.nodes,
                    table_hits: 0,
                    pv: list
                        .as_slice()
                        .first()
                        .map(|m| self.pack.export(m))
                        .into_iter()
                        .collect(),
                    elapsed: self.start.elapsed(),
                };
            }
            self.rules.generate_in(&self.pack, &pos, &mut list);
        }
        let mut root_moves: Vec<(Ply<B>, i32)> = list.iter().map(|(&m, _)| (m, 0)).collect();
        // Whether the side to move has one legal move (before any restriction).
        let single = root_moves.len() == 1;
        self.root_restricted = only.is_some();
        if let Some(only) = only {
            let pack = &self.pack;
            root_moves.retain(|(m, _)| pack.export(m).same_identity(only));
        }
        let mut result = SearchResult {
            best: root_moves.first().map(|m| self.pack.export(&m.0)),
            score: 0,
            depth: 0,
            seldepth: 0,
            nodes: 0,
            table_hits: 0,
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
            let score = self.aspiration(&pos, key, root, depth, result.score, &mut root_moves, single);
            if self.stopped && depth > 1 {
                // A partial iteration is used only if its best move was fully searched.
                if let Some(best) = score {
                    result.best = Some(self.pack.export(&root_moves[0].0));
                    result.score = best;
                }
                break;
            }
            if let Some(s) = score {
                result.best = Some(self.pack.export(&root_moves[0].0));
                result.score = s;
                result.depth = depth;
                if let Some(report) = report.as_mut() {
                    let snapshot = SearchResult {
                        nodes: self.nodes,
                        table_hits: self.table_hits,
                        seldepth: self.sel_depth as u32,
                        elapsed: self.start.elapsed(),
                        pv: self.principal_variation(&pos, Some(root_moves[0].0)),
                        ..result.clone()
                    };
                    report(&snapshot);
                }
            }
            if self.stopped {
                break;
            }
            // One legal move: no need to think further than a glance.
            if single && depth >= 2 {
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
        result.table_hits = self.table_hits;
        result.seldepth = self.sel_depth as u32;
        result.elapsed = self.start.elapsed();
        result.pv = match result.best {
            Some(best) => self.principal_variation(&pos, Some(self.pack.import(&best))),
            None => Vec::new(),
        };
        result
    }

    fn order_root(&mut self, pos: &Node<B>, moves: &mut [(Ply<B>, i32)]) {
        for (m, s) in moves.iter_mut() {
            let child = pos.after(m);
            *s = -self.eval.evaluate_in(&self.rules, &self.pack, &child)
                + if m.is_capture() {
                    1000 * m.captured.ones() as i32
                } else {
                    0
                };
        }
        moves.sort_by_key(|&(_, s)| std::cmp::Reverse(s));
    }

    /// One iteration at the root: with aspiration windows
    /// ([`SearchOptions::aspiration`]) in a narrow window around `last`, the
    /// score of the iteration before, widened on the failing side until the
    /// score falls inside; else in the full window. As
    /// [`Searcher::search_root`]; a search stopped while the root's value is
    /// only known to be below the window gives `None` (the last iteration's
    /// move stands), and one stopped above it gives the move that rose above.
    #[allow(clippy::too_many_arguments)]
    fn aspiration(
        &mut self,
        pos: &Node<B>,
        key: u64,
        root: &SearchRoot,
        depth: u32,
        last: i32,
        moves: &mut [(Ply<B>, i32)],
        single: bool,
    ) -> Option<i32> {
        if !self.options.aspiration || depth < ASPIRATION_DEPTH || last.abs() >= MATE_BOUND {
            return self.search_root(pos, key, root, depth as i32, -INF, INF, moves, single);
        }
        let mut delta = ASPIRATION_DELTA;
        let (mut alpha, mut beta) = (last - delta, last + delta);
        loop {
            let score = self.search_root(pos, key, root, depth as i32, alpha, beta, moves, single)?;
            if self.stopped {
                return (score > alpha).then_some(score);
            }
            delta *= 4;
            if score <= alpha {
                alpha = if delta > 4 * MAN { -INF } else { score - delta };
            } else if score >= beta {
                beta = if delta > 4 * MAN { INF } else { score + delta };
            } else {
                return Some(score);
            }
        }
    }

    /// One iteration at the root in the window `alpha..beta`. Returns the
    /// best score (a bound when outside the window), or `None` when
    /// stopped before the first move was searched. Leaves the moves sorted
    /// best first.
    #[allow(clippy::too_many_arguments)]
    fn search_root(
        &mut self,
        pos: &Node<B>,
        key: u64,
        root: &SearchRoot,
        depth: i32,
        mut alpha: i32,
        beta: i32,
        moves: &mut [(Ply<B>, i32)],
        single: bool,
    ) -> Option<i32> {
        let orig_alpha = alpha;
        let mut best: Option<i32> = None;
        let mut best_idx = 0;
        self.keys.push(key);
        for (i, entry) in moves.iter_mut().enumerate() {
            let m = entry.0;
            let child = pos.after(&m);
            let ckey = self.zob.key_after_in(&self.pack, key, pos, &m);
            let clock = root.clock.after_ply(&m);
            let ext = if single { 1 } else { 0 };
            let score = if i == 0 {
                -self.negamax(&child, ckey, depth - 1 + ext, 1, -beta, -alpha, clock)
            } else {
                let s = -self.negamax(&child, ckey, depth - 1 + ext, 1, -alpha - 1, -alpha, clock);
                if s > alpha && !self.stopped {
                    -self.negamax(&child, ckey, depth - 1 + ext, 1, -beta, -alpha, clock)
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
                if score >= beta {
                    break;
                }
            }
        }
        self.keys.pop();
        if let Some(b) = best {
            // Best first; the others keep their order.
            moves[..=best_idx].rotate_right(1);
            // A search restricted to some moves does not know the root's value.
            if !self.root_restricted {
                let bound = if b >= beta {
                    LOWER
                } else if b <= orig_alpha {
                    UPPER
                } else {
                    EXACT
                };
                self.store(key, depth, 0, b, bound, Some(moves[0].0));
            }
        }
        best
    }

    /// The legal moves of `pos` into `list`; where the rules' capture trees
    /// can be huge, the limits are checked inside the capture search too
    /// (every `CHECK_EVERY` jumps, 4096; each such stretch beyond the first
    /// [`FREE_JUMPS`] jumps of one list counts as a node), and false is
    /// returned, with the search stopped, when they ran out before the
    /// list was complete.
    fn generate(&mut self, pos: &Node<B>, list: &mut PlyList<B>) -> bool {
        if !self.bounded_gen {
            self.rules.generate_in(&self.pack, pos, list);
            return true;
        }
        let (deadline, limit, flag) = (self.deadline, self.node_limit, self.stop_flag.as_deref());
        let mut nodes = self.nodes;
        let complete = self.rules.generate_bounded_in(&self.pack, pos, list, &mut |jumps| {
            if jumps > FREE_JUMPS {
                nodes += 1;
            }
            nodes >= limit
                || deadline.is_some_and(|d| Instant::now() >= d)
                || flag.is_some_and(|f| f.load(Ordering::Relaxed))
        });
        self.nodes = nodes;
        if !complete {
            self.stopped = true;
        }
        complete
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
            // Where a blocked side passes, only a side without pieces has no move.
            NoMoveResult::Loss | NoMoveResult::Pass => -(MATE - ply as i32),
            NoMoveResult::Win => MATE - ply as i32,
            NoMoveResult::Draw => 0,
        }
    }

    /// The crowning rule ([`Rules::crowning_outcome`]) and the lone-piece
    /// and king-against-king rules ([`Rules::lone_piece_outcome`]), as the
    /// game judges them, scored for the side to move.
    fn adjudicate(&mut self, pos: &Node<B>, ply: usize) -> Option<i32> {
        if self.crowning_wins && !pos.all_kings().is_empty() {
            let last = !pos.side_to_move();
            let win = MATE - ply as i32;
            // The side that moved last crowned (see `crowning_outcome`).
            return Some(if pos.kings(last).is_empty() { win } else { -win });
        }
        if pos.white.ones() != 1 || pos.black.ones() != 1 {
            return None;
        }
        let (rules, pack, list) = (&self.rules, &self.pack, &mut self.scratch);
        let outcome = rules.lone_piece_outcome(&pack.position(pos), || {
            rules.generate_in(pack, pos, list);
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
    fn static_eval(&self, pos: &Node<B>, key: u64, clock: DrawClock) -> i32 {
        let mut e = self.eval.evaluate_in(&self.rules, &self.pack, pos);
        let end = self.rules.end();
        for (limit, n) in [
            (end.no_capture_draw_plies, clock.no_capture),
            (end.kings_only_draw_plies, clock.kings_only),
        ] {
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

    /// Plies the draw counters leave before one of them could end the game
    /// (`u32::MAX`: the rules have none). Captures and promotions only set
    /// them back, so a forced end within this many plies holds whatever
    /// the rest of the game does; the draws by material are counted
    /// against the smallest limit of any pattern, since a capture may lead
    /// to another.
    fn clock_margin(&self, clock: DrawClock) -> u32 {
        let end = self.rules.end();
        let mut m = u32::MAX;
        if end.no_capture_draw_plies > 0 {
            m = m.min(end.no_capture_draw_plies.saturating_sub(clock.no_capture));
        }
        if end.kings_only_draw_plies > 0 {
            m = m.min(end.kings_only_draw_plies.saturating_sub(clock.kings_only));
        }
        if !end.material_draw.is_empty() {
            m = m.min(end.material_min_plies.saturating_sub(clock.reversible));
        }
        m
    }

    /// The tables' value of `pos` at `ply`, if they hold it: a draw, or a
    /// win or loss that ends before the draw clock could
    /// ([`Searcher::clock_margin`]), as a score for the side to move.
    #[inline]
    fn probe_tables(&mut self, pos: &Node<B>, ply: usize, clock: DrawClock) -> Option<i32> {
        let v = self.tables.as_mut()?.probe(pos)?;
        let score = match v.wdl {
            Wdl::Draw => 0,
            _ if v.plies >= self.clock_margin(clock) => return None,
            // Beyond MATE_BOUND, however long the win.
            Wdl::Win => MATE - (ply as u32 + v.plies).min(MATE_BOUND_PLIES) as i32,
            Wdl::Loss => -(MATE - (ply as u32 + v.plies).min(MATE_BOUND_PLIES) as i32),
        };
        self.table_hits += 1;
        Some(score)
    }

    /// Bookkeeping shared by every node: counts it, honours the limits, and
    /// returns a score at once when the search is stopped or the rules end the game here.
    fn enter_node(&mut self, pos: &Node<B>, ply: usize) -> Option<i32> {
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
        pos: &Node<B>,
        key: u64,
        depth: i32,
        ply: usize,
        mut alpha: i32,
        beta: i32,
        clock: DrawClock,
    ) -> i32 {
        if let Some(s) = self.enter_node(pos, ply) {
            return s;
        }
        if clock.verdict_in(self.rules.end(), pos).is_some() || self.repeated(key, clock.reversible) {
            // As in the game, a side without a legal move is judged by that
            // rule before any draw rule.
            let mut list = std::mem::take(&mut self.scratch);
            let complete = self.generate(pos, &mut list);
            let empty = list.is_empty();
            self.scratch = list;
            return if complete && empty { self.no_move_score(ply) } else { 0 };
        }
        if let Some(s) = self.probe_tables(pos, ply, clock) {
            return s;
        }
        if ply >= MAX_PLY - 1 {
            return self.static_eval(pos, key, clock);
        }
        if depth <= 0 {
            return self.quiesce(pos, key, ply, alpha, beta, clock);
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
        if !self.generate(pos, &mut list) {
            self.lists[ply] = list;
            return 0;
        }
        if list.is_empty() {
            self.lists[ply] = list;
            return self.no_move_score(ply);
        }
        if list.as_slice()[0].is_pass() && self.rules.both_blocked_in(&self.pack, pos) {
            // Neither side can ever move again (`Rules::pass_outcome`).
            self.lists[ply] = list;
            return 0;
        }
        let mut scores = std::mem::take(&mut self.scores[ply]);
        self.score_moves(pos, &list, tt_move, ply, &mut scores);
        let n = list.len();
        // A forced reply costs no depth.
        let ext = if n == 1 { 1 } else { 0 };
        // Futility: near the horizon, with no capture on and the evaluation
        // too far below alpha, quiet moves are not worth searching.
        let futile = self.options.futility
            && !pv_node
            && ext == 0
            && (depth as usize) < FUTILITY_MARGIN.len()
            && alpha.abs() < MATE_BOUND
            && !list.as_slice()[0].is_capture()
            && self.static_eval(pos, key, clock) + FUTILITY_MARGIN[depth as usize] <= alpha;

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
            bring_best_forward(&mut order[..n], &scores, i);
            let m = list.as_slice()[order[i] as usize];
            let quiet = !m.is_capture() && !m.promotes();
            if futile && i > 0 && quiet {
                continue;
            }
            let child = pos.after(&m);
            let ckey = self.zob.key_after_in(&self.pack, key, pos, &m);
            let cclock = clock.after_ply(&m);
            let full = depth - 1 + ext;
            let mut d = full;
            // Late, quiet, unremarkable moves are searched shallower first.
            let reduce =
                self.options.reductions != Reductions::Off && depth >= 3 && i >= 3 && quiet && ext == 0 && !pv_node;
            if reduce {
                let r = match self.options.reductions {
                    Reductions::Deep => {
                        let cap = REDUCTION_CAP - 1;
                        self.reduction[(depth as usize).min(cap)][i.min(cap)] as i32
                    }
                    _ => 1,
                };
                // Never straight into the capture search.
                d = (full - r).max(1);
            }
            let mut score;
            if i == 0 {
                score = -self.negamax(&child, ckey, d, ply + 1, -beta, -alpha, cclock);
            } else {
                score = -self.negamax(&child, ckey, d, ply + 1, -alpha - 1, -alpha, cclock);
                if reduce && score > alpha && !self.stopped {
                    d = full;
                    score = -self.negamax(&child, ckey, d, ply + 1, -alpha - 1, -alpha, cclock);
                }
                if score > alpha && score < beta && !self.stopped {
                    score = -self.negamax(&child, ckey, d, ply + 1, -beta, -alpha, cclock);
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
    fn quiesce(&mut self, pos: &Node<B>, key: u64, ply: usize, mut alpha: i32, beta: i32, clock: DrawClock) -> i32 {
        if let Some(s) = self.enter_node(pos, ply) {
            return s;
        }
        if let Some(s) = self.probe_tables(pos, ply, clock) {
            return s;
        }
        if ply >= MAX_PLY - 1 {
            return self.static_eval(pos, key, clock);
        }
        let mandatory = self.rules.capture().mandatory;
        let capture = self.rules.has_capture_in(&self.pack, pos);
        if !capture {
            if !self.rules.has_quiet_in(&self.pack, pos) {
                // No capture and no other move: the side to move is blocked.
                if self.rules.end().passes() && !pos.pieces(pos.side_to_move()).is_empty() {
                    // It passes; a draw if the other side cannot move either.
                    if self.rules.both_blocked_in(&self.pack, pos) {
                        return 0;
                    }
                    return self.static_eval(pos, key, clock);
                }
                return self.no_move_score(ply);
            }
            return self.static_eval(pos, key, clock);
        }
        let mut best = -INF;
        if !mandatory {
            best = self.static_eval(pos, key, clock);
            if best >= beta {
                return best;
            }
            alpha = alpha.max(best);
        }
        let mut list = std::mem::take(&mut self.lists[ply]);
        if !self.generate(pos, &mut list) {
            self.lists[ply] = list;
            return 0;
        }
        let n = list.len();
        // With capture ordering, the captures that take the most come first
        // (a list too long for the order's bytes is taken as generated).
        let mut scores = std::mem::take(&mut self.scores[ply]);
        let mut order: [u8; 256] = [0; 256];
        let ordered = self.options.capture_order && n > 1 && n <= order.len();
        if ordered {
            scores.clear();
            scores.extend(list.as_slice().iter().map(capture_value));
            for (i, o) in order.iter_mut().enumerate().take(n) {
                *o = i as u8;
            }
        }
        for i in 0..n {
            let m = if ordered {
                bring_best_forward(&mut order[..n], &scores, i);
                list.as_slice()[order[i] as usize]
            } else {
                list.as_slice()[i]
            };
            if !m.is_capture() {
                continue;
            }
            let child = pos.after(&m);
            let ckey = self.zob.key_after_in(&self.pack, key, pos, &m);
            let score = -self.quiesce(&child, ckey, ply + 1, -beta, -alpha, clock.after_ply(&m));
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
        self.scores[ply] = scores;
        if best == -INF {
            // Captures were expected but none is legal here: score statically.
            return self.static_eval(pos, key, clock);
        }
        best
    }

    fn score_moves(&self, pos: &Node<B>, list: &PlyList<B>, tt_move: Option<Ply<B>>, ply: usize, out: &mut Vec<i32>) {
        out.clear();
        let side = pos.side_to_move().index();
        let killers = self.killers[ply];
        for m in list.as_slice() {
            let s = if Some(*m) == tt_move {
                1 << 30
            } else if m.is_capture() {
                (1 << 24) + capture_value(m)
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

    fn record_cutoff(&mut self, us: Color, m: &Ply<B>, ply: usize, depth: i32) {
        let k = &mut self.killers[ply];
        if k[0] != Some(*m) {
            k[1] = k[0];
            k[0] = Some(*m);
        }
        let h = &mut self.history[hist_index(us.index(), m)];
        *h = (*h + depth * depth).min(1 << 20);
    }

    fn store(&mut self, key: u64, depth: i32, ply: usize, score: i32, bound: u8, mv: Option<Ply<B>>) {
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
    fn principal_variation(&self, pos: &Node<B>, first: Option<Ply<B>>) -> Vec<Move> {
        let mut pv = Vec::new();
        let Some(first) = first else { return pv };
        let mut p = *pos;
        let mut m = first;
        let mut seen: Vec<u64> = Vec::new();
        let mut list = PlyList::new();
        loop {
            pv.push(self.pack.export(&m));
            p.play(&m);
            let key = self.zob.key_in(&self.pack, &p);
            if seen.contains(&key) || pv.len() >= 32 {
                break;
            }
            seen.push(key);
            let e = self.tt[(key as usize) & self.tt_mask];
            let Some(next) = e.mv.filter(|_| e.key == key) else {
                break;
            };
            // A line whose next move needs more than PV_JUMPS jumps of
            // capture search to check ends there.
            let complete = if self.bounded_gen {
                self.rules
                    .generate_bounded_in(&self.pack, &p, &mut list, &mut |jumps| jumps >= PV_JUMPS)
            } else {
                self.rules.generate_in(&self.pack, &p, &mut list);
                true
            };
            if !complete || !list.as_slice().contains(&next) {
                break;
            }
            m = next;
        }
        pv
    }
}

/// How much a capture looks worth before searching it: the pieces it
/// takes, kings counting more, and a promotion.
#[inline]
fn capture_value<B: Bits>(m: &Ply<B>) -> i32 {
    1000 * m.captured.ones() as i32 + 300 * m.captured_kings.ones() as i32 + 100 * m.promotes() as i32
}

/// Selection sort, one step: brings the index of the best-scored remaining
/// move (from `i` on) to `order[i]`.
#[inline]
fn bring_best_forward(order: &mut [u8], scores: &[i32], i: usize) {
    let mut bi = i;
    for j in i + 1..order.len() {
        if scores[order[j] as usize] > scores[order[bi] as usize] {
            bi = j;
        }
    }
    order.swap(i, bi);
}

#[inline]
fn hist_index<B: Bits>(side: usize, m: &Ply<B>) -> usize {
    (side & 1) * 65536 + m.from as usize * 256 + m.to as usize
}
