//! Precomputed geometry for the move generator: one-step shifts of whole
//! bitboards and rays, per direction and square, built once by
//! [`crate::Rules::compile`] from the board shape.
//!
//! A step in direction `d` moves every square of a bitboard by a fixed
//! index offset (`+8` north, `-1` west, `+9` north-east, …), so it is one
//! rotation and one mask: the mask keeps the squares that really have a
//! neighbour on the board in the opposite direction, which drops both the
//! squares that wrapped round an edge and those off a smaller or
//! dark-squares-only board.

use crate::rules::OFF;
use crate::square::{AbsDir, DirSet};

/// Directions whose step increases the square index (N, E, NE, NW): along
/// them the nearest square of a ray is its lowest bit.
const FORWARD: u8 = (1 << AbsDir::N as u8) | (1 << AbsDir::E as u8) | (1 << AbsDir::NE as u8) | (1 << AbsDir::NW as u8);

/// Bitboard geometry of one board shape.
#[derive(Debug, Clone)]
pub struct Tables {
    /// Left rotation that moves a square one step in each direction.
    rot: [u32; 8],
    /// The squares that are one step (in each direction) from a playable square.
    dest: [u64; 8],
    /// `ray[d][sq]`: every square reached from `sq` by repeated steps in `d`
    /// (without `sq`), nearest first in the step table's order.
    ray: [[u64; 64]; 8],
}

impl Tables {
    /// Builds the tables from the step table (`step[d][sq]`, [`OFF`] off the board).
    pub(crate) fn new(step: &[[u8; 64]; 8]) -> Tables {
        let mut rot = [0u32; 8];
        let mut dest = [0u64; 8];
        let mut ray = [[0u64; 64]; 8];
        for d in AbsDir::ALL {
            let i = d.index();
            let (df, dr) = d.delta();
            rot[i] = (dr as i32 * 8 + df as i32).rem_euclid(64) as u32;
            for sq in 0..64usize {
                let t = step[i][sq];
                if t != OFF {
                    dest[i] |= 1u64 << t;
                }
                let mut r = 0u64;
                let mut s = t;
                while s != OFF {
                    r |= 1u64 << s;
                    s = step[i][s as usize];
                }
                ray[i][sq] = r;
            }
        }
        Tables { rot, dest, ray }
    }

    /// Moves every square of `bb` (playable squares) one step in direction
    /// `d` (an [`AbsDir`] index), dropping those that leave the board.
    #[inline(always)]
    pub fn shift(&self, bb: u64, d: usize) -> u64 {
        bb.rotate_left(self.rot[d & 7]) & self.dest[d & 7]
    }

    /// The square one step before `to` in direction `d` (`to` must have one).
    #[inline(always)]
    pub fn back(&self, to: u8, d: usize) -> u8 {
        (to.wrapping_sub(self.rot[d & 7] as u8)) & 63
    }

    /// The squares reached from `sq` by repeated steps in `d`.
    #[inline(always)]
    pub fn ray(&self, d: usize, sq: u8) -> u64 {
        self.ray[d & 7][(sq & 63) as usize]
    }

    /// Whether direction `d` increases the square index.
    #[inline(always)]
    pub fn forward(d: usize) -> bool {
        FORWARD & (1 << (d & 7)) != 0
    }

    /// The square of `bb` (a non-empty subset of a ray in `d`) nearest the ray's origin.
    #[inline(always)]
    pub fn nearest(bb: u64, d: usize) -> u8 {
        if Self::forward(d) {
            bb.trailing_zeros() as u8
        } else {
            63 - bb.leading_zeros() as u8
        }
    }

    /// Walking from `sq` in `d`: the empty squares before the first occupied
    /// one, and that occupied square's bit (0 if the ray runs off the board).
    #[inline(always)]
    pub fn slide(&self, d: usize, sq: u8, occ: u64) -> (u64, u64) {
        let r = self.ray(d, sq);
        let b = r & occ;
        if b == 0 {
            return (r, 0);
        }
        let f = Self::nearest(b, d);
        (r & !self.ray(d, f) & !(1u64 << f), 1u64 << f)
    }
}

/// The directions of a [`DirSet`], lowest index first, as `usize` indices.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Dirs(pub u8);

impl Dirs {
    #[inline(always)]
    pub(crate) fn of(set: DirSet) -> Dirs {
        Dirs(set.0)
    }
}

impl Iterator for Dirs {
    type Item = usize;
    #[inline(always)]
    fn next(&mut self) -> Option<usize> {
        if self.0 == 0 {
            None
        } else {
            let d = self.0.trailing_zeros() as usize;
            self.0 &= self.0 - 1;
            Some(d)
        }
    }
}

/// The squares of `bb` in order of distance along direction `d` from the
/// ray's origin (the order a piece meets them).
#[derive(Debug, Clone, Copy)]
pub(crate) struct AlongRay {
    bb: u64,
    forward: bool,
}

impl AlongRay {
    #[inline(always)]
    pub(crate) fn new(bb: u64, d: usize) -> AlongRay {
        AlongRay {
            bb,
            forward: Tables::forward(d),
        }
    }
}

impl Iterator for AlongRay {
    type Item = u8;
    #[inline(always)]
    fn next(&mut self) -> Option<u8> {
        if self.bb == 0 {
            return None;
        }
        let s = if self.forward {
            self.bb.trailing_zeros() as u8
        } else {
            63 - self.bb.leading_zeros() as u8
        };
        self.bb &= !(1u64 << s);
        Some(s)
    }
}

/// The opposite of direction index `d` (N↔S, E↔W, NE↔SW, NW↔SE).
#[inline(always)]
pub(crate) fn opposite(d: usize) -> usize {
    AbsDir::from_index(d).opposite().index()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::square::shift;
    use crate::Rules;

    #[test]
    fn shifts_and_rays_match_the_step_table() {
        for (id, _) in crate::load::BUILTIN {
            let rules = Rules::builtin(id).unwrap();
            let t = rules.tables();
            for d in AbsDir::ALL {
                let i = d.index();
                for sq in 0..64u8 {
                    let bit = if rules.board() & (1u64 << sq) != 0 {
                        1u64 << sq
                    } else {
                        0
                    };
                    let want = if rules.step(sq, d) == OFF || bit == 0 {
                        0
                    } else {
                        1u64 << rules.step(sq, d)
                    };
                    assert_eq!(t.shift(bit, i), want, "{id} {d:?} {sq}");
                    if want != 0 {
                        assert_eq!(t.back(rules.step(sq, d), i), sq);
                    }
                }
                assert_eq!(t.shift(rules.board(), i), rules.shift(rules.board(), d));
                assert_eq!(shift(rules.board(), d) & rules.board(), rules.shift(rules.board(), d));
                assert_eq!(opposite(opposite(i)), i);
            }
        }
    }

    #[test]
    fn slide_stops_at_the_first_piece() {
        let rules = Rules::builtin("dama").unwrap();
        let t = rules.tables();
        // From a1 north with a piece on a4: a2, a3 free; a4 blocks.
        let occ = 1u64 << 24;
        let (free, block) = t.slide(AbsDir::N.index(), 0, occ);
        assert_eq!(free, (1 << 8) | (1 << 16));
        assert_eq!(block, 1 << 24);
        // From h8 west, empty rank.
        let (free, block) = t.slide(AbsDir::W.index(), 63, 0);
        assert_eq!(free, 0x7F00_0000_0000_0000);
        assert_eq!(block, 0);
        let order: Vec<u8> = AlongRay::new(free, AbsDir::W.index()).collect();
        assert_eq!(order, vec![62, 61, 60, 59, 58, 57, 56]);
    }
}
