//! The one move generator: every variant, driven only by [`Rules`].
//!
//! Everything a variant decides is read from the compiled [`Rules`]; the
//! geometry comes from [`Tables`] (one rotation and one mask per step of a
//! whole bitboard, and precomputed rays), so a node costs a handful of
//! bitboard operations per direction the rules allow:
//!
//! - men's steps and friendly jumps move every man at once;
//! - kings slide along rays that stop at the first occupied square;
//! - [`Rules::has_capture`] answers "is there a capture?" with the same
//!   whole-board shifts, so the capture search (a depth-first search over
//!   jump sequences, one piece at a time) runs only where a capture exists;
//! - [`Rules::count_moves`] counts the legal moves without listing them
//!   (popcounts for the non-capturing ones), which is what perft needs at
//!   its last ply.
//!
//! Nothing is allocated per node: lists are caller-provided and reused.

mod capture;
mod count;
mod quiet;
mod single;
pub(crate) mod sink;

pub use count::CountMode;

use crate::board::{
    Bits, Color, Move, MoveList, MovePath, Node, Ply, PlyList, Position, Square, ALL_DIRS, DIAGONAL, ORTHOGONAL,
};
use crate::movegen::quiet::VisitQuiet;
use crate::movegen::sink::{AllPathsSink, PathCount, UniqueCount};
use crate::rules::{with_pack, Pack, Rules};
use crate::util::Rng;

/// Runs `$e` with `$g` bound to the board's direction class as a constant
/// (see [`Tables::geometry`](crate::board::Tables::geometry)): the one
/// place the class is read at run time.
macro_rules! by_geometry {
    ($pack:expr, $g:ident => $e:expr) => {
        match $pack.tables.geometry() {
            ORTHOGONAL => {
                const $g: u8 = ORTHOGONAL;
                $e
            }
            DIAGONAL => {
                const $g: u8 = DIAGONAL;
                $e
            }
            _ => {
                const $g: u8 = ALL_DIRS;
                $e
            }
        }
    };
}

/// Runs `$e` with `$g` bound to the board's direction class and `$plain`
/// to whether the rules are plain (`Rules::plain`), both as constants:
/// what a tree walk (perft) chooses once at its root, so that every node
/// below runs a generator with those branches compiled out. Every class
/// has a plain arm: Armenian (men that also step diagonally, queen-moving
/// kings) is plain on a board with every direction, and without that arm it
/// paid about 3% more instructions than before the family rules.
macro_rules! by_shape {
    ($rules:expr, $pack:expr, $g:ident, $plain:ident => $e:expr) => {
        match ($pack.tables.geometry(), $rules.plain($pack)) {
            ($crate::board::ORTHOGONAL, true) => {
                const $g: u8 = $crate::board::ORTHOGONAL;
                const $plain: bool = true;
                $e
            }
            ($crate::board::ORTHOGONAL, false) => {
                const $g: u8 = $crate::board::ORTHOGONAL;
                const $plain: bool = false;
                $e
            }
            ($crate::board::DIAGONAL, true) => {
                const $g: u8 = $crate::board::DIAGONAL;
                const $plain: bool = true;
                $e
            }
            ($crate::board::DIAGONAL, false) => {
                const $g: u8 = $crate::board::DIAGONAL;
                const $plain: bool = false;
                $e
            }
            (_, true) => {
                const $g: u8 = $crate::board::ALL_DIRS;
                const $plain: bool = true;
                $e
            }
            (_, false) => {
                const $g: u8 = $crate::board::ALL_DIRS;
                const $plain: bool = false;
                $e
            }
        }
    };
}
pub(crate) use by_shape;

/// The generator in the board's own numbering and word `B`: what perft and
/// the search call once [`with_pack`] has chosen `B`.
impl Rules {
    /// The legal moves of `pos` into `list` (see [`Rules::generate`]).
    #[inline]
    pub(crate) fn generate_in<B: Bits>(&self, p: &Pack<B>, pos: &Node<B>, list: &mut PlyList<B>) {
        by_geometry!(p, G => self.generate_as::<B, G, false>(p, pos, list, false))
    }

    /// [`Rules::generate_in`] with each move's number of paths counted in
    /// `mode` (for perft).
    #[inline]
    pub(crate) fn generate_counting_in<B: Bits>(
        &self,
        p: &Pack<B>,
        pos: &Node<B>,
        list: &mut PlyList<B>,
        mode: CountMode,
    ) {
        by_geometry!(p, G => self.generate_as::<B, G, false>(p, pos, list, mode.jumps()))
    }

    #[inline(always)]
    fn generate_as<B: Bits, const G: u8, const P: bool>(
        &self,
        p: &Pack<B>,
        pos: &Node<B>,
        list: &mut PlyList<B>,
        jumps: bool,
    ) {
        list.clear();
        self.gen_captures::<B, G, P>(p, pos, list, jumps);
        if list.is_empty() || !self.capture().mandatory {
            self.gen_quiet::<B, G, P>(p, pos, list);
        }
        if list.is_empty() && self.must_pass(pos) {
            list.push(Ply::pass(), 1);
        }
    }

    /// [`Rules::generate_in`] for a search that must stay within its
    /// limits however large the capture tree: `check` is asked every
    /// [`sink::CHECK_EVERY`] jumps of the capture search (with the jumps so
    /// far) whether to stop. Returns whether the list is complete; when
    /// `check` stopped it, the list holds only the captures found so far
    /// (each a complete sequence, legal where the rules do not rank
    /// captures) and no non-capturing move.
    pub(crate) fn generate_bounded_in<B: Bits>(
        &self,
        p: &Pack<B>,
        pos: &Node<B>,
        list: &mut PlyList<B>,
        check: &mut dyn FnMut(u64) -> bool,
    ) -> bool {
        list.clear();
        let complete = by_geometry!(p, G => self.gen_captures_bounded::<B, G>(p, pos, list, check));
        if !complete {
            return false;
        }
        if list.is_empty() || !self.capture().mandatory {
            by_geometry!(p, G => self.gen_quiet::<B, G, false>(p, pos, list));
        }
        if list.is_empty() && self.must_pass(pos) {
            list.push(Ply::pass(), 1);
        }
        true
    }

    /// Whether a capture search in these rules can meet a tree so large
    /// that a search must bound it ([`Rules::generate_bounded_in`]): kings
    /// that land on any square beyond on a board of more than 64 squares,
    /// or any board of more than 100 squares. On the traditional boards the
    /// tree stays small, and the search generates as before.
    pub(crate) fn large_capture_trees(&self) -> bool {
        let squares = self.board().count();
        (self.kings().landing_any && squares > 64) || squares > 100
    }

    /// Whether the rules are plain: captures need no bookkeeping beyond
    /// their count (`SearchPlan::rich` is off: men take kings, no values,
    /// priorities or halts) and kings have no move limit (so nodes track
    /// no runs): the games without capture values, priorities or a king
    /// limit. A tree walk that knows it compiles those rules' branches out
    /// ([`by_shape!`]). Passing is not part of it: it is asked only of a
    /// position without moves (`Rules::must_pass`), which costs nothing.
    #[inline]
    pub(crate) fn plain<B: Bits>(&self, p: &Pack<B>) -> bool {
        !p.plan.rich && !p.track_runs
    }

    /// Whether the side to move of `pos`, which has no move, passes
    /// (`end.no_legal_move = "pass"` and it has pieces). Asked only of a
    /// position without moves, so the other variants never pay for it.
    #[cold]
    fn must_pass<B: Bits>(&self, pos: &Node<B>) -> bool {
        self.end().passes() && !pos.pieces(pos.side_to_move()).is_empty()
    }

    /// [`Rules::count_moves`] in the board's numbering, with the direction
    /// class `G` and plainness `P` chosen by [`by_shape!`]; `scratch` is
    /// used for captures in [`CountMode::Moves`].
    #[inline(always)]
    pub(crate) fn count_as<B: Bits, const G: u8, const P: bool>(
        &self,
        p: &Pack<B>,
        pos: &Node<B>,
        mode: CountMode,
        scratch: &mut PlyList<B>,
    ) -> u64 {
        let mut captures = 0;
        let (pieces, king_quiet) = self.capturers_counting::<B, G, true, P>(p, pos);
        if !pieces.is_empty() {
            captures = if let Some(single) = self.single_jumps::<B, G>(p, pos, pieces) {
                single.count::<G>()
            } else {
                self.count_captures::<B, G>(p, pos, pieces, mode, scratch)
            };
            if captures != 0 && self.capture().mandatory {
                return captures;
            }
        }
        let n = captures + self.count_quiet::<B, G, P>(p, pos, scratch, king_quiet);
        if n == 0 && self.must_pass(pos) {
            return 1;
        }
        n
    }

    /// The number of captures of the side to move, found by the capture
    /// search from `pieces` and counted in `mode`.
    #[inline(always)]
    fn count_captures<B: Bits, const G: u8>(
        &self,
        p: &Pack<B>,
        pos: &Node<B>,
        pieces: B,
        mode: CountMode,
        scratch: &mut PlyList<B>,
    ) -> u64 {
        match mode {
            CountMode::Paths | CountMode::Jumps => {
                let mut sink = PathCount {
                    best: 0,
                    n: 0,
                    ranked: p.plan.ranked(),
                };
                self.capture_search::<B, _, G>(p, pos, &mut sink, pieces, mode.jumps());
                sink.n
            }
            CountMode::Moves => {
                let mut sink = UniqueCount::new(p.plan.ranked(), scratch);
                self.capture_search::<B, _, G>(p, pos, &mut sink, pieces, false);
                sink.n
            }
        }
    }

    /// Calls `f` with each legal move of `pos` and its number of paths (in
    /// no particular order). Non-capturing moves come straight from the
    /// sets; captures (and non-capturing moves that need merging) go
    /// through `list`, which is overwritten. This is generating without
    /// filling a list in the common case, for perft and other tree walks.
    /// The number of paths is counted in `mode` (as paths in
    /// [`CountMode::Moves`]). `G` and `P` are chosen by [`by_shape!`].
    #[inline(always)]
    pub(crate) fn for_each_as<B: Bits, const G: u8, const P: bool, F: FnMut(&Ply<B>, u32)>(
        &self,
        p: &Pack<B>,
        pos: &Node<B>,
        list: &mut PlyList<B>,
        mode: CountMode,
        mut f: F,
    ) {
        list.clear();
        let capturers = self.capturers::<B, G, P>(p, pos);
        if !capturers.is_empty() {
            match self.single_jumps::<B, G>(p, pos, capturers) {
                Some(single) => single.push_all::<G>(p, pos, list),
                None => self.search_captures::<B, G>(p, pos, list, capturers, mode.jumps()),
            }
        }
        let use_list = !list.is_empty() || self.quiet_needs_dedup(pos.side_to_move());
        if use_list {
            if list.is_empty() || !self.capture().mandatory {
                self.gen_quiet::<B, G, P>(p, pos, list);
            }
            if list.is_empty() && self.must_pass(pos) {
                list.push(Ply::pass(), 1);
            }
            for (m, n) in list.iter() {
                f(m, n);
            }
        } else {
            // A pass is the one move of a blocked side: the visit tells
            // whether there was another move.
            let mut moved = false;
            self.quiet_moves::<B, G, P, _>(
                p,
                pos,
                &mut VisitQuiet(
                    #[inline(always)]
                    |m: Ply<B>| {
                        moved = true;
                        f(&m, 1)
                    },
                ),
                false,
            );
            if !moved && self.must_pass(pos) {
                f(&Ply::pass(), 1);
            }
        }
    }

    /// Whether the side to move has a capture.
    #[inline]
    pub(crate) fn has_capture_in<B: Bits>(&self, p: &Pack<B>, pos: &Node<B>) -> bool {
        by_geometry!(p, G => !self.capturers::<B, G, false>(p, pos).is_empty())
    }

    /// Whether the side to move has a non-capturing move.
    #[inline]
    pub(crate) fn has_quiet_in<B: Bits>(&self, p: &Pack<B>, pos: &Node<B>) -> bool {
        by_geometry!(p, G => self.any_quiet::<B, G, false>(p, pos))
    }

    /// Whether the non-capturing move of the piece on `from` to `to`
    /// (without promotion) is legal in `pos`: the generator lists it, and
    /// no capture is compulsory. The endgame tables ask it of each candidate
    /// predecessor, so that un-moving never decides a rule.
    #[inline]
    pub(crate) fn plays_quiet_in<B: Bits>(&self, p: &Pack<B>, pos: &Node<B>, from: u8, to: u8) -> bool {
        if self.capture().mandatory && self.has_capture_in(p, pos) {
            return false;
        }
        let mut sink = quiet::FindQuiet { from, to, found: false };
        by_geometry!(p, G => self.quiet_moves::<B, G, false, _>(p, pos, &mut sink, false));
        sink.found
    }
}

/// The generator on positions and moves of the API.
impl Rules {
    /// Fills `list` with the legal moves of `pos`, captures first (each
    /// distinct move once, with how many capture paths play it: moves are
    /// origin, destination and captured set; see [`MoveList::path_counts`]).
    pub fn generate(&self, pos: &Position, list: &mut MoveList) {
        list.clear();
        with_pack!(self, p => {
            let mut inner = PlyList::new();
            self.generate_in(p, &p.node(pos), &mut inner);
            for (m, n) in inner.iter() {
                list.push(p.export(m), n);
            }
        })
    }

    /// [`Rules::generate`] within a budget of `max_jumps` jumps of capture
    /// search: returns false, with `list` empty, when the captures of `pos`
    /// need more (a variant whose capture tree explodes, `W0605`, can need
    /// billions; the budget is checked every 4096 jumps). A caller that must answer in bounded time (a fuzzer, a
    /// server) refuses such a position instead of listing it.
    pub fn generate_within(&self, pos: &Position, list: &mut MoveList, max_jumps: u64) -> bool {
        list.clear();
        with_pack!(self, p => {
            let mut inner = PlyList::new();
            if !self.generate_bounded_in(p, &p.node(pos), &mut inner, &mut |jumps| jumps >= max_jumps) {
                return false;
            }
            for (m, n) in inner.iter() {
                list.push(p.export(m), n);
            }
        });
        true
    }

    /// The legal moves of `pos`.
    pub fn legal_moves(&self, pos: &Position) -> MoveList {
        let mut l = MoveList::new();
        self.generate(pos, &mut l);
        l
    }

    /// The number of legal moves of `pos` as [`Rules::generate`] would list
    /// them: distinct moves, or capture paths with [`CountMode::Paths`].
    /// Non-capturing moves are counted without being listed.
    pub fn count_moves(&self, pos: &Position, mode: CountMode) -> u64 {
        with_pack!(self, p => by_shape!(self, p, G, P => self.count_as::<_, G, P>(p, &p.node(pos), mode, &mut PlyList::new())))
    }

    /// Calls `f` with each legal move of `pos` and its number of paths, in
    /// no particular order (the order a tree walk meets them).
    pub fn for_each_move<F: FnMut(&Move, u32)>(&self, pos: &Position, mut f: F) {
        with_pack!(self, p => {
            let mut list = PlyList::new();
            by_geometry!(p, G => self.for_each_as::<_, G, false, _>(p, &p.node(pos), &mut list, CountMode::Paths, |m, n| f(&p.export(m), n)));
        })
    }

    /// Whether the side to move has a capture.
    pub fn has_capture(&self, pos: &Position) -> bool {
        with_pack!(self, p => self.has_capture_in(p, &p.node(pos)))
    }

    /// Whether the side to move has a non-capturing move (legal or not:
    /// where capturing is mandatory and a capture exists, it is not).
    /// With [`Rules::has_capture`] this tells whether a position has any
    /// legal move without generating them (a pass aside: it is neither).
    pub fn has_quiet_move(&self, pos: &Position) -> bool {
        with_pack!(self, p => self.has_quiet_in(p, &p.node(pos)))
    }

    /// Every path that plays `m` in `pos` (one for a non-capturing move,
    /// none for a pass, which moves no piece). Where the rules rank
    /// captures, only the paths of the best rank count: two paths of one
    /// move may take the same pieces in another order, and
    /// `capture.priority = ["kings_first"]` tells them apart.
    pub fn move_paths(&self, pos: &Position, m: &Move) -> Vec<MovePath> {
        if m.is_pass() {
            return Vec::new();
        }
        if !m.is_capture() {
            return vec![MovePath {
                from: m.from(),
                landings: vec![m.to()],
                captures: vec![],
            }];
        }
        self.capture_paths(pos, std::slice::from_ref(m), usize::MAX, Some(m.from()))
            .pop()
            .unwrap_or_default()
    }

    /// The paths of each move of `moves` (the legal moves of `pos`, as
    /// [`Rules::generate`] lists them), as [`Rules::move_paths`] gives
    /// them, but at most `per_move` of each (the first by landing squares,
    /// so the first is the move's full notation), all found in one capture
    /// search: where a position has millions of capture paths, listing them
    /// costs time linear in the paths and memory bounded by `per_move` (the
    /// move list's path counts say how many there are). The result is in
    /// the order of `moves`.
    pub fn paths_of_moves(&self, pos: &Position, moves: &MoveList, per_move: usize) -> Vec<Vec<MovePath>> {
        let mut out: Vec<Vec<MovePath>> = moves
            .iter()
            .map(|m| {
                if m.is_pass() || m.is_capture() || per_move == 0 {
                    Vec::new()
                } else {
                    vec![MovePath {
                        from: m.from(),
                        landings: vec![m.to()],
                        captures: vec![],
                    }]
                }
            })
            .collect();
        if !moves.iter().any(|m| m.is_capture()) || per_move == 0 {
            return out;
        }
        let captures = self.capture_paths(pos, moves.as_slice(), per_move, None);
        for (paths, found) in out.iter_mut().zip(captures) {
            if !found.is_empty() {
                *paths = found;
            }
        }
        out
    }

    /// Up to `per_move` paths of each capture among `moves` (in their order;
    /// none for the other moves), sorted by landings, found in one capture
    /// search over the pieces that can capture, or over the piece on `only`
    /// alone. Where the rules rank captures, only paths of the best rank of
    /// the position count.
    pub(crate) fn capture_paths(
        &self,
        pos: &Position,
        moves: &[Move],
        per_move: usize,
        only: Option<Square>,
    ) -> Vec<Vec<MovePath>> {
        let mut out = with_pack!(self, p => {
            let node = p.node(pos);
            let mut targets = PlyList::new();
            for m in moves {
                // Non-capturing moves and passes never match a capture path.
                targets.push(p.import(m), 0);
            }
            let square = |b: u8| p.square(b);
            let ranked = p.plan.ranked();
            let all = by_geometry!(p, G => self.capturers::<_, G, false>(p, &node));
            let pieces = match only.map(|sq| self.geometry().layout.bit_of(sq)) {
                None => all,
                Some(Some(from)) => node.pieces(node.side_to_move()) & bit_in(p, from),
                Some(None) => return vec![Vec::new(); moves.len()],
            };
            let mut best = PathCount { best: 0, n: 0, ranked };
            if ranked {
                by_geometry!(p, G => self.capture_search::<_, _, G>(p, &node, &mut best, all, false));
            }
            let mut sink = AllPathsSink {
                targets,
                square: &square,
                out: vec![Vec::new(); moves.len()],
                per_move,
                steps: Vec::new(),
                best: ranked.then_some(best.best),
            };
            by_geometry!(p, G => self.capture_search::<_, _, G>(p, &node, &mut sink, pieces, false));
            sink.out
        });
        for paths in &mut out {
            paths.sort_by(|a, b| a.landings.cmp(&b.landings));
        }
        out
    }

    /// Whether `m` is among the legal moves of `pos`.
    pub fn is_legal(&self, pos: &Position, m: &Move) -> bool {
        self.legal_moves(pos).iter().any(|o| o == m)
    }

    /// Checks that `pos` could arise under these rules as far as a static
    /// look can tell: pieces on playable squares, no man on its own promotion rank.
    pub fn check_position(&self, pos: &Position) -> Result<(), String> {
        let off = pos.occupied() & !self.board();
        if !off.is_empty() {
            let s: Vec<String> = off.iter().map(|s| s.to_string()).collect();
            return Err(format!(
                "pieces on squares that are not part of this board: {}",
                s.join(", ")
            ));
        }
        for c in Color::ALL {
            let bad = pos.men(c) & self.side(c).promotion;
            if !bad.is_empty() {
                let s: Vec<String> = bad.iter().map(|s| self.square_name(s)).collect();
                return Err(format!(
                    "{} men on {} stand on their own promotion rank (they would be kings)",
                    c,
                    s.join(", ")
                ));
            }
        }
        Ok(())
    }
}

/// The one-bit set of `bit` in the word of `p`.
#[inline(always)]
fn bit_in<B: Bits>(_: &Pack<B>, bit: u8) -> B {
    B::bit(bit)
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
