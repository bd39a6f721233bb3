//! Perft: counting the leaves of the move tree, the shared currency of
//! move-generator correctness.

use rayon::prelude::*;

use crate::board::{Bits, Move, Node, Ply, PlyList, Position};
use crate::movegen::{by_shape, CountMode};
use crate::rules::{with_pack, Pack, Rules};
#[cfg(target_arch = "x86_64")]
use crate::util::has_bit_instructions;

/// Counts the leaf nodes `depth` plies below `pos`. A position with no
/// legal move contributes nothing below it (depth 0 counts 1).
///
/// The last ply is counted in bulk ([`Rules::count_moves`]): the leaves are
/// counted, not generated, and non-capturing moves are counted by popcount.
///
/// ```
/// use dama_engine::{perft, CountMode, Rules};
/// let rules = Rules::builtin("dama").unwrap();
/// assert_eq!(perft(&rules, &rules.start_position(), 3, CountMode::Paths), 708);
/// ```
pub fn perft(rules: &Rules, pos: &Position, depth: u32, mode: CountMode) -> u64 {
    with_pack!(rules, p => perft_from(rules, p, &p.node(pos), depth, mode))
}

/// [`perft`] from a node of the generator.
fn perft_from<B: Bits>(rules: &Rules, p: &Pack<B>, pos: &Node<B>, depth: u32, mode: CountMode) -> u64 {
    let mut lists: Vec<PlyList<B>> = (0..depth.max(1)).map(|_| PlyList::new()).collect();
    by_shape!(rules, p, G, P => walk::<B, G, P>(rules, p, pos, depth, mode, &mut lists))
}

/// The position after `m`: with `P` (plain rules) no node tracks king runs.
#[inline(always)]
fn child<B: Bits, const P: bool>(pos: &Node<B>, m: &Ply<B>) -> Node<B> {
    if P {
        pos.after_untracked(m)
    } else {
        pos.after(m)
    }
}

/// [`perft`] with caller-provided move lists (at least one per ply), so
/// nothing is allocated per node; the generator's direction class `G` and
/// plainness `P` are chosen once at the root, and so is the copy of the
/// walk: the one compiled for the processor's bit instructions where it has
/// them ([`has_bit_instructions`]), else the portable one.
#[inline]
#[allow(unsafe_code, clippy::collapsible_if)]
fn walk<B: Bits, const G: u8, const P: bool>(
    rules: &Rules,
    p: &Pack<B>,
    pos: &Node<B>,
    depth: u32,
    mode: CountMode,
    lists: &mut [PlyList<B>],
) -> u64 {
    // Plain rules (`Rules::plain`) on a one-word board (8×8, international)
    // only: each copy adds to the engine's build time. Both
    // tests are constants, so the other walks have no second copy at all.
    #[cfg(target_arch = "x86_64")]
    if B::BIT_WALK {
        if P {
            if has_bit_instructions() {
                // SAFETY: the processor has every feature `perft_bmi` is compiled for.
                return unsafe { perft_bmi::<B, G, P>(rules, p, pos, depth, mode, lists) };
            }
        }
    }
    perft_portable::<B, G, P>(rules, p, pos, depth, mode, lists)
}

/// The walk compiled for the baseline of the target.
fn perft_portable<B: Bits, const G: u8, const P: bool>(
    rules: &Rules,
    p: &Pack<B>,
    pos: &Node<B>,
    depth: u32,
    mode: CountMode,
    lists: &mut [PlyList<B>],
) -> u64 {
    perft_node::<B, G, P>(rules, p, pos, depth, mode, lists, |child, lists| {
        perft_portable::<B, G, P>(rules, p, child, depth - 1, mode, lists)
    })
}

/// The walk compiled for the bit instructions of x86-64-v3: the same code
/// as [`perft_portable`], with every inlined popcount, bit scan and
/// `x & (x - 1)` one instruction.
///
/// # Safety
///
/// The processor must have those instructions ([`has_bit_instructions`]).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt,bmi1,bmi2,lzcnt")]
#[allow(unsafe_code)]
unsafe fn perft_bmi<B: Bits, const G: u8, const P: bool>(
    rules: &Rules,
    p: &Pack<B>,
    pos: &Node<B>,
    depth: u32,
    mode: CountMode,
    lists: &mut [PlyList<B>],
) -> u64 {
    perft_node::<B, G, P>(rules, p, pos, depth, mode, lists, |child, lists| {
        // SAFETY: as for this call.
        unsafe { perft_bmi::<B, G, P>(rules, p, child, depth - 1, mode, lists) }
    })
}

/// One node of the walk: counts the leaves `depth` plies below `pos`,
/// the last two plies here, the others by `deeper` (the child, and the
/// lists left for its plies).
#[inline(always)]
fn perft_node<B: Bits, const G: u8, const P: bool>(
    rules: &Rules,
    p: &Pack<B>,
    pos: &Node<B>,
    depth: u32,
    mode: CountMode,
    lists: &mut [PlyList<B>],
    mut deeper: impl FnMut(&Node<B>, &mut [PlyList<B>]) -> u64,
) -> u64 {
    if depth == 0 {
        return 1;
    }
    let Some((list, rest)) = lists.split_first_mut() else {
        return 0;
    };
    if depth == 1 {
        return rules.count_as::<B, G, P>(p, pos, mode, list);
    }
    let mut total = 0;
    if depth == 2 {
        // The children are counted in bulk right here, without a recursive call.
        let Some((scratch, _)) = rest.split_first_mut() else {
            return 0;
        };
        rules.for_each_as::<B, G, P, _>(
            p,
            pos,
            list,
            mode,
            #[inline(always)]
            |m, n| {
                let sub = rules.count_as::<B, G, P>(p, &child::<B, P>(pos, m), mode, scratch);
                total += sub * mode.weight(n);
            },
        );
        return total;
    }
    rules.for_each_as::<B, G, P, _>(p, pos, list, mode, |m, n| {
        let sub = deeper(&child::<B, P>(pos, m), rest);
        total += sub * mode.weight(n);
    });
    total
}

/// Perft split by first move: `(move, nodes)` for each legal move.
pub fn divide(rules: &Rules, pos: &Position, depth: u32, mode: CountMode) -> Vec<(Move, u64)> {
    divide_parallel(rules, pos, depth, mode, 1)
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
    with_pack!(rules, p => perft_parallel_in(rules, p, &p.node(pos), depth, mode, threads))
}

fn perft_parallel_in<B: Bits>(
    rules: &Rules,
    p: &Pack<B>,
    pos: &Node<B>,
    depth: u32,
    mode: CountMode,
    threads: usize,
) -> u64 {
    let weight = |n: u32| mode.weight(n);
    // The positions two plies down, each with how many leaves one leaf below it counts for.
    let mut tasks: Vec<(Node<B>, u64)> = Vec::new();
    let mut list = PlyList::new();
    let mut list2 = PlyList::new();
    rules.generate_counting_in(p, pos, &mut list, mode);
    for (m, n) in list.iter() {
        let child = pos.after(m);
        rules.generate_counting_in(p, &child, &mut list2, mode);
        for (m2, n2) in list2.iter() {
            tasks.push((child.after(m2), weight(n) * weight(n2)));
        }
    }
    let run = || -> u64 {
        tasks
            .par_iter()
            .map_init(
                || (0..depth - 2).map(|_| PlyList::new()).collect::<Vec<_>>(),
                |lists, (node, w)| {
                    w * by_shape!(rules, p, G, P => walk::<B, G, P>(rules, p, node, depth - 2, mode, lists))
                },
            )
            .sum()
    };
    match rayon::ThreadPoolBuilder::new().num_threads(threads).build() {
        Ok(pool) => pool.install(run),
        // No thread could be started: count on this one.
        Err(_) => perft_from(rules, p, pos, depth, mode),
    }
}

/// [`divide`] with the root moves shared out among `threads` threads
/// (0: one per core).
pub fn divide_parallel(rules: &Rules, pos: &Position, depth: u32, mode: CountMode, threads: usize) -> Vec<(Move, u64)> {
    with_pack!(rules, p => divide_in(rules, p, &p.node(pos), depth, mode, threads))
}

fn divide_in<B: Bits>(
    rules: &Rules,
    p: &Pack<B>,
    pos: &Node<B>,
    depth: u32,
    mode: CountMode,
    threads: usize,
) -> Vec<(Move, u64)> {
    let mut list = PlyList::new();
    rules.generate_counting_in(p, pos, &mut list, mode);
    let pairs: Vec<_> = list.iter().map(|(m, n)| (*m, n)).collect();
    let one = |&(m, n): &(crate::board::Ply<B>, u32)| {
        let sub = perft_from(rules, p, &pos.after(&m), depth.saturating_sub(1), mode);
        (p.export(&m), sub * mode.weight(n))
    };
    if threads == 1 {
        return pairs.iter().map(one).collect();
    }
    let run = || -> Vec<(Move, u64)> { pairs.par_iter().map(one).collect() };
    match rayon::ThreadPoolBuilder::new().num_threads(threads).build() {
        Ok(pool) => pool.install(run),
        Err(_) => pairs.iter().map(one).collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The portable copy of the walk (what a processor without the bit
    /// instructions runs, and `DAMA_PORTABLE`) counts what [`perft`]
    /// counts, on a board of each word and direction class, plain or not.
    #[test]
    fn the_portable_walk_counts_what_perft_counts() {
        for (name, depth) in [
            ("international", 5),
            ("frisian", 5),
            ("dama", 5),
            ("english", 6),
            ("armenian", 4),
            ("canadian", 4),
            ("killer", 5),
        ] {
            let rules = Rules::builtin(name).unwrap();
            let pos = rules.start_position();
            for mode in [CountMode::Moves, CountMode::Paths] {
                let portable = with_pack!(rules, p => {
                    let mut lists: Vec<_> = (0..depth).map(|_| PlyList::new()).collect();
                    by_shape!(rules, p, G, P => perft_portable::<_, G, P>(&rules, p, &p.node(&pos), depth, mode, &mut lists))
                });
                assert_eq!(portable, perft(&rules, &pos, depth, mode), "{name} {mode}");
            }
        }
    }
}
