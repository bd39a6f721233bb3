//! What `dama perft` shows: a row per depth (nodes, seconds, nodes per
//! second), or with `--divide` a row per move and the total.

use crate::out::outln;

/// The table's heading.
pub(crate) fn header() {
    outln!("{:>5} {:>16} {:>12} {:>14}", "depth", "nodes", "seconds", "nodes/s");
}

/// The row of depth `d`: `n` nodes counted in `secs` seconds.
pub(crate) fn depth_row(d: u32, n: u64, secs: f64) {
    let nps = if secs > 0.0 { n as f64 / secs } else { 0.0 };
    outln!("{d:>5} {n:>16} {secs:>12.6} {nps:>14.0}");
}

/// The row of one move of `--divide`: its full notation and its count.
pub(crate) fn divide_row(text: &str, n: u64) {
    outln!("{text:<16} {n}");
}

/// The total of `--divide`.
pub(crate) fn divide_total(total: u64, secs: f64) {
    outln!("\ntotal {total} nodes in {secs:.6} s");
}
