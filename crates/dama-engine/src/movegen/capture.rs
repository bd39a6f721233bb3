//! Captures: which pieces can take, and the depth-first search over jump
//! sequences, one piece at a time.

use crate::board::{each_dir, over_dirs, AbsDir, AlongRay, Bits, Dirs, Node, Ones, Ply, PlyList, Tables};
use crate::movegen::sink::{ListSink, Sink};
use crate::rules::{KingRange, Pack, Rules};
use crate::spec::{Majority, MidCapturePromotion, Removal};

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
/// directions test only the directions of that class.
///
/// The only state that changes along a sequence is the set of pieces
/// captured so far; it is passed down the recursion by value, and the enemy
/// and occupied sets are derived from it, so nothing is undone on the way back.
struct Dfs<'r, 's, B: Bits, S: Sink<B>, const FLY: bool, const ANY: bool, const G: u8> {
    t: &'r Tables<B>,
    sink: &'s mut S,
    /// Enemy pieces at the start of the move.
    enemy: B,
    /// Enemy kings at the start of the move.
    enemy_kings: B,
    /// Occupied squares at the start of the move, without the moving piece.
    occ: B,
    /// All ones when a captured piece leaves the board at once, else 0.
    remove: B,
    /// All ones when a piece may not turn 180° between two jumps, else 0.
    no_reversal: u8,
    from: u8,
    start_king: bool,
    promoted: bool,
    man_dirs: u8,
    king_dirs: u8,
    promo: B,
    must_continue: bool,
    mid: MidCapturePromotion,
}

impl<B: Bits, S: Sink<B>, const FLY: bool, const ANY: bool, const G: u8> Dfs<'_, '_, B, S, FLY, ANY, G> {
    /// The enemy pieces still to be taken and the occupied squares, once
    /// `captured` have been taken.
    #[inline(always)]
    fn board_after(&self, captured: B) -> (B, B) {
        (self.enemy & !captured, self.occ & !(captured & self.remove))
    }

    /// Tries every jump of a man on `sq` in the directions `allowed` after
    /// taking `captured`; returns whether there was one.
    fn search_man(&mut self, sq: u8, allowed: u8, captured: B, taken: u32) -> bool {
        let dirs = G & self.man_dirs & allowed;
        let (enemy, occ) = self.board_after(captured);
        // One call per direction with the direction as a constant, so that
        // each step's rotation, mask and scan order are known at compile
        // time; the order (lowest direction index first) is the list order.
        over_dirs!(all dirs, D => self.man_dir::<D>(sq, captured, taken, enemy, occ))
    }

    /// The jump of a man on `sq` in direction `D`, if there is one.
    #[inline(always)]
    fn man_dir<const D: usize>(&mut self, sq: u8, captured: B, taken: u32, enemy: B, occ: B) -> bool {
        let t = self.t;
        let vb = t.shift(B::bit(sq), D) & enemy;
        if vb.is_empty() {
            return false;
        }
        let lb = t.shift(vb, D) & !occ;
        if lb.is_empty() {
            return false;
        }
        self.jump(vb, lb.lowest() as u8, false, D, captured, taken);
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
        if ANY && self.must_continue {
            land = self.live_landings(vb, land, D, captured);
        }
        for l in AlongRay::new(land, D) {
            self.jump(vb, l, true, D, captured, taken);
        }
        true
    }

    /// Whether [`Dfs::search_man`] would find a jump from `sq` (same
    /// arguments), without recursing.
    #[inline(always)]
    fn man_may_jump(&self, sq: u8, allowed: u8, captured: B) -> bool {
        let (enemy, occ) = self.board_after(captured);
        let dirs = G & self.man_dirs & allowed;
        let t = self.t;
        over_dirs!(any dirs, D => {
            let vb = t.shift(B::bit(sq), D) & enemy;
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

    /// With `landing_must_continue`: of the landing squares `land` beyond
    /// the piece `vb` jumped in direction `d`, those from which the capture
    /// goes on, if there are any (else all of them).
    fn live_landings(&self, vb: B, land: B, d: usize, captured: B) -> B {
        let (enemy, occ) = self.board_after(captured | vb);
        let mut live = B::ZERO;
        for l in Ones(land) {
            if self.king_can_jump(l, d, enemy, occ) {
                live |= B::bit(l);
            }
        }
        if !live.is_empty() {
            live
        } else {
            land
        }
    }

    /// Whether a king on `sq`, having just jumped in direction `last`, can
    /// capture again given these enemy and occupied sets.
    fn king_can_jump(&self, sq: u8, last: usize, enemy: B, occ: B) -> bool {
        let t = self.t;
        for d in Dirs(self.king_dirs & !(REVERSE_BIT[last & 7] & self.no_reversal)) {
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

    /// Takes the piece `vb` (having taken the `taken` pieces of `captured`
    /// before), lands on `l`, and goes on or ends the sequence.
    #[inline(always)]
    fn jump(&mut self, vb: B, l: u8, king: bool, d: usize, captured: B, taken: u32) {
        let captured = captured | vb;
        let taken = taken + 1;
        // The directions the next jump may take (`d` is a constant here).
        let allowed = !(REVERSE_BIT[d & 7] & self.no_reversal);
        self.sink.push(l, vb.lowest() as u8);
        let lb = B::bit(l);
        let continued = if king {
            // Most landings end the sequence: a cheap inline test spares
            // them the recursive call.
            self.king_may_jump(l, allowed, captured) && self.search_king(l, allowed, captured, taken)
        } else if !(self.promo & lb).is_empty() {
            match self.mid {
                MidCapturePromotion::Stop => false,
                MidCapturePromotion::PromoteAndContinue => {
                    let was = self.promoted;
                    self.promoted = true;
                    let c = self.search_king(l, allowed, captured, taken);
                    self.promoted = was;
                    c
                }
                MidCapturePromotion::ContinueAsMan => {
                    self.man_may_jump(l, allowed, captured) && self.search_man(l, allowed, captured, taken)
                }
            }
        } else {
            // As for kings: most landings end the sequence.
            self.man_may_jump(l, allowed, captured) && self.search_man(l, allowed, captured, taken)
        };
        if !continued {
            let promotes = !self.start_king && (self.promoted || !(self.promo & lb).is_empty());
            let m = Ply::capture(
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
    fn run(&mut self, pieces: B, kings: B, all: B) {
        for i in Ones(pieces) {
            self.from = i;
            self.start_king = kings.has(i);
            self.occ = all & !B::bit(i);
            if self.start_king {
                self.search_king(i, !0, B::ZERO, 0);
            } else {
                self.search_man(i, !0, B::ZERO, 0);
            }
        }
    }
}

impl Rules {
    /// The pieces of the side to move that have a first jump (a man or king
    /// with an enemy piece in reach and an empty square behind it).
    #[inline(always)]
    pub(super) fn capturers<B: Bits, const G: u8>(&self, p: &Pack<B>, pos: &Node<B>) -> B {
        self.capturers_counting::<B, G, false>(p, pos).0
    }

    /// [`Rules::capturers`], and with `COUNT`, when the kings are flying
    /// and move along the same directions as they capture, the number of
    /// the kings' non-capturing moves, read off the same attack sets (else
    /// `None`): perft's last ply then looks each king's lines up once.
    #[inline(always)]
    pub(super) fn capturers_counting<B: Bits, const G: u8, const COUNT: bool>(
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
        let mut out = B::ZERO;
        each_dir::<G>(side.man_captures.0, |d| {
            out |= t.shift_back(t.shift_back(empty, d) & enemy, d) & men;
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
        let frozen = if count { self.frozen_king(pos) } else { B::ZERO };
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
    pub(super) fn capture_search<B: Bits, S: Sink<B>, const G: u8>(
        &self,
        p: &Pack<B>,
        pos: &Node<B>,
        sink: &mut S,
        pieces: B,
    ) {
        if pieces.is_empty() {
            return;
        }
        match (self.kings().capture_flying, self.kings().landing_any) {
            (true, true) => self.capture_search_as::<B, S, true, true, G>(p, pos, sink, pieces),
            (true, false) => self.capture_search_as::<B, S, true, false, G>(p, pos, sink, pieces),
            (false, true) => self.capture_search_as::<B, S, false, true, G>(p, pos, sink, pieces),
            (false, false) => self.capture_search_as::<B, S, false, false, G>(p, pos, sink, pieces),
        }
    }

    pub(super) fn capture_search_as<B: Bits, S: Sink<B>, const FLY: bool, const ANY: bool, const G: u8>(
        &self,
        p: &Pack<B>,
        pos: &Node<B>,
        sink: &mut S,
        pieces: B,
    ) {
        let us = pos.side_to_move();
        let side = self.side(us);
        let enemy = pos.pieces(!us);
        let all = pos.occupied();
        let kings = pos.all_kings();
        let mut dfs: Dfs<'_, '_, B, S, FLY, ANY, G> = Dfs {
            t: &p.tables,
            sink,
            enemy,
            enemy_kings: enemy & kings,
            occ: all,
            remove: if self.capture().removal == Removal::Immediate {
                !B::ZERO
            } else {
                B::ZERO
            },
            no_reversal: if self.capture().no_reversal { 0xFF } else { 0 },
            from: 0,
            start_king: false,
            promoted: false,
            man_dirs: side.man_captures.0,
            king_dirs: side.king_captures.0,
            promo: p.promotion[us.index()],
            must_continue: self.kings().landing_must_continue,
            mid: self.capture().promote_mid_capture,
        };
        dfs.run(pieces, kings, all);
    }

    /// Appends the capture moves to `list` (which must be empty); the
    /// majority rule is applied.
    pub(super) fn gen_captures<B: Bits, const G: u8>(&self, p: &Pack<B>, pos: &Node<B>, list: &mut PlyList<B>) {
        let pieces = self.capturers::<B, G>(p, pos);
        if pieces.is_empty() {
            return;
        }
        let mut sink = ListSink {
            list,
            best: 0,
            majority: self.capture().majority == Majority::MaxPieces,
        };
        self.capture_search::<B, _, G>(p, pos, &mut sink, pieces);
    }
}
