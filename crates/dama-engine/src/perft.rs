//! Perft: counting the leaves of the move tree, the shared currency of
//! move-generator correctness.

use rayon::prelude::*;

use crate::board::Position;
use crate::board::{Move, MoveList};
use crate::movegen::CountMode;
use crate::rules::Rules;

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
pub fn divide(rules: &Rules, pos: &Position, depth: u32, mode: CountMode) -> Vec<(crate::board::Move, u64)> {
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

/// [`perft`] on `threads` worker threads (rayon). The first two plies are
/// expanded here and the subtrees below them are shared out among the
/// threads, so the work spreads evenly even with few root moves; the count
/// is the same as [`perft`]'s. `threads` = 0 uses one thread per core.
///
/// ```
/// use dama_engine::{perft, perft_parallel, CountMode, Rules};
/// let rules = Rules::builtin("dama").unwrap();
/// let start = rules.start_position();
/// assert_eq!(perft_parallel(&rules, &start, 4, CountMode::Paths, 2), 7538);
/// ```
pub fn perft_parallel(rules: &Rules, pos: &Position, depth: u32, mode: CountMode, threads: usize) -> u64 {
    if threads == 1 || depth < 3 {
        return perft(rules, pos, depth, mode);
    }
    let weight = |n: u32| -> u64 {
        match mode {
            CountMode::Moves => 1,
            CountMode::Paths => n as u64,
        }
    };
    // The positions two plies down, each with how many leaves one leaf below it counts for.
    let mut tasks: Vec<(Position, u64)> = Vec::new();
    let mut list = MoveList::new();
    let mut list2 = MoveList::new();
    rules.generate(pos, &mut list);
    for (m, &n) in list.as_slice().iter().zip(list.path_counts()) {
        let child = pos.after(m);
        rules.generate(&child, &mut list2);
        for (m2, &n2) in list2.as_slice().iter().zip(list2.path_counts()) {
            tasks.push((child.after(m2), weight(n) * weight(n2)));
        }
    }
    let run = || -> u64 {
        tasks
            .par_iter()
            .map_init(
                || (0..depth - 2).map(|_| MoveList::new()).collect::<Vec<_>>(),
                |lists, (p, w)| w * perft_with(rules, p, depth - 2, mode, lists),
            )
            .sum()
    };
    match rayon::ThreadPoolBuilder::new().num_threads(threads).build() {
        Ok(pool) => pool.install(run),
        // No thread could be started: count on this one.
        Err(_) => perft(rules, pos, depth, mode),
    }
}

/// [`divide`] with the root moves shared out among `threads` threads
/// (0: one per core).
pub fn divide_parallel(rules: &Rules, pos: &Position, depth: u32, mode: CountMode, threads: usize) -> Vec<(Move, u64)> {
    if threads == 1 {
        return divide(rules, pos, depth, mode);
    }
    let moves = rules.legal_moves(pos);
    let pairs: Vec<(Move, u32)> = moves
        .as_slice()
        .iter()
        .copied()
        .zip(moves.path_counts().iter().copied())
        .collect();
    let run = || -> Vec<(Move, u64)> {
        pairs
            .par_iter()
            .map(|&(m, n)| {
                let sub = perft(rules, &pos.after(&m), depth.saturating_sub(1), mode);
                (m, if mode == CountMode::Paths { sub * n as u64 } else { sub })
            })
            .collect()
    };
    match rayon::ThreadPoolBuilder::new().num_threads(threads).build() {
        Ok(pool) => pool.install(run),
        Err(_) => divide(rules, pos, depth, mode),
    }
}
