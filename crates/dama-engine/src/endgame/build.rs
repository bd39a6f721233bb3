//! Building the tables: every slice up to a number of pieces, smaller ones
//! first, each by retrograde analysis.
//!
//! One slice is solved in two passes:
//!
//! 1. **Forward, once per position.** The generator lists its moves. The
//!    end rules ([`judge`](super::judge)) decide the positions where the
//!    game is over. Captures and promotions change the material: their
//!    values are read from the slices already solved, and the best of them
//!    is kept. The other moves (quiet moves that crown nobody, and passes)
//!    stay in the slice: their number is the position's counter.
//! 2. **Backward, level by level.** The positions decided at distance `d`
//!    are taken in turn; for each, its predecessors in the slice are
//!    generated (see [`Unmoves`]): a loss makes each predecessor a win at
//!    `d + 1`, a win decrements its counter, and a predecessor whose
//!    counter reaches zero with nothing better outside the slice is a loss
//!    at `d + 1` (or later, if a capture lets it last longer). What is
//!    undecided at the fixpoint is a draw.
//!
//! Un-moving never decides a rule: a predecessor is a candidate (a piece
//! of the side that moved put back on a square it could come from on an
//! empty board) that the generator confirms, by listing that move in it.
//!
//! Where the rules keep the left-right mirror ([`Mirror`]), only one
//! position of each mirror pair is solved: the one with the smaller entry
//! (its canonical entry). Its moves and predecessors are those of its
//! image, mirrored, so the passes take up canonical entries only and
//! credit each predecessor to its canonical entry: a move `q → n` stands
//! for its image too, which is another move of the same canonical entry
//! when `q` is its own image and `n` is not (two moves decided at once),
//! and the same move when `n` is its own image (counted from one `q` of
//! the pair only). At the end each other entry copies its image's value.
//! The tables are the same as without it (a test compares them).

use std::sync::atomic::{AtomicU16, AtomicU64, Ordering};

use rayon::prelude::*;

use crate::board::{Bits, Color, Node, Ones, PlyList, Runs};
use crate::endgame::index::{Material, Shape, Squares};
use crate::endgame::judge::judge;
use crate::endgame::symmetry::Mirror;
use crate::endgame::value::{back, better, is_loss, is_win, loss, plies, win, Entry, DRAW, INVALID, UNKNOWN};
use crate::endgame::EgtbError;
use crate::rules::{Pack, Rules};

/// The solved slices, by material.
pub(crate) struct Solved {
    pieces: u8,
    slots: Vec<Option<(Shape, Vec<Entry>)>>,
}

impl Solved {
    pub(crate) fn new(pieces: u8) -> Solved {
        let n = pieces as usize + 1;
        Solved {
            pieces,
            slots: (0..n * n * n * n).map(|_| None).collect(),
        }
    }

    fn slot(&self, m: Material) -> Option<usize> {
        if m.pieces() > self.pieces {
            return None;
        }
        let n = self.pieces as usize + 1;
        Some(
            ((m.white_men as usize * n + m.white_kings as usize) * n + m.black_men as usize) * n
                + m.black_kings as usize,
        )
    }

    pub(crate) fn insert(&mut self, shape: Shape, data: Vec<Entry>) {
        if let Some(i) = self.slot(shape.material) {
            self.slots[i] = Some((shape, data));
        }
    }

    pub(crate) fn get(&self, m: Material) -> Option<&(Shape, Vec<Entry>)> {
        self.slots.get(self.slot(m)?)?.as_ref()
    }

    /// The entry of a node, if its slice is solved.
    #[inline]
    pub(crate) fn lookup<B: Bits>(&self, sq: &Squares, n: &Node<B>) -> Option<Entry> {
        let (shape, data) = self.get(Material::of(n))?;
        data.get(sq.index(shape, n) as usize).copied()
    }
}

/// The candidate origins of a quiet move, per side, per kind (man, king),
/// per destination bit: the squares from which the generator moves such a
/// piece there on an otherwise empty board.
pub(crate) struct Unmoves<B> {
    from: [[Vec<B>; 2]; 2],
    /// Per side: its men have moves that need other pieces (friendly
    /// jumps, linear moves), so any men square is a candidate.
    any_man: [bool; 2],
    men_squares: [B; 2],
    passes: bool,
}

impl<B: Bits> Unmoves<B> {
    pub(crate) fn new(rules: &Rules, p: &Pack<B>, sq: &Squares) -> Unmoves<B> {
        let mut from = [
            [vec![B::ZERO; 256], vec![B::ZERO; 256]],
            [vec![B::ZERO; 256], vec![B::ZERO; 256]],
        ];
        let mut list = PlyList::new();
        for c in Color::ALL {
            for king in [false, true] {
                for &f in sq.playable_bits() {
                    if !king && p.promotion[c.index()].has(f) {
                        continue;
                    }
                    let mut n = Node {
                        white: B::ZERO,
                        black: B::ZERO,
                        kings: if king { B::bit(f) } else { B::ZERO },
                        side: c,
                        runs: Runs::NONE,
                    };
                    match c {
                        Color::White => n.white = B::bit(f),
                        Color::Black => n.black = B::bit(f),
                    }
                    rules.generate_in(p, &n, &mut list);
                    for (m, _) in list.iter() {
                        if !m.is_capture() && !m.is_pass() && !m.promotes() {
                            from[c.index()][king as usize][m.to as usize] |= B::bit(f);
                        }
                    }
                }
            }
        }
        let any_man = Color::ALL.map(|c| {
            let s = rules.side(c);
            !s.man_friendly_jumps.is_empty() || !s.man_linear.is_empty()
        });
        Unmoves {
            from,
            any_man,
            men_squares: [p.board & !p.promotion[0], p.board & !p.promotion[1]],
            passes: rules.end().passes(),
        }
    }

    /// Calls `f` with every position of the same slice from which a legal
    /// non-capturing, non-crowning move (or a pass) leads to `n`.
    #[inline]
    pub(crate) fn each(&self, rules: &Rules, p: &Pack<B>, n: &Node<B>, mut f: impl FnMut(&Node<B>)) {
        let mover = !n.side;
        let empty = p.board & !n.occupied();
        for king in [false, true] {
            let pieces = if king { n.kings(mover) } else { n.men(mover) };
            for t in Ones(pieces) {
                let cands = if !king && self.any_man[mover.index()] {
                    self.men_squares[mover.index()] & empty
                } else {
                    self.from[mover.index()][king as usize][t as usize] & empty
                };
                for o in Ones(cands) {
                    let path = B::bit(t) | B::bit(o);
                    let mut q = *n;
                    q.side = mover;
                    match mover {
                        Color::White => q.white ^= path,
                        Color::Black => q.black ^= path,
                    }
                    if king {
                        q.kings ^= path;
                    }
                    if rules.plays_quiet_in(p, &q, o, t) {
                        f(&q);
                    }
                }
            }
        }
        if self.passes {
            let mut q = *n;
            q.side = mover;
            if !q.pieces(mover).is_empty() && !rules.has_capture_in(p, &q) && !rules.has_quiet_in(p, &q) {
                f(&q);
            }
        }
    }
}

/// What one slice's build reports as it goes.
pub(crate) struct SliceBuild<'a, B> {
    pub(crate) rules: &'a Rules,
    pub(crate) p: &'a Pack<B>,
    pub(crate) sq: &'a Squares,
    pub(crate) solved: &'a Solved,
    pub(crate) unmoves: &'a Unmoves<B>,
    /// The mirror, where the rules keep it.
    pub(crate) mirror: Option<&'a Mirror>,
}

/// Entries with the distance at which they are taken up.
type Levelled = Vec<(u16, u32)>;

/// Counters that never reach zero: the positions the end rules decided.
const DONE: u16 = u16::MAX;
const CHUNK: u64 = 1 << 12;

impl<B: Bits> SliceBuild<'_, B> {
    /// The entry of the image of `n` (entry `e`) under the mirror, if any.
    #[inline]
    fn image(&self, shape: &Shape, n: &Node<B>) -> Option<u64> {
        self.mirror.map(|m| self.sq.index(shape, &m.node(n)))
    }

    /// Solves one slice; `progress` is called with the entries done so far.
    pub(crate) fn solve(&self, shape: &Shape, progress: &(dyn Fn(u64) + Sync)) -> Result<Vec<Entry>, EgtbError> {
        let total = shape.per_side * 2;
        if total > u32::MAX as u64 {
            return Err(EgtbError::TooLarge {
                what: format!("the slice {}", shape.material),
                needed: total * 2,
                limit: u32::MAX as u64 * 2,
            });
        }
        let val: Vec<AtomicU16> = (0..total).map(|_| AtomicU16::new(UNKNOWN)).collect();
        let cnt: Vec<AtomicU16> = (0..total).map(|_| AtomicU16::new(0)).collect();
        let ext: Vec<AtomicU16> = (0..total).map(|_| AtomicU16::new(UNKNOWN)).collect();
        let done = AtomicU64::new(0);

        // Pass 1: forward.
        let chunks = total.div_ceil(CHUNK);
        let seeded: Vec<(Levelled, Levelled)> = (0..chunks)
            .into_par_iter()
            .map(|c| {
                let mut list = PlyList::new();
                let mut inside: Vec<u64> = Vec::new();
                let mut decided = Vec::new();
                let mut seeds = Vec::new();
                for e in c * CHUNK..((c + 1) * CHUNK).min(total) {
                    let i = e as usize;
                    let Some(n) = self.sq.node::<B>(shape, e) else {
                        val[i].store(INVALID, Ordering::Relaxed);
                        cnt[i].store(DONE, Ordering::Relaxed);
                        continue;
                    };
                    if self.image(shape, &n).is_some_and(|m| m < e) {
                        // Solved as its image; copied at the end.
                        cnt[i].store(DONE, Ordering::Relaxed);
                        continue;
                    }
                    if let Some(v) = judge(self.rules, self.p, &n, &mut list) {
                        val[i].store(v, Ordering::Relaxed);
                        cnt[i].store(DONE, Ordering::Relaxed);
                        if v != DRAW {
                            decided.push((plies(v), e as u32));
                        }
                        continue;
                    }
                    // `judge` left the legal moves in `list`.
                    let mut best = UNKNOWN;
                    inside.clear();
                    for (m, _) in list.iter() {
                        let child = n.after(m);
                        if m.is_pass() || (!m.is_capture() && !m.promotes()) {
                            inside.push(self.sq.index(shape, &child));
                        } else {
                            let v = self.solved.lookup(self.sq, &child).unwrap_or(UNKNOWN);
                            best = better(best, back(if v == UNKNOWN { DRAW } else { v }));
                        }
                    }
                    inside.sort_unstable();
                    inside.dedup();
                    if inside.is_empty() {
                        // Every move leaves the slice: its value is known.
                        val[i].store(best, Ordering::Relaxed);
                        cnt[i].store(DONE, Ordering::Relaxed);
                        if best != DRAW {
                            decided.push((plies(best), e as u32));
                        }
                        continue;
                    }
                    cnt[i].store(inside.len().min(DONE as usize - 1) as u16, Ordering::Relaxed);
                    ext[i].store(best, Ordering::Relaxed);
                    if is_win(best) {
                        seeds.push((plies(best), e as u32));
                    }
                }
                let d = done.fetch_add(((c + 1) * CHUNK).min(total) - c * CHUNK, Ordering::Relaxed);
                progress(d / 2);
                (decided, seeds)
            })
            .collect();
        let mut levels: Vec<Vec<u32>> = Vec::new();
        let mut seeds: Vec<Vec<u32>> = Vec::new();
        let push = |levels: &mut Vec<Vec<u32>>, d: u16, e: u32| {
            let d = d as usize;
            if levels.len() <= d {
                levels.resize_with(d + 1, Vec::new);
            }
            levels[d].push(e);
        };
        for (dec, sd) in seeded {
            for (d, e) in dec {
                push(&mut levels, d, e);
            }
            for (d, e) in sd {
                push(&mut seeds, d, e);
            }
        }

        // Pass 2: backward, one distance at a time.
        let mut level = 0usize;
        while level < levels.len() || level < seeds.len() {
            let mut cur = match levels.get_mut(level) {
                Some(l) => std::mem::take(l),
                None => Vec::new(),
            };
            if let Some(s) = seeds.get_mut(level) {
                for e in std::mem::take(s) {
                    let w = win(level as u16);
                    if val[e as usize]
                        .compare_exchange(UNKNOWN, w, Ordering::Relaxed, Ordering::Relaxed)
                        .is_ok()
                    {
                        cur.push(e);
                    }
                }
            }
            let next: Vec<Vec<(u16, u32)>> = cur
                .par_chunks(1 << 10)
                .map(|chunk| {
                    let mut out = Vec::new();
                    for &e in chunk {
                        let v = val[e as usize].load(Ordering::Relaxed);
                        let Some(n) = self.sq.node::<B>(shape, e as u64) else {
                            continue;
                        };
                        let d = plies(v) + 1;
                        // A position its own image: each predecessor pair
                        // is one move of the canonical one, counted once.
                        let symmetric = self.image(shape, &n) == Some(e as u64);
                        self.unmoves.each(self.rules, self.p, &n, |q| {
                            let mut qi = self.sq.index(shape, q);
                            // How many of the canonical predecessor's moves
                            // this one stands for.
                            let mut moves = 1;
                            if let Some(mi) = self.image(shape, q) {
                                if mi < qi {
                                    if symmetric {
                                        return;
                                    }
                                    // q moves to n as its image moves to n's image.
                                    qi = mi;
                                } else if mi == qi && !symmetric {
                                    // q is its own image: it moves to n and
                                    // to n's image, two moves decided at once.
                                    moves = 2;
                                }
                            }
                            let qi = qi as usize;
                            if is_loss(v) {
                                if val[qi]
                                    .compare_exchange(UNKNOWN, win(d), Ordering::Relaxed, Ordering::Relaxed)
                                    .is_ok()
                                {
                                    out.push((d, qi as u32));
                                }
                            } else if cnt[qi].fetch_sub(moves, Ordering::Relaxed) == moves {
                                let x = ext[qi].load(Ordering::Relaxed);
                                if x == UNKNOWN || is_loss(x) {
                                    let dl = if x == UNKNOWN { d } else { d.max(plies(x)) };
                                    if val[qi]
                                        .compare_exchange(UNKNOWN, loss(dl), Ordering::Relaxed, Ordering::Relaxed)
                                        .is_ok()
                                    {
                                        out.push((dl, qi as u32));
                                    }
                                }
                            }
                        });
                    }
                    out
                })
                .collect();
            for out in next {
                for (d, e) in out {
                    push(&mut levels, d, e);
                }
            }
            level += 1;
        }
        if self.mirror.is_some() {
            // Each entry solved as its image takes its image's value.
            (0..chunks).into_par_iter().for_each(|c| {
                for e in c * CHUNK..((c + 1) * CHUNK).min(total) {
                    let Some(n) = self.sq.node::<B>(shape, e) else {
                        continue;
                    };
                    if let Some(m) = self.image(shape, &n).filter(|&m| m < e) {
                        val[e as usize].store(val[m as usize].load(Ordering::Relaxed), Ordering::Relaxed);
                    }
                }
            });
        }
        Ok(val
            .into_iter()
            .map(|v| match v.into_inner() {
                UNKNOWN => DRAW,
                v => v,
            })
            .collect())
    }
}
