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

use crate::color::Color;
use crate::moves::{Move, MoveList, MovePath};
use crate::perft::CountMode;
use crate::position::Position;
use crate::rules::Rules;
use crate::spec::{Majority, MidCapturePromotion, Removal};
use crate::square::{AbsDir, Square, Squares};
use crate::tables::{each_dir, over_dirs, AlongRay, Dirs, Tables, ALL_DIRS, DIAGONAL, ORTHOGONAL};

/// For each jump direction, the bit of its opposite.
const REVERSE_BIT: [u8; 8] = {
    let mut t = [0u8; 8];
    let mut d = 0;
    while d < 8 {
        t[d] = 1 << AbsDir::from_index(d).opposite().index();
        d += 1;
    }
    t
};

/// Runs `$e` with `$g` bound to the board's direction class as a constant
/// (see [`Tables::geometry`]): the one place the class is read at run time.
macro_rules! by_geometry {
    ($rules:expr, $g:ident => $e:expr) => {
        match $rules.tables().geometry() {
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

/// Receives each complete capture sequence found.
trait Sink {
    /// Called for each jump of the current sequence (landing square,
    /// captured square) and undone by [`Sink::pop`]; only a sink that
    /// reports whole paths keeps them.
    #[inline(always)]
    fn push(&mut self, _landing: u8, _victim: u8) {}
    #[inline(always)]
    fn pop(&mut self) {}
    /// A complete sequence: the move, and how many pieces it takes.
    fn leaf(&mut self, m: Move, taken: u32);
}

/// Collects moves into a list, merging paths of the same move and keeping
/// only the longest captures under the majority rule.
struct ListSink<'a> {
    list: &'a mut MoveList,
    best: u32,
    majority: bool,
}

impl Sink for ListSink<'_> {
    #[inline]
    fn leaf(&mut self, m: Move, taken: u32) {
        if self.majority {
            let n = taken;
            if n < self.best {
                return;
            }
            if n > self.best {
                self.list.clear();
                self.best = n;
            }
        }
        self.list.push_dedup(m);
    }
}

/// Counts capture paths (with the majority rule), listing nothing.
struct PathCount {
    best: u32,
    n: u64,
    majority: bool,
}

impl Sink for PathCount {
    #[inline(always)]
    fn leaf(&mut self, _: Move, taken: u32) {
        if self.majority {
            let c = taken;
            if c > self.best {
                self.best = c;
                self.n = 0;
            } else if c < self.best {
                return;
            }
        }
        self.n += 1;
    }
}

/// Collects every path of one move.
struct PathSink<'a> {
    target: &'a Move,
    out: Vec<MovePath>,
    /// The current sequence: (landing, captured) per jump.
    steps: Vec<(u8, u8)>,
}

impl Sink for PathSink<'_> {
    fn push(&mut self, landing: u8, victim: u8) {
        self.steps.push((landing, victim));
    }
    fn pop(&mut self) {
        self.steps.pop();
    }
    fn leaf(&mut self, m: Move, _: u32) {
        if m.same_identity(self.target) {
            self.out.push(MovePath {
                from: m.from(),
                landings: self.steps.iter().map(|&(l, _)| Square::from_index_masked(l)).collect(),
                captures: self.steps.iter().map(|&(_, v)| Square::from_index_masked(v)).collect(),
            });
        }
    }
}

/// State of one capture search (one piece, one sequence at a time).
///
/// `FLY` (kings capture from a distance) and `ANY` (kings land on any empty
/// square beyond) are the variant's king capture geometry, fixed when the
/// search starts so that the inner loops test no rule flag for them; `G` is
/// the board's direction class ([`Tables::geometry`]), so the loops over
/// directions test only the directions of that class.
///
/// The only state that changes along a sequence is the set of pieces
/// captured so far; it is passed down the recursion by value, and the enemy
/// and occupied sets are derived from it, so nothing is undone on the way back.
struct Dfs<'r, 's, S: Sink, const FLY: bool, const ANY: bool, const G: u8> {
    t: &'r Tables,
    sink: &'s mut S,
    /// Enemy pieces at the start of the move.
    enemy: u64,
    /// Enemy kings at the start of the move.
    enemy_kings: u64,
    /// Occupied squares at the start of the move, without the moving piece.
    occ: u64,
    /// All ones when a captured piece leaves the board at once, else 0.
    remove: u64,
    /// All ones when a piece may not turn 180° between two jumps, else 0.
    no_reversal: u8,
    from: u8,
    start_king: bool,
    promoted: bool,
    man_dirs: u8,
    king_dirs: u8,
    promo: u64,
    must_continue: bool,
    mid: MidCapturePromotion,
}

impl<S: Sink, const FLY: bool, const ANY: bool, const G: u8> Dfs<'_, '_, S, FLY, ANY, G> {
    /// The enemy pieces still to be taken and the occupied squares, once
    /// `captured` have been taken.
    #[inline(always)]
    fn board_after(&self, captured: u64) -> (u64, u64) {
        (self.enemy & !captured, self.occ & !(captured & self.remove))
    }

    /// Tries every jump of a man on `sq` in the directions `allowed` after
    /// taking `captured`; returns whether there was one.
    fn search_man(&mut self, sq: u8, allowed: u8, captured: u64, taken: u32) -> bool {
        let dirs = G & self.man_dirs & allowed;
        let (enemy, occ) = self.board_after(captured);
        // One call per direction with the direction as a constant, so that
        // each step's rotation, mask and scan order are known at compile
        // time; the order (lowest direction index first) is the list order.
        over_dirs!(all dirs, D => self.man_dir::<D>(sq, captured, taken, enemy, occ))
    }

    /// The jump of a man on `sq` in direction `D`, if there is one.
    #[inline(always)]
    fn man_dir<const D: usize>(&mut self, sq: u8, captured: u64, taken: u32, enemy: u64, occ: u64) -> bool {
        let t = self.t;
        let vb = t.shift(1u64 << sq, D) & enemy;
        if vb == 0 {
            return false;
        }
        let lb = t.shift(vb, D) & !occ;
        if lb == 0 {
            return false;
        }
        self.jump(vb, lb.trailing_zeros() as u8, false, D, captured, taken);
        true
    }

    /// Tries every jump of a king on `sq` in the directions `allowed` after
    /// taking `captured`; returns whether there was one.
    fn search_king(&mut self, sq: u8, allowed: u8, captured: u64, taken: u32) -> bool {
        let dirs = G & self.king_dirs & allowed;
        let (enemy, occ) = self.board_after(captured);
        // Unrolled as in `search_man`.
        over_dirs!(all dirs, D => self.king_dir::<D>(sq, captured, taken, enemy, occ))
    }

    /// The jumps of a king on `sq` in direction `D`; whether there was one.
    #[inline(always)]
    fn king_dir<const D: usize>(&mut self, sq: u8, captured: u64, taken: u32, enemy: u64, occ: u64) -> bool {
        let t = self.t;
        let vb = self.king_target::<D>(sq, enemy, occ);
        if vb == 0 {
            return false;
        }
        let mut land = if ANY {
            t.slide(D, vb.trailing_zeros() as u8, occ).0
        } else {
            t.shift(vb, D) & !occ
        };
        if land == 0 {
            return false;
        }
        if ANY && self.must_continue {
            land = self.live_landings(vb, land, D, captured);
        }
        for l in AlongRay::new(land, D) {
            self.jump(vb, l, true, D, captured, taken);
        }
        true
    }

    /// Whether [`Dfs::search_king`] would find a jump from `sq` (same
    /// arguments), without recursing.
    #[inline(always)]
    fn king_may_jump(&self, sq: u8, allowed: u8, captured: u64) -> bool {
        let (enemy, occ) = self.board_after(captured);
        let dirs = G & self.king_dirs & allowed;
        over_dirs!(any dirs, D => self.king_jumps::<D>(sq, enemy, occ))
    }

    /// Whether a king on `sq` can jump in direction `D`.
    #[inline(always)]
    fn king_jumps<const D: usize>(&self, sq: u8, enemy: u64, occ: u64) -> bool {
        let vb = self.king_target::<D>(sq, enemy, occ);
        vb != 0 && self.t.shift(vb, D) & !occ != 0
    }

    /// The enemy piece (its bit) a king on `sq` would take first in
    /// direction `D`, or 0: with `FLY` the first piece along the ray, else
    /// the neighbour, if it is an enemy piece.
    #[inline(always)]
    fn king_target<const D: usize>(&self, sq: u8, enemy: u64, occ: u64) -> u64 {
        let t = self.t;
        let vb = if FLY {
            let ray = t.ray(D, sq);
            if ray & enemy == 0 {
                return 0;
            }
            // There is a first piece: enemy pieces are occupied squares.
            1u64 << Tables::nearest(ray & occ, D)
        } else {
            t.shift(1u64 << sq, D)
        };
        vb & enemy
    }

    /// With `landing_must_continue`: of the landing squares `land` beyond
    /// the piece `vb` jumped in direction `d`, those from which the capture
    /// goes on, if there are any (else all of them).
    fn live_landings(&self, vb: u64, land: u64, d: usize, captured: u64) -> u64 {
        let (enemy, occ) = self.board_after(captured | vb);
        let mut live = 0u64;
        for l in Squares(land) {
            if self.king_can_jump(l.index(), d, enemy, occ) {
                live |= l.bit();
            }
        }
        if live != 0 {
            live
        } else {
            land
        }
    }

    /// Whether a king on `sq`, having just jumped in direction `last`, can
    /// capture again given these enemy and occupied sets.
    fn king_can_jump(&self, sq: u8, last: usize, enemy: u64, occ: u64) -> bool {
        let t = self.t;
        for d in Dirs(self.king_dirs & !(REVERSE_BIT[last & 7] & self.no_reversal)) {
            let vb = if FLY {
                t.slide(d, sq, occ).1
            } else {
                t.shift(1u64 << sq, d)
            };
            if vb & enemy != 0 && t.shift(vb, d) & !occ != 0 {
                return true;
            }
        }
        false
    }

    /// Takes the piece `vb` (having taken the `taken` pieces of `captured`
    /// before), lands on `l`, and goes on or ends the sequence.
    #[inline(always)]
    fn jump(&mut self, vb: u64, l: u8, king: bool, d: usize, captured: u64, taken: u32) {
        let captured = captured | vb;
        let taken = taken + 1;
        // The directions the next jump may take (`d` is a constant here).
        let allowed = !(REVERSE_BIT[d & 7] & self.no_reversal);
        self.sink.push(l, vb.trailing_zeros() as u8);
        let lb = 1u64 << l;
        let continued = if king {
            // Most landings end the sequence: a cheap inline test spares
            // them the recursive call.
            self.king_may_jump(l, allowed, captured) && self.search_king(l, allowed, captured, taken)
        } else if self.promo & lb != 0 {
            match self.mid {
                MidCapturePromotion::Stop => false,
                MidCapturePromotion::PromoteAndContinue => {
                    let was = self.promoted;
                    self.promoted = true;
                    let c = self.search_king(l, allowed, captured, taken);
                    self.promoted = was;
                    c
                }
                MidCapturePromotion::ContinueAsMan => self.search_man(l, allowed, captured, taken),
            }
        } else {
            self.search_man(l, allowed, captured, taken)
        };
        if !continued {
            let promotes = !self.start_king && (self.promoted || self.promo & lb != 0);
            let m = Move::capture(
                self.from,
                l,
                self.start_king,
                promotes,
                captured,
                captured & self.enemy_kings,
            );
            self.sink.leaf(m, taken);
        }
        self.sink.pop();
    }

    /// Searches from each square of `pieces`, lowest first.
    fn run(&mut self, pieces: u64, kings: u64, all: u64) {
        for sq in Squares(pieces) {
            let i = sq.index();
            self.from = i;
            self.start_king = kings & sq.bit() != 0;
            self.occ = all & !sq.bit();
            if self.start_king {
                self.search_king(i, !0, 0, 0);
            } else {
                self.search_man(i, !0, 0, 0);
            }
        }
    }
}

impl Rules {
    /// The pieces of the side to move that have a first jump (a man or king
    /// with an enemy piece in reach and an empty square behind it).
    #[inline(always)]
    fn capturers<const G: u8>(&self, pos: &Position) -> u64 {
        self.capturers_counting::<G, false>(pos).0
    }

    /// [`Rules::capturers`], and with `COUNT`, when the kings are flying
    /// and move along the same directions as they capture, the number of
    /// the kings' non-capturing moves, read off the same attack sets (else
    /// `None`): perft's last ply then looks each king's lines up once.
    #[inline(always)]
    fn capturers_counting<const G: u8, const COUNT: bool>(&self, pos: &Position) -> (u64, Option<u64>) {
        let us = pos.side_to_move();
        let side = self.side(us);
        let t = self.tables();
        let enemy = pos.pieces(!us);
        let occ = pos.occupied();
        let empty = self.board() & !occ;
        let men = pos.men(us);
        let mut out = 0u64;
        each_dir::<G>(side.man_captures.0, |d| {
            out |= t.shift_back(t.shift_back(empty, d) & enemy, d) & men;
        });
        let kings = pos.kings(us);
        if kings == 0 || side.king_captures.is_empty() {
            return (out, None);
        }
        if !self.king_capture_flying() {
            each_dir::<G>(side.king_captures.0, |d| {
                out |= t.shift_back(t.shift_back(empty, d) & enemy, d) & kings;
            });
            return (out, None);
        }
        // Flying kings: the first piece along a ray is an enemy with an
        // empty square behind it.
        let count = COUNT && self.king_range() >= 7 && side.king_moves == side.king_captures;
        let mut quiet = 0u64;
        for k in Squares(kings) {
            let k = k.index();
            let attacks = t.king_capture_attacks(us.index(), k, occ);
            if count {
                quiet += (attacks & empty).count_ones() as u64;
            }
            let targets = attacks & enemy;
            if targets == 0 {
                continue;
            }
            let mut beyond = 0u64;
            each_dir::<G>(side.king_captures.0, |d| beyond |= t.shift(targets & t.ray(d, k), d));
            if beyond & empty != 0 {
                out |= 1u64 << k;
            }
        }
        (out, count.then_some(quiet))
    }

    /// Runs the capture search from each square of `pieces` (pieces of the
    /// side to move), lowest square first.
    fn capture_search<S: Sink, const G: u8>(&self, pos: &Position, sink: &mut S, pieces: u64) {
        if pieces == 0 {
            return;
        }
        match (self.king_capture_flying(), self.landing_any()) {
            (true, true) => self.capture_search_as::<S, true, true, G>(pos, sink, pieces),
            (true, false) => self.capture_search_as::<S, true, false, G>(pos, sink, pieces),
            (false, true) => self.capture_search_as::<S, false, true, G>(pos, sink, pieces),
            (false, false) => self.capture_search_as::<S, false, false, G>(pos, sink, pieces),
        }
    }

    fn capture_search_as<S: Sink, const FLY: bool, const ANY: bool, const G: u8>(
        &self,
        pos: &Position,
        sink: &mut S,
        pieces: u64,
    ) {
        let us = pos.side_to_move();
        let side = self.side(us);
        let enemy = pos.pieces(!us);
        let all = pos.occupied();
        let kings = pos.all_kings();
        let mut dfs: Dfs<'_, '_, S, FLY, ANY, G> = Dfs {
            t: self.tables(),
            sink,
            enemy,
            enemy_kings: enemy & kings,
            occ: all,
            remove: if self.removal() == Removal::Immediate { !0 } else { 0 },
            no_reversal: if self.no_reversal() { 0xFF } else { 0 },
            from: 0,
            start_king: false,
            promoted: false,
            man_dirs: side.man_captures.0,
            king_dirs: side.king_captures.0,
            promo: side.promotion,
            must_continue: self.landing_must_continue(),
            mid: self.promote_mid_capture(),
        };
        dfs.run(pieces, kings, all);
    }

    /// Appends the capture moves to `list` (which must be empty); the
    /// majority rule is applied.
    fn gen_captures<const G: u8>(&self, pos: &Position, list: &mut MoveList) {
        let pieces = self.capturers::<G>(pos);
        if pieces == 0 {
            return;
        }
        let mut sink = ListSink {
            list,
            best: 0,
            majority: self.majority() == Majority::MaxPieces,
        };
        self.capture_search::<_, G>(pos, &mut sink, pieces);
    }

    /// Whether non-capturing moves of two kinds can coincide (a friendly
    /// jump and a linear move over one man), so that they must be merged.
    #[inline]
    fn quiet_needs_dedup(&self, us: Color) -> bool {
        let side = self.side(us);
        !side.man_friendly_jumps.is_empty() && !side.man_linear.is_empty()
    }

    /// Calls `f` with every non-capturing move of the side to move, in the
    /// generator's order: men's steps by direction, friendly jumps, linear
    /// moves, then kings square by square. Moves that coincide are not
    /// merged here (see [`Rules::quiet_needs_dedup`]).
    /// With `ORDERED = false` a king's moves come in board order instead.
    #[inline(always)]
    fn for_each_quiet<const ORDERED: bool, const G: u8, F: FnMut(Move)>(&self, pos: &Position, mut f: F) {
        let us = pos.side_to_move();
        let side = self.side(us);
        let t = self.tables();
        let occ = pos.occupied();
        let empty = self.board() & !occ;
        let men = pos.men(us);
        let promo = side.promotion;
        // Men's steps, all men at once.
        each_dir::<G>(side.man_steps.0, |d| {
            for to in Squares(t.shift(men, d) & empty) {
                let to = to.index();
                f(Move::quiet(t.back(to, d), to, false, promo & (1u64 << to) != 0));
            }
        });
        if !side.man_friendly_jumps.is_empty() {
            self.friendly_jumps(pos, &mut f);
        }
        // Linear moves: leap over an unbroken line of own men.
        for d in Dirs::of(side.man_linear) {
            // Men with an own man next to them in direction d.
            for m in Squares(men & t.shift_back(men, d)) {
                let (_, block) = t.slide(d, m.index(), !men & self.board());
                if block & empty != 0 {
                    let to = block.trailing_zeros() as u8;
                    f(Move::quiet(m.index(), to, false, promo & block != 0));
                }
            }
        }
        // Kings.
        let kings = pos.kings(us);
        if kings != 0 && !ORDERED && self.king_range() >= 7 {
            for k in Squares(kings) {
                let k = k.index();
                for to in Squares(t.king_attacks(us.index(), k, occ) & empty) {
                    f(Move::quiet(k, to.index(), true, false));
                }
            }
        } else if kings != 0 {
            let range = self.king_range() as usize;
            for k in Squares(kings) {
                let k = k.index();
                for d in Dirs::of(side.king_moves) {
                    let (free, _) = t.slide(d, k, occ);
                    for to in AlongRay::new(free, d).take(range) {
                        f(Move::quiet(k, to, true, false));
                    }
                }
            }
        }
    }

    /// The friendly jumps of the side to move (see [`Rules::for_each_quiet`]).
    fn friendly_jumps<F: FnMut(Move)>(&self, pos: &Position, f: &mut F) {
        let us = pos.side_to_move();
        let side = self.side(us);
        let t = self.tables();
        let occ = pos.occupied();
        let empty = self.board() & !occ;
        let men = pos.men(us);
        let promo = side.promotion;
        let over_set = if self.friendly_jump_over_kings() {
            pos.pieces(us)
        } else {
            men
        };
        if self.friendly_jump_chain() {
            for m in Squares(men) {
                let reached = self.friendly_reach(m, over_set, occ, side.man_friendly_jumps.0, promo);
                for to in Squares(reached) {
                    f(Move::quiet(m.index(), to.index(), false, promo & to.bit() != 0));
                }
            }
        } else {
            for d in Dirs::of(side.man_friendly_jumps) {
                let over = t.shift(men, d) & over_set;
                for to in Squares(t.shift(over, d) & empty) {
                    let to = to.index();
                    let from = t.back(t.back(to, d), d);
                    f(Move::quiet(from, to, false, promo & (1u64 << to) != 0));
                }
            }
        }
    }

    /// The squares a man on `m` reaches by chained friendly jumps.
    fn friendly_reach(&self, m: Square, over_set: u64, occ: u64, dirs: u8, promo: u64) -> u64 {
        let t = self.tables();
        let mut reached = 0u64;
        let mut stack = [0u8; 64];
        let mut n = 1;
        stack[0] = m.index();
        let occ2 = occ & !m.bit();
        while n > 0 {
            n -= 1;
            let s = stack[n];
            for d in Dirs(dirs) {
                let o = t.shift(1u64 << s, d) & over_set;
                let lb = t.shift(o, d) & !occ2 & !reached & !m.bit();
                if lb == 0 {
                    continue;
                }
                reached |= lb;
                // A man crowned on arrival stops there.
                if promo & lb == 0 && n < 64 {
                    stack[n] = lb.trailing_zeros() as u8;
                    n += 1;
                }
            }
        }
        reached
    }

    /// Appends the non-capturing moves.
    fn gen_quiet<const G: u8>(&self, pos: &Position, list: &mut MoveList) {
        if self.quiet_needs_dedup(pos.side_to_move()) {
            let start = list.len();
            self.for_each_quiet::<true, G, _>(pos, |m| {
                if !list.as_slice()[start..].iter().any(|o| o.same_identity(&m)) {
                    list.push(m, 1);
                }
            });
        } else {
            self.for_each_quiet::<true, G, _>(pos, |m| list.push(m, 1));
        }
    }

    /// The number of non-capturing moves, without listing them when possible;
    /// `king_quiet` is the kings' share when it is already known.
    fn count_quiet<const G: u8>(&self, pos: &Position, scratch: &mut MoveList, king_quiet: Option<u64>) -> u64 {
        let us = pos.side_to_move();
        if self.quiet_needs_dedup(us) {
            scratch.clear();
            self.gen_quiet::<G>(pos, scratch);
            return scratch.len() as u64;
        }
        let side = self.side(us);
        let t = self.tables();
        let occ = pos.occupied();
        let empty = self.board() & !occ;
        let men = pos.men(us);
        let mut n = 0u64;
        each_dir::<G>(side.man_steps.0, |d| n += (t.shift(men, d) & empty).count_ones() as u64);
        if !side.man_friendly_jumps.is_empty() {
            let over_set = if self.friendly_jump_over_kings() {
                pos.pieces(us)
            } else {
                men
            };
            if self.friendly_jump_chain() {
                for m in Squares(men) {
                    n += self
                        .friendly_reach(m, over_set, occ, side.man_friendly_jumps.0, side.promotion)
                        .count_ones() as u64;
                }
            } else {
                for d in Dirs::of(side.man_friendly_jumps) {
                    n += (t.shift(t.shift(men, d) & over_set, d) & empty).count_ones() as u64;
                }
            }
        }
        for d in Dirs::of(side.man_linear) {
            for m in Squares(men & t.shift_back(men, d)) {
                let (_, block) = t.slide(d, m.index(), !men & self.board());
                n += (block & empty != 0) as u64;
            }
        }
        let kings = pos.kings(us);
        if let Some(k) = king_quiet {
            n += k;
        } else if kings != 0 {
            if self.king_range() >= 7 {
                // Flying: every empty square up to the first piece, all directions at once.
                for k in Squares(kings) {
                    n += (t.king_attacks(us.index(), k.index(), occ) & empty).count_ones() as u64;
                }
            } else {
                let range = self.king_range() as u32;
                for k in Squares(kings) {
                    for d in Dirs::of(side.king_moves) {
                        n += t.slide(d, k.index(), occ).0.count_ones().min(range) as u64;
                    }
                }
            }
        }
        n
    }

    /// Fills `list` with the legal moves of `pos` (one entry per distinct
    /// origin, destination and captured set; see [`MoveList::path_counts`]).
    pub fn generate(&self, pos: &Position, list: &mut MoveList) {
        by_geometry!(self, G => self.generate_as::<G>(pos, list))
    }

    fn generate_as<const G: u8>(&self, pos: &Position, list: &mut MoveList) {
        list.clear();
        self.gen_captures::<G>(pos, list);
        if list.is_empty() || !self.mandatory() {
            self.gen_quiet::<G>(pos, list);
        }
    }

    /// The legal moves of `pos`.
    pub fn legal_moves(&self, pos: &Position) -> MoveList {
        let mut l = MoveList::new();
        self.generate(pos, &mut l);
        l
    }

    /// The number of legal moves of `pos` as [`Rules::generate`] would list
    /// them: distinct moves, or capture paths with [`CountMode::Paths`].
    /// Non-capturing moves are counted without being listed; `scratch` is
    /// used for captures in [`CountMode::Moves`].
    pub fn count_moves(&self, pos: &Position, mode: CountMode, scratch: &mut MoveList) -> u64 {
        by_geometry!(self, G => self.count_moves_as::<G>(pos, mode, scratch))
    }

    fn count_moves_as<const G: u8>(&self, pos: &Position, mode: CountMode, scratch: &mut MoveList) -> u64 {
        let mut captures = 0;
        let (pieces, king_quiet) = self.capturers_counting::<G, true>(pos);
        if pieces != 0 {
            captures = match mode {
                CountMode::Paths => {
                    let mut sink = PathCount {
                        best: 0,
                        n: 0,
                        majority: self.majority() == Majority::MaxPieces,
                    };
                    self.capture_search::<_, G>(pos, &mut sink, pieces);
                    sink.n
                }
                CountMode::Moves => {
                    scratch.clear();
                    self.gen_captures::<G>(pos, scratch);
                    scratch.len() as u64
                }
            };
            if captures != 0 && self.mandatory() {
                return captures;
            }
        }
        captures + self.count_quiet::<G>(pos, scratch, king_quiet)
    }

    /// Calls `f` with each legal move of `pos` and its number of paths (in
    /// no particular order). Non-capturing moves come straight
    /// from the bitboards; captures (and non-capturing moves that need
    /// merging) go through `list`, which is overwritten. This is
    /// [`Rules::generate`] without filling a list in the common case, for
    /// perft and other tree walks.
    #[inline]
    pub fn for_each_move<F: FnMut(&Move, u32)>(&self, pos: &Position, list: &mut MoveList, f: F) {
        by_geometry!(self, G => self.for_each_move_as::<G, F>(pos, list, f))
    }

    #[inline(always)]
    fn for_each_move_as<const G: u8, F: FnMut(&Move, u32)>(&self, pos: &Position, list: &mut MoveList, mut f: F) {
        list.clear();
        self.gen_captures::<G>(pos, list);
        let use_list = !list.is_empty() || self.quiet_needs_dedup(pos.side_to_move());
        if use_list {
            if list.is_empty() || !self.mandatory() {
                self.gen_quiet::<G>(pos, list);
            }
            for (m, &n) in list.as_slice().iter().zip(list.path_counts()) {
                f(m, n);
            }
        } else {
            self.for_each_quiet::<false, G, _>(pos, |m| f(&m, 1));
        }
    }

    /// Whether the side to move has a capture.
    pub fn has_capture(&self, pos: &Position) -> bool {
        by_geometry!(self, G => self.capturers::<G>(pos) != 0)
    }

    /// Every path that plays `m` in `pos` (one for a non-capturing move).
    pub fn move_paths(&self, pos: &Position, m: &Move) -> Vec<MovePath> {
        if !m.is_capture() {
            return vec![MovePath {
                from: m.from(),
                landings: vec![m.to()],
                captures: vec![],
            }];
        }
        let mut sink = PathSink {
            target: m,
            out: Vec::new(),
            steps: Vec::new(),
        };
        let pieces = m.from().bit() & pos.pieces(pos.side_to_move());
        by_geometry!(self, G => self.capture_search::<_, G>(pos, &mut sink, pieces));
        sink.out.sort_by(|a, b| a.landings.cmp(&b.landings));
        sink.out
    }

    /// Whether `m` is among the legal moves of `pos`.
    pub fn is_legal(&self, pos: &Position, m: &Move) -> bool {
        self.legal_moves(pos).iter().any(|o| o == m)
    }

    /// Checks that `pos` could arise under these rules as far as a static
    /// look can tell: pieces on playable squares, no man on its own promotion rank.
    pub fn check_position(&self, pos: &Position) -> Result<(), String> {
        let off = pos.occupied() & !self.board();
        if off != 0 {
            let s: Vec<String> = Squares(off).map(|s| s.to_string()).collect();
            return Err(format!(
                "pieces on squares that are not part of this board: {}",
                s.join(", ")
            ));
        }
        for c in Color::ALL {
            let bad = pos.men(c) & self.side(c).promotion;
            if bad != 0 {
                let s: Vec<String> = Squares(bad).map(|s| self.square_name(s)).collect();
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
