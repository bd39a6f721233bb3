//! A fuzzing smoke test (issue 7) for the default `cargo test` run: the
//! committed seed corpus of every fuzz target (`fuzz/corpus/<target>/`) plus
//! some thousands of inputs made from it by a seeded mutator go through the
//! same entry points the cargo-fuzz targets call (`fuzz/src/entry.rs`,
//! included here by path). Any panic fails the test and prints the input.
//!
//! `DAMA_FUZZ_SMOKE_N=<n>` sets the number of mutated inputs per target
//! (default [`DEFAULT_MUTANTS`]); `DAMA_FUZZ_SMOKE_SEED=<n>` changes the seed.

#[path = "../../../fuzz/src/entry.rs"]
#[allow(dead_code)]
mod entry;

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};

use dama_engine::Rng;

/// Mutated inputs per target by default.
const DEFAULT_MUTANTS: usize = 3000;

/// Tokens worth inserting, per target: they reach deeper than random bytes.
fn dictionary(target: &str) -> &'static [&'static str] {
    match target {
        "variant_toml" => &[
            "extends = \"dama\"\n",
            "extends = \"russian\"\n",
            "[board]\n",
            "width = 0\n",
            "height = 1000\n",
            "width = 10\n",
            "[setup]\n",
            "white = [\"a1-h8\"]\n",
            "black = [\"1-50\"]\n",
            "white_kings = [\"d4\"]\n",
            "[men]\n",
            "moves = [\"F\", \"B\", \"FL\"]\n",
            "captures = []\n",
            "[kings]\n",
            "move_range = 0\n",
            "move_range = \"flying\"\n",
            "[promotion]\n",
            "rank = 0\n",
            "rank = 99\n",
            "[capture]\n",
            "majority = \"max_pieces\"\n",
            "promote_mid_capture = \"stop\"\n",
            "notation = \"numeric\"\n",
            "squares = \"dark\"\n",
            "[[x]]\n",
            "a = [[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]\n",
            "\"\\u0000\"",
            "= ",
            "\n",
            "-9223372036854775808",
            "18446744073709551616",
        ],
        "fen" => &[
            "W:",
            ":W",
            ":B",
            "K",
            "k",
            ",",
            "-",
            "a1",
            "h8",
            "z9",
            "10",
            "32",
            "50",
            "0",
            "1-12",
            "12-1",
            "99999999999999999999",
            ":H0",
            ":F12",
            "é",
            "\u{0}",
            " ",
        ],
        "move_text" => &[
            "\n",
            "W:Wd4:Bd5",
            "-",
            "x",
            "X",
            ":",
            "d4",
            "d6",
            "a1",
            "h8",
            "i9",
            "22",
            "17",
            "0",
            "=K",
            "!",
            "?",
            "+",
            "*",
            "é",
            "\u{0}",
            "99999999999999999999",
            " ",
        ],
        "pdn" => &[
            "[Event \"x\"]\n",
            "[Variant \"russian\"]\n",
            "[GameType \"25\"]\n",
            "[FEN \"W:W21:B17\"]\n",
            "[SetUp \"1\"]\n",
            "{",
            "}",
            "(",
            ")",
            ";",
            "\n",
            "1. ",
            "1... ",
            "$12 ",
            "d3-d4 ",
            "22-17 ",
            "21x14 ",
            "1-0",
            "0-1",
            "1/2-1/2",
            "2-0",
            "*",
            "\"",
            "\\",
            "\u{feff}",
            "\r\n",
        ],
        _ => &[],
    }
}

fn corpus(target: &str) -> Vec<(PathBuf, Vec<u8>)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../fuzz/corpus")
        .join(target);
    let mut out: Vec<(PathBuf, Vec<u8>)> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_file())
        .map(|p| {
            let data = std::fs::read(&p).unwrap();
            (p, data)
        })
        .collect();
    out.sort();
    assert!(out.len() >= 10, "{}: only {} seed files", dir.display(), out.len());
    out
}

/// One random edit of `data` (a few of them stacked make one mutant).
fn mutate(rng: &mut Rng, data: &mut Vec<u8>, seeds: &[(PathBuf, Vec<u8>)], dict: &[&str]) {
    let len = data.len();
    match rng.below(9) {
        0 if len > 0 => {
            let i = rng.below(len);
            data[i] ^= 1 << rng.below(8);
        }
        1 if len > 0 => {
            let i = rng.below(len);
            data[i] = rng.next_u64() as u8;
        }
        2 => {
            let i = rng.below(len + 1);
            data.insert(i, rng.next_u64() as u8);
        }
        3 if len > 0 => {
            let i = rng.below(len);
            let n = 1 + rng.below((len - i).min(32));
            data.drain(i..i + n);
        }
        4 if len > 0 => {
            // Duplicate a slice (grows repetitive structure: nesting, long lists).
            let i = rng.below(len);
            let n = 1 + rng.below((len - i).min(64));
            let piece: Vec<u8> = data[i..i + n].to_vec();
            let at = rng.below(len + 1);
            for _ in 0..1 + rng.below(8) {
                data.splice(at..at, piece.iter().copied());
            }
        }
        5 if !seeds.is_empty() => {
            // Splice in part of another seed.
            let other = &seeds[rng.below(seeds.len())].1;
            if !other.is_empty() {
                let i = rng.below(other.len());
                let n = 1 + rng.below((other.len() - i).min(256));
                let at = rng.below(len + 1);
                data.splice(at..at, other[i..i + n].iter().copied());
            }
        }
        6 => data.truncate(rng.below(len + 1)),
        _ if !dict.is_empty() => {
            let tok = dict[rng.below(dict.len())].as_bytes();
            let at = rng.below(len + 1);
            data.splice(at..at, tok.iter().copied());
        }
        _ => data.push(rng.next_u64() as u8),
    }
    // Keep inputs small, as libFuzzer does by default.
    data.truncate(4096);
}

fn run_target(target: &str, f: fn(&[u8])) {
    let seeds = corpus(target);
    let dict = dictionary(target);
    let n: usize = std::env::var("DAMA_FUZZ_SMOKE_N")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(DEFAULT_MUTANTS);
    let seed: u64 = std::env::var("DAMA_FUZZ_SMOKE_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(0x5EED_DA3A);
    let check = |what: &str, data: &[u8]| {
        if catch_unwind(AssertUnwindSafe(|| f(data))).is_err() {
            panic!(
                "{target}: panic on {what}; input ({} bytes): {:?}",
                data.len(),
                String::from_utf8_lossy(data)
            );
        }
    };
    for (path, data) in &seeds {
        check(&format!("seed {}", path.display()), data);
    }
    let mut rng = Rng::new(seed ^ target.len() as u64 ^ 0x9E37_79B9_7F4A_7C15);
    for i in 0..n {
        let mut data = seeds[rng.below(seeds.len())].1.clone();
        for _ in 0..1 + rng.below(4) {
            mutate(&mut rng, &mut data, &seeds, dict);
        }
        check(&format!("mutant {i} (seed {seed})"), &data);
    }
    // Degenerate inputs.
    for data in [
        &b""[..],
        b"\0",
        b"\xff\xfe",
        &[0u8; 4096][..],
        &[b'['; 4096][..],
        &[b'{'; 4096][..],
    ] {
        check("a degenerate input", data);
    }
}

#[test]
fn variant_toml_never_panics() {
    run_target("variant_toml", entry::variant_toml);
}

#[test]
fn fen_never_panics() {
    run_target("fen", entry::fen);
}

#[test]
fn move_text_never_panics() {
    run_target("move_text", entry::move_text);
}

#[test]
fn pdn_never_panics() {
    run_target("pdn", entry::pdn);
}

#[test]
fn random_variant_never_panics() {
    run_target("random_variant", entry::random_variant);
}

/// A target's name and entry point.
type Target = (&'static str, fn(&[u8]));

/// Every target, in the smoke test's order.
const TARGETS: [Target; 5] = [
    ("variant_toml", entry::variant_toml),
    ("fen", entry::fen),
    ("move_text", entry::move_text),
    ("pdn", entry::pdn),
    ("random_variant", entry::random_variant),
];

/// Seconds [`fuzz_for_a_budget`] spends on all the targets together by default.
const DEFAULT_BUDGET_SECONDS: f64 = 2.0;

/// The stable stand-in for a cargo-fuzz run (which needs nightly): for
/// `DAMA_FUZZ_SECONDS` seconds in all (default [`DEFAULT_BUDGET_SECONDS`];
/// CI runs 40), shared evenly between the targets, inputs made by a seeded
/// RNG (`DAMA_FUZZ_SMOKE_SEED`), half of them random bytes and half seeds
/// of the corpus mutated, go through every target. Any panic fails the test
/// and prints the input; the number of inputs run is printed.
#[test]
fn fuzz_for_a_budget() {
    let budget: f64 = std::env::var("DAMA_FUZZ_SECONDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .filter(|s: &f64| s.is_finite() && *s >= 0.0)
        .unwrap_or(DEFAULT_BUDGET_SECONDS);
    let seed: u64 = std::env::var("DAMA_FUZZ_SMOKE_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(0xB0D6_E7ED);
    let share = std::time::Duration::from_secs_f64(budget / TARGETS.len() as f64);
    for (target, f) in TARGETS {
        let seeds = corpus(target);
        let dict = dictionary(target);
        let mut rng = Rng::new(seed ^ (target.len() as u64) << 32);
        let start = std::time::Instant::now();
        let mut slowest = std::time::Duration::ZERO;
        let mut n = 0u64;
        while start.elapsed() < share {
            let data = if rng.below(2) == 0 {
                let len = rng.below(512);
                (0..len).map(|_| rng.next_u64() as u8).collect::<Vec<u8>>()
            } else {
                let mut data = seeds[rng.below(seeds.len())].1.clone();
                for _ in 0..1 + rng.below(4) {
                    mutate(&mut rng, &mut data, &seeds, dict);
                }
                data
            };
            let t = std::time::Instant::now();
            if catch_unwind(AssertUnwindSafe(|| f(&data))).is_err() {
                panic!(
                    "{target}: panic on input {n} (seed {seed}); input ({} bytes): {:?}",
                    data.len(),
                    data
                );
            }
            slowest = slowest.max(t.elapsed());
            n += 1;
        }
        eprintln!(
            "{target}: {n} inputs in {:.1} s, slowest {:.3} s",
            start.elapsed().as_secs_f64(),
            slowest.as_secs_f64()
        );
    }
}
