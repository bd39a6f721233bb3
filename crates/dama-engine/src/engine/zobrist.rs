//! Zobrist keys: a position's hash, updated move by move.

use std::sync::OnceLock;

use crate::board::{Color, Move, Position, Squares};
use crate::util::Rng;

/// Zobrist keys: one random number per (side, man or king, square), and
/// one for Black to move. The seed is fixed, so a position's key is the
/// same in every run and every program.
#[derive(Debug, Clone)]
pub struct Zobrist {
    pieces: [[u64; 64]; 4],
    black: u64,
}

impl Zobrist {
    fn build() -> Zobrist {
        let mut rng = Rng::new(0x00da_11a5_eed0_2025);
        let mut pieces = [[0u64; 64]; 4];
        for kind in pieces.iter_mut() {
            for k in kind.iter_mut() {
                *k = rng.next_u64();
            }
        }
        Zobrist {
            pieces,
            black: rng.next_u64(),
        }
    }

    /// The shared table.
    pub fn get() -> &'static Zobrist {
        static Z: OnceLock<Zobrist> = OnceLock::new();
        Z.get_or_init(Zobrist::build)
    }

    #[inline]
    fn piece(&self, c: Color, king: bool, sq: u8) -> u64 {
        self.pieces[c.index() * 2 + king as usize][(sq & 63) as usize]
    }

    /// The key of `pos`, computed from scratch.
    pub fn key(&self, pos: &Position) -> u64 {
        let mut k = 0;
        for c in Color::ALL {
            for s in Squares(pos.men(c)) {
                k ^= self.piece(c, false, s.index());
            }
            for s in Squares(pos.kings(c)) {
                k ^= self.piece(c, true, s.index());
            }
        }
        if pos.side_to_move() == Color::Black {
            k ^= self.black;
        }
        k
    }

    /// The key after `m` is played in `pos`, whose key is `key`.
    #[inline]
    pub fn key_after(&self, key: u64, pos: &Position, m: &Move) -> u64 {
        let us = pos.side_to_move();
        let king = m.is_king_move();
        let mut k = key ^ self.black;
        k ^= self.piece(us, king, m.from_index());
        k ^= self.piece(us, king || m.promotes(), m.to_index());
        for s in Squares(m.captured()) {
            k ^= self.piece(!us, m.captured_kings() & s.bit() != 0, s.index());
        }
        k
    }
}

/// The Zobrist key of `pos` (see [`Zobrist`]).
pub fn position_key(pos: &Position) -> u64 {
    Zobrist::get().key(pos)
}
