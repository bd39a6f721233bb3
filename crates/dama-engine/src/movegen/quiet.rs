//! Non-capturing moves: men's steps, friendly jumps and linear moves, and
//! the kings' moves.
//!
//! Each rule is written once, in [`Rules::quiet_moves`], as batches of
//! moves (a set of destinations and how to find each one's origin) handed
//! to a [`QuietSink`]: a list pushes each move, a counter adds popcounts,
//! so listing and counting can never disagree.

use crate::board::{each_dir, AlongRay, Color, Dirs, Move, MoveList, Position, Square, Squares};
use crate::rules::{KingRange, Rules};

/// Receives the non-capturing moves, in batches.
pub(super) trait QuietSink {
    /// Whether the moves must come in the generator's order (men's steps by
    /// direction, friendly jumps, linear moves, then each king direction by
    /// direction, nearest square first). Without it a flying king's moves
    /// come in board order, in one batch.
    const ORDERED: bool;

    /// Moves to every square of `dests`, each from `from(to)`; a man's move
    /// promotes where it lands on `promo`.
    fn batch(&mut self, dests: u64, from: impl Fn(u8) -> u8, king: bool, promo: u64);

    /// A king's moves from `from` along direction `d`: the first `range`
    /// squares of `free` (the empty squares of the ray), nearest first.
    fn ray(&mut self, from: u8, free: u64, d: usize, range: usize);

    /// Whether the sink needs no more moves (the generator may stop early).
    #[inline(always)]
    fn done(&self) -> bool {
        false
    }
}

/// Appends each move to a list, in the generator's order; with `dedup`,
/// a move already listed since `start` is not listed again.
pub(super) struct ListQuiet<'a> {
    pub(super) list: &'a mut MoveList,
    pub(super) start: usize,
    pub(super) dedup: bool,
}

impl ListQuiet<'_> {
    #[inline(always)]
    fn push(&mut self, m: Move) {
        if self.dedup && self.list.as_slice()[self.start..].iter().any(|o| o.same_identity(&m)) {
            return;
        }
        self.list.push(m, 1);
    }
}

impl QuietSink for ListQuiet<'_> {
    const ORDERED: bool = true;
    #[inline(always)]
    fn batch(&mut self, dests: u64, from: impl Fn(u8) -> u8, king: bool, promo: u64) {
        for to in Squares(dests) {
            let to = to.index();
            self.push(Move::quiet(from(to), to, king, promo & (1u64 << to) != 0));
        }
    }
    #[inline(always)]
    fn ray(&mut self, from: u8, free: u64, d: usize, range: usize) {
        for to in AlongRay::new(free, d).take(range) {
            self.push(Move::quiet(from, to, true, false));
        }
    }
}

/// Calls a function with each move, in any order (tree walks).
pub(super) struct VisitQuiet<F: FnMut(Move)>(pub(super) F);

impl<F: FnMut(Move)> QuietSink for VisitQuiet<F> {
    const ORDERED: bool = false;
    #[inline(always)]
    fn batch(&mut self, dests: u64, from: impl Fn(u8) -> u8, king: bool, promo: u64) {
        for to in Squares(dests) {
            let to = to.index();
            (self.0)(Move::quiet(from(to), to, king, promo & (1u64 << to) != 0));
        }
    }
    #[inline(always)]
    fn ray(&mut self, from: u8, free: u64, d: usize, range: usize) {
        for to in AlongRay::new(free, d).take(range) {
            (self.0)(Move::quiet(from, to, true, false));
        }
    }
}

/// Counts the moves by popcount, listing nothing.
pub(super) struct CountQuiet(pub(super) u64);

impl QuietSink for CountQuiet {
    const ORDERED: bool = false;
    #[inline(always)]
    fn batch(&mut self, dests: u64, _: impl Fn(u8) -> u8, _: bool, _: u64) {
        self.0 += dests.count_ones() as u64;
    }
    #[inline(always)]
    fn ray(&mut self, _: u8, free: u64, _: usize, range: usize) {
        self.0 += (free.count_ones() as usize).min(range) as u64;
    }
}

/// Whether there is any move at all.
pub(super) struct AnyQuiet(pub(super) bool);

impl QuietSink for AnyQuiet {
    const ORDERED: bool = false;
    #[inline(always)]
    fn batch(&mut self, dests: u64, _: impl Fn(u8) -> u8, _: bool, _: u64) {
        self.0 |= dests != 0;
    }
    #[inline(always)]
    fn ray(&mut self, _: u8, free: u64, _: usize, range: usize) {
        self.0 |= free != 0 && range > 0;
    }
    #[inline(always)]
    fn done(&self) -> bool {
        self.0
    }
}

impl Rules {
    /// Whether non-capturing moves of two kinds can coincide (a friendly
    /// jump and a linear move over one man), so that a list must merge them.
    #[inline]
    pub(super) fn quiet_needs_dedup(&self, us: Color) -> bool {
        let side = self.side(us);
        !side.man_friendly_jumps.is_empty() && !side.man_linear.is_empty()
    }

    /// Hands every non-capturing move of the side to move to `sink`: men's
    /// steps by direction, friendly jumps, linear moves, then the kings
    /// (unless `skip_kings`: their moves are already counted). Moves that
    /// coincide are not merged here (see [`Rules::quiet_needs_dedup`]).
    #[inline(always)]
    pub(super) fn quiet_moves<const G: u8, S: QuietSink>(&self, pos: &Position, sink: &mut S, skip_kings: bool) {
        let us = pos.side_to_move();
        let side = self.side(us);
        let t = self.tables();
        let occ = pos.occupied();
        let empty = self.board() & !occ;
        let men = pos.men(us);
        let promo = side.promotion;
        // Men's steps, all men at once.
        each_dir::<G>(side.man_steps.0, |d| {
            sink.batch(t.shift(men, d) & empty, |to| t.back(to, d), false, promo);
        });
        // Friendly jumps: over a piece of one's own onto the empty square behind.
        if !side.man_friendly_jumps.is_empty() {
            let over_set = if self.men().friendly_jump_over_kings {
                pos.pieces(us)
            } else {
                men
            };
            if self.men().friendly_jump_chain {
                for m in Squares(men) {
                    let reached = self.friendly_reach(m, over_set, occ, side.man_friendly_jumps.0, promo);
                    sink.batch(reached, |_| m.index(), false, promo);
                }
            } else {
                for d in Dirs::of(side.man_friendly_jumps) {
                    let over = t.shift(men, d) & over_set;
                    sink.batch(t.shift(over, d) & empty, |to| t.back(t.back(to, d), d), false, promo);
                }
            }
        }
        // Linear moves: leap over an unbroken line of own men.
        for d in Dirs::of(side.man_linear) {
            // Men with an own man next to them in direction d.
            for m in Squares(men & t.shift_back(men, d)) {
                let (_, block) = t.slide(d, m.index(), !men & self.board());
                sink.batch(block & empty, |_| m.index(), false, promo);
            }
        }
        if sink.done() || skip_kings {
            return;
        }
        // Kings.
        let kings = pos.kings(us);
        let range = self.kings().range;
        if !S::ORDERED && range == KingRange::Flying {
            // Every empty square up to the first piece, all directions at once.
            for k in Squares(kings) {
                let k = k.index();
                sink.batch(t.king_attacks(us.index(), k, occ) & empty, |_| k, true, 0);
            }
        } else {
            let range = range.max_steps();
            for k in Squares(kings) {
                let k = k.index();
                for d in Dirs::of(side.king_moves) {
                    sink.ray(k, t.slide(d, k, occ).0, d, range);
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

    /// Appends the non-capturing moves to `list`, in the generator's order.
    pub(super) fn gen_quiet<const G: u8>(&self, pos: &Position, list: &mut MoveList) {
        let mut sink = ListQuiet {
            start: list.len(),
            dedup: self.quiet_needs_dedup(pos.side_to_move()),
            list,
        };
        self.quiet_moves::<G, _>(pos, &mut sink, false);
    }

    /// The number of non-capturing moves, without listing them when possible;
    /// `king_quiet` is the kings' share when it is already known.
    pub(super) fn count_quiet<const G: u8>(
        &self,
        pos: &Position,
        scratch: &mut MoveList,
        king_quiet: Option<u64>,
    ) -> u64 {
        if self.quiet_needs_dedup(pos.side_to_move()) {
            scratch.clear();
            self.gen_quiet::<G>(pos, scratch);
            return scratch.len() as u64;
        }
        let mut sink = CountQuiet(king_quiet.unwrap_or(0));
        self.quiet_moves::<G, _>(pos, &mut sink, king_quiet.is_some());
        sink.0
    }

    /// Whether the side to move has a non-capturing move.
    pub(super) fn any_quiet<const G: u8>(&self, pos: &Position) -> bool {
        let mut sink = AnyQuiet(false);
        self.quiet_moves::<G, _>(pos, &mut sink, false);
        sink.0
    }
}
