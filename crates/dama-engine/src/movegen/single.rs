//! Single jumps: the commonest capture of all, a man taking one piece with
//! no further jump from where it lands, found for every man at once.
//!
//! Most positions with a capture have only such captures. Where the
//! capture search would visit each man, try each direction, land, and try
//! every direction again before it reports a move, here a few whole-board
//! shifts per direction tell that no landing goes on, and the moves are
//! counted by popcount or read off the landing sets. When a landing may go
//! on, or a king can capture, the caller runs the capture search as before:
//! the shortcut only ever answers where the search would give the same.

use crate::board::{each_dir, opposite, Bits, Node, Ones, Ply, PlyList};
use crate::rules::{Pack, Rules};
use crate::spec::MidCapturePromotion;

/// The men's single jumps of a position, direction by direction.
pub(super) struct SingleJumps<B> {
    /// For each direction, the men of the side to move that jump that way.
    origins: [B; 8],
}

impl Rules {
    /// The captures of the side to move when every one is a man's single
    /// jump with no further jump from its landing (the commonest capture
    /// by far), or `None` when a king can capture or a landing may go on.
    ///
    /// `capturers` is what [`Rules::capturers`] found. It answers only for
    /// rules whose men need no bookkeeping (`SearchPlan::rich` off: men
    /// take kings, captures are ranked by their count if at all): then a
    /// single jump is one path and one move, and when every capture takes
    /// one piece the majority rule keeps them all.
    ///
    /// Why a landing's further jumps can be read off the starting position:
    /// a man that jumped in direction `d` onto `l` cannot jump back (the
    /// piece behind it is taken, or gone), and in any other direction the
    /// square it would jump and the square it would land on are neither
    /// the piece it took nor the square it left. So a landing goes on
    /// exactly when, in the starting position, a jump in another direction
    /// starts from it.
    #[inline(always)]
    pub(super) fn single_jumps<B: Bits, const G: u8>(
        &self,
        p: &Pack<B>,
        pos: &Node<B>,
        capturers: B,
    ) -> Option<SingleJumps<B>> {
        let us = pos.side_to_move();
        if p.plan.rich || !(capturers & pos.kings(us)).is_empty() {
            return None;
        }
        let t = &p.tables;
        let prey = pos.pieces(!us);
        let empty = p.board & !pos.occupied();
        let men = pos.men(us);
        let promo = p.promotion[us.index()];
        let dirs = self.side(us).man_captures.0;
        // Where the sequence may go on after a landing on the promotion rank.
        let (ends, crowned_go_on) = match p.plan.mid {
            MidCapturePromotion::Stop => (promo, false),
            MidCapturePromotion::ContinueAsMan => (B::ZERO, false),
            MidCapturePromotion::PromoteAndContinue | MidCapturePromotion::PromoteAndContinueAnyDirection => {
                (B::ZERO, true)
            }
        };
        // The squares from which a man would jump in each direction.
        let mut jumps_from = [B::ZERO; 8];
        each_dir::<G>(
            dirs,
            #[inline(always)]
            |d| jumps_from[d] = t.shift_back(t.shift_back(empty, d) & prey, d),
        );
        let mut origins = [B::ZERO; 8];
        let mut goes_on = false;
        each_dir::<G>(
            dirs,
            #[inline(always)]
            |d| {
                let from = jumps_from[d] & men;
                if from.is_empty() {
                    return;
                }
                origins[d] = from;
                let land = t.shift(t.shift(from, d), d);
                if crowned_go_on && !(land & promo).is_empty() {
                    goes_on = true;
                    return;
                }
                let back = opposite(d);
                let mut onward = B::ZERO;
                each_dir::<G>(
                    dirs,
                    #[inline(always)]
                    |e| {
                        if e != back {
                            onward |= jumps_from[e];
                        }
                    },
                );
                goes_on |= !(land & !ends & onward).is_empty();
            },
        );
        (!goes_on).then_some(SingleJumps { origins })
    }
}

impl<B: Bits> SingleJumps<B> {
    /// How many captures there are (each one move and one path).
    #[inline(always)]
    pub(super) fn count<const G: u8>(&self) -> u64 {
        let mut n = 0u64;
        each_dir::<G>(
            0xFF,
            #[inline(always)]
            |d| n += self.origins[d].ones() as u64,
        );
        n
    }

    /// Appends the captures to `list`, by direction, then by origin.
    #[inline(always)]
    pub(super) fn push_all<const G: u8>(&self, p: &Pack<B>, pos: &Node<B>, list: &mut PlyList<B>) {
        let t = &p.tables;
        let us = pos.side_to_move();
        let promo = p.promotion[us.index()];
        let enemy_kings = pos.kings(!us);
        each_dir::<G>(
            0xFF,
            #[inline(always)]
            |d| {
                for from in Ones(self.origins[d]) {
                    let taken = t.shift(B::bit(from), d);
                    let to = t.shift(taken, d);
                    list.push(
                        Ply::capture(
                            from,
                            to.lowest() as u8,
                            false,
                            !(promo & to).is_empty(),
                            taken,
                            taken & enemy_kings,
                        ),
                        1,
                    );
                }
            },
        );
    }
}
