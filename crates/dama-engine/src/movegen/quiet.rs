//! Non-capturing moves: men's steps, friendly jumps and linear moves, and
//! the kings' moves.
//!
//! Each rule is written once, in [`Rules::quiet_moves`], as batches of
//! moves (a set of destinations and how to find each one's origin) handed
//! to a [`QuietSink`]: a list pushes each move, a counter adds popcounts,
//! so listing and counting can never disagree.

use crate::board::{each_dir, AlongRay, Bits, Color, Dirs, Node, Ones, Ply, PlyList};
use crate::rules::{KingRange, Pack, Rules};

/// Receives the non-capturing moves, in batches.
pub(super) trait QuietSink<B> {
    /// Whether the moves must come in the generator's order (men's steps by
    /// direction, friendly jumps, linear moves, then each king direction by
    /// direction, nearest square first). Without it a flying king's moves
    /// come in board order, in one batch.
    const ORDERED: bool;

    /// Moves to every square of `dests`, each from `from(to)`; a man's move
    /// promotes where it lands on `promo`.
    fn batch(&mut self, dests: B, from: impl Fn(u8) -> u8, king: bool, promo: B);

    /// A king's moves from `from` along direction `d`: the first `range`
    /// squares of `free` (the empty squares of the ray), nearest first.
    fn ray(&mut self, from: u8, free: B, d: usize, range: usize);

    /// Whether the sink needs no more moves (the generator may stop early).
    #[inline(always)]
    fn done(&self) -> bool {
        false
    }
}

/// Appends each move to a list, in the generator's order; with `dedup`,
/// a move already listed since `start` is not listed again.
pub(super) struct ListQuiet<'a, B> {
    pub(super) list: &'a mut PlyList<B>,
    pub(super) start: usize,
    pub(super) dedup: bool,
}

impl<B: Bits> ListQuiet<'_, B> {
    #[inline(always)]
    fn push(&mut self, m: Ply<B>) {
        if self.dedup && self.list.find(&m, self.start).is_some() {
            return;
        }
        self.list.push(m, 1);
    }
}

impl<B: Bits> QuietSink<B> for ListQuiet<'_, B> {
    const ORDERED: bool = true;
    #[inline(always)]
    fn batch(&mut self, dests: B, from: impl Fn(u8) -> u8, king: bool, promo: B) {
        for to in Ones(dests) {
            self.push(Ply::quiet(from(to), to, king, promo.has(to)));
        }
    }
    #[inline(always)]
    fn ray(&mut self, from: u8, free: B, d: usize, range: usize) {
        for to in AlongRay::new(free, d).take(range) {
            self.push(Ply::quiet(from, to, true, false));
        }
    }
}

/// Calls a function with each move, in any order (tree walks).
pub(super) struct VisitQuiet<F>(pub(super) F);

impl<B: Bits, F: FnMut(Ply<B>)> QuietSink<B> for VisitQuiet<F> {
    const ORDERED: bool = false;
    #[inline(always)]
    fn batch(&mut self, dests: B, from: impl Fn(u8) -> u8, king: bool, promo: B) {
        for to in Ones(dests) {
            (self.0)(Ply::quiet(from(to), to, king, promo.has(to)));
        }
    }
    #[inline(always)]
    fn ray(&mut self, from: u8, free: B, d: usize, range: usize) {
        for to in AlongRay::new(free, d).take(range) {
            (self.0)(Ply::quiet(from, to, true, false));
        }
    }
}

/// Counts the moves by popcount, listing nothing.
pub(super) struct CountQuiet(pub(super) u64);

impl<B: Bits> QuietSink<B> for CountQuiet {
    const ORDERED: bool = false;
    #[inline(always)]
    fn batch(&mut self, dests: B, _: impl Fn(u8) -> u8, _: bool, _: B) {
        self.0 += dests.ones() as u64;
    }
    #[inline(always)]
    fn ray(&mut self, _: u8, free: B, _: usize, range: usize) {
        self.0 += (free.ones() as usize).min(range) as u64;
    }
}

/// Whether there is any move at all.
pub(super) struct AnyQuiet(pub(super) bool);

impl<B: Bits> QuietSink<B> for AnyQuiet {
    const ORDERED: bool = false;
    #[inline(always)]
    fn batch(&mut self, dests: B, _: impl Fn(u8) -> u8, _: bool, _: B) {
        self.0 |= !dests.is_empty();
    }
    #[inline(always)]
    fn ray(&mut self, _: u8, free: B, _: usize, range: usize) {
        self.0 |= !free.is_empty() && range > 0;
    }
    #[inline(always)]
    fn done(&self) -> bool {
        self.0
    }
}

/// Looks for one non-promoting move, from `from` to `to`.
pub(super) struct FindQuiet {
    pub(super) from: u8,
    pub(super) to: u8,
    pub(super) found: bool,
}

impl<B: Bits> QuietSink<B> for FindQuiet {
    const ORDERED: bool = false;
    #[inline(always)]
    fn batch(&mut self, dests: B, from: impl Fn(u8) -> u8, _: bool, promo: B) {
        if dests.has(self.to) && !promo.has(self.to) && from(self.to) == self.from {
            self.found = true;
        }
    }
    #[inline(always)]
    fn ray(&mut self, from: u8, free: B, d: usize, range: usize) {
        if from == self.from && free.has(self.to) {
            self.found |= AlongRay::new(free, d).take(range).any(|t| t == self.to);
        }
    }
    #[inline(always)]
    fn done(&self) -> bool {
        self.found
    }
}

impl Rules {
    /// The king of the side to move that has made its
    /// `kings.max_consecutive_moves` non-capturing moves in a row while its
    /// side has men, as a one-bit set (it may still capture), or the empty set.
    /// Never one with `P` (plain rules have no limit).
    #[inline(always)]
    pub(super) fn frozen_king<B: Bits, const P: bool>(&self, pos: &Node<B>) -> B {
        let limit = self.kings().max_consecutive_moves;
        if P || limit == 0 {
            return B::ZERO;
        }
        let us = pos.side_to_move();
        match pos.runs.of(us.index()) {
            Some((sq, n)) if n >= limit && !pos.men(us).is_empty() => B::bit(sq) & pos.kings(us),
            _ => B::ZERO,
        }
    }

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
    pub(super) fn quiet_moves<B: Bits, const G: u8, const P: bool, S: QuietSink<B>>(
        &self,
        p: &Pack<B>,
        pos: &Node<B>,
        sink: &mut S,
        skip_kings: bool,
    ) {
        let us = pos.side_to_move();
        let side = self.side(us);
        let t = &p.tables;
        let occ = pos.occupied();
        let empty = p.board & !occ;
        let men = pos.men(us);
        let promo = p.promotion[us.index()];
        // Men's steps, all men at once.
        each_dir::<G>(
            side.man_steps.0,
            #[inline(always)]
            |d| sink.batch(t.shift(men, d) & empty, |to| t.back(to, d), false, promo),
        );
        // Friendly jumps: over a piece of one's own onto the empty square behind.
        if !side.man_friendly_jumps.is_empty() {
            let over_set = if self.men().friendly_jump_over_kings {
                pos.pieces(us)
            } else {
                men
            };
            if self.men().friendly_jump_chain {
                for m in Ones(men) {
                    let reached = self.friendly_reach(p, m, over_set, occ, side.man_friendly_jumps.0, promo);
                    sink.batch(reached, |_| m, false, promo);
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
            for m in Ones(men & t.shift_back(men, d)) {
                let (_, block) = t.slide(d, m, !men & p.board);
                sink.batch(block & empty, |_| m, false, promo);
            }
        }
        if sink.done() || skip_kings {
            return;
        }
        // Kings (but one that made its limit of moves in a row).
        let kings = pos.kings(us) & !self.frozen_king::<B, P>(pos);
        let range = self.kings().range;
        if !S::ORDERED && range == KingRange::Flying {
            // Every empty square up to the first piece, all directions at once.
            for k in Ones(kings) {
                sink.batch(t.king_attacks(us.index(), k, occ) & empty, |_| k, true, B::ZERO);
            }
        } else {
            let range = range.max_steps();
            for k in Ones(kings) {
                for d in Dirs::of(side.king_moves) {
                    sink.ray(k, t.slide(d, k, occ).0, d, range);
                }
            }
        }
    }

    /// The squares a man on `m` reaches by chained friendly jumps.
    fn friendly_reach<B: Bits>(&self, p: &Pack<B>, m: u8, over_set: B, occ: B, dirs: u8, promo: B) -> B {
        let t = &p.tables;
        let mut reached = B::ZERO;
        let mut stack = [0u8; 256];
        let mut n = 1;
        stack[0] = m;
        let mb = B::bit(m);
        let occ2 = occ & !mb;
        while n > 0 {
            n -= 1;
            let s = stack[n];
            for d in Dirs(dirs) {
                let o = t.shift(B::bit(s), d) & over_set;
                let lb = t.shift(o, d) & !occ2 & !reached & !mb;
                if lb.is_empty() {
                    continue;
                }
                reached |= lb;
                // A man crowned on arrival stops there.
                if (promo & lb).is_empty() && n < 256 {
                    stack[n] = lb.lowest() as u8;
                    n += 1;
                }
            }
        }
        reached
    }

    /// Appends the non-capturing moves to `list`, in the generator's order.
    pub(super) fn gen_quiet<B: Bits, const G: u8, const P: bool>(
        &self,
        p: &Pack<B>,
        pos: &Node<B>,
        list: &mut PlyList<B>,
    ) {
        let mut sink = ListQuiet {
            start: list.len(),
            dedup: self.quiet_needs_dedup(pos.side_to_move()),
            list,
        };
        self.quiet_moves::<B, G, P, _>(p, pos, &mut sink, false);
    }

    /// The number of non-capturing moves, without listing them when possible;
    /// `king_quiet` is the kings' share when it is already known.
    #[inline(always)]
    pub(super) fn count_quiet<B: Bits, const G: u8, const P: bool>(
        &self,
        p: &Pack<B>,
        pos: &Node<B>,
        scratch: &mut PlyList<B>,
        king_quiet: Option<u64>,
    ) -> u64 {
        if self.quiet_needs_dedup(pos.side_to_move()) {
            scratch.clear();
            self.gen_quiet::<B, G, P>(p, pos, scratch);
            return scratch.len() as u64;
        }
        let mut sink = CountQuiet(king_quiet.unwrap_or(0));
        self.quiet_moves::<B, G, P, _>(p, pos, &mut sink, king_quiet.is_some());
        sink.0
    }

    /// Whether the side to move has a non-capturing move.
    pub(super) fn any_quiet<B: Bits, const G: u8, const P: bool>(&self, p: &Pack<B>, pos: &Node<B>) -> bool {
        let mut sink = AnyQuiet(false);
        self.quiet_moves::<B, G, P, _>(p, pos, &mut sink, false);
        sink.0
    }
}
