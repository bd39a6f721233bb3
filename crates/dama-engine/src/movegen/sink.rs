//! What receives the capture sequences the search finds: a move list, a
//! counter, or a collector of whole paths.

use crate::board::{Bits, MovePath, Ply, PlyList, Square};

/// Receives each complete capture sequence found.
pub(super) trait Sink<B> {
    /// Called for each jump of the current sequence (landing square,
    /// captured square) and undone by [`Sink::pop`]; only a sink that
    /// reports whole paths keeps them.
    #[inline(always)]
    fn push(&mut self, _landing: u8, _victim: u8) {}
    #[inline(always)]
    fn pop(&mut self) {}
    /// A complete sequence: the move, and its rank under the majority rule
    /// and the capture priorities (larger is preferred; the number of
    /// pieces taken when only the count matters).
    fn leaf(&mut self, m: Ply<B>, rank: u64);
    /// Whether the search is to stop at once (it then reports no more
    /// leaves): only [`Bounded`] ever stops, and for every other sink the
    /// test is compiled out.
    #[inline(always)]
    fn stopped(&self) -> bool {
        false
    }
}

/// How many jumps [`Bounded`] makes between two calls of its check: a
/// power of two, so that the test is a mask.
pub(crate) const CHECK_EVERY: u64 = 4096;

/// A sink that asks a check every [`CHECK_EVERY`] jumps whether to go on,
/// and stops the search when it says no: what bounds a capture search whose
/// tree can have millions of paths (a search's time and node limits).
pub(super) struct Bounded<'a, S> {
    pub(super) inner: S,
    /// Jumps made so far.
    pub(super) jumps: u64,
    /// Called with the jumps made so far; true stops the search.
    pub(super) check: &'a mut dyn FnMut(u64) -> bool,
    pub(super) stopped: bool,
}

impl<B: Bits, S: Sink<B>> Sink<B> for Bounded<'_, S> {
    #[inline(always)]
    fn push(&mut self, landing: u8, victim: u8) {
        self.inner.push(landing, victim);
        self.jumps += 1;
        if self.jumps & (CHECK_EVERY - 1) == 0 && (self.check)(self.jumps) {
            self.stopped = true;
        }
    }
    #[inline(always)]
    fn pop(&mut self) {
        self.inner.pop();
    }
    #[inline(always)]
    fn leaf(&mut self, m: Ply<B>, rank: u64) {
        if !self.stopped {
            self.inner.leaf(m, rank);
        }
    }
    #[inline(always)]
    fn stopped(&self) -> bool {
        self.stopped
    }
}

/// Collects moves into a list, merging paths of the same move and keeping
/// only the best-ranked captures when the rules rank them.
pub(super) struct ListSink<'a, B> {
    pub(super) list: &'a mut PlyList<B>,
    pub(super) best: u64,
    pub(super) ranked: bool,
}

impl<B: Bits> Sink<B> for ListSink<'_, B> {
    #[inline]
    fn leaf(&mut self, m: Ply<B>, rank: u64) {
        if self.ranked {
            let n = rank;
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

/// Counts capture paths (best-ranked only, when the rules rank them),
/// listing nothing.
pub(super) struct PathCount {
    pub(super) best: u64,
    pub(super) n: u64,
    pub(super) ranked: bool,
}

impl<B: Bits> Sink<B> for PathCount {
    #[inline(always)]
    fn leaf(&mut self, _: Ply<B>, rank: u64) {
        if self.ranked {
            let c = rank;
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

/// Collects up to `per_move` paths of each of a list of moves (the first by
/// landing squares), in one search over every piece: listing the paths of
/// all the moves costs time linear in the paths, and memory bounded by the
/// moves.
pub(super) struct AllPathsSink<'a, B> {
    /// The moves whose paths are wanted.
    pub(super) targets: PlyList<B>,
    /// The square of each bit.
    pub(super) square: &'a dyn Fn(u8) -> Square,
    /// The paths found of each target, in the targets' order.
    pub(super) out: Vec<Vec<MovePath>>,
    pub(super) per_move: usize,
    /// The current sequence: (landing, captured) per jump.
    pub(super) steps: Vec<(u8, u8)>,
    /// Where the rules rank captures: the rank a path needs to be legal.
    pub(super) best: Option<u64>,
}

impl<B: Bits> Sink<B> for AllPathsSink<'_, B> {
    fn push(&mut self, landing: u8, victim: u8) {
        self.steps.push((landing, victim));
    }
    fn pop(&mut self) {
        self.steps.pop();
    }
    fn leaf(&mut self, m: Ply<B>, rank: u64) {
        if self.best.is_some_and(|b| rank != b) {
            return;
        }
        let Some(i) = self.targets.find(&m, 0) else {
            return;
        };
        let Some(paths) = self.out.get_mut(i) else {
            return;
        };
        let (square, steps) = (self.square, &self.steps);
        let landings = || steps.iter().map(|&(l, _)| square(l));
        let path = || MovePath {
            from: square(m.from),
            landings: landings().collect(),
            captures: steps.iter().map(|&(_, v)| square(v)).collect(),
        };
        if paths.len() < self.per_move {
            paths.push(path());
            if paths.len() == self.per_move {
                paths.sort_by(|a, b| a.landings.cmp(&b.landings));
            }
            return;
        }
        // Full, and sorted: a path that comes before the last one kept takes
        // its place, so that the paths kept are the first by landing squares
        // (the first is the move's full notation, `Rules::format_move_full`).
        let Some(last) = paths.last() else {
            return;
        };
        if !landings().lt(last.landings.iter().copied()) {
            return;
        }
        paths.pop();
        let at = paths.partition_point(|p| p.landings.iter().copied().lt(landings()));
        paths.insert(at, path());
    }
}

/// Counts distinct moves (origin, destination, captured set), best-ranked
/// only when the rules rank them, listing nothing but the current piece's
/// moves: two paths can only be one move if they start on the same square,
/// and the search runs one piece at a time, so only that piece's moves are
/// kept (in a caller's list, reused from node to node, so that nothing is
/// allocated or cleared per node) to merge them.
pub(super) struct UniqueCount<'a, B> {
    pub(super) best: u64,
    pub(super) n: u64,
    ranked: bool,
    from: u8,
    /// The moves of the piece on `from` found so far.
    kept: &'a mut PlyList<B>,
}

impl<'a, B: Bits> UniqueCount<'a, B> {
    #[inline(always)]
    pub(super) fn new(ranked: bool, kept: &'a mut PlyList<B>) -> UniqueCount<'a, B> {
        kept.clear();
        UniqueCount {
            best: 0,
            n: 0,
            ranked,
            from: 0,
            kept,
        }
    }
}

impl<B: Bits> Sink<B> for UniqueCount<'_, B> {
    #[inline(always)]
    fn leaf(&mut self, m: Ply<B>, rank: u64) {
        if self.ranked {
            if rank < self.best {
                return;
            }
            if rank > self.best {
                self.best = rank;
                self.n = 0;
                self.kept.clear();
            }
        }
        if m.from != self.from {
            self.from = m.from;
            self.kept.clear();
        }
        if self.kept.find(&m, 0).is_some() {
            return;
        }
        self.kept.push(m, 1);
        self.n += 1;
    }
}
