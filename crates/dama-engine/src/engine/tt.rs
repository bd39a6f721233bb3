//! The transposition table's entries and mate-score adjustment.

use crate::board::Ply;
use crate::engine::search::MATE_BOUND;

pub(super) const EXACT: u8 = 0;
pub(super) const LOWER: u8 = 1;
pub(super) const UPPER: u8 = 2;

#[derive(Debug, Clone, Copy)]
pub(super) struct Entry<B> {
    pub(super) key: u64,
    pub(super) mv: Option<Ply<B>>,
    pub(super) score: i32,
    pub(super) depth: i16,
    pub(super) bound: u8,
}

impl<B> Entry<B> {
    pub(super) const EMPTY: Entry<B> = Entry {
        key: 0,
        mv: None,
        score: 0,
        depth: -1,
        bound: EXACT,
    };
}

pub(super) fn to_tt(score: i32, ply: usize) -> i32 {
    if score > MATE_BOUND {
        score + ply as i32
    } else if score < -MATE_BOUND {
        score - ply as i32
    } else {
        score
    }
}

pub(super) fn from_tt(score: i32, ply: usize) -> i32 {
    if score > MATE_BOUND {
        score - ply as i32
    } else if score < -MATE_BOUND {
        score + ply as i32
    } else {
        score
    }
}
