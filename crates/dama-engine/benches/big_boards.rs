//! Perft on the big boards, one thread: international (10×10, one `u64`),
//! Canadian (12×12 dark squares, `u128`), Turkish on 10×10 (`u128`) and on
//! 12×12 (256 bits), each with its speed relative to international's.
//!
//! ```text
//! cargo bench -p dama-engine --bench big_boards              # the table (about a minute)
//! cargo bench -p dama-engine --bench big_boards -- quick     # lower depths, for a smoke run
//! ```
//!
//! Each line is the best of three runs. The reference for international is
//! Moby Dam (a hand-written C engine): perft(10) of the start, unique moves
//! with bulk counting, 258,895,763 nodes in 2.0-2.4 s on these machines.

use std::time::Instant;

use dama_engine::{load_text, perft, CountMode, Rules};

/// Turkish draughts on 12×12: a board of 144 squares, so the 256-bit word.
const DAMA_12X12: &str = r#"
extends = "dama"
id = "dama-12x12-bench"
name = "Turkish draughts on 12×12 (benchmark)"
[board]
width = 12
height = 12
[setup]
white = ["a2-l4"]
black = ["a9-l11"]
"#;

fn best_of_three(rules: &Rules, depth: u32) -> (u64, f64) {
    let pos = rules.start_position();
    let mut best = f64::MAX;
    let mut nodes = 0;
    for _ in 0..3 {
        let t = Instant::now();
        nodes = perft(rules, &pos, depth, CountMode::Moves);
        best = best.min(t.elapsed().as_secs_f64());
    }
    (nodes, best)
}

fn main() {
    let quick = std::env::args().any(|a| a == "quick");
    let boards: Vec<(Rules, u32, u32)> = vec![
        (Rules::builtin("international").expect("built in"), 10, 7),
        (Rules::builtin("canadian").expect("built in"), 8, 6),
        (Rules::builtin("dama-10x10").expect("built in"), 7, 5),
        (
            load_text("dama-12x12.toml", DAMA_12X12, None).expect("valid").rules,
            6,
            4,
        ),
    ];
    println!(
        "{:<18} {:>6} {:>5} {:>14} {:>9} {:>9} {:>7}",
        "variant", "word", "depth", "nodes", "seconds", "Mn/s", "vs int"
    );
    let mut reference = None;
    for (rules, depth, quick_depth) in &boards {
        let depth = if quick { *quick_depth } else { *depth };
        let (nodes, secs) = best_of_three(rules, depth);
        let speed = nodes as f64 / secs / 1e6;
        let r = *reference.get_or_insert(speed);
        println!(
            "{:<18} {:>6} {:>5} {:>14} {:>9.3} {:>9.1} {:>7.2}",
            rules.id(),
            format!("{:?}", rules.geometry().layout().width()),
            depth,
            nodes,
            secs,
            speed,
            speed / r
        );
    }
}
