//! How the move generator numbers a board's playable squares: the bit of
//! each square in the words it is compiled for.
//!
//! A step in one direction must move every square by the same number of
//! bits, so that a whole set steps with one rotation and one mask (see
//! [`crate::board::Tables`]). Two numberings have that property:
//!
//! - **rows**: bit `rank * stride + file`. Boards of at most 8×8 use stride
//!   8 (one `u64`, the same numbering on every small board); larger boards
//!   played on every square use their width.
//! - **dark rows**: for a board played on its dark squares only, bit
//!   `(rank * stride + file) / 2` with an odd stride (the width, or the
//!   width + 1 when it is even): a diagonal step then moves by half of
//!   `stride ± 1`, and the 50 squares of a 10×10 board fit in one `u64`
//!   (the layout of the fastest hand-written international engines, with
//!   one unused bit at the end of every other row).
//!
//! The layout with the fewest bits decides the word: `u64` up to 64 bits,
//! `u128` up to 128, the 256-bit [`crate::Bitboard`] above.

use crate::board::bits::{Bits, Ones};
use crate::board::{Bitboard, Square};

/// A bit index meaning "no bit" (a square that is not played on).
const NONE: u16 = u16::MAX;

/// The word the generator is compiled for on one board.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Width {
    /// One `u64`.
    W64,
    /// One `u128`.
    W128,
    /// 256 bits.
    W256,
}

impl Width {
    /// The number of bits.
    pub fn bits(self) -> u32 {
        match self {
            Width::W64 => 64,
            Width::W128 => 128,
            Width::W256 => 256,
        }
    }
}

/// The numbering of one board's squares (see the module docs).
#[derive(Debug, Clone)]
pub struct Layout {
    stride: u8,
    halved: bool,
    /// One more than the highest bit used.
    span: u16,
    width: Width,
    /// Square index → bit, or [`NONE`].
    bit: [u16; 256],
    /// Bit → square index (for bits that have one).
    square: [u8; 256],
}

impl Layout {
    /// The layout of a `width` × `height` board (both at most 16) whose
    /// playable squares are `playable`.
    pub(crate) fn new(width: u8, height: u8, playable: Bitboard) -> Layout {
        // The squares of one colour only (which colour does not matter:
        // every index then has the same parity).
        let colour = |s: Square| (s.file() + s.rank()) % 2;
        let first = playable.iter().next().map_or(0, colour);
        let dark_only = playable.iter().all(|s| colour(s) == first);
        let (stride, halved) = if width <= 8 && height <= 8 {
            (8u8, false)
        } else if dark_only {
            (width | 1, true)
        } else {
            (width, false)
        };
        let index = |s: Square| -> u16 {
            let raw = s.rank() as u16 * stride as u16 + s.file() as u16;
            if halved {
                raw / 2
            } else {
                raw
            }
        };
        let mut bit = [NONE; 256];
        let mut square = [0u8; 256];
        let mut span = 0u16;
        for s in playable.iter() {
            let i = index(s);
            bit[s.index() as usize] = i;
            square[i as usize] = s.index();
            span = span.max(i + 1);
        }
        let width = match span {
            0..=64 => Width::W64,
            65..=128 => Width::W128,
            _ => Width::W256,
        };
        Layout {
            stride,
            halved,
            span,
            width,
            bit,
            square,
        }
    }

    /// The word the generator uses on this board.
    pub fn width(&self) -> Width {
        self.width
    }

    /// Whether this is the 8-wide numbering of boards up to 8×8 (`rank * 8 + file`).
    pub(crate) fn is_grid8(&self) -> bool {
        self.stride == 8 && !self.halved
    }

    /// The bits used (one more than the highest).
    pub fn span(&self) -> u16 {
        self.span
    }

    /// The bit offset of one step of `(df, dr)`, if every such step between
    /// two playable squares moves by the same offset. On a dark-squares
    /// board an orthogonal step of one square has none (it lands on a light
    /// square), but the step of two squares that the step table uses there
    /// does: `stride` bits for two ranks, 1 bit for two files in the halved
    /// layout (16 and 2 on the 8×8 grid).
    pub(crate) fn offset(&self, df: i8, dr: i8) -> Option<i32> {
        let raw = dr as i32 * self.stride as i32 + df as i32;
        if self.halved {
            (raw % 2 == 0).then_some(raw / 2)
        } else {
            Some(raw)
        }
    }

    /// The bit of a playable square.
    #[inline]
    pub(crate) fn bit_of(&self, sq: Square) -> Option<u8> {
        let b = self.bit[sq.index() as usize];
        (b != NONE).then_some(b as u8)
    }

    /// The square of a bit (which must be one of a playable square).
    #[inline]
    pub(crate) fn square_of(&self, bit: u8) -> Square {
        Square::from_index(self.square[bit as usize])
    }

    /// A set of playable squares in the generator's numbering.
    #[inline]
    pub(crate) fn pack<B: Bits>(&self, set: Bitboard) -> B {
        let mut b = B::ZERO;
        for s in set.iter() {
            if let Some(i) = self.bit_of(s) {
                b |= B::bit(i);
            }
        }
        b
    }

    /// A set in the generator's numbering as squares.
    #[inline]
    pub(crate) fn unpack<B: Bits>(&self, b: B) -> Bitboard {
        let mut set = Bitboard::EMPTY;
        for i in Ones(b) {
            set |= Bitboard::bit(self.square[i as usize]);
        }
        set
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(w: u8, h: u8, dark: bool) -> Bitboard {
        let mut b = Bitboard::EMPTY;
        for r in 0..h {
            for f in 0..w {
                if !dark || (r + f) % 2 == 0 {
                    b.insert(Square::new(f, r).unwrap());
                }
            }
        }
        b
    }

    #[test]
    fn the_word_fits_the_board() {
        assert_eq!(Layout::new(8, 8, board(8, 8, false)).width(), Width::W64);
        assert_eq!(Layout::new(10, 10, board(10, 10, true)).width(), Width::W64);
        assert_eq!(Layout::new(10, 10, board(10, 10, true)).span(), 55);
        assert_eq!(Layout::new(12, 12, board(12, 12, true)).width(), Width::W128);
        assert_eq!(Layout::new(10, 10, board(10, 10, false)).width(), Width::W128);
        assert_eq!(Layout::new(12, 12, board(12, 12, false)).width(), Width::W256);
        assert_eq!(Layout::new(16, 16, board(16, 16, false)).width(), Width::W256);
        assert_eq!(Layout::new(16, 16, board(16, 16, true)).width(), Width::W256);
    }

    #[test]
    fn every_diagonal_step_moves_by_one_offset() {
        for (w, h, dark) in [
            (10, 10, true),
            (12, 12, true),
            (11, 9, true),
            (16, 16, true),
            (8, 8, true),
            (13, 10, false),
        ] {
            let b = board(w, h, dark);
            let l = Layout::new(w, h, b);
            for s in b.iter() {
                assert_eq!(l.square_of(l.bit_of(s).unwrap()), s);
                let orth = if dark { 2 } else { 1 };
                for (df, dr) in [
                    (1i8, 1i8),
                    (-1, 1),
                    (1, -1),
                    (-1, -1),
                    (orth, 0),
                    (0, orth),
                    (-orth, 0),
                    (0, -orth),
                ] {
                    let t = Square::new((s.file() as i8 + df) as u8, (s.rank() as i8 + dr) as u8);
                    let Some(t) = t.filter(|t| b.contains(*t)) else {
                        continue;
                    };
                    let off = l.offset(df, dr).unwrap();
                    assert_eq!(l.bit_of(t).unwrap() as i32 - l.bit_of(s).unwrap() as i32, off);
                }
            }
            assert_eq!(l.unpack::<Bitboard>(l.pack::<Bitboard>(b)), b);
        }
    }
}
