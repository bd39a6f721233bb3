//! The positions the end rules decide, as the game decides them: the
//! tables ask `game/judge.rs`, in the order the game does (a crowned king
//! where the first to crown wins, no legal move, both sides blocked where
//! a blocked side passes, the lone-piece rules), and the draws by material
//! that apply at once (`plies = 0`). The clock's other rules need the
//! history: the tables do not see them.

use crate::board::{Bits, Node, PlyList};
use crate::endgame::value::{loss, win, Entry, DRAW};
use crate::game::{DrawClock, Outcome};
use crate::rules::{Pack, Rules};
use crate::spec::CrowningEnd;

/// An outcome as an entry for the side to move of `n`.
fn entry<B: Bits>(n: &Node<B>, o: Outcome) -> Entry {
    match o.winner() {
        Some(c) if c == n.side => win(0),
        Some(_) => loss(0),
        None => DRAW,
    }
}

/// The end rules' verdict on `n` as an outcome, or `None` when the game
/// goes on; the legal moves are left in `list` whenever they were generated
/// (always, when the answer is `None`).
pub(crate) fn outcome<B: Bits>(rules: &Rules, p: &Pack<B>, n: &Node<B>, list: &mut PlyList<B>) -> Option<Outcome> {
    let us = n.side;
    // A side without pieces has lost (or won, or drawn: `end.no_legal_move`)
    // as soon as it is to move; a position where the side that has just
    // moved has none cannot arise, and stands for the end that came before.
    if n.pieces(us).is_empty() {
        list.clear();
        return Some(rules.no_move_outcome(&p.position(n)));
    }
    if n.pieces(!us).is_empty() {
        list.clear();
        let mut other = *n;
        other.side = !us;
        return Some(rules.no_move_outcome(&p.position(&other)));
    }
    let end = rules.end();
    if end.crowning == CrowningEnd::Wins && !n.kings.is_empty() {
        if let Some(o) = rules.crowning_outcome(&p.position(n)) {
            list.clear();
            return Some(o);
        }
    }
    rules.generate_in(p, n, list);
    if list.is_empty() {
        return Some(rules.no_move_outcome(&p.position(n)));
    }
    if list.as_slice()[0].is_pass() {
        if let Some(o) = rules.pass_outcome(&p.position(n)) {
            return Some(o);
        }
    }
    if n.white.ones() == 1 && n.black.ones() == 1 {
        if let Some(o) = rules.lone_piece_outcome(&p.position(n), || true) {
            return Some(o);
        }
    }
    if end.material_min_plies == 0 {
        if let Some(reason) = DrawClock::START.verdict(end, &p.position(n)) {
            return Some(Outcome::new(crate::game::GameResult::Draw, reason));
        }
    }
    None
}

/// [`outcome`] as an entry for the side to move.
#[inline]
pub(crate) fn judge<B: Bits>(rules: &Rules, p: &Pack<B>, n: &Node<B>, list: &mut PlyList<B>) -> Option<Entry> {
    outcome(rules, p, n, list).map(|o| entry(n, o))
}
