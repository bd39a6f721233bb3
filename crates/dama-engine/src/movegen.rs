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
use crate::square::{Square, Squares};
use crate::tables::{opposite, AlongRay, Dirs, Tables};

/// "No previous jump" for the capture search's last direction.
const NO_DIR: usize = 8;

/// Receives each complete capture sequence found.
trait Sink {
    /// Whether the sink reads the landing and captured squares of each path.
    const PATHS: bool = false;
    fn leaf(&mut self, m: Move, path: &[u8], victims: &[u8]);
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
    fn leaf(&mut self, m: Move, _: &[u8], _: &[u8]) {
        if self.majority {
            let n = m.capture_count();
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
    fn leaf(&mut self, m: Move, _: &[u8], _: &[u8]) {
        if self.majority {
            let c = m.capture_count();
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
}

impl Sink for PathSink<'_> {
    const PATHS: bool = true;
    fn leaf(&mut self, m: Move, path: &[u8], victims: &[u8]) {
        if m.same_identity(self.target) {
            self.out.push(MovePath {
                from: m.from(),
                landings: path.iter().map(|&i| Square::from_index_masked(i)).collect(),
                captures: victims.iter().map(|&i| Square::from_index_masked(i)).collect(),
            });
        }
    }
}

/// State of one capture search (one piece, one sequence at a time).
struct Dfs<'r, 's, S: Sink> {
    t: &'r Tables,
    sink: &'s mut S,
    /// Enemy pieces not captured yet.
    enemy: u64,
    /// Enemy kings at the start of the move.
    enemy_kings: u64,
    /// Occupied squares, without the moving piece (and, with immediate
    /// removal, without the pieces it has taken).
    occ: u64,
    captured: u64,
    from: u8,
    start_king: bool,
    promoted: bool,
    man_dirs: u8,
    king_dirs: u8,
    promo: u64,
    immediate: bool,
    no_reversal: bool,
    flying: bool,
    landing_any: bool,
    must_continue: bool,
    mid: MidCapturePromotion,
    len: usize,
    path: [u8; 64],
    victims: [u8; 64],
}

impl<S: Sink> Dfs<'_, '_, S> {
    /// The piece jumped from `sq` in direction `d` (as a bit) and the squares
    /// it may land on, or `(0, 0)`.
    #[inline(always)]
    fn first_jump(&self, sq: u8, d: usize, king: bool) -> (u64, u64) {
        let t = self.t;
        let vb = if king && self.flying {
            t.slide(d, sq, self.occ).1
        } else {
            t.shift(1u64 << sq, d)
        };
        if vb & self.enemy == 0 {
            return (0, 0);
        }
        let land = if king && self.landing_any {
            t.slide(d, vb.trailing_zeros() as u8, self.occ).0
        } else {
            t.shift(vb, d) & !self.occ
        };
        (vb, land)
    }

    /// Tries every jump from `sq`; returns whether there was one.
    fn search(&mut self, sq: u8, king: bool, last: usize) -> bool {
        let mut dirs = if king { self.king_dirs } else { self.man_dirs };
        if self.no_reversal && last != NO_DIR {
            dirs &= !(1u8 << opposite(last));
        }
        let mut any = false;
        for d in Dirs(dirs) {
            let (vb, mut land) = self.first_jump(sq, d, king);
            if land == 0 {
                continue;
            }
            if king && self.landing_any && self.must_continue {
                land = self.live_landings(vb, land, d);
            }
            any = true;
            let v = vb.trailing_zeros() as u8;
            for l in AlongRay::new(land, d) {
                self.jump(v, l, king, d);
            }
        }
        any
    }

    /// With `landing_must_continue`: of the landing squares `land` beyond
    /// the piece `vb` jumped in direction `d`, those from which the capture
    /// goes on, if there are any (else all of them).
    fn live_landings(&self, vb: u64, land: u64, d: usize) -> u64 {
        let enemy = self.enemy & !vb;
        let occ = if self.immediate { self.occ & !vb } else { self.occ };
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
        let mut dirs = self.king_dirs;
        if self.no_reversal {
            dirs &= !(1u8 << opposite(last));
        }
        for d in Dirs(dirs) {
            let vb = if self.flying {
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

    fn jump(&mut self, v: u8, l: u8, king: bool, d: usize) {
        let vb = 1u64 << v;
        self.enemy ^= vb;
        if self.immediate {
            self.occ ^= vb;
        }
        self.captured ^= vb;
        if S::PATHS && self.len < 64 {
            self.path[self.len] = l;
            self.victims[self.len] = v;
        }
        self.len += 1;
        let lb = 1u64 << l;
        let continued = if !king && self.promo & lb != 0 {
            match self.mid {
                MidCapturePromotion::Stop => false,
                MidCapturePromotion::PromoteAndContinue => {
                    let was = self.promoted;
                    self.promoted = true;
                    let c = self.search(l, true, d);
                    self.promoted = was;
                    c
                }
                MidCapturePromotion::ContinueAsMan => self.search(l, false, d),
            }
        } else {
            self.search(l, king, d)
        };
        if !continued {
            let promotes = !self.start_king && (self.promoted || self.promo & lb != 0);
            let m = Move::capture(
                self.from,
                l,
                self.start_king,
                promotes,
                self.captured,
                self.captured & self.enemy_kings,
            );
            if S::PATHS {
                let n = self.len.min(64);
                self.sink.leaf(m, &self.path[..n], &self.victims[..n]);
            } else {
                self.sink.leaf(m, &[], &[]);
            }
        }
        self.len -= 1;
        self.captured ^= vb;
        if self.immediate {
            self.occ ^= vb;
        }
        self.enemy ^= vb;
    }
}

impl Rules {
    /// Runs the capture search for every piece of the side to move in
    /// `only_from` (a bitboard), lowest square first.
    fn capture_search<S: Sink>(&self, pos: &Position, sink: &mut S, only_from: u64) {
        let us = pos.side_to_move();
        let side = self.side(us);
        let t = self.tables();
        let enemy = pos.pieces(!us);
        let all = pos.occupied();
        let kings = pos.all_kings();
        let mut dfs = Dfs {
            t,
            sink,
            enemy,
            enemy_kings: enemy & kings,
            occ: all,
            captured: 0,
            from: 0,
            start_king: false,
            promoted: false,
            man_dirs: side.man_captures.0,
            king_dirs: side.king_captures.0,
            promo: side.promotion,
            immediate: self.removal() == Removal::Immediate,
            no_reversal: self.no_reversal(),
            flying: self.king_capture_flying(),
            landing_any: self.landing_any(),
            must_continue: self.landing_must_continue(),
            mid: self.promote_mid_capture(),
            len: 0,
            path: [0; 64],
            victims: [0; 64],
        };
        // Men that have a first jump (a capture starts with one).
        let men = pos.men(us) & only_from;
        let empty = self.board() & !all;
        let mut jumping_men = 0u64;
        for d in Dirs::of(side.man_captures) {
            let back = opposite(d);
            jumping_men |= t.shift(t.shift(empty, back) & enemy, back) & men;
        }
        let mut pieces = jumping_men;
        if !side.king_captures.is_empty() {
            pieces |= pos.kings(us) & only_from;
        }
        for sq in Squares(pieces) {
            let i = sq.index();
            dfs.from = i;
            dfs.start_king = kings & sq.bit() != 0;
            dfs.occ = all & !sq.bit();
            dfs.search(i, dfs.start_king, NO_DIR);
        }
    }

    /// Appends the capture moves to `list` (which must be empty); the
    /// majority rule is applied.
    fn gen_captures(&self, pos: &Position, list: &mut MoveList) {
        let mut sink = ListSink {
            list,
            best: 0,
            majority: self.majority() == Majority::MaxPieces,
        };
        self.capture_search(pos, &mut sink, !0);
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
    #[inline(always)]
    fn for_each_quiet<F: FnMut(Move)>(&self, pos: &Position, mut f: F) {
        let us = pos.side_to_move();
        let side = self.side(us);
        let t = self.tables();
        let occ = pos.occupied();
        let empty = self.board() & !occ;
        let men = pos.men(us);
        let promo = side.promotion;
        // Men's steps, all men at once.
        for d in Dirs::of(side.man_steps) {
            for to in Squares(t.shift(men, d) & empty) {
                let to = to.index();
                f(Move::quiet(t.back(to, d), to, false, promo & (1u64 << to) != 0));
            }
        }
        if !side.man_friendly_jumps.is_empty() {
            self.friendly_jumps(pos, &mut f);
        }
        // Linear moves: leap over an unbroken line of own men.
        for d in Dirs::of(side.man_linear) {
            let back = opposite(d);
            // Men with an own man next to them in direction d.
            for m in Squares(men & t.shift(men, back)) {
                let (_, block) = t.slide(d, m.index(), !men & self.board());
                if block & empty != 0 {
                    let to = block.trailing_zeros() as u8;
                    f(Move::quiet(m.index(), to, false, promo & block != 0));
                }
            }
        }
        // Kings.
        let kings = pos.kings(us);
        if kings != 0 {
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
    fn gen_quiet(&self, pos: &Position, list: &mut MoveList) {
        if self.quiet_needs_dedup(pos.side_to_move()) {
            let start = list.len();
            self.for_each_quiet(pos, |m| {
                if !list.as_slice()[start..].iter().any(|o| o.same_identity(&m)) {
                    list.push(m, 1);
                }
            });
        } else {
            self.for_each_quiet(pos, |m| list.push(m, 1));
        }
    }

    /// The number of non-capturing moves, without listing them when possible.
    fn count_quiet(&self, pos: &Position, scratch: &mut MoveList) -> u64 {
        let us = pos.side_to_move();
        if self.quiet_needs_dedup(us) {
            scratch.clear();
            self.gen_quiet(pos, scratch);
            return scratch.len() as u64;
        }
        let side = self.side(us);
        let t = self.tables();
        let occ = pos.occupied();
        let empty = self.board() & !occ;
        let men = pos.men(us);
        let mut n = 0u64;
        for d in Dirs::of(side.man_steps) {
            n += (t.shift(men, d) & empty).count_ones() as u64;
        }
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
            let back = opposite(d);
            for m in Squares(men & t.shift(men, back)) {
                let (_, block) = t.slide(d, m.index(), !men & self.board());
                n += (block & empty != 0) as u64;
            }
        }
        let kings = pos.kings(us);
        if kings != 0 {
            let range = self.king_range() as u32;
            for k in Squares(kings) {
                for d in Dirs::of(side.king_moves) {
                    n += t.slide(d, k.index(), occ).0.count_ones().min(range) as u64;
                }
            }
        }
        n
    }

    /// Fills `list` with the legal moves of `pos` (one entry per distinct
    /// origin, destination and captured set; see [`MoveList::path_counts`]).
    pub fn generate(&self, pos: &Position, list: &mut MoveList) {
        list.clear();
        if self.has_capture(pos) {
            self.gen_captures(pos, list);
        }
        if list.is_empty() || !self.mandatory() {
            self.gen_quiet(pos, list);
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
        let mut captures = 0;
        if self.has_capture(pos) {
            captures = match mode {
                CountMode::Paths => {
                    let mut sink = PathCount {
                        best: 0,
                        n: 0,
                        majority: self.majority() == Majority::MaxPieces,
                    };
                    self.capture_search(pos, &mut sink, !0);
                    sink.n
                }
                CountMode::Moves => {
                    scratch.clear();
                    self.gen_captures(pos, scratch);
                    scratch.len() as u64
                }
            };
            if captures != 0 && self.mandatory() {
                return captures;
            }
        }
        captures + self.count_quiet(pos, scratch)
    }

    /// Calls `f` with each legal move of `pos` and its number of paths, in
    /// the order of [`Rules::generate`]. Non-capturing moves come straight
    /// from the bitboards; captures (and non-capturing moves that need
    /// merging) go through `list`, which is overwritten. This is
    /// [`Rules::generate`] without filling a list in the common case, for
    /// perft and other tree walks.
    #[inline]
    pub fn for_each_move<F: FnMut(&Move, u32)>(&self, pos: &Position, list: &mut MoveList, mut f: F) {
        list.clear();
        if self.has_capture(pos) {
            self.gen_captures(pos, list);
        }
        let use_list = !list.is_empty() || self.quiet_needs_dedup(pos.side_to_move());
        if use_list {
            if list.is_empty() || !self.mandatory() {
                self.gen_quiet(pos, list);
            }
            for (m, &n) in list.as_slice().iter().zip(list.path_counts()) {
                f(m, n);
            }
        } else {
            self.for_each_quiet(pos, |m| f(&m, 1));
        }
    }

    /// Whether the side to move has a capture.
    pub fn has_capture(&self, pos: &Position) -> bool {
        let us = pos.side_to_move();
        let side = self.side(us);
        let t = self.tables();
        let men = pos.men(us);
        let enemy = pos.pieces(!us);
        let occ = pos.occupied();
        let empty = self.board() & !occ;
        // Men: an adjacent enemy with an empty square behind it, all men at once.
        for d in Dirs::of(side.man_captures) {
            if t.shift(t.shift(men, d) & enemy, d) & empty != 0 {
                return true;
            }
        }
        let kings = pos.kings(us);
        if kings == 0 || side.king_captures.is_empty() {
            return false;
        }
        if !self.king_capture_flying() {
            for d in Dirs::of(side.king_captures) {
                if t.shift(t.shift(kings, d) & enemy, d) & empty != 0 {
                    return true;
                }
            }
            return false;
        }
        // Flying kings: the first piece along a ray is an enemy with an
        // empty square behind it.
        for k in Squares(kings) {
            for d in Dirs::of(side.king_captures) {
                let (_, block) = t.slide(d, k.index(), occ);
                if block & enemy != 0 && t.shift(block, d) & empty != 0 {
                    return true;
                }
            }
        }
        false
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
        };
        self.capture_search(pos, &mut sink, m.from().bit());
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
