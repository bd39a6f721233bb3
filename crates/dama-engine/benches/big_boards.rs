//! Perft on the big boards, one thread: international (10×10, one `u64`),
//! Canadian (12×12 dark squares, `u128`), Turkish on 10×10 (`u128`) and on
//! 12×12 (256 bits), each with its speed relative to international's.
//!
//! ```text
//! cargo bench -p dama-engine --bench big_boards              # the table (about a minute)
//! cargo bench -p dama-engine --bench big_boards -- quick     # lower depths, for a smoke run
//! cargo bench -p dama-engine --bench big_boards -- one canadian 7   # one perft, for a profiler
//! DAMA_MOBYDAM_PERFT=/path/to/mobydam/test/perft \
//!   cargo bench -p dama-engine --bench big_boards              # and Moby Dam side by side
//! ```
//!
//! With `DAMA_MOBYDAM_PERFT` naming Moby Dam's perft program (built from
//! its public repository, outside this one: `make perft` in its `test/`),
//! the table is followed by international perft of the start position run
//! by both programs in turn, five times each, interleaved, and the best
//! time of each: Moby Dam with `-b -c DEPTH` (bulk counting, unique moves,
//! its own timing of the last depth), dama with `--count moves`.
//!
//! Each line is the best of three runs. The reference for international is
//! Moby Dam (a hand-written C engine): perft(10) of the start, unique moves
//! with bulk counting, 258,895,763 nodes in 1.30 s on these machines
//! (2026-12-07; docs/performance.md).

use std::process::Command;
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

/// Moby Dam's time for perft `depth` of the start (its own timing of the
/// last depth) and its count, or why it could not be had.
fn mobydam(program: &str, depth: u32) -> Result<(u64, f64), String> {
    let out = Command::new(program)
        .args(["-b", "-c", &depth.to_string()])
        .output()
        .map_err(|e| format!("{program}: {e}"))?;
    let text = String::from_utf8_lossy(&out.stdout);
    // `perft(10) 258895763 nodes, 1.99 sec, 129955 kN/s, bulk`
    let line = text
        .lines()
        .find(|l| l.starts_with(&format!("perft({depth})")))
        .ok_or_else(|| format!("{program} printed no perft({depth}) line"))?;
    let words: Vec<&str> = line.split_whitespace().collect();
    let nodes = words.get(1).and_then(|w| w.parse().ok());
    let secs = words.get(3).and_then(|w| w.parse().ok());
    match (nodes, secs) {
        (Some(n), Some(s)) => Ok((n, s)),
        _ => Err(format!("cannot read {line:?}")),
    }
}

/// International perft `depth`, dama and Moby Dam in turn, five times.
fn side_by_side(program: &str, depth: u32) {
    let rules = Rules::builtin("international").expect("built in");
    let start = rules.start_position();
    let (mut ours, mut theirs) = (f64::MAX, f64::MAX);
    let mut counts = (0, 0);
    for _ in 0..5 {
        let t = Instant::now();
        counts.0 = perft(&rules, &start, depth, CountMode::Moves);
        ours = ours.min(t.elapsed().as_secs_f64());
        match mobydam(program, depth) {
            Ok((n, s)) => {
                counts.1 = n;
                theirs = theirs.min(s);
            }
            Err(e) => {
                eprintln!("Moby Dam: {e}");
                return;
            }
        }
    }
    println!();
    println!("international perft {depth}, best of five interleaved runs");
    println!("{:<10} {:>14} {:>9} {:>9}", "program", "nodes", "seconds", "Mn/s");
    println!(
        "{:<10} {:>14} {:>9.3} {:>9.1}",
        "dama",
        counts.0,
        ours,
        counts.0 as f64 / ours / 1e6
    );
    println!(
        "{:<10} {:>14} {:>9.3} {:>9.1}",
        "Moby Dam",
        counts.1,
        theirs,
        counts.1 as f64 / theirs / 1e6
    );
    if counts.0 != counts.1 {
        println!("the counts differ: the comparison means nothing");
    } else {
        println!("dama is {:.2}x Moby Dam's speed", theirs / ours);
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    // `-- one <variant> <depth>`: one perft of one variant, for a profiler.
    if let Some(i) = args.iter().position(|a| a == "one") {
        let name = args.get(i + 1).map(String::as_str).unwrap_or("international");
        let depth = args.get(i + 2).and_then(|d| d.parse().ok()).unwrap_or(7);
        let rules = match name {
            "dama-12x12" => load_text("dama-12x12.toml", DAMA_12X12, None).expect("valid").rules,
            _ => Rules::builtin(name).expect("a built-in variant"),
        };
        let nodes = perft(&rules, &rules.start_position(), depth, CountMode::Moves);
        println!("{name} perft {depth}: {nodes}");
        return;
    }
    let quick = args.iter().any(|a| a == "quick");
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
    if let Ok(program) = std::env::var("DAMA_MOBYDAM_PERFT") {
        side_by_side(&program, if quick { 8 } else { 10 });
    }
}
