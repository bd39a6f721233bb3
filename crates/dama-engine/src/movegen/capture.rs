//! Captures: which pieces can take, and the depth-first search over jump
//! sequences, one piece at a time.

use crate::board::{each_dir, over_dirs, AbsDir, AlongRay, Bits, Dirs, Node, Ones, Ply, PlyList, Tables};
use crate::movegen::sink::{Bounded, ListSink, Sink};
use crate::rules::{KingRange, Pack, Ranking, Rules, SearchPlan};
use crate::spec::{Majority, MidCapturePromotion, Preference};

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

/// State of one capture search (one piece, one sequence at a time).
///
/// `FLY` (kings capture from a distance) and `ANY` (kings land on any empty
/// square beyond) are the variant's king capture geometry, fixed when the
/// search starts so that the inner loops test no rule flag for them; `G` is
/// the board's direction class ([`Tables::geometry`]), so the loops over
/// directions test only the directions of that class. `RICH` is set when
/// the search needs any of what the traditional 8×8 games never ask for
/// (a keyed rank, the order of kings taken, men that spare kings, counting
/// jumps, killer's halt: [`SearchPlan::rich`]); without it that
/// bookkeeping is compiled out.
///
/// The only state that changes along a sequence is the set of pieces
/// captured so far; it is passed down the recursion by value, and the enemy
/// and occupied sets are derived from it, so nothing is undone on the way back.
struct Dfs<'r, 's, B: Bits, S: Sink<B>, const FLY: bool, const ANY: bool, const G: u8, const RICH: bool> {
    t: &'r Tables<B>,
    /// The rules the search applies (see [`SearchPlan`]).
    plan: &'r SearchPlan,
    sink: &'s mut S,
    /// Enemy pieces at the start of the move.
    enemy: B,
    /// Enemy kings at the start of the move.
    enemy_kings: B,
    /// Occupied squares at the start of the move, without the moving piece.
    occ: B,
    /// All ones when a captured piece leaves the board at once, else 0.
    remove: B,
    from: u8,
    start_king: bool,
    promoted: bool,
    man_dirs: u8,
    king_dirs: u8,
    promo: B,
    /// All ones when men may take kings, else the complement of the enemy kings.
    man_prey: B,
    /// Counting jumps rather than paths (`CountMode::Jumps`).
    straight_once: bool,
    /// With `kings_first`: bit `31 - i` is set when the `i`-th piece taken
    /// (from 0) in the current sequence is a king.
    king_order: u32,
}

/// Bits of the key for the majority rule: a count of pieces, or a value of
/// at most 128 pieces × [`crate::rules::MAX_PIECE_VALUE`].
const MAJORITY_BITS: u32 = 21;
/// Bits of the key for a number of kings taken.
const KINGS_BITS: u32 = 8;
/// Bits of the key for the order of the kings taken (the first 32 jumps).
const ORDER_BITS: u32 = 32;
// The widest key (a value, a king bit, a count of kings, an order) fits a
// u64, and no value of 128 pieces overflows its field.
const _: () = assert!(MAJORITY_BITS + 1 + KINGS_BITS + ORDER_BITS <= 64);
const _: () = assert!((128 * crate::rules::MAX_PIECE_VALUE as u64) < 1 << MAJORITY_BITS);

impl<B: Bits, S: Sink<B>, const FLY: bool, const ANY: bool, const G: u8, const RICH: bool>
    Dfs<'_, '_, B, S, FLY, ANY, G, RICH>
{
    /// The enemy pieces still to be taken and the occupied squares, once
    /// `captured` have been taken.
    #[inline(always)]
    fn board_after(&self, captured: B) -> (B, B) {
        (self.enemy & !captured, self.occ & !(captured & self.remove))
    }

    /// Tries every jump of the man on `at` (a one-bit set) after taking
    /// `captured`; returns whether there was one.
    ///
    /// A man jumps only the piece next to it, so it can never jump back
    /// over the piece it has just taken: that square is either empty
    /// (`capture.remove = "immediately"`) or holds a piece already taken.
    /// The rule against reversing (`SearchPlan::no_reversal`) therefore
    /// never changes a man's jumps, and is not tested here.
    fn search_man(&mut self, at: B, captured: B, taken: u32) -> bool {
        let dirs = G & self.man_dirs;
        let (enemy, occ) = self.board_after(captured);
        let enemy = if RICH { enemy & self.man_prey } else { enemy };
        // One call per direction with the direction as a constant, so that
        // each step's rotation, mask and scan order are known at compile
        // time; the order (lowest direction index first) is the list order.
        over_dirs!(all dirs, D => self.man_dir::<D>(at, captured, taken, enemy, occ))
    }

    /// The jump of the man on `at` in direction `D`, if there is one.
    #[inline(always)]
    fn man_dir<const D: usize>(&mut self, at: B, captured: B, taken: u32, enemy: B, occ: B) -> bool {
        let t = self.t;
        let vb = t.shift(at, D) & enemy;
        if vb.is_empty() {
            return false;
        }
        let lb = t.shift(vb, D) & !occ;
        if lb.is_empty() {
            return false;
        }
        self.man_jump(vb, lb, D, captured, taken);
        true
    }

    /// Tries every jump of a king on `sq` in the directions `allowed` after
    /// taking `captured`; returns whether there was one.
    fn search_king(&mut self, sq: u8, allowed: u8, captured: B, taken: u32) -> bool {
        let dirs = G & self.king_dirs & allowed;
        let (enemy, occ) = self.board_after(captured);
        // Unrolled as in `search_man`.
        over_dirs!(all dirs, D => self.king_dir::<D>(sq, captured, taken, enemy, occ))
    }

    /// The jumps of a king on `sq` in direction `D`; whether there was one.
    #[inline(always)]
    fn king_dir<const D: usize>(&mut self, sq: u8, captured: B, taken: u32, enemy: B, occ: B) -> bool {
        let t = self.t;
        let vb = self.king_target::<D>(sq, enemy, occ);
        if vb.is_empty() {
            return false;
        }
        let mut land = if ANY {
            t.slide(D, vb.lowest() as u8, occ).0
        } else {
            t.shift(vb, D) & !occ
        };
        if land.is_empty() {
            return false;
        }
        if ANY && self.plan.restrict_landings && (self.plan.must_continue || !(vb & self.enemy_kings).is_empty()) {
            land = self.restrict_landings(vb, land, D, captured);
        }
        // Counting jumps, a king that goes on along the same line takes the
        // same pieces from every landing before the farthest: only the
        // farthest goes on straight (see `CountMode::Jumps`).
        let before_far = if RICH && self.straight_once {
            land.ones() as usize - 1
        } else {
            0
        };
        for (i, l) in AlongRay::new(land, D).enumerate() {
            self.king_jump(vb, l, D, captured, taken, i < before_far);
        }
        true
    }

    /// Whether [`Dfs::search_man`] would find a jump from `at` (same
    /// arguments), without recursing.
    #[inline(always)]
    fn man_may_jump(&self, at: B, captured: B) -> bool {
        let (enemy, occ) = self.board_after(captured);
        let enemy = if RICH { enemy & self.man_prey } else { enemy };
        let dirs = G & self.man_dirs;
        let t = self.t;
        over_dirs!(any dirs, D => {
            let vb = t.shift(at, D) & enemy;
            !vb.is_empty() && !(t.shift(vb, D) & !occ).is_empty()
        })
    }

    /// Whether [`Dfs::search_king`] would find a jump from `sq` (same
    /// arguments), without recursing.
    #[inline(always)]
    fn king_may_jump(&self, sq: u8, allowed: u8, captured: B) -> bool {
        let (enemy, occ) = self.board_after(captured);
        let dirs = G & self.king_dirs & allowed;
        over_dirs!(any dirs, D => self.king_jumps::<D>(sq, enemy, occ))
    }

    /// Whether a king on `sq` can jump in direction `D`.
    #[inline(always)]
    fn king_jumps<const D: usize>(&self, sq: u8, enemy: B, occ: B) -> bool {
        let vb = self.king_target::<D>(sq, enemy, occ);
        !vb.is_empty() && !(self.t.shift(vb, D) & !occ).is_empty()
    }

    /// The enemy piece (its bit) a king on `sq` would take first in
    /// direction `D`, or 0: with `FLY` the first piece along the ray, else
    /// the neighbour, if it is an enemy piece.
    #[inline(always)]
    fn king_target<const D: usize>(&self, sq: u8, enemy: B, occ: B) -> B {
        let t = self.t;
        let vb = if FLY {
            let ray = t.ray(D, sq);
            if (ray & enemy).is_empty() {
                return B::ZERO;
            }
            // There is a first piece: enemy pieces are occupied squares.
            B::bit(Tables::<B>::nearest(ray & occ, D))
        } else {
            t.shift(B::bit(sq), D)
        };
        vb & enemy
    }

    /// Of the landing squares `land` beyond the piece `vb` jumped in
    /// direction `d`, those the rules allow. With `landing_must_continue`:
    /// those from which the capture goes on, if there are any. With
    /// `halt_behind_king`, when `vb` is a king: a landing where the capture
    /// ends must be the square right behind it.
    fn restrict_landings(&self, vb: B, land: B, d: usize, captured: B) -> B {
        let (enemy, occ) = self.board_after(captured | vb);
        let mut live = B::ZERO;
        for l in Ones(land) {
            if self.king_can_jump(l, d, enemy, occ) {
                live |= B::bit(l);
            }
        }
        if self.plan.must_continue && !live.is_empty() {
            live
        } else if self.plan.halt_behind_king && !(vb & self.enemy_kings).is_empty() {
            live | (land & self.t.shift(vb, d))
        } else {
            land
        }
    }

    /// With `kings_first`: notes that the `taken`-th piece of the
    /// sequence (from 0), `vb`, is a king, if it is.
    #[inline(never)]
    fn mark_king_order(&mut self, vb: B, taken: u32) {
        if taken < ORDER_BITS && !(vb & self.enemy_kings).is_empty() {
            self.king_order |= 1 << (ORDER_BITS - 1 - taken);
        }
    }

    /// The rank of a complete sequence that took `captured` (`taken`
    /// pieces) under the keyed ranking: a larger key is preferred.
    #[inline(never)]
    fn key(&self, captured: B, taken: u32) -> u64 {
        let k = self.plan;
        let kings = (captured & self.enemy_kings).ones() as u64;
        let mut key = match k.majority {
            Majority::None => 0,
            Majority::MaxPieces => taken as u64,
            Majority::MaxValue => (taken as u64 - kings) * k.values.man as u64 + kings * k.values.king as u64,
        };
        for p in k.priority.iter() {
            key = match p {
                Preference::ByKing => (key << 1) | self.start_king as u64,
                Preference::MostKings => (key << KINGS_BITS) | kings,
                Preference::KingsFirst => (key << ORDER_BITS) | self.king_order as u64,
            };
        }
        key
    }

    /// Whether a king on `sq`, having just jumped in direction `last`, can
    /// capture again given these enemy and occupied sets.
    fn king_can_jump(&self, sq: u8, last: usize, enemy: B, occ: B) -> bool {
        let t = self.t;
        for d in Dirs(self.king_dirs & !(REVERSE_BIT[last & 7] & self.plan.no_reversal)) {
            let vb = if FLY {
                t.slide(d, sq, occ).1
            } else {
                t.shift(B::bit(sq), d)
            };
            if !(vb & enemy).is_empty() && !(t.shift(vb, d) & !occ).is_empty() {
                return true;
            }
        }
        false
    }

    /// Takes the piece `vb` (having taken the `taken` pieces of
    /// `captured` before) and lands on `lb` (a one-bit set); `go_on` (given
    /// the pieces taken and their number) tries the jumps from there and
    /// tells whether there was one, else the sequence ends here.
    #[inline(always)]
    fn take(&mut self, vb: B, lb: B, captured: B, taken: u32, go_on: impl FnOnce(&mut Self, B, u32) -> bool) {
        // Only a bounded sink ever stops (the test is compiled out elsewhere).
        if self.sink.stopped() {
            return;
        }
        let order_was = self.king_order;
        if RICH && self.plan.track_order {
            self.mark_king_order(vb, taken);
        }
        let captured = captured | vb;
        let taken = taken + 1;
        self.sink.push(lb.lowest() as u8, vb.lowest() as u8);
        if !go_on(self, captured, taken) {
            self.leaf(lb, captured, taken);
        }
        if RICH && self.plan.track_order {
            self.king_order = order_was;
        }
        self.sink.pop();
    }

    /// A man takes the piece `vb` in direction `d` (having taken the
    /// `taken` pieces of `captured` before), lands on `lb` (a one-bit set),
    /// and goes on or ends the sequence.
    #[inline(always)]
    fn man_jump(&mut self, vb: B, lb: B, d: usize, captured: B, taken: u32) {
        self.take(
            vb,
            lb,
            captured,
            taken,
            #[inline(always)]
            |s, captured, taken| {
                if !(s.promo & lb).is_empty() {
                    s.crowned_mid_capture(lb, d, captured, taken)
                } else {
                    // Most landings end the sequence: a cheap inline test spares
                    // them the recursive call.
                    s.man_may_jump(lb, captured) && s.search_man(lb, captured, taken)
                }
            },
        );
    }

    /// A man that has just landed on its promotion rank (`lb`, having
    /// jumped in direction `d`) in the middle of a capture: whether the
    /// sequence goes on, as `capture.mid_capture_promotion` says.
    #[inline(never)]
    fn crowned_mid_capture(&mut self, lb: B, d: usize, captured: B, taken: u32) -> bool {
        let allowed = !(REVERSE_BIT[d & 7] & self.plan.no_reversal);
        let l = lb.lowest() as u8;
        match self.plan.mid {
            MidCapturePromotion::Stop => false,
            MidCapturePromotion::PromoteAndContinue => {
                let was = self.promoted;
                self.promoted = true;
                let c = self.search_king(l, allowed, captured, taken);
                self.promoted = was;
                c
            }
            MidCapturePromotion::PromoteAndContinueAnyDirection => {
                let was = self.promoted;
                self.promoted = true;
                let c = self.search_king(l, !0, captured, taken);
                self.promoted = was;
                c
            }
            MidCapturePromotion::ContinueAsMan => {
                self.man_may_jump(lb, captured) && self.search_man(lb, captured, taken)
            }
        }
    }

    /// A king takes the piece `vb` in direction `d` (having taken the
    /// `taken` pieces of `captured` before), lands on `l`, and goes on or
    /// ends the sequence. With `not_straight` it does not go on in
    /// direction `d` from `l` (a farther landing does), though a capture
    /// that way still means the sequence goes on.
    #[inline(always)]
    fn king_jump(&mut self, vb: B, l: u8, d: usize, captured: B, taken: u32, not_straight: bool) {
        // The directions the next jump may take (`d` is a constant here).
        let allowed = !(REVERSE_BIT[d & 7] & self.plan.no_reversal);
        self.take(
            vb,
            B::bit(l),
            captured,
            taken,
            #[inline(always)]
            |s, captured, taken| {
                if RICH && not_straight {
                    let straight = 1u8 << (d & 7);
                    let turns = allowed & !straight;
                    (s.king_may_jump(l, turns, captured) && s.search_king(l, turns, captured, taken))
                        | s.king_may_jump(l, allowed & straight, captured)
                } else {
                    // Most landings end the sequence: a cheap inline test spares
                    // them the recursive call.
                    s.king_may_jump(l, allowed, captured) && s.search_king(l, allowed, captured, taken)
                }
            },
        );
    }

    /// A complete sequence that took `captured` (`taken` pieces) and ends
    /// on `lb`: hands the move and its rank to the sink.
    #[inline(always)]
    fn leaf(&mut self, lb: B, captured: B, taken: u32) {
        let promotes = !self.start_king && (self.promoted || !(self.promo & lb).is_empty());
        let m = Ply::capture(
            self.from,
            lb.lowest() as u8,
            self.start_king,
            promotes,
            captured,
            captured & self.enemy_kings,
        );
        let rank = if RICH && self.plan.ranking == Ranking::Keyed {
            self.key(captured, taken)
        } else {
            taken as u64
        };
        self.sink.leaf(m, rank);
    }

    /// Searches from each square of `pieces`, lowest first.
    #[inline(always)]
    fn run(&mut self, pieces: B, kings: B, all: B) {
        for i in Ones(pieces) {
            self.from = i;
            self.start_king = kings.has(i);
            self.occ = all & !B::bit(i);
            if self.start_king {
                self.search_king(i, !0, B::ZERO, 0);
            } else {
                self.search_man(B::bit(i), B::ZERO, 0);
            }
        }
    }
}

impl Rules {
    /// The pieces of the side to move that have a first jump (a man or king
    /// with an enemy piece in reach and an empty square behind it).
    #[inline(always)]
    pub(super) fn capturers<B: Bits, const G: u8, const P: bool>(&self, p: &Pack<B>, pos: &Node<B>) -> B {
        self.capturers_counting::<B, G, false, P>(p, pos).0
    }

    /// [`Rules::capturers`], and with `COUNT`, when the kings are flying
    /// and move along the same directions as they capture, the number of
    /// the kings' non-capturing moves, read off the same attack sets (else
    /// `None`): perft's last ply then looks each king's lines up once.
    /// With `P` (plain rules, [`Rules::plain`]) men take kings and no king
    /// is ever frozen, which is then not asked.
    #[inline(always)]
    pub(super) fn capturers_counting<B: Bits, const G: u8, const COUNT: bool, const P: bool>(
        &self,
        p: &Pack<B>,
        pos: &Node<B>,
    ) -> (B, Option<u64>) {
        let us = pos.side_to_move();
        let side = self.side(us);
        let t = &p.tables;
        let enemy = pos.pieces(!us);
        let occ = pos.occupied();
        let empty = p.board & !occ;
        let men = pos.men(us);
        let prey = if P || p.plan.men_capture_kings {
            enemy
        } else {
            enemy & !pos.kings(!us)
        };
        let mut out = B::ZERO;
        each_dir::<G>(side.man_captures.0, |d| {
            out |= t.shift_back(t.shift_back(empty, d) & prey, d) & men;
        });
        let kings = pos.kings(us);
        if kings.is_empty() || side.king_captures.is_empty() {
            return (out, None);
        }
        if !self.kings().capture_flying {
            each_dir::<G>(side.king_captures.0, |d| {
                out |= t.shift_back(t.shift_back(empty, d) & enemy, d) & kings;
            });
            return (out, None);
        }
        // Flying kings: the first piece along a ray is an enemy with an
        // empty square behind it.
        let count = COUNT && self.kings().range == KingRange::Flying && side.king_moves == side.king_captures;
        let frozen = if count { self.frozen_king::<B, P>(pos) } else { B::ZERO };
        let mut quiet = 0u64;
        for k in Ones(kings) {
            let attacks = t.king_capture_attacks(us.index(), k, occ);
            if count && !frozen.has(k) {
                quiet += (attacks & empty).ones() as u64;
            }
            let targets = attacks & enemy;
            if targets.is_empty() {
                continue;
            }
            let mut beyond = B::ZERO;
            each_dir::<G>(side.king_captures.0, |d| beyond |= t.shift(targets & t.ray(d, k), d));
            if !(beyond & empty).is_empty() {
                out |= B::bit(k);
            }
        }
        (out, count.then_some(quiet))
    }

    /// Runs the capture search from each square of `pieces` (pieces of the
    /// side to move), lowest square first.
    /// With `jumps`, paths are told apart as [`CountMode::Jumps`] counts
    /// them (this changes only how many paths a move has, never the moves).
    ///
    /// [`CountMode::Jumps`]: crate::CountMode::Jumps
    #[inline(always)]
    pub(super) fn capture_search<B: Bits, S: Sink<B>, const G: u8>(
        &self,
        p: &Pack<B>,
        pos: &Node<B>,
        sink: &mut S,
        pieces: B,
        jumps: bool,
    ) {
        if pieces.is_empty() {
            return;
        }
        let rich = p.plan.rich || (jumps && self.kings().landing_any);
        match (self.kings().capture_flying, self.kings().landing_any, rich) {
            (true, true, false) => self.capture_search_as::<B, S, true, true, G, false>(p, pos, sink, pieces, jumps),
            (true, false, false) => self.capture_search_as::<B, S, true, false, G, false>(p, pos, sink, pieces, jumps),
            (false, true, false) => self.capture_search_as::<B, S, false, true, G, false>(p, pos, sink, pieces, jumps),
            (false, false, false) => {
                self.capture_search_as::<B, S, false, false, G, false>(p, pos, sink, pieces, jumps)
            }
            (true, true, true) => self.capture_search_as::<B, S, true, true, G, true>(p, pos, sink, pieces, jumps),
            (true, false, true) => self.capture_search_as::<B, S, true, false, G, true>(p, pos, sink, pieces, jumps),
            (false, true, true) => self.capture_search_as::<B, S, false, true, G, true>(p, pos, sink, pieces, jumps),
            (false, false, true) => self.capture_search_as::<B, S, false, false, G, true>(p, pos, sink, pieces, jumps),
        }
    }

    #[inline(always)]
    pub(super) fn capture_search_as<
        B: Bits,
        S: Sink<B>,
        const FLY: bool,
        const ANY: bool,
        const G: u8,
        const RICH: bool,
    >(
        &self,
        p: &Pack<B>,
        pos: &Node<B>,
        sink: &mut S,
        pieces: B,
        jumps: bool,
    ) {
        let us = pos.side_to_move();
        let side = self.side(us);
        let enemy = pos.pieces(!us);
        let all = pos.occupied();
        let kings = pos.all_kings();
        let plan = &p.plan;
        let mut dfs: Dfs<'_, '_, B, S, FLY, ANY, G, RICH> = Dfs {
            t: &p.tables,
            plan,
            sink,
            enemy,
            enemy_kings: enemy & kings,
            occ: all,
            remove: if plan.remove_at_once { !B::ZERO } else { B::ZERO },
            from: 0,
            start_king: false,
            promoted: false,
            man_dirs: side.man_captures.0,
            king_dirs: side.king_captures.0,
            promo: p.promotion[us.index()],
            man_prey: if plan.men_capture_kings {
                !B::ZERO
            } else {
                !(enemy & kings)
            },
            straight_once: jumps && ANY,
            king_order: 0,
        };
        dfs.run(pieces, kings, all);
    }

    /// [`Rules::gen_captures`] with `check` asked every
    /// [`CHECK_EVERY`](super::sink::CHECK_EVERY) jumps whether to stop;
    /// returns false when it stopped the search (the list then holds only
    /// the moves found so far).
    pub(super) fn gen_captures_bounded<B: Bits, const G: u8>(
        &self,
        p: &Pack<B>,
        pos: &Node<B>,
        list: &mut PlyList<B>,
        check: &mut dyn FnMut(u64) -> bool,
    ) -> bool {
        let pieces = self.capturers::<B, G, false>(p, pos);
        if pieces.is_empty() {
            return true;
        }
        let mut sink = Bounded {
            inner: ListSink {
                list,
                best: 0,
                ranked: p.plan.ranked(),
            },
            jumps: 0,
            check,
            stopped: false,
        };
        self.capture_search::<B, _, G>(p, pos, &mut sink, pieces, false);
        !sink.stopped
    }

    /// Appends the capture moves to `list` (which must be empty); the
    /// majority rule and the priorities are applied. With `jumps` each
    /// move's number of paths is counted as [`CountMode::Jumps`] counts.
    ///
    /// [`CountMode::Jumps`]: crate::CountMode::Jumps
    pub(super) fn gen_captures<B: Bits, const G: u8, const P: bool>(
        &self,
        p: &Pack<B>,
        pos: &Node<B>,
        list: &mut PlyList<B>,
        jumps: bool,
    ) {
        let pieces = self.capturers::<B, G, P>(p, pos);
        if pieces.is_empty() {
            return;
        }
        self.search_captures::<B, G>(p, pos, list, pieces, jumps);
    }

    /// [`Rules::gen_captures`] from the pieces `pieces` (the capturers).
    #[inline(always)]
    pub(super) fn search_captures<B: Bits, const G: u8>(
        &self,
        p: &Pack<B>,
        pos: &Node<B>,
        list: &mut PlyList<B>,
        pieces: B,
        jumps: bool,
    ) {
        let mut sink = ListSink {
            list,
            best: 0,
            ranked: p.plan.ranked(),
        };
        self.capture_search::<B, _, G>(p, pos, &mut sink, pieces, jumps);
    }
}
