//! The board symmetry the rules keep, derived from the compiled rules.
//!
//! The left-right mirror maps file `f` to `width - 1 - f` on every rank.
//! It maps the game onto itself when the compiled rules say so, whatever
//! the variant is called:
//!
//! - the playable squares, and each side's promotion squares, map onto
//!   themselves (a dark-square 8×8 board does not: a1 is dark, h1 light);
//! - every direction set of each side (men's steps, captures, friendly
//!   jumps and linear moves, kings' moves and captures) maps onto itself
//!   (E and W, NE and NW, SE and SW swapped).
//!
//! No other rule looks at files: the capture rules compare counts, kinds
//! and order, and the end rules count material. A position and its mirror
//! image then have the same value and distance, and a move of one is the
//! mirror of a move of the other, so the build solves one position of each
//! pair and copies the value to the other.

use crate::board::{Bits, Color, Node, Ones, Square};
use crate::rules::{Pack, Rules};

/// The left-right mirror in the generator's numbering.
#[derive(Debug, Clone)]
pub(crate) struct Mirror {
    /// The mirror image of each playable bit.
    map: [u8; 256],
}

impl Mirror {
    /// The mirror, when the rules keep it (see the module's conditions).
    pub(crate) fn of<B: Bits>(rules: &Rules, p: &Pack<B>) -> Option<Mirror> {
        let width = rules.width();
        let mut map = [0u8; 256];
        for b in Ones(p.board) {
            let s = p.square(b);
            let m = Square::new(width - 1 - s.file(), s.rank())?;
            map[b as usize] = p.layout.bit_of(m)?;
        }
        let mirror = Mirror { map };
        let keeps = |set: B| mirror.set(set) == set;
        if !keeps(p.board) || !keeps(p.promotion[0]) || !keeps(p.promotion[1]) {
            return None;
        }
        for c in Color::ALL {
            let s = rules.side(c);
            let sets = [
                s.man_steps,
                s.man_captures,
                s.man_friendly_jumps,
                s.man_linear,
                s.king_moves,
                s.king_captures,
            ];
            if sets.iter().any(|d| d.mirrored() != *d) {
                return None;
            }
        }
        Some(mirror)
    }

    /// The mirror image of a set of playable bits.
    #[inline]
    fn set<B: Bits>(&self, b: B) -> B {
        let mut out = B::ZERO;
        for x in Ones(b) {
            out |= B::bit(self.map[x as usize]);
        }
        out
    }

    /// The mirror image of a node (the same side to move; no king runs:
    /// the tables are built only for rules without them).
    #[inline]
    pub(crate) fn node<B: Bits>(&self, n: &Node<B>) -> Node<B> {
        Node {
            white: self.set(n.white),
            black: self.set(n.black),
            kings: self.set(n.kings),
            side: n.side,
            runs: n.runs,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::with_pack;

    /// Which built-in variants the mirror finds, from their rules alone:
    /// the games on every square of the board, whose rules are the same to
    /// the left and to the right; no game on the dark squares (the mirror
    /// of a dark square is light on an even-width board).
    #[test]
    fn the_mirror_is_derived_from_the_rules() {
        let keep = [
            "armenian",
            "armenian-schmidt",
            "croda",
            "dama",
            "dama-10x10",
            "dama-one-each-draw",
            "dama-promote-and-continue",
            "dameo",
            "keny",
            "keny-majority",
        ];
        let mut found = Vec::new();
        for (id, _) in crate::variant::BUILTIN {
            let rules = Rules::builtin(id).unwrap();
            if with_pack!(rules, p => Mirror::of(&rules, p).is_some()) {
                found.push(*id);
            }
        }
        found.sort_unstable();
        assert_eq!(found, keep);
    }

    /// A variant whose men step only to one side has no mirror.
    #[test]
    fn a_lopsided_rule_has_no_mirror() {
        let text = "id = \"lopsided\"\nextends = \"dama\"\n[men]\nmoves = [\"F\", \"L\"]\n";
        let rules = crate::load_text("lopsided.toml", text, None).unwrap().rules;
        assert!(with_pack!(rules, p => Mirror::of(&rules, p).is_none()));
    }

    /// The mirror of a position has the same legal moves, mirrored.
    #[test]
    fn mirrored_positions_have_mirrored_moves() {
        let rules = Rules::builtin("dama").unwrap();
        with_pack!(rules, p => {
            let mirror = Mirror::of(&rules, p).unwrap();
            let start = p.node(&rules.start_position());
            let mut list = crate::board::PlyList::new();
            let mut count = |n: &Node<_>| {
                rules.generate_in(p, n, &mut list);
                list.len()
            };
            let a = count(&start);
            let b = count(&mirror.node(&start));
            assert_eq!(a, b);
            assert_eq!(mirror.node(&mirror.node(&start)), start);
        });
    }
}
