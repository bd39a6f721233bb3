//! Material slices and the index of a position inside its slice.
//!
//! A slice is one material balance: White's men and kings, Black's men and
//! kings. Inside it each group of pieces is ranked by the combinatorial
//! number system over the squares it may stand on:
//!
//! 1. White's men over the playable squares that are not White's
//!    promotion squares (a man there would have been crowned), read from
//!    the compiled rules ([`Pack::promotion`]);
//! 2. Black's men likewise over theirs (a white man and a black man on one
//!    square make an index that names no position: it is marked invalid);
//! 3. White's kings over the playable squares the men left free;
//! 4. Black's kings over the squares left after that.
//!
//! The index is `((r1 · S2 + r2) · S3 + r3) · S4 + r4`, and the side to
//! move doubles it: White to move in the first half, Black in the second.

use std::fmt;

use crate::board::{Bits, Color, Node, Ones, Runs};
use crate::rules::Pack;

/// The most pieces a table may hold (the binomial table's width).
pub const MAX_EGTB_PIECES: u8 = 8;

/// One material balance: how many men and kings each side has.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Material {
    /// White's men.
    pub white_men: u8,
    /// White's kings.
    pub white_kings: u8,
    /// Black's men.
    pub black_men: u8,
    /// Black's kings.
    pub black_kings: u8,
}

impl Material {
    /// The number of pieces on the board.
    pub fn pieces(&self) -> u8 {
        self.white_men + self.white_kings + self.black_men + self.black_kings
    }

    /// The number of men on the board.
    pub fn men(&self) -> u8 {
        self.white_men + self.black_men
    }

    /// Every material with one to `pieces` pieces, in the order they are
    /// solved: fewer pieces first (a capture leads to fewer), then fewer
    /// men (a promotion turns a man into a king).
    pub fn up_to(pieces: u8) -> Vec<Material> {
        let mut out = Vec::new();
        for n in 1..=pieces {
            for wm in 0..=n {
                for wk in 0..=n - wm {
                    for bm in 0..=n - wm - wk {
                        let bk = n - wm - wk - bm;
                        out.push(Material {
                            white_men: wm,
                            white_kings: wk,
                            black_men: bm,
                            black_kings: bk,
                        });
                    }
                }
            }
        }
        out.sort_by_key(|m| (m.pieces(), m.men(), *m));
        out
    }

    /// Whether a game with this material can come to `other` (captures
    /// take pieces away, promotions turn men into kings): each side has no
    /// more men and no more pieces there, and no more kings than its kings
    /// and crowned men.
    pub fn reachable(&self, other: &Material) -> bool {
        let side = |m: u8, k: u8, m2: u8, k2: u8| m2 <= m && m2 + k2 <= m + k && k2 <= k + (m - m2);
        side(self.white_men, self.white_kings, other.white_men, other.white_kings)
            && side(self.black_men, self.black_kings, other.black_men, other.black_kings)
            && other.pieces() > 0
    }

    /// The other slices a game with this material can come to, in the
    /// order they are solved: the tables a build of this slice reads.
    ///
    /// ```
    /// let m: dama_engine::egtb::Material = "K v M".parse().unwrap();
    /// let deps: Vec<String> = m.dependencies().iter().map(|d| d.to_string()).collect();
    /// assert_eq!(deps, ["- v K", "K v -", "- v M", "K v K"]);
    /// ```
    pub fn dependencies(&self) -> Vec<Material> {
        Material::up_to(self.pieces())
            .into_iter()
            .filter(|m| m != self && self.reachable(m))
            .collect()
    }

    /// The file name of this slice's table: `m1k2-m0k1.egtb` (White's
    /// men and kings, then Black's).
    pub fn file_name(&self) -> String {
        format!(
            "m{}k{}-m{}k{}.egtb",
            self.white_men, self.white_kings, self.black_men, self.black_kings
        )
    }

    /// The material of a node.
    pub(crate) fn of<B: Bits>(n: &Node<B>) -> Material {
        Material {
            white_men: n.men(Color::White).ones() as u8,
            white_kings: n.kings(Color::White).ones() as u8,
            black_men: n.men(Color::Black).ones() as u8,
            black_kings: n.kings(Color::Black).ones() as u8,
        }
    }
}

impl std::str::FromStr for Material {
    type Err = String;

    /// `KKM v K` (as displayed: each side's kings then men, `-` for none;
    /// `v` or `vs` between, any case).
    fn from_str(text: &str) -> Result<Material, String> {
        let bad = || format!("`{text}` is not a material such as `KK v K` (kings K, men M, `-` for none)");
        let lower = text.to_ascii_lowercase();
        let (w, b) = lower
            .split_once(" vs ")
            .or_else(|| lower.split_once(" v "))
            .ok_or_else(bad)?;
        let side = |s: &str| -> Result<(u8, u8), String> {
            let s = s.trim();
            if s == "-" {
                return Ok((0, 0));
            }
            let (mut m, mut k) = (0u8, 0u8);
            for c in s.chars() {
                match c {
                    'k' => k = k.saturating_add(1),
                    'm' => m = m.saturating_add(1),
                    _ => return Err(bad()),
                }
            }
            Ok((m, k))
        };
        let (wm, wk) = side(w)?;
        let (bm, bk) = side(b)?;
        let m = Material {
            white_men: wm,
            white_kings: wk,
            black_men: bm,
            black_kings: bk,
        };
        if m.pieces() == 0 || m.pieces() > MAX_EGTB_PIECES {
            return Err(format!("a material has 1 to {MAX_EGTB_PIECES} pieces"));
        }
        Ok(m)
    }
}

impl fmt::Display for Material {
    /// `KKM v K`: White's kings then men, Black's kings then men; `-` for
    /// a side without pieces.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let side = |k: u8, m: u8| {
            let s = "K".repeat(k as usize) + &"M".repeat(m as usize);
            if s.is_empty() {
                "-".to_string()
            } else {
                s
            }
        };
        write!(
            f,
            "{} v {}",
            side(self.white_kings, self.white_men),
            side(self.black_kings, self.black_men)
        )
    }
}

/// The squares of a board as the index sees them, in the generator's
/// numbering: the playable squares in order, and each side's men squares.
#[derive(Debug, Clone)]
pub(crate) struct Squares {
    /// `binom[n][k]`: n choose k, for n up to 256 and k up to [`MAX_EGTB_PIECES`].
    binom: Vec<[u64; MAX_EGTB_PIECES as usize + 1]>,
    /// The playable squares' bits, in order.
    play: Vec<u8>,
    /// The index of each bit among the playable squares (255: not playable).
    play_idx: [u8; 256],
    /// Per side (White first), the bits a man may stand on, in order.
    men: [Vec<u8>; 2],
    /// Per side, the index of each bit among its men squares (255: none).
    men_idx: [[u8; 256]; 2],
}

/// The four group sizes of a slice, and its number of entries per side.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Shape {
    pub(crate) material: Material,
    sizes: [u64; 4],
    /// Entries per side to move (valid or not).
    pub(crate) per_side: u64,
}

impl Squares {
    pub(crate) fn new<B: Bits>(p: &Pack<B>) -> Squares {
        let mut binom = vec![[0u64; MAX_EGTB_PIECES as usize + 1]; 257];
        for n in 0..=256 {
            binom[n][0] = 1;
            for k in 1..=MAX_EGTB_PIECES as usize {
                binom[n][k] = if n == 0 {
                    0
                } else {
                    binom[n - 1][k - 1].saturating_add(binom[n - 1][k])
                };
            }
        }
        let play: Vec<u8> = Ones(p.board).collect();
        let mut play_idx = [255u8; 256];
        for (i, &b) in play.iter().enumerate() {
            play_idx[b as usize] = i as u8;
        }
        let mut men: [Vec<u8>; 2] = [Vec::new(), Vec::new()];
        let mut men_idx = [[255u8; 256]; 2];
        for c in 0..2 {
            men[c] = Ones(p.board & !p.promotion[c]).collect();
            for (i, &b) in men[c].iter().enumerate() {
                men_idx[c][b as usize] = i as u8;
            }
        }
        Squares {
            binom,
            play,
            play_idx,
            men,
            men_idx,
        }
    }

    /// n choose k, for k up to [`MAX_EGTB_PIECES`] (0 beyond: no slice
    /// has such a group, [`Squares::shape`] says so first).
    #[inline(always)]
    fn c(&self, n: usize, k: u8) -> u64 {
        self.binom[n.min(256)].get(k as usize).copied().unwrap_or(0)
    }

    /// The bits of the playable squares.
    pub(crate) fn playable_bits(&self) -> &[u8] {
        &self.play
    }

    /// The shape of a slice, or `None` when it has more pieces than a
    /// table may hold ([`MAX_EGTB_PIECES`]) or more entries than a `u64` counts.
    pub(crate) fn shape(&self, m: Material) -> Option<Shape> {
        if m.pieces() > MAX_EGTB_PIECES {
            return None;
        }
        let n = self.play.len();
        let men = (m.white_men + m.black_men) as usize;
        let sizes = [
            self.c(self.men[0].len(), m.white_men),
            self.c(self.men[1].len(), m.black_men),
            self.c(n.saturating_sub(men), m.white_kings),
            self.c(n.saturating_sub(men + m.white_kings as usize), m.black_kings),
        ];
        let per_side = sizes.iter().try_fold(1u64, |a, &s| a.checked_mul(s))?;
        Some(Shape {
            material: m,
            sizes,
            per_side,
        })
    }

    /// The number of positions of a slice, side to move left out: its
    /// entries without those where a white and a black man share a square.
    pub(crate) fn count(&self, s: &Shape) -> u64 {
        let m = s.material;
        let kings = s.sizes[2] * s.sizes[3];
        if m.white_men == 0 || m.black_men == 0 {
            return s.per_side;
        }
        // Pairs of men sets that do not meet, by the squares both sides'
        // men may use: choose how many of each side's men stand there.
        let both: Vec<u8> = self.men[0]
            .iter()
            .copied()
            .filter(|&b| self.men_idx[1][b as usize] != 255)
            .collect();
        let (nb, ow, ob) = (
            both.len(),
            self.men[0].len() - both.len(),
            self.men[1].len() - both.len(),
        );
        let mut pairs = 0u64;
        for iw in 0..=m.white_men {
            for ib in 0..=m.black_men {
                if (iw + ib) as usize > nb {
                    continue;
                }
                // iw white men and ib black men on distinct shared squares,
                // the rest on each side's own squares.
                let shared = self.c(nb, iw) * self.c(nb - iw as usize, ib);
                pairs += shared * self.c(ow, m.white_men - iw) * self.c(ob, m.black_men - ib);
            }
        }
        pairs * kings
    }

    /// The rank of a sorted list of indices in the combinatorial number system.
    #[inline(always)]
    fn rank(&self, idx: &[u8]) -> u64 {
        idx.iter()
            .enumerate()
            .map(|(i, &c)| self.binom[c as usize][i + 1])
            .sum()
    }

    /// The sorted indices of rank `r` for `k` items.
    #[inline(always)]
    fn unrank(&self, mut r: u64, k: u8, n: usize, out: &mut [u8]) {
        let mut top = n;
        for i in (0..k as usize).rev() {
            // The largest c < top with C(c, i+1) <= r.
            let mut c = top - 1;
            while self.binom[c][i + 1] > r {
                c -= 1;
            }
            out[i] = c as u8;
            r -= self.binom[c][i + 1];
            top = c;
        }
    }

    /// The index of `n` in the slice of shape `s`, or `None` when `n` is
    /// not a position of that slice (other material, or a man on a square
    /// no man of its side stands on): what a probe asks, so that a
    /// position is never indexed into a slice it does not belong to.
    #[inline]
    pub(crate) fn index_of<B: Bits>(&self, s: &Shape, n: &Node<B>) -> Option<u64> {
        if Material::of(n) != s.material {
            return None;
        }
        for c in [Color::White, Color::Black] {
            if Ones(n.men(c)).any(|b| self.men_idx[c.index()][b as usize] == 255) {
                return None;
            }
        }
        Some(self.index(s, n)).filter(|&i| i < 2 * s.per_side)
    }

    /// The index of `n` in its slice (side to move included: White's
    /// entries first), with the slice's shape. `n` must be a position of
    /// the slice ([`Squares::index_of`] checks it).
    #[inline]
    pub(crate) fn index<B: Bits>(&self, s: &Shape, n: &Node<B>) -> u64 {
        let mut buf = [0u8; MAX_EGTB_PIECES as usize];
        let mut occ = [0u8; MAX_EGTB_PIECES as usize];
        let mut nocc = 0;
        // Men.
        let mut r = [0u64; 4];
        for (g, c) in [(0usize, Color::White), (1, Color::Black)] {
            let mut k = 0;
            for b in Ones(n.men(c)) {
                buf[k] = self.men_idx[c.index()][b as usize];
                occ[nocc] = self.play_idx[b as usize];
                k += 1;
                nocc += 1;
            }
            r[g] = self.rank(&buf[..k]);
        }
        // Kings, each over the squares left free before it.
        for (g, c) in [(2usize, Color::White), (3, Color::Black)] {
            let mut k = 0;
            let base = nocc;
            for b in Ones(n.kings(c)) {
                let pi = self.play_idx[b as usize];
                let below = occ[..base].iter().filter(|&&o| o < pi).count() as u8;
                buf[k] = pi - below;
                occ[nocc] = pi;
                k += 1;
                nocc += 1;
            }
            r[g] = self.rank(&buf[..k]);
        }
        let i = ((r[0] * s.sizes[1] + r[1]) * s.sizes[2] + r[2]) * s.sizes[3] + r[3];
        match n.side {
            Color::White => i,
            Color::Black => s.per_side + i,
        }
    }

    /// [`Squares::node`] in the word of `p`.
    #[cfg(test)]
    pub(crate) fn node_in<B: Bits>(&self, _: &Pack<B>, s: &Shape, e: u64) -> Option<Node<B>> {
        self.node(s, e)
    }

    /// The node of entry `e` of a slice, or `None` for an entry that names
    /// no position (a white and a black man on one square).
    pub(crate) fn node<B: Bits>(&self, s: &Shape, e: u64) -> Option<Node<B>> {
        let m = s.material;
        let (side, mut i) = if e >= s.per_side {
            (Color::Black, e - s.per_side)
        } else {
            (Color::White, e)
        };
        let mut r = [0u64; 4];
        for g in (0..4).rev() {
            r[g] = i % s.sizes[g];
            i /= s.sizes[g];
        }
        let mut buf = [0u8; MAX_EGTB_PIECES as usize];
        let mut white = B::ZERO;
        let mut black = B::ZERO;
        let mut kings = B::ZERO;
        // Occupied playable indices (sorted before each kings group).
        let mut occ = [0u8; MAX_EGTB_PIECES as usize];
        let mut nocc = 0usize;
        for (g, c, k) in [(0usize, 0usize, m.white_men), (1, 1, m.black_men)] {
            self.unrank(r[g], k, self.men[c].len(), &mut buf);
            for &x in &buf[..k as usize] {
                let b = self.men[c][x as usize];
                let bit = B::bit(b);
                if !((white | black) & bit).is_empty() {
                    return None;
                }
                if c == 0 {
                    white |= bit;
                } else {
                    black |= bit;
                }
                occ[nocc] = self.play_idx[b as usize];
                nocc += 1;
            }
        }
        for (g, c, k) in [(2usize, 0usize, m.white_kings), (3, 1, m.black_kings)] {
            occ[..nocc].sort_unstable();
            let base = nocc;
            let free = self.play.len() - base;
            self.unrank(r[g], k, free, &mut buf);
            for &x in &buf[..k as usize] {
                // The x-th free playable index.
                let mut pi = x;
                for &o in &occ[..base] {
                    if o <= pi {
                        pi += 1;
                    }
                }
                occ[nocc] = pi;
                nocc += 1;
                let bit = B::bit(self.play[pi as usize]);
                kings |= bit;
                if c == 0 {
                    white |= bit;
                } else {
                    black |= bit;
                }
            }
        }
        Some(Node {
            white,
            black,
            kings,
            side,
            runs: Runs::NONE,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{with_pack, Rules};

    #[test]
    fn every_entry_round_trips() {
        for id in ["english", "dama", "russian"] {
            let rules = Rules::builtin(id).unwrap();
            with_pack!(rules, p => {
                let sq = Squares::new(p);
                for m in Material::up_to(3) {
                    let s = sq.shape(m).unwrap();
                    let mut valid = 0;
                    for e in 0..2 * s.per_side {
                        if let Some(n) = sq.node_in(p, &s, e) {
                            valid += 1;
                            assert_eq!(Material::of(&n), m);
                            assert_eq!(sq.index(&s, &n), e, "{id} {m}");
                            assert!((n.men(Color::White) & p.promotion[0]).is_empty());
                            assert!((n.men(Color::Black) & p.promotion[1]).is_empty());
                        }
                    }
                    assert_eq!(valid, 2 * sq.count(&s), "{id} {m}");
                }
            });
        }
    }
}
