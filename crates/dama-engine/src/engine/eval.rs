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
//! - **The aim of the game.** Where the side that cannot move wins
//!   (`end.no_legal_move = "win"`, give-away games such as antidraughts),
//!   every term counts the other way: pieces, mobility and advanced men are
//!   what a player wants to be rid of.
//!
//! ```
//! use dama_engine::{Evaluator, Rules};
//! let rules = Rules::builtin("dama").unwrap();
//! let ev = Evaluator::new(&rules);
//! assert!(ev.king_value() > 2 * ev.man_value());
//! // The initial position is symmetric: equal for both sides.
//! assert_eq!(ev.evaluate(&rules, &rules.start_position()), 0);
//! ```

use crate::board::{Bitboard, Bits, Color, DirSet, Node, Ones, Position, Square};
use crate::engine::EvalWeights;
use crate::rules::{with_pack, Pack, Rules};

/// The value of a man: scores are in hundredths of a man.
pub const MAN: i32 = 100;

/// Weights and tables computed once from the rules.
#[derive(Debug, Clone)]
pub struct Evaluator {
    weights: EvalWeights,
    /// `adv[color][bit]`: advancement bonus of a man of `color` on the
    /// square of that bit in the generator's numbering.
    adv: Box<[[i32; 256]; 2]>,
    /// `progress[color][bit]`: steps a man of `color` on that square has
    /// come toward its promotion squares (the tempo term).
    progress: Box<[[i32; 256]; 2]>,
    /// `reach[bit]`: squares a king on that square reaches on an empty board.
    reach: Box<[i32; 256]>,
    /// Squares where a man of `color` guards against enemy promotion, in
    /// the generator's numbering.
    guard: [Bitboard; 2],
    /// Whether men of each side can ever be crowned.
    can_promote: [bool; 2],
    /// Total material at the start (both sides), for the trade-down term.
    start_material: i32,
    /// Whether any of the terms only tuning switches on has a weight.
    extra_terms: bool,
    /// 1, or -1 where the side that cannot move wins: the sign of every term.
    aim: i32,
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
    /// Tempo: the men's steps of progress.
    pub tempo: i32,
    /// Men with a piece of their own behind them.
    pub support: i32,
    /// Men that can step onto an empty promotion square.
    pub runaway: i32,
    /// Kings on central squares.
    pub king_centre: i32,
}

impl Terms {
    /// Sum of the terms.
    pub fn total(&self) -> i32 {
        self.material
            + self.advancement
            + self.mobility
            + self.guards
            + self.trade
            + self.tempo
            + self.support
            + self.runaway
            + self.king_centre
    }
}

/// What the evaluation counts on a position, per side (`[white, black]`),
/// before any weight: the evaluation is these counts times the weights
/// (the trade term times the material), so tuning counts once per
/// position ([`Evaluator::features`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Features {
    /// Men.
    pub men: [i32; 2],
    /// Kings.
    pub kings: [i32; 2],
    /// Sum of the advancement table over the men.
    pub advancement: [i32; 2],
    /// Free steps of men.
    pub man_moves: [i32; 2],
    /// King moves.
    pub king_moves: [i32; 2],
    /// Guards (0 when the opponent has no men that could crown).
    pub guards: [i32; 2],
    /// Steps of progress of the men.
    pub tempo: [i32; 2],
    /// Men with a piece of their own one step behind.
    pub support: [i32; 2],
    /// Empty promotion squares a man can step onto.
    pub runaway: [i32; 2],
    /// Empty-board reach of the kings' squares.
    pub king_centre: [i32; 2],
}

impl Evaluator {
    /// The evaluation with the weights derived from `rules`
    /// ([`EvalWeights::derived`]).
    pub fn new(rules: &Rules) -> Evaluator {
        Evaluator::with_weights(rules, &EvalWeights::derived(rules))
    }

    /// The evaluation with these weights.
    pub fn with_weights(rules: &Rules, weights: &EvalWeights) -> Evaluator {
        let board = rules.board();
        let layout = rules.geometry().layout();

        let mut adv = Box::new([[0i32; 256]; 2]);
        let mut progress_table = Box::new([[0i32; 256]; 2]);
        let mut can_promote = [false; 2];
        for c in Color::ALL {
            let side = rules.side(c);
            let dirs = DirSet(side.man_steps.0 | side.man_linear.0 | side.man_friendly_jumps.0 | side.man_captures.0);
            let dist = promotion_distance(rules, side.promotion, dirs);
            let max = board
                .iter()
                .filter(|s| !side.promotion.contains(*s))
                .map(|s| dist[s.index() as usize])
                .filter(|&d| d != u8::MAX)
                .max()
                .unwrap_or(0) as i32;
            can_promote[c.index()] = max > 0;
            if max == 0 {
                continue;
            }
            for sq in board.iter() {
                let d = dist[sq.index() as usize];
                let Some(bit) = layout.bit_of(sq).filter(|_| d != u8::MAX && d != 0) else {
                    continue;
                };
                // Quadratic in progress: 0 at the far end, about 36 one step from the crown.
                let progress = max - d as i32;
                adv[c.index()][bit as usize] = 40 * progress * progress / (max * max) + progress;
                progress_table[c.index()][bit as usize] = progress;
            }
        }
        // Empty-board reach of a king from each square.
        let mut reach = Box::new([0i32; 256]);
        let white = rules.side(Color::White);
        let range = rules.kings().range.max_steps();
        for sq in board.iter() {
            let Some(bit) = layout.bit_of(sq) else { continue };
            for d in white.king_moves.iter() {
                let mut t = rules.step(sq, d);
                let mut n = 0usize;
                while let Some(s) = t.filter(|_| n < range) {
                    reach[bit as usize] += 1;
                    n += 1;
                    t = rules.step(s, d);
                }
            }
        }
        let guard = [
            layout.pack::<Bitboard>(rules.side(Color::Black).promotion),
            layout.pack::<Bitboard>(rules.side(Color::White).promotion),
        ];
        let start = rules.start_position();
        let start_material = Color::ALL
            .iter()
            .map(|&c| start.men(c).count() as i32 * MAN + start.kings(c).count() as i32 * weights.king)
            .sum::<i32>()
            .max(1);
        Evaluator {
            weights: *weights,
            adv,
            progress: progress_table,
            reach,
            guard,
            can_promote,
            start_material,
            extra_terms: weights.tempo != 0 || weights.support != 0 || weights.runaway != 0 || weights.king_centre != 0,
            aim: if rules.end().no_legal_move == crate::spec::NoMoveResult::Win {
                -1
            } else {
                1
            },
        }
    }

    /// The weights of the terms.
    pub fn weights(&self) -> &EvalWeights {
        &self.weights
    }

    /// The value of a man ([`MAN`]).
    pub fn man_value(&self) -> i32 {
        MAN
    }

    /// The value of a king, derived from its mobility and capture reach
    /// (or as tuned).
    pub fn king_value(&self) -> i32 {
        self.weights.king
    }

    /// Material of `c`.
    #[inline]
    pub fn material(&self, pos: &Position, c: Color) -> i32 {
        pos.men(c).count() as i32 * MAN + pos.kings(c).count() as i32 * self.weights.king
    }

    /// The advancement bonus of a man of `c` on `sq` (0 off the board).
    pub fn advancement(&self, rules: &Rules, c: Color, sq: Square) -> i32 {
        rules
            .geometry()
            .layout()
            .bit_of(sq)
            .map_or(0, |b| self.adv[c.index()][b as usize])
    }

    /// The evaluation of `pos` from the point of view of the side to move.
    pub fn evaluate(&self, rules: &Rules, pos: &Position) -> i32 {
        with_pack!(rules, p => self.evaluate_in(rules, p, &p.node(pos)))
    }

    /// The evaluation's terms, from White's point of view.
    pub fn terms(&self, rules: &Rules, pos: &Position) -> Terms {
        with_pack!(rules, p => self.terms_in(rules, p, &p.node(pos)))
    }

    /// Everything the evaluation counts on `pos`, every term included
    /// (whatever its weight).
    pub fn features(&self, rules: &Rules, pos: &Position) -> Features {
        with_pack!(rules, p => self.features_in(rules, p, &p.node(pos), true))
    }

    /// [`Evaluator::evaluate`] of a node of the generator.
    #[inline]
    pub(crate) fn evaluate_in<B: Bits>(&self, rules: &Rules, p: &Pack<B>, pos: &Node<B>) -> i32 {
        let t = self.terms_in(rules, p, pos).total();
        match pos.side_to_move() {
            Color::White => t,
            Color::Black => -t,
        }
    }

    /// [`Evaluator::terms`] of a node of the generator.
    pub(crate) fn terms_in<B: Bits>(&self, rules: &Rules, p: &Pack<B>, pos: &Node<B>) -> Terms {
        self.terms_of(&self.features_in(rules, p, pos, self.extra_terms))
    }

    /// The terms of counted features, with this evaluator's weights.
    pub fn terms_of(&self, f: &Features) -> Terms {
        terms_with(&self.weights, self.start_material, self.aim, f)
    }

    /// The counts of a node; the terms only tuning switches on only when `extra`.
    #[inline]
    fn features_in<B: Bits>(&self, rules: &Rules, p: &Pack<B>, pos: &Node<B>, extra: bool) -> Features {
        let mut f = Features::default();
        let tables = &p.tables;
        let occ = pos.occupied();
        let empty = p.board & !occ;
        let range = rules.kings().range.max_steps();
        for c in Color::ALL {
            let i = c.index();
            let side = rules.side(c);
            let men = pos.men(c);
            let kings = pos.kings(c);
            f.men[i] = men.ones() as i32;
            f.kings[i] = kings.ones() as i32;
            // Advancement.
            let mut a = 0;
            for b in Ones(men) {
                a += self.adv[i][b as usize];
            }
            f.advancement[i] = a;
            // Mobility: men's steps and king moves.
            let mut m = 0i32;
            for d in side.man_steps.iter() {
                m += (tables.shift(men, d.index()) & empty).ones() as i32;
            }
            f.man_moves[i] = m;
            let mut k = 0i32;
            for sq in Ones(kings) {
                for d in side.king_moves.iter() {
                    let free = tables.slide(d.index(), sq, occ).0;
                    k += (free.ones() as usize).min(range) as i32;
                }
            }
            f.king_moves[i] = k;
            // Guards, while the opponent still has men that could crown.
            if !pos.men(!c).is_empty() && self.can_promote[(!c).index()] {
                f.guards[i] = (men & B::from_wide(self.guard[i])).ones() as i32;
            }
            if !extra {
                continue;
            }
            let mut t = 0;
            for b in Ones(men) {
                t += self.progress[i][b as usize];
            }
            f.tempo[i] = t;
            let own = men | kings;
            let promo = B::from_wide(self.guard[(!c).index()]);
            let mut supported = B::default();
            let mut crown = B::default();
            for d in side.man_steps.iter() {
                supported |= tables.shift(own, d.index()) & men;
                crown |= tables.shift(men, d.index()) & empty & promo;
            }
            f.support[i] = supported.ones() as i32;
            f.runaway[i] = crown.ones() as i32;
            let mut r = 0;
            for b in Ones(kings) {
                r += self.reach[b as usize];
            }
            f.king_centre[i] = r;
        }
        f
    }
}

/// The terms of features `f` with weights `w` (`start_material`: both
/// sides' material at the start with these weights; `aim`: -1 where the
/// side that cannot move wins).
pub(crate) fn terms_with(w: &EvalWeights, start_material: i32, aim: i32, f: &Features) -> Terms {
    let diff = |x: [i32; 2]| x[0] - x[1];
    let mw = f.men[0] * MAN + f.kings[0] * w.king;
    let mb = f.men[1] * MAN + f.kings[1] * w.king;
    let material = mw - mb;
    // A lead counts for more on an emptier board.
    let total = mw + mb;
    let trade = if material == 0 {
        0
    } else {
        (i64::from(material) * i64::from((start_material - total).max(0)) * i64::from(w.trade)
            / (400 * i64::from(start_material))) as i32
    };
    let t = Terms {
        material,
        advancement: diff(f.advancement) * w.advancement / 100,
        mobility: w.man_mobility * diff(f.man_moves) + w.king_mobility * diff(f.king_moves),
        guards: w.guard * diff(f.guards),
        trade,
        tempo: w.tempo * diff(f.tempo),
        support: w.support * diff(f.support),
        runaway: w.runaway * diff(f.runaway),
        king_centre: w.king_centre * diff(f.king_centre),
    };
    if aim < 0 {
        Terms {
            material: -t.material,
            advancement: -t.advancement,
            mobility: -t.mobility,
            guards: -t.guards,
            trade: -t.trade,
            tempo: -t.tempo,
            support: -t.support,
            runaway: -t.runaway,
            king_centre: -t.king_centre,
        }
    } else {
        t
    }
}

impl Evaluator {
    /// -1 where the side that cannot move wins, else 1.
    pub(crate) fn aim(&self) -> i32 {
        self.aim
    }
}

/// For each square, the fewest steps a man needs to reach a square of
/// `promo` moving in `dirs` (`u8::MAX` when it cannot).
fn promotion_distance(rules: &Rules, promo: Bitboard, dirs: DirSet) -> [u8; 256] {
    let mut dist = [u8::MAX; 256];
    for s in (promo & rules.board()).iter() {
        dist[s.index() as usize] = 0;
    }
    // Relaxation: at most one round per square.
    for _ in 0..256 {
        let mut changed = false;
        for sq in rules.board().iter() {
            let i = sq.index() as usize;
            for d in dirs.iter() {
                let Some(t) = rules.step(sq, d) else {
                    continue;
                };
                let dt = dist[t.index() as usize];
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
    fn where_the_blocked_side_wins_material_counts_the_other_way() {
        let (r, e) = ev("antidraughts");
        // White has two men to Black's one: worse for White here.
        let pos = r.parse_fen("W:W31,32:B19").unwrap();
        assert!(e.terms(&r, &pos).material < 0);
        assert!(e.evaluate(&r, &pos) < 0);
        let (r, e) = ev("international");
        let pos = r.parse_fen("W:W31,32:B19").unwrap();
        assert!(e.terms(&r, &pos).material > 0);
    }

    #[test]
    fn advanced_men_are_worth_more() {
        let (r, e) = ev("dama");
        let back = r.parse_fen("W:Wd2:Bh8").unwrap();
        let front = r.parse_fen("W:Wd7:Bh8").unwrap();
        assert!(e.evaluate(&r, &front) > e.evaluate(&r, &back) + 20);
    }
    /// The evaluation as it was before the weights could be tuned, kept
    /// verbatim to check that the derived weights give exactly its scores.
    #[allow(dead_code, clippy::all)]
    mod old {
        use crate::board::{Bitboard, Bits, Color, DirSet, Node, Ones, Position, Square};
        use crate::engine::MAN;
        use crate::rules::{with_pack, Pack, Rules};

        /// Weights and tables computed once from the rules.
        #[derive(Debug, Clone)]
        pub struct OldEvaluator {
            king: i32,
            /// `adv[color][bit]`: advancement bonus of a man of `color` on the
            /// square of that bit in the generator's numbering.
            adv: Box<[[i32; 256]; 2]>,
            /// Squares where a man of `color` guards against enemy promotion, in
            /// the generator's numbering.
            guard: [Bitboard; 2],
            /// Whether men of each side can ever be crowned.
            can_promote: [bool; 2],
            /// Total material at the start (both sides), for the trade-down term.
            start_material: i32,
            mobility_man: i32,
            mobility_king: i32,
            /// 1, or -1 where the side that cannot move wins: the sign of every term.
            aim: i32,
        }

        /// The terms of an evaluation, each from White's point of view (for `dama hint`-style explanations and tests).
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
        pub struct OldTerms {
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

        impl OldTerms {
            /// Sum of the terms.
            pub fn total(&self) -> i32 {
                self.material + self.advancement + self.mobility + self.guards + self.trade
            }
        }

        impl OldEvaluator {
            /// Derives the weights from `rules`.
            pub fn new(rules: &Rules) -> OldEvaluator {
                let board = rules.board();
                let layout = rules.geometry().layout();
                let squares = board.count().max(1) as i32;

                // King mobility on an empty board, averaged over the playable squares.
                let white = rules.side(Color::White);
                let range = rules.kings().range.max_steps();
                let mut king_moves = 0i32;
                for sq in board.iter() {
                    for d in white.king_moves.iter() {
                        let mut t = rules.step(sq, d);
                        let mut n = 0usize;
                        while let Some(s) = t.filter(|_| n < range) {
                            king_moves += 1;
                            n += 1;
                            t = rules.step(s, d);
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

                let mut adv = Box::new([[0i32; 256]; 2]);
                let mut can_promote = [false; 2];
                for c in Color::ALL {
                    let side = rules.side(c);
                    let dirs =
                        DirSet(side.man_steps.0 | side.man_linear.0 | side.man_friendly_jumps.0 | side.man_captures.0);
                    let dist = promotion_distance(rules, side.promotion, dirs);
                    let max = board
                        .iter()
                        .filter(|s| !side.promotion.contains(*s))
                        .map(|s| dist[s.index() as usize])
                        .filter(|&d| d != u8::MAX)
                        .max()
                        .unwrap_or(0) as i32;
                    can_promote[c.index()] = max > 0;
                    if max == 0 {
                        continue;
                    }
                    for sq in board.iter() {
                        let d = dist[sq.index() as usize];
                        let Some(bit) = layout.bit_of(sq).filter(|_| d != u8::MAX && d != 0) else {
                            continue;
                        };
                        // Quadratic in progress: 0 at the far end, about 36 one step from the crown.
                        let progress = max - d as i32;
                        adv[c.index()][bit as usize] = 40 * progress * progress / (max * max) + progress;
                    }
                }
                let guard = [
                    layout.pack::<Bitboard>(rules.side(Color::Black).promotion),
                    layout.pack::<Bitboard>(rules.side(Color::White).promotion),
                ];
                let start = rules.start_position();
                let start_material = Color::ALL
                    .iter()
                    .map(|&c| start.men(c).count() as i32 * MAN + start.kings(c).count() as i32 * king)
                    .sum::<i32>()
                    .max(1);
                OldEvaluator {
                    king,
                    adv,
                    guard,
                    can_promote,
                    start_material,
                    mobility_man: 3,
                    mobility_king: 1,
                    aim: if rules.end().no_legal_move == crate::spec::NoMoveResult::Win {
                        -1
                    } else {
                        1
                    },
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
                pos.men(c).count() as i32 * MAN + pos.kings(c).count() as i32 * self.king
            }

            /// The advancement bonus of a man of `c` on `sq` (0 off the board).
            pub fn advancement(&self, rules: &Rules, c: Color, sq: Square) -> i32 {
                rules
                    .geometry()
                    .layout()
                    .bit_of(sq)
                    .map_or(0, |b| self.adv[c.index()][b as usize])
            }

            /// The evaluation of `pos` from the point of view of the side to move.
            pub fn evaluate(&self, rules: &Rules, pos: &Position) -> i32 {
                with_pack!(rules, p => self.evaluate_in(rules, p, &p.node(pos)))
            }

            /// The evaluation's terms, from White's point of view.
            pub fn terms(&self, rules: &Rules, pos: &Position) -> OldTerms {
                with_pack!(rules, p => self.terms_in(rules, p, &p.node(pos)))
            }

            /// [`Evaluator::evaluate`] of a node of the generator.
            #[inline]
            pub fn evaluate_in<B: Bits>(&self, rules: &Rules, p: &Pack<B>, pos: &Node<B>) -> i32 {
                let t = self.terms_in(rules, p, pos).total();
                match pos.side_to_move() {
                    Color::White => t,
                    Color::Black => -t,
                }
            }

            /// [`Evaluator::terms`] of a node of the generator.
            pub fn terms_in<B: Bits>(&self, rules: &Rules, p: &Pack<B>, pos: &Node<B>) -> OldTerms {
                let mut t = OldTerms::default();
                let material = |c: Color| pos.men(c).ones() as i32 * MAN + pos.kings(c).ones() as i32 * self.king;
                let mw = material(Color::White);
                let mb = material(Color::Black);
                t.material = mw - mb;
                let tables = &p.tables;
                let occ = pos.occupied();
                let empty = p.board & !occ;
                for c in Color::ALL {
                    let sign = if c == Color::White { 1 } else { -1 };
                    let side = rules.side(c);
                    let men = pos.men(c);
                    // Advancement.
                    let mut a = 0;
                    for b in Ones(men) {
                        a += self.adv[c.index()][b as usize];
                    }
                    t.advancement += sign * a;
                    // Mobility: men's steps and king moves.
                    let mut m = 0i32;
                    for d in side.man_steps.iter() {
                        m += self.mobility_man * (tables.shift(men, d.index()) & empty).ones() as i32;
                    }
                    let range = rules.kings().range.max_steps();
                    for k in Ones(pos.kings(c)) {
                        for d in side.king_moves.iter() {
                            let free = tables.slide(d.index(), k, occ).0;
                            m += self.mobility_king * (free.ones() as usize).min(range) as i32;
                        }
                    }
                    t.mobility += sign * m;
                    // Guards, while the opponent still has men that could crown.
                    if !pos.men(!c).is_empty() && self.can_promote[(!c).index()] {
                        t.guards += sign * 6 * (men & B::from_wide(self.guard[c.index()])).ones() as i32;
                    }
                }
                // A lead counts for more on an emptier board.
                let total = mw + mb;
                if t.material != 0 {
                    t.trade = t.material * (self.start_material - total).max(0) / (4 * self.start_material);
                }
                if self.aim < 0 {
                    t = OldTerms {
                        material: -t.material,
                        advancement: -t.advancement,
                        mobility: -t.mobility,
                        guards: -t.guards,
                        trade: -t.trade,
                    };
                }
                t
            }
        }

        /// For each square, the fewest steps a man needs to reach a square of
        /// `promo` moving in `dirs` (`u8::MAX` when it cannot).
        fn promotion_distance(rules: &Rules, promo: Bitboard, dirs: DirSet) -> [u8; 256] {
            let mut dist = [u8::MAX; 256];
            for s in (promo & rules.board()).iter() {
                dist[s.index() as usize] = 0;
            }
            // Relaxation: at most one round per square.
            for _ in 0..256 {
                let mut changed = false;
                for sq in rules.board().iter() {
                    let i = sq.index() as usize;
                    for d in dirs.iter() {
                        let Some(t) = rules.step(sq, d) else {
                            continue;
                        };
                        let dt = dist[t.index() as usize];
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
    }

    #[test]
    fn the_derived_weights_give_the_old_evaluation_exactly() {
        use crate::util::Rng;
        let mut checked = 0;
        for v in [
            "dama",
            "armenian",
            "croda",
            "russian",
            "english",
            "international",
            "antidraughts",
            "dameo",
            "frisian",
            "breakthrough",
        ] {
            let r = Rules::builtin(v).unwrap();
            let new = Evaluator::new(&r);
            let old = old::OldEvaluator::new(&r);
            assert_eq!(new.king_value(), old.king_value(), "{v}");
            let mut rng = Rng::new(7);
            for game in 0..12 {
                let mut pos = r.start_position();
                for _ in 0..(40 + game * 15) {
                    assert_eq!(
                        new.evaluate(&r, &pos),
                        old.evaluate(&r, &pos),
                        "{v}: {}",
                        r.to_fen(&pos)
                    );
                    let (n, o) = (new.terms(&r, &pos), old.terms(&r, &pos));
                    assert_eq!(
                        (n.material, n.advancement, n.mobility, n.guards, n.trade),
                        (o.material, o.advancement, o.mobility, o.guards, o.trade),
                        "{v}"
                    );
                    checked += 1;
                    let Some(m) = crate::movegen::random_move(&r, &pos, &mut rng) else {
                        break;
                    };
                    pos.play(&m);
                }
            }
        }
        assert!(checked > 2000);
    }

    #[test]
    fn tuned_terms_count_what_they_say() {
        let r = Rules::builtin("dama").unwrap();
        let e = Evaluator::new(&r);
        // d7 is one step from the crown, with an empty promotion square ahead;
        // d2 supports d3.
        let f = e.features(&r, &r.parse_fen("W:Wd7,d3,d2,Ka1:Bh8").unwrap());
        assert_eq!(f.runaway[0], 1);
        assert_eq!(f.support[0], 1);
        assert!(f.tempo[0] > 0);
        assert!(f.king_centre[0] > 0);
        assert_eq!(f.kings, [1, 0]);
        assert_eq!(f.men, [3, 1]);
        // Weights switch them on.
        let mut w = EvalWeights::derived(&r);
        w.runaway = 50;
        let tuned = Evaluator::with_weights(&r, &w);
        let pos = r.parse_fen("W:Wd7,d3,d2,Ka1:Bh8").unwrap();
        assert_eq!(tuned.evaluate(&r, &pos), e.evaluate(&r, &pos) + 50);
    }
}
