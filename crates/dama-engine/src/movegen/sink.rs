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

/// Collects every path of one move.
pub(super) struct PathSink<'a, B> {
    pub(super) target: &'a Ply<B>,
    /// The square of each bit.
    pub(super) square: &'a dyn Fn(u8) -> Square,
    pub(super) out: Vec<MovePath>,
    /// The current sequence: (landing, captured) per jump.
    pub(super) steps: Vec<(u8, u8)>,
    /// Where the rules rank captures: the rank a path needs to be legal.
    pub(super) best: Option<u64>,
}

impl<B: Bits> Sink<B> for PathSink<'_, B> {
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
        if m.same_identity(self.target) {
            self.out.push(MovePath {
                from: (self.square)(m.from),
                landings: self.steps.iter().map(|&(l, _)| (self.square)(l)).collect(),
                captures: self.steps.iter().map(|&(_, v)| (self.square)(v)).collect(),
            });
        }
    }
}

/// The most leaves of one piece [`UniqueCount`] keeps to merge paths.
const UNIQUE_KEPT: usize = 12;

/// Counts distinct moves (origin, destination, captured set), best-ranked
/// only when the rules rank them, listing nothing: two paths can only be one move if they
/// start on the same square, and the search runs one piece at a time, so
/// only the current piece's moves are kept to merge them. When a piece has
/// more than [`UNIQUE_KEPT`] moves, `overflow` tells the caller to count
/// with a list instead.
pub(super) struct UniqueCount<B> {
    pub(super) best: u64,
    pub(super) n: u64,
    pub(super) ranked: bool,
    pub(super) overflow: bool,
    from: u8,
    len: usize,
    kept: [(u8, B); UNIQUE_KEPT],
}

impl<B: Bits> UniqueCount<B> {
    pub(super) fn new(ranked: bool) -> UniqueCount<B> {
        UniqueCount {
            best: 0,
            n: 0,
            ranked,
            overflow: false,
            from: 0,
            len: 0,
            kept: [(0, B::ZERO); UNIQUE_KEPT],
        }
    }
}

impl<B: Bits> Sink<B> for UniqueCount<B> {
    #[inline(always)]
    fn leaf(&mut self, m: Ply<B>, rank: u64) {
        if self.ranked {
            if rank < self.best {
                return;
            }
            if rank > self.best {
                self.best = rank;
                self.n = 0;
                self.len = 0;
            }
        }
        if m.from != self.from {
            self.from = m.from;
            self.len = 0;
        }
        if self.kept[..self.len]
            .iter()
            .any(|&(to, c)| to == m.to && c == m.captured)
        {
            return;
        }
        if self.len == UNIQUE_KEPT {
            self.overflow = true;
            return;
        }
        self.kept[self.len] = (m.to, m.captured);
        self.len += 1;
        self.n += 1;
    }
}
