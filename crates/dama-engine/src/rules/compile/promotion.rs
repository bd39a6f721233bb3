//! Stage 3: promotion. The rank on which each side's men are crowned.

use crate::board::{Bitboard, Color};
use crate::rules::compile::{Board, Findings};
use crate::spec::{Code, PromotionRank, VariantSpec};

/// The promotion rank, counted from each side's own back rank (1-based),
/// and the squares of it for each side.
#[derive(Debug)]
pub(crate) struct Promotion {
    pub(crate) rank: u8,
    pub(crate) squares: [Bitboard; 2],
}

/// Reads `promotion.rank` (`E0501`).
pub(crate) fn promotion(spec: &VariantSpec, board: &Board, out: &mut Findings) -> Promotion {
    let height = board.height;
    let rank = match spec.promotion.rank {
        PromotionRank::Last => height,
        PromotionRank::Nth(n) => {
            if n == 0 || n > height as u32 {
                if board.size_ok {
                    let msg = if n == 0 {
                        "promotion ranks are counted from 1 (the mover's own back rank)".to_string()
                    } else {
                        format!("promotion rank {n} is not on a board of {height} ranks")
                    };
                    out.error(Code::E0501, "promotion.rank", msg);
                }
                height
            } else {
                n as u8
            }
        }
    };
    let rank_mask = |r: u8| -> Bitboard { Bitboard::rank(r) & board.mask };
    Promotion {
        rank,
        squares: [rank_mask(rank - 1), rank_mask(height - rank)],
    }
}

/// The squares beyond `c`'s promotion rank (farther from `c`'s side).
pub(crate) fn beyond_rank(c: Color, prom_rank: u8, board: &Board) -> Bitboard {
    let mut bb = Bitboard::EMPTY;
    for r in 0..board.height {
        let beyond = match c {
            Color::White => r >= prom_rank,
            Color::Black => r + prom_rank < board.height,
        };
        if beyond {
            bb |= Bitboard::rank(r);
        }
    }
    bb & board.mask
}
