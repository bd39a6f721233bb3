//! The value of a position in a table: win, draw or loss for the side to
//! move, and the distance to the end of the game in plies.

use std::fmt;

/// An entry of a table as stored: two bits of result, fourteen of distance.
pub(crate) type Entry = u16;

/// Not yet known (while building; a draw once the build is done).
pub(crate) const UNKNOWN: Entry = 0;
const WIN: Entry = 0x4000;
const LOSS: Entry = 0x8000;
/// A draw (the distance bits are zero).
pub(crate) const DRAW: Entry = 0xC000;
/// An index that names no position (a white and a black man on one square).
pub(crate) const INVALID: Entry = 0xFFFF;
/// The longest distance an entry holds.
pub(crate) const MAX_PLIES: u16 = 0x3FFE;

#[inline(always)]
pub(crate) fn win(plies: u16) -> Entry {
    WIN | plies.min(MAX_PLIES)
}
#[inline(always)]
pub(crate) fn loss(plies: u16) -> Entry {
    LOSS | plies.min(MAX_PLIES)
}
#[inline(always)]
pub(crate) fn is_win(e: Entry) -> bool {
    e & 0xC000 == WIN
}
#[inline(always)]
pub(crate) fn is_loss(e: Entry) -> bool {
    e & 0xC000 == LOSS
}
#[inline(always)]
pub(crate) fn plies(e: Entry) -> u16 {
    e & 0x3FFF
}

/// The value of a move for the side that plays it, from the value of the
/// position it leads to (for the other side): a loss there is a win here,
/// one ply further from the end.
#[inline(always)]
pub(crate) fn back(child: Entry) -> Entry {
    if is_win(child) {
        loss(plies(child) + 1)
    } else if is_loss(child) {
        win(plies(child) + 1)
    } else {
        DRAW
    }
}

/// The better of two move values for the side to move (`UNKNOWN`: no
/// move): a win over a draw over a loss, the quicker win, the slower loss.
#[inline(always)]
pub(crate) fn better(a: Entry, b: Entry) -> Entry {
    fn key(e: Entry) -> i32 {
        if e == UNKNOWN {
            i32::MIN
        } else if is_win(e) {
            0x20000 - plies(e) as i32
        } else if is_loss(e) {
            -0x20000 + plies(e) as i32
        } else {
            0
        }
    }
    if key(a) >= key(b) {
        a
    } else {
        b
    }
}

/// Win, draw or loss, for the side to move.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Wdl {
    /// The side to move wins with best play.
    Win,
    /// Neither side can force a win (the game can go on for ever).
    Draw,
    /// The side to move loses with best play.
    Loss,
}

/// What a table says of a position: the result for the side to move with
/// best play, and the distance to the end of the game in plies (the
/// winner takes the shortest way to the end, the loser the longest; 0 for
/// a draw and for a position the end rules have already decided).
///
/// The distance runs to the end of the game, through captures and
/// promotions (each slice is solved from the values of the smaller ones),
/// not only to the next change of material: that is what a game needs to
/// be won, and a distance to conversion would not say how long the rest
/// takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct TableValue {
    /// Win, draw or loss for the side to move.
    pub wdl: Wdl,
    /// Plies to the end of the game with best play (0 for a draw).
    pub plies: u32,
}

impl TableValue {
    pub(crate) fn from_entry(e: Entry) -> TableValue {
        if is_win(e) {
            TableValue {
                wdl: Wdl::Win,
                plies: plies(e) as u32,
            }
        } else if is_loss(e) {
            TableValue {
                wdl: Wdl::Loss,
                plies: plies(e) as u32,
            }
        } else {
            TableValue {
                wdl: Wdl::Draw,
                plies: 0,
            }
        }
    }
}

impl fmt::Display for TableValue {
    /// `win in 7 plies`, `loss in 12 plies`, `draw`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.wdl {
            Wdl::Win => write!(f, "win in {} plies", self.plies),
            Wdl::Loss => write!(f, "loss in {} plies", self.plies),
            Wdl::Draw => f.write_str("draw"),
        }
    }
}
