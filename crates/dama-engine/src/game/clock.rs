//! The draw clock: the counters the history-dependent end rules read,
//! kept the same way by the game and by the search.

use crate::board::{Bits, Color, Move, Node, Ply, Position};
use crate::game::EndReason;
use crate::rules::{EndRules, SideMaterial};

/// The counters of a game at one position, each counting the plies that
/// led to it. [`Game`](crate::Game) keeps one per ply and the search one
/// per node, both through [`DrawClock::after`], so the two cannot disagree.
///
/// ```
/// use dama_engine::{DrawClock, Rules};
///
/// let rules = Rules::builtin("dama").unwrap();
/// let pos = rules.parse_fen("W:WKa1,d4:Bh8").unwrap();
/// let king_move = rules.resolve_move(&pos, "a1-a2").unwrap();
/// let clock = DrawClock::START.after(&king_move);
/// assert_eq!((clock.no_capture, clock.kings_only, clock.reversible), (1, 1, 1));
/// let man_move = rules.resolve_move(&pos, "d4-d5").unwrap();
/// assert_eq!(clock.after(&man_move).kings_only, 0);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct DrawClock {
    /// Plies in a row without a capture (`end.no_capture_draw_plies`).
    pub no_capture: u32,
    /// Plies in a row in which a king moved and nothing was captured
    /// (`end.kings_only_draw_plies`).
    pub kings_only: u32,
    /// Plies since the last capture or promotion. No position before such
    /// a ply can occur again (captured pieces and crowned men never come
    /// back), so a search for repetitions looks back this far and no further.
    pub reversible: u32,
}

impl DrawClock {
    /// The clock at the start of a game (or of a position without history).
    pub const START: DrawClock = DrawClock {
        no_capture: 0,
        kings_only: 0,
        reversible: 0,
    };

    /// The clock after `m` is played. A pass moves no man and captures
    /// nothing: every counter goes on, as for a king move.
    #[inline]
    pub fn after(self, m: &Move) -> DrawClock {
        self.advance(m.is_capture(), m.is_king_move() || m.is_pass(), m.promotes())
    }

    /// The clock after `m`, a move of the generator (for the search).
    #[inline(always)]
    pub(crate) fn after_ply<B: Bits>(self, m: &Ply<B>) -> DrawClock {
        self.advance(m.is_capture(), m.is_king_move() || m.is_pass(), m.promotes())
    }

    /// The clock after the ply that turned `before` into `after`, read from
    /// the two positions alone (for a history given as positions): the ply
    /// captured if a piece left the board, moved a king if the men did not
    /// change, and promoted if a man became a king.
    pub fn after_positions(self, before: &Position, after: &Position) -> DrawClock {
        let capture = before.occupied().count() != after.occupied().count();
        let men_same = Color::ALL.iter().all(|&c| before.men(c) == after.men(c));
        let promotes = after.all_kings().count() > before.all_kings().count();
        self.advance(capture, men_same, promotes)
    }

    #[inline]
    fn advance(self, capture: bool, king_move: bool, promotes: bool) -> DrawClock {
        if capture {
            return DrawClock::START;
        }
        DrawClock {
            no_capture: self.no_capture + 1,
            kings_only: if king_move { self.kings_only + 1 } else { 0 },
            reversible: if promotes { 0 } else { self.reversible + 1 },
        }
    }

    /// The draw the ply limits of `end` declare at `pos`, reached with
    /// this clock, if any: the no-capture limit first, then the kings-only
    /// limit, then the draws by material (`end.material_draw`, counted in
    /// [`DrawClock::reversible`] plies: since the last capture or promotion,
    /// which is when the material on the board arose).
    ///
    /// ```
    /// use dama_engine::{DrawClock, EndReason, Rules};
    ///
    /// // FMJD: two kings against a lone king are drawn after 5 moves each.
    /// let rules = Rules::builtin("international").unwrap();
    /// let pos = rules.parse_fen("W:WK46,K50:BK5").unwrap();
    /// let clock = DrawClock { reversible: 9, ..DrawClock::START };
    /// assert_eq!(clock.verdict(rules.end(), &pos), None);
    /// let clock = DrawClock { reversible: 10, ..DrawClock::START };
    /// assert_eq!(clock.verdict(rules.end(), &pos), Some(EndReason::Material(10)));
    /// ```
    #[inline]
    pub fn verdict(&self, end: &EndRules, pos: &Position) -> Option<EndReason> {
        self.verdict_in(end, &pos.0)
    }

    /// [`DrawClock::verdict`] at a node of the generator (for the search).
    #[inline(always)]
    pub(crate) fn verdict_in<B: Bits>(&self, end: &EndRules, pos: &Node<B>) -> Option<EndReason> {
        let n = end.no_capture_draw_plies;
        if n > 0 && self.no_capture >= n {
            return Some(EndReason::NoCapture(n));
        }
        let k = end.kings_only_draw_plies;
        if k > 0 && self.kings_only >= k {
            return Some(EndReason::KingsOnly(k));
        }
        end.material_draw_after(self.reversible, || {
            let side = |c: Color| SideMaterial {
                kings: pos.kings(c).ones(),
                men: pos.men(c).ones(),
            };
            (side(Color::White), side(Color::Black))
        })
        .map(EndReason::Material)
    }
}
