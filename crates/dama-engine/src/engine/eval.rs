//! Static evaluation, derived from the rules alone.
//!
//! Nothing here knows a variant by name. The weights come from what the
//! compiled [`Rules`] say pieces can do:
//!
//! - **Material.** A man is worth [`MAN`] (100, so scores read as
//!   hundredths of a man). A king's worth grows with its mobility on an
//!   empty board and with its capture reach: a one-step king is worth about
//!   two men, a flying rook-king about three and a half, a flying queen-king
//!   four and a half (clamped to 2–5 men).
//! - **Advancement.** Each man earns a bonus that rises as its shortest
//!   walk to its promotion squares (using the men's own step directions)
//!   shrinks; the last steps count most.
//! - **Mobility.** Non-capturing steps of men and king moves, counted on
//!   bitboards (a cheap stand-in for the legal move count).
//! - **Guards.** Men standing on the opponent's promotion squares keep
//!   enemy men from crowning; they earn a bonus while the opponent still
//!   has men.
//! - **Trading down when ahead.** A material lead counts for more as the
//!   board empties.
//!
//! ```
//! use dama_engine::{Evaluator, Rules};
//! let rules = Rules::builtin("dama").unwrap();
//! let ev = Evaluator::new(&rules);
//! assert!(ev.king_value() > 2 * ev.man_value());
//! // The initial position is symmetric: equal for both sides.
//! assert_eq!(ev.evaluate(&rules, &rules.start_position()), 0);
//! ```

use crate::board::{Color, DirSet, Position, Squares, OFF};
use crate::rules::Rules;

/// The value of a man: scores are in hundredths of a man.
pub const MAN: i32 = 100;

/// Weights and tables computed once from the rules.
#[derive(Debug, Clone)]
pub struct Evaluator {
    king: i32,
    /// `adv[color][square]`: advancement bonus of a man of `color` on the square.
    adv: [[i32; 64]; 2],
    /// Squares where a man of `color` guards against enemy promotion.
    guard: [u64; 2],
    /// Whether men of each side can ever be crowned.
    can_promote: [bool; 2],
    /// Total material at the start (both sides), for the trade-down term.
    start_material: i32,
    mobility_man: i32,
    mobility_king: i32,
}

/// The terms of an evaluation, each from White's point of view (for `dama hint`-style explanations and tests).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Terms {
    /// Material balance.
    pub material: i32,
    /// Advancement of men.
    pub advancement: i32,
    /// Mobility.
    pub mobility: i32,
    /// Promotion-square guards.
    pub guards: i32,
    /// Bonus for trading down when ahead.
    pub trade: i32,
}

impl Terms {
    /// Sum of the terms.
    pub fn total(&self) -> i32 {
        self.material + self.advancement + self.mobility + self.guards + self.trade
    }
}

impl Evaluator {
    /// Derives the weights from `rules`.
    pub fn new(rules: &Rules) -> Evaluator {
        let board = rules.board();
        let squares = board.count_ones().max(1) as i32;

        // King mobility on an empty board, averaged over the playable squares.
        let white = rules.side(Color::White);
        let range = rules.kings().range.max_steps();
        let mut king_moves = 0i32;
        for sq in Squares(board) {
            for d in white.king_moves.iter() {
                let mut t = rules.step(sq.index(), d);
                let mut n = 0usize;
                while t != OFF && n < range {
                    king_moves += 1;
                    n += 1;
                    t = rules.step(t, d);
                }
            }
        }
        // In hundredths of a move per square.
        let avg_king_moves = king_moves * 100 / squares;
        let capture_dirs = white.king_captures.iter().count() as i32;
        let capture_bonus = if white.king_captures.is_empty() {
            0
        } else if rules.kings().capture_flying {
            50 + 5 * capture_dirs
        } else {
            5 * capture_dirs
        };
        // 1.3 men + 0.12 men per average move + capture reach.
        let king = (130 + avg_king_moves * 12 / 100 + capture_bonus).clamp(2 * MAN, 5 * MAN);

        let mut adv = [[0i32; 64]; 2];
        let mut can_promote = [false; 2];
        for c in Color::ALL {
            let side = rules.side(c);
            let dirs = DirSet(side.man_steps.0 | side.man_linear.0 | side.man_friendly_jumps.0 | side.man_captures.0);
            let dist = promotion_distance(rules, side.promotion, dirs);
            let max = Squares(board)
                .filter(|s| side.promotion & s.bit() == 0)
                .map(|s| dist[s.index() as usize])
                .filter(|&d| d != u8::MAX)
                .max()
                .unwrap_or(0) as i32;
            can_promote[c.index()] = max > 0;
            if max == 0 {
                continue;
            }
            for sq in Squares(board) {
                let d = dist[sq.index() as usize];
                if d == u8::MAX || d == 0 {
                    continue;
                }
                // Quadratic in progress: 0 at the far end, about 36 one step from the crown.
                let progress = max - d as i32;
                adv[c.index()][sq.index() as usize] = 40 * progress * progress / (max * max) + progress;
            }
        }
        let guard = [rules.side(Color::Black).promotion, rules.side(Color::White).promotion];
        let start = rules.start_position();
        let start_material = Color::ALL
            .iter()
            .map(|&c| start.men(c).count_ones() as i32 * MAN + start.kings(c).count_ones() as i32 * king)
            .sum::<i32>()
            .max(1);
        Evaluator {
            king,
            adv,
            guard,
            can_promote,
            start_material,
            mobility_man: 3,
            mobility_king: 1,
        }
    }

    /// The value of a man ([`MAN`]).
    pub fn man_value(&self) -> i32 {
        MAN
    }

    /// The value of a king, derived from its mobility and capture reach.
    pub fn king_value(&self) -> i32 {
        self.king
    }

    /// Material of `c`.
    #[inline]
    pub fn material(&self, pos: &Position, c: Color) -> i32 {
        pos.men(c).count_ones() as i32 * MAN + pos.kings(c).count_ones() as i32 * self.king
    }

    /// The advancement bonus of a man of `c` on square index `sq`.
    pub fn advancement(&self, c: Color, sq: u8) -> i32 {
        self.adv[c.index()][(sq & 63) as usize]
    }

    /// The evaluation of `pos` from the point of view of the side to move.
    #[inline]
    pub fn evaluate(&self, rules: &Rules, pos: &Position) -> i32 {
        let t = self.terms(rules, pos).total();
        match pos.side_to_move() {
            Color::White => t,
            Color::Black => -t,
        }
    }

    /// The evaluation's terms, from White's point of view.
    pub fn terms(&self, rules: &Rules, pos: &Position) -> Terms {
        let mut t = Terms::default();
        let mw = self.material(pos, Color::White);
        let mb = self.material(pos, Color::Black);
        t.material = mw - mb;
        let empty = rules.board() & !pos.occupied();
        for c in Color::ALL {
            let sign = if c == Color::White { 1 } else { -1 };
            let side = rules.side(c);
            let men = pos.men(c);
            // Advancement.
            let mut a = 0;
            for sq in Squares(men) {
                a += self.adv[c.index()][sq.index() as usize];
            }
            t.advancement += sign * a;
            // Mobility: men's steps and king moves.
            let mut m = 0i32;
            for d in side.man_steps.iter() {
                m += self.mobility_man * (rules.shift(men, d) & empty).count_ones() as i32;
            }
            let range = rules.kings().range.max_steps();
            for k in Squares(pos.kings(c)) {
                for d in side.king_moves.iter() {
                    let mut s = rules.step(k.index(), d);
                    let mut n = 0usize;
                    while s != OFF && empty & (1u64 << s) != 0 && n < range {
                        m += self.mobility_king;
                        n += 1;
                        s = rules.step(s, d);
                    }
                }
            }
            t.mobility += sign * m;
            // Guards, while the opponent still has men that could crown.
            if pos.men(!c) != 0 && self.can_promote[(!c).index()] {
                t.guards += sign * 6 * (men & self.guard[c.index()]).count_ones() as i32;
            }
        }
        // A lead counts for more on an emptier board.
        let total = mw + mb;
        if t.material != 0 {
            t.trade = t.material * (self.start_material - total).max(0) / (4 * self.start_material);
        }
        t
    }
}

/// For each square, the fewest steps a man needs to reach a square of
/// `promo` moving in `dirs` (`u8::MAX` when it cannot).
fn promotion_distance(rules: &Rules, promo: u64, dirs: DirSet) -> [u8; 64] {
    let mut dist = [u8::MAX; 64];
    for s in Squares(promo & rules.board()) {
        dist[s.index() as usize] = 0;
    }
    // Relaxation: at most 64 rounds.
    for _ in 0..64 {
        let mut changed = false;
        for sq in Squares(rules.board()) {
            let i = sq.index() as usize;
            for d in dirs.iter() {
                let t = rules.step(sq.index(), d);
                if t == OFF {
                    continue;
                }
                let dt = dist[t as usize];
                if dt != u8::MAX && dt + 1 < dist[i] {
                    dist[i] = dt + 1;
                    changed = true;
                }
            }
        }
        if !changed {
            break;
        }
    }
    dist
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ev(name: &str) -> (Rules, Evaluator) {
        let r = Rules::builtin(name).unwrap();
        let e = Evaluator::new(&r);
        (r, e)
    }

    #[test]
    fn king_values_follow_mobility() {
        let (_, dama) = ev("dama");
        let (_, arm) = ev("armenian");
        let (_, schmidt) = ev("armenian-schmidt");
        assert!(arm.king_value() > dama.king_value());
        assert!(dama.king_value() > schmidt.king_value());
        for e in [&dama, &arm, &schmidt] {
            assert!((2 * MAN..=5 * MAN).contains(&e.king_value()));
        }
    }

    #[test]
    fn start_positions_are_balanced() {
        for v in ["dama", "armenian", "keny", "croda", "dameo"] {
            let (r, e) = ev(v);
            assert_eq!(e.evaluate(&r, &r.start_position()), 0, "{v}");
        }
    }

    #[test]
    fn advanced_men_are_worth_more() {
        let (r, e) = ev("dama");
        let back = r.parse_fen("W:Wd2:Bh8").unwrap();
        let front = r.parse_fen("W:Wd7:Bh8").unwrap();
        assert!(e.evaluate(&r, &front) > e.evaluate(&r, &back) + 20);
    }
}
