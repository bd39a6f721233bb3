//! Precomputed geometry for the move generator: one-step shifts of whole
//! sets of squares and rays, per direction and square, built once by
//! [`crate::Rules::compile`] from the board shape, for the word `B` the
//! board's [`Layout`] chose.
//!
//! A step in direction `d` moves every square of a set by a fixed bit
//! offset (`+8` north on a small board, `+6` north-east on 10×10 dark
//! squares, …), so it is one rotation and one mask: the mask keeps the
//! squares that really have a neighbour on the board in the opposite
//! direction, which drops both the squares that wrapped round an edge and
//! those off the board.

use crate::board::bits::Bits;
use crate::board::{AbsDir, DirSet, Layout, Square};

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

/// Directions whose step increases the bit index (N, E, NE, NW): along
/// them the nearest square of a ray is its lowest bit.
const FORWARD: u8 = (1 << AbsDir::N as u8) | (1 << AbsDir::E as u8) | (1 << AbsDir::NE as u8) | (1 << AbsDir::NW as u8);

/// The line (0 rank, 1 file, 2 diagonal a1–h8, 3 anti-diagonal a8–h1) of each direction.
pub const LINE_OF_DIR: [usize; 8] = [1, 1, 0, 0, 2, 3, 3, 2];

const A_FILE: u64 = 0x0101_0101_0101_0101;
const B_FILE: u64 = 0x0202_0202_0202_0202;
/// Multiplier that gathers the a-file's inner six squares into the top six bits.
const FILE_GATHER: u64 = 0x0004_0810_2040_8000;

/// Kindergarten line attacks on the 8×8 grid of boards up to 8×8 (see
/// [`Tables::line_attacks`]).
#[derive(Debug, Clone)]
struct Lines {
    /// The line through each square without the square, for ranks and diagonals.
    mask: [[u64; 64]; 4],
    /// `[file][index]`: rank attacks of a slider on `file`, copied onto every rank.
    fill_up: [[u64; 64]; 8],
    /// `[rank][index]`: attacks along the a-file of a slider on `rank`.
    a_file: [[u64; 64]; 8],
}

impl Lines {
    fn new() -> Lines {
        let mut mask = [[0u64; 64]; 4];
        for sq in 0..64i32 {
            let (f, r) = (sq % 8, sq / 8);
            for t in 0..64i32 {
                let (tf, tr) = (t % 8, t / 8);
                if t == sq {
                    continue;
                }
                let bit = 1u64 << t;
                if tr == r {
                    mask[0][sq as usize] |= bit;
                }
                if tf == f {
                    mask[1][sq as usize] |= bit;
                }
                if tf - f == tr - r {
                    mask[2][sq as usize] |= bit;
                }
                if tf - f == r - tr {
                    mask[3][sq as usize] |= bit;
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
                let rank_occ = occ as u64 & mask[0][p as usize];
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
        Lines { mask, fill_up, a_file }
    }

    #[inline(always)]
    fn attacks(&self, line: usize, sq: u8, occ: u64) -> u64 {
        let sq = (sq & 63) as usize;
        if line == 1 {
            let f = sq & 7;
            let idx = ((((occ >> f) & A_FILE).wrapping_mul(FILE_GATHER)) >> 58) as usize;
            self.a_file[sq >> 3][idx] << f
        } else {
            let m = self.mask[line & 3][sq];
            let idx = ((occ & m).wrapping_mul(B_FILE) >> 58) as usize;
            self.fill_up[sq & 7][idx] & m
        }
    }
}

/// Bitboard geometry of one board shape, in the word `B`.
#[derive(Debug, Clone)]
pub(crate) struct Tables<B> {
    /// Left rotation that moves a square one step in each direction.
    rot: [u32; 8],
    /// The squares that are one step (in each direction) from a playable square.
    dest: [B; 8],
    /// `ray[d][sq]`: every square reached from `sq` by repeated steps in `d`
    /// (without `sq`).
    ray: [[B; 256]; 8],
    /// Line attacks on the 8×8 grid, on boards that use it (`grid8`).
    lines: Lines,
    grid8: bool,
    /// Per side and square: every square a king's move directions reach on
    /// an empty board (the union of its rays).
    king_reach: [[B; 256]; 2],
    /// Per side: the kings' move directions, and their lines (bit per [`LINE_OF_DIR`] value).
    king_dirs: [u8; 2],
    king_lines: [u8; 2],
    /// As `king_reach`, for the kings' capture directions.
    king_capture_reach: [[B; 256]; 2],
    /// As `king_dirs` and `king_lines`, for the kings' capture directions.
    king_capture_dirs: [u8; 2],
    king_capture_lines: [u8; 2],
    /// The smallest of [`ORTHOGONAL`], [`DIAGONAL`] and [`ALL_DIRS`] that
    /// holds every direction a piece of either side moves or captures in.
    geometry: u8,
}

impl<B: Bits> Tables<B> {
    /// Builds the tables of the board numbered by `layout` whose playable
    /// squares are `playable`, from `step` (the playable neighbour of a
    /// square in a direction), the kings' move and capture directions of
    /// each side (White first), and every direction any piece of either
    /// side uses.
    pub(crate) fn new(
        layout: &Layout,
        playable: crate::Bitboard,
        step: impl Fn(Square, AbsDir) -> Option<Square>,
        king_moves: [DirSet; 2],
        king_captures: [DirSet; 2],
        used: DirSet,
    ) -> Tables<B> {
        let mut rot = [0u32; 8];
        let mut dest = [B::ZERO; 8];
        let mut ray = [[B::ZERO; 256]; 8];
        let bit = |s: Square| layout.bit_of(s).unwrap_or(0);
        for d in AbsDir::ALL {
            let i = d.index();
            let (df, dr) = d.delta();
            // The rotation is the bit offset of one step of the step table
            // (two squares for an orthogonal step on a dark-squares board);
            // the layout makes it the same for every square (checked by
            // `shifts_and_rays_match_the_step_table`).
            let mut offset: Option<i32> = None;
            for sq in playable.iter() {
                if let Some(t) = step(sq, d) {
                    dest[i] |= B::bit(bit(t));
                    offset.get_or_insert(bit(t) as i32 - bit(sq) as i32);
                    debug_assert_eq!(offset, Some(bit(t) as i32 - bit(sq) as i32), "{d:?} from {sq}");
                }
                let mut r = B::ZERO;
                let mut s = step(sq, d);
                while let Some(t) = s {
                    r |= B::bit(bit(t));
                    s = step(t, d);
                }
                ray[i][bit(sq) as usize] = r;
            }
            let offset = offset.or_else(|| layout.offset(df, dr));
            rot[i] = offset.map_or(0, |o| o.rem_euclid(B::BITS as i32) as u32);
        }
        let grid8 = layout.width() == crate::board::Width::W64 && layout.is_grid8();
        let lines = Lines::new();
        let mut king_reach = [[B::ZERO; 256]; 2];
        let mut king_lines = [0u8; 2];
        let mut king_capture_reach = [[B::ZERO; 256]; 2];
        let mut king_capture_lines = [0u8; 2];
        for c in 0..2 {
            for d in Dirs::of(king_moves[c]) {
                king_lines[c] |= 1 << LINE_OF_DIR[d];
                for sq in 0..256 {
                    king_reach[c][sq] |= ray[d][sq];
                }
            }
            for d in Dirs::of(king_captures[c]) {
                king_capture_lines[c] |= 1 << LINE_OF_DIR[d];
                for sq in 0..256 {
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
            lines,
            grid8,
            king_reach,
            king_dirs: [king_moves[0].0, king_moves[1].0],
            king_lines,
            king_capture_reach,
            king_capture_dirs: [king_captures[0].0, king_captures[1].0],
            king_capture_lines,
        }
    }

    /// The direction class the generator is compiled for on this board
    /// ([`ORTHOGONAL`], [`DIAGONAL`] or [`ALL_DIRS`]).
    #[inline(always)]
    pub(crate) fn geometry(&self) -> u8 {
        self.geometry
    }

    /// The squares a flying king of side `side` (0 White, 1 Black) on `sq`
    /// reaches along its move directions, plus the first occupied square of
    /// each (mask with the empty squares for its moves).
    #[inline(always)]
    pub(crate) fn king_attacks(&self, side: usize, sq: u8, occ: B) -> B {
        let side = side & 1;
        if self.grid8 {
            B::from_low64(lines_attacks(&self.lines, self.king_lines[side], sq, occ.low64()))
                & self.king_reach[side][sq as usize]
        } else {
            self.rays_attacks(self.king_dirs[side], sq, occ)
        }
    }

    /// As [`Tables::king_attacks`], along the kings' capture directions.
    #[inline(always)]
    pub(crate) fn king_capture_attacks(&self, side: usize, sq: u8, occ: B) -> B {
        let side = side & 1;
        if self.grid8 {
            B::from_low64(lines_attacks(
                &self.lines,
                self.king_capture_lines[side],
                sq,
                occ.low64(),
            )) & self.king_capture_reach[side][sq as usize]
        } else {
            self.rays_attacks(self.king_capture_dirs[side], sq, occ)
        }
    }

    /// The union over the directions `dirs` of each ray from `sq` up to and
    /// including its first occupied square.
    #[inline(always)]
    fn rays_attacks(&self, dirs: u8, sq: u8, occ: B) -> B {
        let mut a = B::ZERO;
        let _ = over_dirs!(all dirs, D => {
            let (free, block) = self.slide(D, sq, occ);
            a |= free | block;
            false
        });
        a
    }

    /// The squares a slider on `sq` attacks along `line` (see
    /// [`LINE_OF_DIR`]): the empty squares up to and including the first
    /// occupied square on each side. Mask with [`Tables::ray`] to keep one
    /// direction.
    #[cfg(test)]
    pub(crate) fn line_attacks(&self, line: usize, sq: u8, occ: B) -> B {
        if self.grid8 {
            B::from_low64(self.lines.attacks(line, sq, occ.low64()))
        } else {
            let dirs = (0..8).filter(|&d| LINE_OF_DIR[d] == line).fold(0u8, |m, d| m | 1 << d);
            self.rays_attacks(dirs, sq, occ)
        }
    }

    /// Moves every square of `bb` (playable squares) one step in direction
    /// `d` (an [`AbsDir`] index), dropping those that leave the board.
    #[inline(always)]
    pub(crate) fn shift(&self, bb: B, d: usize) -> B {
        bb.rotl(self.rot[d & 7]) & self.dest[d & 7]
    }

    /// Moves every square of `bb` one step against direction `d` (the
    /// same as shifting in the opposite direction).
    #[inline(always)]
    pub(crate) fn shift_back(&self, bb: B, d: usize) -> B {
        bb.rotr(self.rot[d & 7]) & self.dest[opposite(d & 7)]
    }

    /// The square one step before `to` in direction `d` (`to` must have one).
    #[inline(always)]
    pub(crate) fn back(&self, to: u8, d: usize) -> u8 {
        ((to as u32).wrapping_sub(self.rot[d & 7]) & (B::BITS - 1)) as u8
    }

    /// The squares reached from `sq` by repeated steps in `d`.
    #[inline(always)]
    pub(crate) fn ray(&self, d: usize, sq: u8) -> B {
        self.ray[d & 7][sq as usize]
    }

    /// Whether direction `d` increases the bit index.
    #[inline(always)]
    pub(crate) fn forward(d: usize) -> bool {
        FORWARD & (1 << (d & 7)) != 0
    }

    /// The square of `bb` (a non-empty subset of a ray in `d`) nearest the ray's origin.
    #[inline(always)]
    pub(crate) fn nearest(bb: B, d: usize) -> u8 {
        if Self::forward(d) {
            bb.lowest() as u8
        } else {
            bb.highest() as u8
        }
    }

    /// Walking from `sq` in `d`: the empty squares before the first occupied
    /// one, and that occupied square's bit (empty if the ray runs off the board).
    #[inline(always)]
    pub(crate) fn slide(&self, d: usize, sq: u8, occ: B) -> (B, B) {
        let r = self.ray(d, sq);
        let b = r & occ;
        if b.is_empty() {
            return (r, B::ZERO);
        }
        let f = Self::nearest(b, d);
        (r & !self.ray(d, f) & !B::bit(f), B::bit(f))
    }
}

/// The union of the 8×8 line attacks over a set of lines (bit per line).
#[inline(always)]
fn lines_attacks(l: &Lines, lines: u8, sq: u8, occ: u64) -> u64 {
    let mut a = 0u64;
    if lines & 1 != 0 {
        a |= l.attacks(0, sq, occ);
    }
    if lines & 2 != 0 {
        a |= l.attacks(1, sq, occ);
    }
    if lines & 4 != 0 {
        a |= l.attacks(2, sq, occ);
    }
    if lines & 8 != 0 {
        a |= l.attacks(3, sq, occ);
    }
    a
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
pub(crate) struct AlongRay<B> {
    bb: B,
    forward: bool,
}

impl<B: Bits> AlongRay<B> {
    #[inline(always)]
    pub(crate) fn new(bb: B, d: usize) -> AlongRay<B> {
        AlongRay {
            bb,
            forward: Tables::<B>::forward(d),
        }
    }
}

impl<B: Bits> Iterator for AlongRay<B> {
    type Item = u8;
    #[inline(always)]
    fn next(&mut self) -> Option<u8> {
        if self.bb.is_empty() {
            return None;
        }
        let s = if self.forward {
            self.bb.lowest() as u8
        } else {
            self.bb.highest() as u8
        };
        self.bb &= !B::bit(s);
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
    use crate::board::{Ones, Width};
    use crate::rules::{with_pack, Pack};
    use crate::Rules;

    /// Checks shifts, backward steps and rays of one board against its step table.
    fn check_steps<B: Bits>(rules: &Rules, p: &Pack<B>) {
        let t = &p.tables;
        let id = rules.id();
        for d in AbsDir::ALL {
            let i = d.index();
            let mut all = B::ZERO;
            for sq in rules.board().iter() {
                let bit = p.layout.bit_of(sq).unwrap();
                let want = rules
                    .step(sq, d)
                    .map_or(B::ZERO, |t| B::bit(p.layout.bit_of(t).unwrap()));
                assert_eq!(t.shift(B::bit(bit), i), want, "{id} {d:?} {sq}");
                if let Some(to) = rules.step(sq, d) {
                    assert_eq!(t.back(p.layout.bit_of(to).unwrap(), i), bit);
                    all |= want;
                }
                let mut ray = B::ZERO;
                let mut s = rules.step(sq, d);
                while let Some(x) = s {
                    ray |= B::bit(p.layout.bit_of(x).unwrap());
                    s = rules.step(x, d);
                }
                assert_eq!(t.ray(i, bit), ray, "{id} {d:?} {sq}");
            }
            assert_eq!(t.shift(p.board, i), all);
            assert_eq!(opposite(i), d.opposite().index());
            assert_eq!(t.shift_back(p.board, i), t.shift(p.board, d.opposite().index()));
        }
    }

    fn big(text: &str) -> Rules {
        crate::load_text("big.toml", text, None).unwrap().rules
    }

    fn big_boards() -> Vec<Rules> {
        vec![
            big("extends = \"brazilian\"\nid = \"b10\"\nname = \"b10\"\n[board]\nwidth = 10\nheight = 10\n[setup]\nwhite = [\"a1-j4\"]\nblack = [\"a7-j10\"]\n"),
            big("extends = \"brazilian\"\nid = \"b12\"\nname = \"b12\"\n[board]\nwidth = 12\nheight = 12\n[setup]\nwhite = [\"a1-l5\"]\nblack = [\"a8-l12\"]\n"),
            big("extends = \"dama\"\nid = \"d10\"\nname = \"d10\"\n[board]\nwidth = 10\nheight = 10\n[setup]\nwhite = [\"a2-j3\"]\nblack = [\"a8-j9\"]\n"),
            big("extends = \"dameo\"\nid = \"m16\"\nname = \"m16\"\n[board]\nwidth = 16\nheight = 16\n[setup]\nwhite = [\"a1-p3\"]\nblack = [\"a14-p16\"]\n"),
            big("extends = \"russian\"\nid = \"r16\"\nname = \"r16\"\n[board]\nwidth = 16\nheight = 16\n[setup]\nwhite = [\"a1-p3\"]\nblack = [\"a14-p16\"]\n"),
            big("extends = \"dama\"\nid = \"d9x13\"\nname = \"d9x13\"\n[board]\nwidth = 9\nheight = 13\n[setup]\nwhite = [\"a2-i3\"]\nblack = [\"a11-i12\"]\n"),
        ]
    }

    #[test]
    fn shifts_and_rays_match_the_step_table() {
        let mut all: Vec<Rules> = crate::variant::BUILTIN
            .iter()
            .map(|(id, _)| Rules::builtin(id).unwrap())
            .collect();
        all.extend(big_boards());
        for rules in &all {
            with_pack!(rules, p => check_steps(rules, p));
        }
        let width = |r: &Rules| r.geometry().layout().width();
        let b = big_boards();
        assert_eq!(
            b.iter().map(width).collect::<Vec<_>>(),
            [
                Width::W64,
                Width::W128,
                Width::W128,
                Width::W256,
                Width::W256,
                Width::W128
            ]
        );
    }

    #[test]
    fn every_direction_used_lies_in_the_direction_class() {
        for (id, _) in crate::variant::BUILTIN {
            let rules = Rules::builtin(id).unwrap();
            let g = with_pack!(&rules, p => p.tables.geometry());
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
        let class = |id: &str| with_pack!(&Rules::builtin(id).unwrap(), p => p.tables.geometry());
        assert_eq!(class("dama"), ORTHOGONAL);
        assert_eq!(class("russian"), DIAGONAL);
        assert_eq!(class("dameo"), ALL_DIRS);
    }

    fn packed<B: Bits>(p: &Pack<B>, w: &[u64]) -> B {
        p.board & p.layout.pack::<B>(crate::Bitboard([w[0], w[1], w[2], w[3]]))
    }

    fn check_lines<B: Bits>(p: &Pack<B>, occs: &[B]) {
        let t = &p.tables;
        for &occ in occs {
            for bit in Ones(p.board) {
                for (d, &line) in LINE_OF_DIR.iter().enumerate() {
                    let (free, block) = t.slide(d, bit, occ);
                    let got = t.line_attacks(line, bit, occ) & t.ray(d, bit);
                    assert_eq!(got, free | block, "bit {bit} dir {d} occ {occ:?}");
                }
            }
        }
    }

    #[test]
    fn line_attacks_match_the_rays() {
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        let mut words = Vec::new();
        for _ in 0..400 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            words.push(x & x.rotate_left(23));
        }
        for rules in [Rules::builtin("dama").unwrap(), Rules::builtin("dameo").unwrap()]
            .into_iter()
            .chain(big_boards())
        {
            with_pack!(&rules, p => {
                let occs: Vec<_> = words
                    .chunks(4)
                    .map(|w| packed(p, w))
                    .collect();
                check_lines(p, &occs)
            });
        }
    }

    fn check_slide<B: Bits>(p: &Pack<B>) {
        let t = &p.tables;
        let bit = |s: &str| p.layout.bit_of(Square::parse_algebraic(s).unwrap()).unwrap();
        let set = |s: &[&str]| s.iter().fold(B::ZERO, |b, s| b | B::bit(bit(s)));
        // From a1 north with a piece on a4: a2, a3 free; a4 blocks.
        let (free, block) = t.slide(AbsDir::N.index(), bit("a1"), set(&["a4"]));
        assert_eq!(free, set(&["a2", "a3"]));
        assert_eq!(block, set(&["a4"]));
        // From h8 west, empty rank.
        let (free, block) = t.slide(AbsDir::W.index(), bit("h8"), B::ZERO);
        assert_eq!(free, set(&["a8", "b8", "c8", "d8", "e8", "f8", "g8"]));
        assert!(block.is_empty());
        let names: Vec<String> = AlongRay::new(free, AbsDir::W.index())
            .map(|b| p.layout.square_of(b).to_string())
            .collect();
        assert_eq!(names, ["g8", "f8", "e8", "d8", "c8", "b8", "a8"]);
    }

    #[test]
    fn slide_stops_at_the_first_piece() {
        let rules = Rules::builtin("dama").unwrap();
        with_pack!(&rules, p => check_slide(p));
        let rules = &big_boards()[2];
        with_pack!(rules, p => check_slide(p));
    }
}
