//! The generator's own position and move: [`Node`] and [`Ply`], in the
//! board's bit numbering (see [`crate::board::Layout`]) and the word it
//! is compiled for. [`crate::Position`] and [`crate::Move`] are the same
//! thing over the 256-bit [`crate::Bitboard`] of squares.

use crate::board::bits::Bits;
use crate::board::Color;
use crate::board::Ones;

/// Who stands where, and whose turn it is. Playing a move is a few XORs,
/// and undoing it is the same XORs again (but for the king runs, which a
/// variant without `kings.max_consecutive_moves` never has).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct Node<B> {
    pub(crate) white: B,
    pub(crate) black: B,
    pub(crate) kings: B,
    pub(crate) side: Color,
    /// The king runs of `kings.max_consecutive_moves` (all zero without it).
    pub(crate) runs: Runs,
}

/// Per side (White first), the king that made its side's last
/// non-capturing moves and how many it made in a row, for
/// `kings.max_consecutive_moves` (Frisian). A capture or a move by another
/// piece of the side ends the run; a side without men has none (the limit
/// does not apply to it), and neither has a side whose running king was
/// captured. All zero in a variant without the limit, so that its
/// positions, their equality and their hash are what they always were.
///
/// The fields take no room: they fill the padding after `side` in every
/// word (a `Node<u64>` is 32 bytes with or without them).
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Runs {
    /// The running king's square (its bit in the node's numbering), per side.
    pub(crate) sq: [u8; 2],
    /// How many non-capturing moves in a row it made, per side (0: no run).
    pub(crate) n: [u8; 2],
    /// Whether playing a move advances the runs: set in the positions of a
    /// variant with the limit (its start, its FEN, the generator's nodes),
    /// and not part of a position's identity.
    pub(crate) track: bool,
}

impl PartialEq for Runs {
    fn eq(&self, o: &Runs) -> bool {
        self.sq == o.sq && self.n == o.n
    }
}

impl Eq for Runs {}

impl std::hash::Hash for Runs {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        self.sq.hash(h);
        self.n.hash(h);
    }
}

impl Runs {
    /// No run, and moves advance none.
    pub(crate) const NONE: Runs = Runs {
        sq: [0; 2],
        n: [0; 2],
        track: false,
    };

    /// The run of side `i` (0 White), if any: the king's square and the count.
    #[inline(always)]
    pub(crate) fn of(&self, i: usize) -> Option<(u8, u8)> {
        let i = i & 1;
        (self.n[i] != 0).then_some((self.sq[i], self.n[i]))
    }

    /// Ends the run of side `i`.
    #[inline(always)]
    pub(crate) fn clear(&mut self, i: usize) {
        self.sq[i & 1] = 0;
        self.n[i & 1] = 0;
    }

    /// The runs after `mover` played a move from `from` to `to`: the
    /// moving king's run goes on or starts with a non-capturing king move
    /// (`king_quiet`) and ends with any other move; a side without men
    /// (`mover_has_no_men`) has no run, and the other side's run ends
    /// when `other_ends` (its running king was captured, or it has no men).
    #[inline(never)]
    pub(crate) fn advanced(
        mut self,
        mover: Color,
        king_quiet: bool,
        from: u8,
        to: u8,
        mover_has_no_men: bool,
        other_ends: bool,
    ) -> Runs {
        let (i, o) = (mover.index(), (!mover).index());
        if king_quiet && !mover_has_no_men {
            let n = match self.of(i) {
                Some((sq, n)) if sq == from => n.saturating_add(1),
                _ => 1,
            };
            self.sq[i & 1] = to;
            self.n[i & 1] = n;
        } else {
            self.clear(i);
        }
        if other_ends {
            self.clear(o);
        }
        self
    }

    /// The same runs with every square mapped by `f` (from one numbering to another).
    #[inline]
    pub(crate) fn map(&self, f: impl Fn(u8) -> u8) -> Runs {
        let mut r = *self;
        for i in 0..2 {
            if r.n[i] != 0 {
                r.sq[i] = f(r.sq[i]);
            }
        }
        r
    }
}

const KING: u8 = 1;
const PROMOTES: u8 = 2;
const CAPTURE: u8 = 4;
const PASS: u8 = 8;

/// A move: its origin, destination and the set of pieces it captures
/// (rules.md A12: paths that differ only in the intermediate landing
/// squares are one move).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct Ply<B> {
    pub(crate) captured: B,
    pub(crate) captured_kings: B,
    pub(crate) from: u8,
    pub(crate) to: u8,
    pub(crate) flags: u8,
}

impl<B: Bits> Ply<B> {
    /// A non-capturing move.
    #[inline(always)]
    pub(crate) fn quiet(from: u8, to: u8, king: bool, promotes: bool) -> Ply<B> {
        Ply {
            captured: B::ZERO,
            captured_kings: B::ZERO,
            from,
            to,
            flags: (king as u8) | ((promotes as u8) << 1),
        }
    }

    /// A capturing move.
    #[inline(always)]
    pub(crate) fn capture(from: u8, to: u8, king: bool, promotes: bool, captured: B, captured_kings: B) -> Ply<B> {
        Ply {
            captured,
            captured_kings,
            from,
            to,
            flags: (king as u8) | ((promotes as u8) << 1) | CAPTURE,
        }
    }

    /// A pass (`end.no_legal_move = "pass"`): the turn goes to the other
    /// side and nothing moves. Its origin and destination are the same
    /// square (bit 0), so playing it toggles no piece: only the side to
    /// move changes, and no other code needs to know it is special.
    #[inline(always)]
    pub(crate) fn pass() -> Ply<B> {
        Ply {
            captured: B::ZERO,
            captured_kings: B::ZERO,
            from: 0,
            to: 0,
            flags: PASS,
        }
    }

    /// Whether this is a pass.
    #[inline(always)]
    pub(crate) fn is_pass(&self) -> bool {
        self.flags & PASS != 0
    }

    #[inline(always)]
    pub(crate) fn is_capture(&self) -> bool {
        self.flags & CAPTURE != 0
    }
    #[inline(always)]
    pub(crate) fn is_king_move(&self) -> bool {
        self.flags & KING != 0
    }
    #[inline(always)]
    pub(crate) fn promotes(&self) -> bool {
        self.flags & PROMOTES != 0
    }
    /// The identity key: origin, destination, captured set.
    #[inline(always)]
    pub(crate) fn same_identity(&self, o: &Ply<B>) -> bool {
        self.from == o.from && self.to == o.to && self.captured == o.captured
    }
}

impl<B: Bits> Node<B> {
    #[inline(always)]
    pub(crate) fn side_to_move(&self) -> Color {
        self.side
    }
    #[inline(always)]
    pub(crate) fn pieces(&self, c: Color) -> B {
        match c {
            Color::White => self.white,
            Color::Black => self.black,
        }
    }
    #[inline(always)]
    pub(crate) fn men(&self, c: Color) -> B {
        self.pieces(c) & !self.kings
    }
    #[inline(always)]
    pub(crate) fn kings(&self, c: Color) -> B {
        self.pieces(c) & self.kings
    }
    #[inline(always)]
    pub(crate) fn all_kings(&self) -> B {
        self.kings
    }
    #[inline(always)]
    pub(crate) fn occupied(&self) -> B {
        self.white | self.black
    }

    /// XORs the changes `m` makes for `mover` into the sets.
    #[inline(always)]
    fn toggle(&mut self, m: &Ply<B>, mover: Color) {
        let path = B::bit(m.from) ^ B::bit(m.to);
        let (us, them) = match mover {
            Color::White => (&mut self.white, &mut self.black),
            Color::Black => (&mut self.black, &mut self.white),
        };
        *us ^= path;
        *them ^= m.captured;
        let mut k = m.captured_kings;
        if m.is_king_move() {
            k ^= path;
        }
        if m.promotes() {
            k ^= B::bit(m.to);
        }
        self.kings ^= k;
    }

    /// Plays `m` (which must be legal here).
    #[inline(always)]
    pub(crate) fn play(&mut self, m: &Ply<B>) {
        let mover = self.side;
        self.toggle(m, mover);
        if self.runs.track {
            // Only plain values cross into the out-of-line update: a call
            // that took the node's address would keep every child node of
            // perft in memory instead of registers, in every variant.
            let o = (!mover).index();
            let other_ends = self.men(!mover).is_empty() || (self.runs.n[o] != 0 && m.captured.has(self.runs.sq[o]));
            self.runs = self.runs.advanced(
                mover,
                m.is_king_move() && !m.is_capture(),
                m.from,
                m.to,
                self.men(mover).is_empty(),
                other_ends,
            );
        }
        self.side = !mover;
    }

    /// Undoes `m`, which must be the move that led to this position. The
    /// king runs are not restored (a move does not say what they were).
    #[inline(always)]
    pub(crate) fn undo(&mut self, m: &Ply<B>) {
        self.side = !self.side;
        self.toggle(m, self.side);
    }

    /// The position after `m`.
    #[inline(always)]
    pub(crate) fn after(&self, m: &Ply<B>) -> Node<B> {
        let mut p = *self;
        p.play(m);
        p
    }

    /// The position after `m` in a variant without king runs (no node of
    /// it tracks any): [`Node::after`] without the test, for tree walks
    /// that chose the plain generator.
    #[inline(always)]
    pub(crate) fn after_untracked(&self, m: &Ply<B>) -> Node<B> {
        debug_assert!(!self.runs.track);
        let mut p = *self;
        p.toggle(m, p.side);
        p.side = !p.side;
        p
    }
}

impl IdentityIndex {
    fn clear(&mut self) {
        self.slots.iter_mut().for_each(|s| *s = 0);
        self.covered = 0;
    }

    /// Adds the moves of `moves` not yet in the table, growing it as needed.
    fn cover<B: Bits>(&mut self, moves: &[Ply<B>]) {
        if moves.len() * 2 > self.slots.len() {
            let size = (moves.len() * 4).next_power_of_two();
            self.slots.clear();
            self.slots.resize(size, 0);
            self.covered = 0;
        }
        let mask = self.slots.len() - 1;
        for (i, m) in moves.iter().enumerate().skip(self.covered) {
            let mut h = identity_hash(m) as usize & mask;
            while self.slots[h] != 0 {
                h = (h + 1) & mask;
            }
            // A list never holds 2^32 moves: each needs far more than a byte.
            self.slots[h] = u32::try_from(i + 1).unwrap_or(u32::MAX);
        }
        self.covered = moves.len();
    }

    /// The position of the first move of `moves` with the identity of `m`.
    fn lookup<B: Bits>(&self, moves: &[Ply<B>], m: &Ply<B>) -> Option<usize> {
        let mask = self.slots.len() - 1;
        let mut h = identity_hash(m) as usize & mask;
        loop {
            let s = self.slots[h] as usize;
            if s == 0 {
                return None;
            }
            if moves.get(s - 1).is_some_and(|o| o.same_identity(m)) {
                return Some(s - 1);
            }
            h = (h + 1) & mask;
        }
    }
}

/// A reusable list of moves, with how many distinct paths lead to each.
#[derive(Debug, Clone, Default)]
pub(crate) struct PlyList<B> {
    moves: Vec<Ply<B>>,
    paths: Vec<u32>,
    /// Where a list grows long (more than [`LINEAR_DEDUP`] moves), a hash
    /// index of its moves by identity, so that merging a capture path
    /// with its move costs the same however many moves are listed (a
    /// 16×16 variant can list millions of paths). Empty for short lists.
    index: IdentityIndex,
}

/// The most moves [`PlyList::find`] scans one by one: the traditional games
/// never list more, so they never build the index.
const LINEAR_DEDUP: usize = 64;

/// An open-addressing hash table of positions in a [`PlyList`], keyed by
/// each move's identity (origin, destination, captured set).
#[derive(Debug, Clone, Default)]
struct IdentityIndex {
    /// 0 = empty, else the position in the list plus one; the length is 0
    /// (no index) or a power of two at least twice `covered`.
    slots: Vec<u32>,
    /// How many moves of the list (from the first) are in the table.
    covered: usize,
}

/// The hash of a move's identity.
#[inline]
fn identity_hash<B: Bits>(m: &Ply<B>) -> u64 {
    let mut h = (m.from as u64) << 8 | m.to as u64;
    for sq in Ones(m.captured) {
        h = (h ^ sq as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
    (h ^ (h >> 29)).wrapping_mul(0xBF58_476D_1CE4_E5B9) ^ (h >> 32)
}

impl<B: Bits> PlyList<B> {
    pub(crate) fn new() -> PlyList<B> {
        PlyList {
            moves: Vec::with_capacity(64),
            paths: Vec::with_capacity(64),
            index: IdentityIndex::default(),
        }
    }
    #[inline(always)]
    pub(crate) fn clear(&mut self) {
        self.moves.clear();
        self.paths.clear();
        if self.index.covered != 0 {
            self.index.clear();
        }
    }
    #[inline(always)]
    pub(crate) fn push(&mut self, m: Ply<B>, paths: u32) {
        self.moves.push(m);
        self.paths.push(paths);
    }
    /// Adds a capture, merging it with an equal move already listed.
    #[inline(always)]
    pub(crate) fn push_dedup(&mut self, m: Ply<B>) {
        match self.find(&m, 0) {
            Some(i) => self.paths[i] = self.paths[i].saturating_add(1),
            None => self.push(m, 1),
        }
    }
    /// The position of a move listed at or after `start` with the identity
    /// of `m`. A short stretch is scanned; a long list is looked up in its
    /// hash index (built and extended here), so that listing `n` moves
    /// costs time linear in `n`, not quadratic.
    #[inline(always)]
    pub(crate) fn find(&mut self, m: &Ply<B>, start: usize) -> Option<usize> {
        if self.moves.len() - start <= LINEAR_DEDUP {
            return self.moves[start..]
                .iter()
                .position(|o| o.same_identity(m))
                .map(|i| i + start);
        }
        self.find_indexed(m, start)
    }
    #[inline(never)]
    fn find_indexed(&mut self, m: &Ply<B>, start: usize) -> Option<usize> {
        self.index.cover(&self.moves);
        self.index.lookup(&self.moves, m).filter(|&i| i >= start)
    }
    #[inline(always)]
    pub(crate) fn len(&self) -> usize {
        self.moves.len()
    }
    #[inline(always)]
    pub(crate) fn is_empty(&self) -> bool {
        self.moves.is_empty()
    }
    #[inline(always)]
    pub(crate) fn as_slice(&self) -> &[Ply<B>] {
        &self.moves
    }
    /// Moves and path counts together.
    #[inline(always)]
    pub(crate) fn iter(&self) -> impl Iterator<Item = (&Ply<B>, u32)> {
        self.moves.iter().zip(self.paths.iter().copied())
    }
}
