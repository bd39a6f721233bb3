//! The one move generator: every variant, driven only by [`Rules`].

use crate::color::Color;
use crate::moves::{Move, MoveList, MovePath};
use crate::position::Position;
use crate::rules::{Rules, OFF};
use crate::spec::{Majority, MidCapturePromotion, Removal};
use crate::square::{AbsDir, DirSet, Square, Squares};

/// Receives each complete capture sequence found.
trait Sink {
    #[allow(clippy::too_many_arguments)]
    fn leaf(&mut self, m: Move, path: &[u8], victims: &[u8]);
}

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

struct PathSink<'a> {
    target: &'a Move,
    out: Vec<MovePath>,
}

impl Sink for PathSink<'_> {
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
    rules: &'r Rules,
    sink: &'s mut S,
    enemy: u64,
    enemy_kings: u64,
    occ: u64,
    captured: u64,
    captured_kings: u64,
    from: u8,
    start_king: bool,
    promoted: bool,
    man_dirs: DirSet,
    king_dirs: DirSet,
    promo: u64,
    immediate: bool,
    len: usize,
    path: [u8; 64],
    victims: [u8; 64],
}

impl<S: Sink> Dfs<'_, '_, S> {
    /// Tries every jump from `sq`; returns whether there was one.
    fn search(&mut self, sq: u8, king: bool, last: Option<AbsDir>) -> bool {
        let r = self.rules;
        let dirs = if king { self.king_dirs } else { self.man_dirs };
        let flying = king && r.king_capture_flying();
        let landing_any = king && r.landing_any();
        let mut any = false;
        for d in dirs.iter() {
            if r.no_reversal() && last == Some(d.opposite()) {
                continue;
            }
            let mut v = r.step(sq, d);
            if flying {
                while v != OFF && self.occ & (1u64 << v) == 0 {
                    v = r.step(v, d);
                }
            }
            if v == OFF || self.enemy & (1u64 << v) == 0 {
                continue;
            }
            let mut l = r.step(v, d);
            // Landing squares to skip: with `landing_must_continue`, those
            // from which the capture cannot go on, if another one can.
            let skip = if landing_any && r.landing_must_continue() {
                self.dead_ends(v, l, d)
            } else {
                0
            };
            while l != OFF && self.occ & (1u64 << l) == 0 {
                if skip & (1u64 << l) == 0 {
                    any = true;
                    self.jump(v, l, king, d);
                }
                if !landing_any {
                    break;
                }
                l = r.step(l, d);
            }
        }
        any
    }

    /// For a flying king that jumps `v` in direction `d`, first landing
    /// square `first`: the landing squares from which the capture cannot go
    /// on, when at least one landing square lets it go on (else 0).
    fn dead_ends(&self, v: u8, first: u8, d: AbsDir) -> u64 {
        let r = self.rules;
        let vb = 1u64 << v;
        let enemy = self.enemy & !vb;
        let occ = if self.immediate { self.occ & !vb } else { self.occ };
        let (mut dead, mut live) = (0u64, false);
        let mut l = first;
        while l != OFF && occ & (1u64 << l) == 0 {
            if self.king_can_jump(l, d, enemy, occ) {
                live = true;
            } else {
                dead |= 1u64 << l;
            }
            l = r.step(l, d);
        }
        if live {
            dead
        } else {
            0
        }
    }

    /// Whether a king on `sq`, having just jumped in direction `last`, can
    /// capture again given these enemy and occupied sets.
    fn king_can_jump(&self, sq: u8, last: AbsDir, enemy: u64, occ: u64) -> bool {
        let r = self.rules;
        for d in self.king_dirs.iter() {
            if r.no_reversal() && d == last.opposite() {
                continue;
            }
            let mut v = r.step(sq, d);
            if r.king_capture_flying() {
                while v != OFF && occ & (1u64 << v) == 0 {
                    v = r.step(v, d);
                }
            }
            if v == OFF || enemy & (1u64 << v) == 0 {
                continue;
            }
            let l = r.step(v, d);
            if l != OFF && occ & (1u64 << l) == 0 {
                return true;
            }
        }
        false
    }

    fn jump(&mut self, v: u8, l: u8, king: bool, d: AbsDir) {
        let vb = 1u64 << v;
        let saved = (self.enemy, self.occ, self.captured, self.captured_kings, self.promoted);
        self.enemy &= !vb;
        if self.immediate {
            self.occ &= !vb;
        }
        self.captured |= vb;
        self.captured_kings |= self.enemy_kings & vb;
        if self.len < 64 {
            self.path[self.len] = l;
            self.victims[self.len] = v;
        }
        self.len += 1;
        let crowned_here = !king && self.promo & (1u64 << l) != 0;
        let mode = self.rules.promote_mid_capture();
        let continued = if crowned_here && mode == MidCapturePromotion::Stop {
            false
        } else if crowned_here && mode == MidCapturePromotion::PromoteAndContinue {
            self.promoted = true;
            self.search(l, true, Some(d))
        } else {
            self.search(l, king, Some(d))
        };
        if !continued {
            let promotes = !self.start_king && (self.promoted || self.promo & (1u64 << l) != 0);
            let m = Move::capture(
                self.from,
                l,
                self.start_king,
                promotes,
                self.captured,
                self.captured_kings,
            );
            let n = self.len.min(64);
            self.sink.leaf(m, &self.path[..n], &self.victims[..n]);
        }
        self.len -= 1;
        (self.enemy, self.occ, self.captured, self.captured_kings, self.promoted) = saved;
    }
}

impl Rules {
    fn capture_search<S: Sink>(&self, pos: &Position, sink: &mut S, only_from: Option<u8>) {
        let us = pos.side_to_move();
        let side = self.side(us);
        let enemy = pos.pieces(!us);
        let mut dfs = Dfs {
            rules: self,
            sink,
            enemy,
            enemy_kings: enemy & pos.all_kings(),
            occ: pos.occupied(),
            captured: 0,
            captured_kings: 0,
            from: 0,
            start_king: false,
            promoted: false,
            man_dirs: side.man_captures,
            king_dirs: side.king_captures,
            promo: side.promotion,
            immediate: self.removal() == Removal::Immediate,
            len: 0,
            path: [0; 64],
            victims: [0; 64],
        };
        let all = pos.occupied();
        let mut pieces = pos.pieces(us);
        if let Some(f) = only_from {
            pieces &= 1u64 << f;
        }
        let kings = pos.all_kings();
        for sq in Squares(pieces) {
            let i = sq.index();
            let king = kings & sq.bit() != 0;
            if (king && side.king_captures.is_empty()) || (!king && side.man_captures.is_empty()) {
                continue;
            }
            dfs.from = i;
            dfs.start_king = king;
            dfs.occ = all & !sq.bit();
            dfs.search(i, king, None);
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
        self.capture_search(pos, &mut sink, None);
    }

    /// Appends the non-capturing moves.
    fn gen_quiet(&self, pos: &Position, list: &mut MoveList) {
        let us = pos.side_to_move();
        let side = self.side(us);
        let occ = pos.occupied();
        let empty = self.board() & !occ;
        let men = pos.men(us);
        let own = pos.pieces(us);
        let dedup = !side.man_friendly_jumps.is_empty() && !side.man_linear.is_empty();
        let start = list.len();
        let push = |list: &mut MoveList, m: Move| {
            if dedup && list.as_slice()[start..].iter().any(|o| o.same_identity(&m)) {
                return;
            }
            list.push(m, 1);
        };
        // Men's steps.
        for d in side.man_steps.iter() {
            let back = d.opposite();
            for t in Squares(self.shift(men, d) & empty) {
                let f = self.step(t.index(), back);
                push(list, Move::quiet(f, t.index(), false, side.promotion & t.bit() != 0));
            }
        }
        // Friendly jumps.
        if !side.man_friendly_jumps.is_empty() {
            let over_set = if self.friendly_jump_over_kings() { own } else { men };
            if self.friendly_jump_chain() {
                for m in Squares(men) {
                    let mut reached = 0u64;
                    let mut stack = [0u8; 64];
                    let mut n = 1;
                    stack[0] = m.index();
                    let occ2 = occ & !m.bit();
                    while n > 0 {
                        n -= 1;
                        let s = stack[n];
                        for d in side.man_friendly_jumps.iter() {
                            let o = self.step(s, d);
                            if o == OFF || over_set & (1u64 << o) == 0 {
                                continue;
                            }
                            let l = self.step(o, d);
                            if l == OFF || occ2 & (1u64 << l) != 0 || reached & (1u64 << l) != 0 || l == m.index() {
                                continue;
                            }
                            reached |= 1u64 << l;
                            // A man crowned on arrival stops there.
                            if side.promotion & (1u64 << l) == 0 && n < 64 {
                                stack[n] = l;
                                n += 1;
                            }
                        }
                    }
                    for t in Squares(reached) {
                        push(
                            list,
                            Move::quiet(m.index(), t.index(), false, side.promotion & t.bit() != 0),
                        );
                    }
                }
            } else {
                for d in side.man_friendly_jumps.iter() {
                    let back = d.opposite();
                    let over = self.shift(men, d) & over_set;
                    for t in Squares(self.shift(over, d) & empty) {
                        let f = self.step(self.step(t.index(), back), back);
                        push(list, Move::quiet(f, t.index(), false, side.promotion & t.bit() != 0));
                    }
                }
            }
        }
        // Linear moves: leap over an unbroken line of own men.
        for d in side.man_linear.iter() {
            for m in Squares(men & self.shift(men, d.opposite())) {
                // `m` has an own man next to it in direction d.
                let mut t = self.step(m.index(), d);
                while t != OFF && men & (1u64 << t) != 0 {
                    t = self.step(t, d);
                }
                if t != OFF && empty & (1u64 << t) != 0 {
                    push(
                        list,
                        Move::quiet(m.index(), t, false, side.promotion & (1u64 << t) != 0),
                    );
                }
            }
        }
        // Kings.
        let range = self.king_range();
        for k in Squares(pos.kings(us)) {
            for d in side.king_moves.iter() {
                let mut t = self.step(k.index(), d);
                let mut n = 0;
                while t != OFF && empty & (1u64 << t) != 0 && n < range {
                    push(list, Move::quiet(k.index(), t, true, false));
                    t = self.step(t, d);
                    n += 1;
                }
            }
        }
    }

    /// Fills `list` with the legal moves of `pos` (one entry per distinct
    /// origin, destination and captured set; see [`MoveList::path_counts`]).
    pub fn generate(&self, pos: &Position, list: &mut MoveList) {
        list.clear();
        self.gen_captures(pos, list);
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

    /// Whether the side to move has a capture.
    pub fn has_capture(&self, pos: &Position) -> bool {
        struct Any(bool);
        impl Sink for Any {
            fn leaf(&mut self, _: Move, _: &[u8], _: &[u8]) {
                self.0 = true;
            }
        }
        // Cheap bitboard test for men's short jumps first.
        let us = pos.side_to_move();
        let side = self.side(us);
        let men = pos.men(us);
        let enemy = pos.pieces(!us);
        let empty = self.board() & !pos.occupied();
        for d in side.man_captures.iter() {
            if self.shift(self.shift(men, d) & enemy, d) & empty != 0 {
                return true;
            }
        }
        if pos.kings(us) == 0 || side.king_captures.is_empty() {
            return false;
        }
        // Kings: a ray reaching an enemy with an empty square behind it.
        let occ = pos.occupied();
        for k in Squares(pos.kings(us)) {
            let occ = occ & !k.bit();
            for d in side.king_captures.iter() {
                let mut v = self.step(k.index(), d);
                if self.king_capture_flying() {
                    while v != OFF && occ & (1u64 << v) == 0 {
                        v = self.step(v, d);
                    }
                }
                if v != OFF && enemy & (1u64 << v) != 0 {
                    let l = self.step(v, d);
                    if l != OFF && occ & (1u64 << l) == 0 {
                        return true;
                    }
                }
            }
        }
        let _ = Any(false);
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
        self.capture_search(pos, &mut sink, Some(m.from_index()));
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
