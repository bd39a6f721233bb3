//! Perft: counting the leaves of the move tree, the shared currency of
//! move-generator correctness.

use crate::moves::MoveList;
use crate::position::Position;
use crate::rules::Rules;

/// How moves are counted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, strum::Display, strum::EnumString, strum::VariantNames)]
#[strum(serialize_all = "lowercase")]
pub enum CountMode {
    /// One per distinct move (origin, destination, captured set).
    Moves,
    /// One per distinct capture path, as kish and most other engines count.
    Paths,
}

/// Counts the leaf nodes `depth` plies below `pos`. A position with no
/// legal move contributes nothing below it (depth 0 counts 1).
///
/// ```
/// use dama_engine::{perft, CountMode, Rules};
/// let rules = Rules::builtin("dama").unwrap();
/// assert_eq!(perft(&rules, &rules.start_position(), 3, CountMode::Paths), 708);
/// ```
pub fn perft(rules: &Rules, pos: &Position, depth: u32, mode: CountMode) -> u64 {
    let mut lists: Vec<MoveList> = (0..depth.max(1)).map(|_| MoveList::new()).collect();
    perft_with(rules, pos, depth, mode, &mut lists)
}

/// [`perft`] with caller-provided move lists (at least one per ply), so
/// nothing is allocated per node.
///
/// The last ply is counted in bulk ([`Rules::count_moves`]): the leaves are
/// counted, not generated, and non-capturing moves are counted by popcount.
pub fn perft_with(rules: &Rules, pos: &Position, depth: u32, mode: CountMode, lists: &mut [MoveList]) -> u64 {
    if depth == 0 {
        return 1;
    }
    let Some((list, rest)) = lists.split_first_mut() else {
        return 0;
    };
    if depth == 1 {
        return rules.count_moves(pos, mode, list);
    }
    let mut total = 0;
    if depth == 2 {
        // The children are counted in bulk right here, without a recursive call.
        let Some((scratch, _)) = rest.split_first_mut() else {
            return 0;
        };
        rules.for_each_move(pos, list, |m, n| {
            let sub = rules.count_moves(&pos.after(m), mode, scratch);
            total += match mode {
                CountMode::Moves => sub,
                CountMode::Paths => sub * n as u64,
            };
        });
        return total;
    }
    rules.for_each_move(pos, list, |m, n| {
        let sub = perft_with(rules, &pos.after(m), depth - 1, mode, rest);
        total += match mode {
            CountMode::Moves => sub,
            CountMode::Paths => sub * n as u64,
        };
    });
    total
}

/// Perft split by first move: `(move, nodes)` for each legal move.
pub fn divide(rules: &Rules, pos: &Position, depth: u32, mode: CountMode) -> Vec<(crate::moves::Move, u64)> {
    let moves = rules.legal_moves(pos);
    let mut lists: Vec<MoveList> = (0..depth.max(1)).map(|_| MoveList::new()).collect();
    moves
        .as_slice()
        .iter()
        .zip(moves.path_counts())
        .map(|(m, &n)| {
            let sub = perft_with(rules, &pos.after(m), depth.saturating_sub(1), mode, &mut lists);
            (*m, if mode == CountMode::Paths { sub * n as u64 } else { sub })
        })
        .collect()
}
