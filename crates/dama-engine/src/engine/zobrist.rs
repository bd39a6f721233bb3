//! Zobrist keys: a position's hash, updated move by move.

use std::sync::OnceLock;

use crate::board::{Bits, Color, Node, Ones, Ply, Position, Runs, Square};
use crate::rules::Pack;
use crate::util::Rng;

/// Zobrist keys: one random number per (side, man or king, square), and
/// one for Black to move. The seed is fixed, so a position's key is the
/// same in every run and every program. The squares of an 8×8 board draw
/// their numbers first, in the order they did when boards stopped at 8×8,
/// so their keys have not changed.
#[derive(Debug, Clone)]
pub struct Zobrist {
    pieces: Box<[[u64; 256]; 4]>,
    black: u64,
}

impl Zobrist {
    fn build() -> Zobrist {
        let mut rng = Rng::new(0x00da_11a5_eed0_2025);
        let mut pieces = Box::new([[0u64; 256]; 4]);
        for kind in pieces.iter_mut() {
            for i in 0..64u8 {
                let sq = Square::new(i % 8, i / 8).expect("on the 8×8 grid");
                kind[sq.index() as usize] = rng.next_u64();
            }
        }
        let black = rng.next_u64();
        for kind in pieces.iter_mut() {
            for (i, k) in kind.iter_mut().enumerate() {
                let sq = Square::from_index(i as u8);
                if sq.file() >= 8 || sq.rank() >= 8 {
                    *k = rng.next_u64();
                }
            }
        }
        Zobrist { pieces, black }
    }

    /// The shared table.
    pub fn get() -> &'static Zobrist {
        static Z: OnceLock<Zobrist> = OnceLock::new();
        Z.get_or_init(Zobrist::build)
    }

    #[inline(always)]
    fn piece(&self, c: Color, king: bool, sq: Square) -> u64 {
        self.pieces[c.index() * 2 + king as usize][sq.index() as usize]
    }

    /// The part of a key that says which king of side `i` made how many
    /// moves in a row (`kings.max_consecutive_moves`): 0 without a run, so
    /// that the keys of variants without the limit are what they were. Mixed
    /// from the three numbers rather than drawn from a table (the counts
    /// have no bound worth a table).
    #[inline]
    fn run(i: usize, sq: Square, n: u8) -> u64 {
        if n == 0 {
            return 0;
        }
        let mut z = 0x6b1d_5a3c_9e77_2f01u64 ^ ((i as u64) << 16 | (n as u64) << 8 | sq.index() as u64);
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31) | 1
    }

    /// The run part of a key, for runs whose squares `square` names.
    #[inline]
    fn runs(runs: &Runs, square: impl Fn(u8) -> Square) -> u64 {
        let mut k = 0;
        for i in 0..2 {
            if let Some((sq, n)) = runs.of(i) {
                k ^= Self::run(i, square(sq), n);
            }
        }
        k
    }

    /// The key of `pos`, computed from scratch.
    pub fn key(&self, pos: &Position) -> u64 {
        let mut k = 0;
        for c in Color::ALL {
            for s in pos.men(c).iter() {
                k ^= self.piece(c, false, s);
            }
            for s in pos.kings(c).iter() {
                k ^= self.piece(c, true, s);
            }
        }
        if pos.side_to_move() == Color::Black {
            k ^= self.black;
        }
        k ^ Self::runs(&pos.0.runs, Square::from_index)
    }

    /// [`Zobrist::key`] of a node of the generator (the same key as its position's).
    pub(crate) fn key_in<B: Bits>(&self, p: &Pack<B>, pos: &Node<B>) -> u64 {
        let mut k = 0;
        for c in Color::ALL {
            for b in Ones(pos.men(c)) {
                k ^= self.piece(c, false, p.square(b));
            }
            for b in Ones(pos.kings(c)) {
                k ^= self.piece(c, true, p.square(b));
            }
        }
        if pos.side_to_move() == Color::Black {
            k ^= self.black;
        }
        k ^ Self::runs(&pos.runs, |b| p.square(b))
    }

    /// [`Zobrist::key_after`] for a node and move of the generator.
    #[inline(always)]
    pub(crate) fn key_after_in<B: Bits>(&self, p: &Pack<B>, key: u64, pos: &Node<B>, m: &Ply<B>) -> u64 {
        let us = pos.side_to_move();
        let king = m.is_king_move();
        let mut k = key ^ self.black;
        k ^= self.piece(us, king, p.square(m.from));
        k ^= self.piece(us, king || m.promotes(), p.square(m.to));
        for b in Ones(m.captured) {
            k ^= self.piece(!us, m.captured_kings.has(b), p.square(b));
        }
        if pos.runs.track {
            let after = pos.after(m);
            k ^= Self::runs(&pos.runs, |b| p.square(b)) ^ Self::runs(&after.runs, |b| p.square(b));
        }
        k
    }
}

/// The Zobrist key of `pos` (see [`Zobrist`]).
pub fn position_key(pos: &Position) -> u64 {
    Zobrist::get().key(pos)
}
