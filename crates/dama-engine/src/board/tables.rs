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

use crate::board::{AbsDir, DirSet};

/// Directions whose step increases the square index (N, E, NE, NW): along
/// them the nearest square of a ray is its lowest bit.
const FORWARD: u8 = (1 << AbsDir::N as u8) | (1 << AbsDir::E as u8) | (1 << AbsDir::NE as u8) | (1 << AbsDir::NW as u8);

/// The line (0 rank, 1 file, 2 diagonal a1–h8, 3 anti-diagonal a8–h1) of each direction.
pub const LINE_OF_DIR: [usize; 8] = [1, 1, 0, 0, 2, 3, 3, 2];

const A_FILE: u64 = 0x0101_0101_0101_0101;
const B_FILE: u64 = 0x0202_0202_0202_0202;
/// Multiplier that gathers the a-file's inner six squares into the top six bits.
const FILE_GATHER: u64 = 0x0004_0810_2040_8000;

/// A square number meaning "off the board" in the step tables.
pub const OFF: u8 = 64;

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
    /// Kindergarten line attacks on the 8×8 grid (see [`Tables::line_attacks`]):
    /// the line through each square without the square, for ranks and diagonals.
    line_mask: [[u64; 64]; 4],
    /// `[file][index]`: rank attacks of a slider on `file`, copied onto every rank.
    fill_up: [[u64; 64]; 8],
    /// `[rank][index]`: attacks along the a-file of a slider on `rank`.
    a_file: [[u64; 64]; 8],
    /// Per side and square: every square a king's move directions reach on
    /// an empty board (the union of its rays).
    king_reach: [[u64; 64]; 2],
    /// Per side: the lines (bit per [`LINE_OF_DIR`] value) of the kings' move directions.
    king_lines: [u8; 2],
    /// As `king_reach`, for the kings' capture directions.
    king_capture_reach: [[u64; 64]; 2],
    /// As `king_lines`, for the kings' capture directions.
    king_capture_lines: [u8; 2],
    /// The smallest of [`ORTHOGONAL`], [`DIAGONAL`] and [`ALL_DIRS`] that
    /// holds every direction a piece of either side moves or captures in.
    geometry: u8,
}

impl Tables {
    /// Builds the tables from the step table (`step[d][sq]`, [`OFF`] off
    /// the board), the kings' move and capture directions of each side
    /// (White first), and every direction any piece of either side uses.
    pub(crate) fn new(
        step: &[[u8; 64]; 8],
        king_moves: [DirSet; 2],
        king_captures: [DirSet; 2],
        used: DirSet,
    ) -> Tables {
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
        let mut line_mask = [[0u64; 64]; 4];
        for sq in 0..64i32 {
            let (f, r) = (sq % 8, sq / 8);
            for t in 0..64i32 {
                let (tf, tr) = (t % 8, t / 8);
                if t == sq {
                    continue;
                }
                let bit = 1u64 << t;
                if tr == r {
                    line_mask[0][sq as usize] |= bit;
                }
                if tf == f {
                    line_mask[1][sq as usize] |= bit;
                }
                if tf - f == tr - r {
                    line_mask[2][sq as usize] |= bit;
                }
                if tf - f == r - tr {
                    line_mask[3][sq as usize] |= bit;
                }
            }
        }
        // Slider attacks along one line of 8 squares, position `p`, occupancy `occ` (bit per square).
        let line = |p: i32, occ: u32| -> u32 {
            let mut a = 0u32;
            for step in [-1i32, 1] {
                let mut q = p + step;
                while (0..8).contains(&q) {
                    a |= 1 << q;
                    if occ & (1 << q) != 0 {
                        break;
                    }
                    q += step;
                }
            }
            a
        };
        let mut fill_up = [[0u64; 64]; 8];
        let mut a_file = [[0u64; 64]; 8];
        for p in 0..8i32 {
            for inner in 0..64u32 {
                let occ = inner << 1; // squares 1..=6 of the line
                let attacks = line(p, occ) as u64;
                // The index the lookup computes for this occupancy of rank 1.
                let rank_occ = occ as u64 & line_mask[0][p as usize];
                let idx = (rank_occ.wrapping_mul(B_FILE) >> 58) as usize;
                fill_up[p as usize][idx] = attacks.wrapping_mul(A_FILE);
                // The same along the a-file (square p of the line = rank p).
                let mut file_occ = 0u64;
                let mut file_att = 0u64;
                for q in 0..8 {
                    // The slider's own square may be in the index (it is at run time).
                    if occ & (1 << q) != 0 {
                        file_occ |= 1u64 << (8 * q);
                    }
                    if attacks & (1 << q) != 0 {
                        file_att |= 1u64 << (8 * q);
                    }
                }
                let idx = ((file_occ & A_FILE).wrapping_mul(FILE_GATHER) >> 58) as usize;
                a_file[p as usize][idx] = file_att;
            }
        }
        let mut king_reach = [[0u64; 64]; 2];
        let mut king_lines = [0u8; 2];
        let mut king_capture_reach = [[0u64; 64]; 2];
        let mut king_capture_lines = [0u8; 2];
        for c in 0..2 {
            for d in Dirs::of(king_moves[c]) {
                king_lines[c] |= 1 << LINE_OF_DIR[d];
                for sq in 0..64 {
                    king_reach[c][sq] |= ray[d][sq];
                }
            }
            for d in Dirs::of(king_captures[c]) {
                king_capture_lines[c] |= 1 << LINE_OF_DIR[d];
                for sq in 0..64 {
                    king_capture_reach[c][sq] |= ray[d][sq];
                }
            }
        }
        let used = used.0;
        let geometry = if used & !ORTHOGONAL == 0 {
            ORTHOGONAL
        } else if used & !DIAGONAL == 0 {
            DIAGONAL
        } else {
            ALL_DIRS
        };
        Tables {
            geometry,
            rot,
            dest,
            ray,
            line_mask,
            fill_up,
            a_file,
            king_reach,
            king_lines,
            king_capture_reach,
            king_capture_lines,
        }
    }

    /// The direction class the generator is compiled for on this board
    /// ([`ORTHOGONAL`], [`DIAGONAL`] or [`ALL_DIRS`]).
    #[inline(always)]
    pub(crate) fn geometry(&self) -> u8 {
        self.geometry
    }

    /// The squares a slider on `sq` attacks along `line` (see
    /// [`LINE_OF_DIR`]) on the full 8×8 grid: the empty squares up to and
    /// including the first occupied square on each side. Mask with
    /// [`Tables::ray`] to keep one direction on the real board.
    #[inline(always)]
    pub fn line_attacks(&self, line: usize, sq: u8, occ: u64) -> u64 {
        let sq = (sq & 63) as usize;
        if line == 1 {
            let f = sq & 7;
            let idx = ((((occ >> f) & A_FILE).wrapping_mul(FILE_GATHER)) >> 58) as usize;
            self.a_file[sq >> 3][idx] << f
        } else {
            let m = self.line_mask[line & 3][sq];
            let idx = ((occ & m).wrapping_mul(B_FILE) >> 58) as usize;
            self.fill_up[sq & 7][idx] & m
        }
    }

    /// The squares a flying king of side `side` (0 White, 1 Black) on `sq`
    /// reaches along its move directions, plus the first occupied square of
    /// each (mask with the empty squares for its moves).
    #[inline(always)]
    pub fn king_attacks(&self, side: usize, sq: u8, occ: u64) -> u64 {
        let side = side & 1;
        self.lines_attacks(self.king_lines[side], sq, occ) & self.king_reach[side][(sq & 63) as usize]
    }

    /// As [`Tables::king_attacks`], along the kings' capture directions.
    #[inline(always)]
    pub fn king_capture_attacks(&self, side: usize, sq: u8, occ: u64) -> u64 {
        let side = side & 1;
        self.lines_attacks(self.king_capture_lines[side], sq, occ) & self.king_capture_reach[side][(sq & 63) as usize]
    }

    /// The union of [`Tables::line_attacks`] over a set of lines (bit per line).
    #[inline(always)]
    fn lines_attacks(&self, lines: u8, sq: u8, occ: u64) -> u64 {
        let mut a = 0u64;
        if lines & 1 != 0 {
            a |= self.line_attacks(0, sq, occ);
        }
        if lines & 2 != 0 {
            a |= self.line_attacks(1, sq, occ);
        }
        if lines & 4 != 0 {
            a |= self.line_attacks(2, sq, occ);
        }
        if lines & 8 != 0 {
            a |= self.line_attacks(3, sq, occ);
        }
        a
    }

    /// Moves every square of `bb` (playable squares) one step in direction
    /// `d` (an [`AbsDir`] index), dropping those that leave the board.
    #[inline(always)]
    pub fn shift(&self, bb: u64, d: usize) -> u64 {
        bb.rotate_left(self.rot[d & 7]) & self.dest[d & 7]
    }

    /// Moves every square of `bb` one step against direction `d` (the
    /// same as shifting in the opposite direction).
    #[inline(always)]
    pub fn shift_back(&self, bb: u64, d: usize) -> u64 {
        bb.rotate_right(self.rot[d & 7]) & self.dest[opposite(d & 7)]
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

/// The direction classes the hot loops are compiled for (see
/// [`Tables::geometry`]): every direction any piece uses lies in one of them.
pub(crate) const ORTHOGONAL: u8 = 0x0F;
/// The four diagonal directions.
pub(crate) const DIAGONAL: u8 = 0xF0;
/// All eight directions.
pub(crate) const ALL_DIRS: u8 = 0xFF;

/// Evaluates the `bool` expression `$e` once for each direction index in
/// `$dirs` (a bit per [`AbsDir`] index), lowest first, with `$d` bound to
/// that index as a `const`, so that the code for each direction is compiled
/// with its rotation, mask and scan order as constants. `all` evaluates
/// every one and says whether any was true; `any` stops at the first true.
macro_rules! over_dirs {
    (all $dirs:expr, $d:ident => $e:expr) => {
        over_dirs!(@ |, $dirs, $d => $e)
    };
    (any $dirs:expr, $d:ident => $e:expr) => {
        over_dirs!(@ ||, $dirs, $d => $e)
    };
    (@ $op:tt, $dirs:expr, $d:ident => $e:expr) => {{
        let dirs: u8 = $dirs;
        false
            $op (dirs & 1 != 0 && { const $d: usize = 0; $e })
            $op (dirs & 2 != 0 && { const $d: usize = 1; $e })
            $op (dirs & 4 != 0 && { const $d: usize = 2; $e })
            $op (dirs & 8 != 0 && { const $d: usize = 3; $e })
            $op (dirs & 16 != 0 && { const $d: usize = 4; $e })
            $op (dirs & 32 != 0 && { const $d: usize = 5; $e })
            $op (dirs & 64 != 0 && { const $d: usize = 6; $e })
            $op (dirs & 128 != 0 && { const $d: usize = 7; $e })
    }};
}
pub(crate) use over_dirs;

/// Calls `f` with each direction index in `dirs` (a bit per [`AbsDir`]
/// index) that is also in the class `G`, lowest first (see [`over_dirs`]):
/// the directions outside `G` cost nothing, the others a bit test each.
#[inline(always)]
pub(crate) fn each_dir<const G: u8>(dirs: u8, mut f: impl FnMut(usize)) {
    let _ = over_dirs!(all dirs & G, D => {
        f(D);
        false
    });
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

/// The opposite of direction index `d` (N↔S, E↔W, NE↔SW, NW↔SE): with the
/// [`AbsDir`] numbering that is `d ^ 1` for the first four and `d ^ 3` for
/// the diagonals.
#[inline(always)]
pub(crate) fn opposite(d: usize) -> usize {
    d ^ (1 | ((d >> 1) & 2))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::shift;
    use crate::Rules;

    #[test]
    fn shifts_and_rays_match_the_step_table() {
        for (id, _) in crate::variant::BUILTIN {
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
                assert_eq!(opposite(i), d.opposite().index());
                assert_eq!(t.shift_back(rules.board(), i), rules.shift(rules.board(), d.opposite()));
            }
        }
    }

    #[test]
    fn every_direction_used_lies_in_the_direction_class() {
        for (id, _) in crate::variant::BUILTIN {
            let rules = Rules::builtin(id).unwrap();
            let g = rules.tables().geometry();
            assert!([ORTHOGONAL, DIAGONAL, ALL_DIRS].contains(&g), "{id}");
            for c in crate::Color::ALL {
                let s = rules.side(c);
                for set in [
                    s.man_steps,
                    s.man_captures,
                    s.man_friendly_jumps,
                    s.man_linear,
                    s.king_moves,
                    s.king_captures,
                ] {
                    assert_eq!(set.0 & !g, 0, "{id}: a direction outside the class {g:#x}");
                }
            }
        }
        let class = |id: &str| Rules::builtin(id).unwrap().tables().geometry();
        assert_eq!(class("dama"), ORTHOGONAL);
        assert_eq!(class("russian"), DIAGONAL);
        assert_eq!(class("dameo"), ALL_DIRS);
    }

    #[test]
    fn line_attacks_match_the_rays() {
        let rules = Rules::builtin("dama").unwrap();
        let t = rules.tables();
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        for _ in 0..2000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let occ = x & x.rotate_left(23);
            for sq in 0..64u8 {
                for (d, &line) in LINE_OF_DIR.iter().enumerate() {
                    let (free, block) = t.slide(d, sq, occ);
                    let want = free | block;
                    let got = t.line_attacks(line, sq, occ) & t.ray(d, sq);
                    assert_eq!(got, want, "sq {sq} dir {d} occ {occ:#x}");
                }
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
