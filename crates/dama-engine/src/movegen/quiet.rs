//! Non-capturing moves: men's steps, friendly jumps and linear moves, and
//! the kings' moves.

use crate::board::{each_dir, AlongRay, Color, Dirs, Move, MoveList, Position, Square, Squares};
use crate::rules::{KingRange, Rules};

impl Rules {
    /// Whether non-capturing moves of two kinds can coincide (a friendly
    /// jump and a linear move over one man), so that they must be merged.
    #[inline]
    pub(super) fn quiet_needs_dedup(&self, us: Color) -> bool {
        let side = self.side(us);
        !side.man_friendly_jumps.is_empty() && !side.man_linear.is_empty()
    }

    /// Calls `f` with every non-capturing move of the side to move, in the
    /// generator's order: men's steps by direction, friendly jumps, linear
    /// moves, then kings square by square. Moves that coincide are not
    /// merged here (see [`Rules::quiet_needs_dedup`]).
    /// With `ORDERED = false` a king's moves come in board order instead.
    #[inline(always)]
    pub(super) fn for_each_quiet<const ORDERED: bool, const G: u8, F: FnMut(Move)>(&self, pos: &Position, mut f: F) {
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
        if kings != 0 && !ORDERED && self.kings().range == KingRange::Flying {
            for k in Squares(kings) {
                let k = k.index();
                for to in Squares(t.king_attacks(us.index(), k, occ) & empty) {
                    f(Move::quiet(k, to.index(), true, false));
                }
            }
        } else if kings != 0 {
            let range = self.kings().range.max_steps();
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
    pub(super) fn friendly_jumps<F: FnMut(Move)>(&self, pos: &Position, f: &mut F) {
        let us = pos.side_to_move();
        let side = self.side(us);
        let t = self.tables();
        let occ = pos.occupied();
        let empty = self.board() & !occ;
        let men = pos.men(us);
        let promo = side.promotion;
        let over_set = if self.men().friendly_jump_over_kings {
            pos.pieces(us)
        } else {
            men
        };
        if self.men().friendly_jump_chain {
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
    pub(super) fn friendly_reach(&self, m: Square, over_set: u64, occ: u64, dirs: u8, promo: u64) -> u64 {
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
    pub(super) fn gen_quiet<const G: u8>(&self, pos: &Position, list: &mut MoveList) {
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
    pub(super) fn count_quiet<const G: u8>(
        &self,
        pos: &Position,
        scratch: &mut MoveList,
        king_quiet: Option<u64>,
    ) -> u64 {
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
            let over_set = if self.men().friendly_jump_over_kings {
                pos.pieces(us)
            } else {
                men
            };
            if self.men().friendly_jump_chain {
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
            if self.kings().range == KingRange::Flying {
                // Flying: every empty square up to the first piece, all directions at once.
                for k in Squares(kings) {
                    n += (t.king_attacks(us.index(), k.index(), occ) & empty).count_ones() as u64;
                }
            } else {
                let range = self.kings().range.max_steps();
                for k in Squares(kings) {
                    for d in Dirs::of(side.king_moves) {
                        n += (t.slide(d, k.index(), occ).0.count_ones() as usize).min(range) as u64;
                    }
                }
            }
        }
        n
    }
}
