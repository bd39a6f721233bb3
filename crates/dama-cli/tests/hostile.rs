//! Hostile inputs through the real `dama` binary (issue 7): each row makes
//! its input files in a fresh temporary directory, runs one command there,
//! and states the exit code and a piece of the message it must give.
//!
//! For every row the process must end by itself with that code (never 101,
//! a panic, nor a signal such as a stack overflow), its output must stay
//! under [`MAX_OUTPUT`] bytes (a hostile input is not echoed back whole), and
//! on unix it runs under `ulimit -v` of [`MEMORY_LIMIT_KB`] (or the smaller
//! limit a row states), so unbounded memory use fails the row. A row still
//! running after [`HANG_GUARD`] is killed and reported as a hang: that limit
//! is a guard against a hang, far above the time any row takes, not a speed
//! test.
// A test's own notes on stderr: the binary under test, not this file, must
// survive a full stderr (crate::stderr).
#![allow(clippy::disallowed_macros)]

mod support;

use std::fmt::Write as _;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use support::{plain, scratch, BIN};

/// Largest output (stdout and stderr together) a row may print.
const MAX_OUTPUT: usize = 64 * 1024;
/// Address space a row may use, in KiB (unix).
const MEMORY_LIMIT_KB: u64 = 2 * 1024 * 1024;
/// Address space, above [`start_floor_kb`], of a row that must not keep its
/// input (unix): a 20 MB line held whole takes a process over it, reading
/// and dropping the rest of an over-long line does not.
const SMALL_HEADROOM_KB: u64 = 16 * 1024;
/// Address space, above [`start_floor_kb`], of a row whose input file must
/// be refused unread (issue 18): reading even the smallest limit of a
/// reader (16 MiB, a saved game) takes a process over it.
const UNREAD_HEADROOM_KB: u64 = 3 * 1024;
/// Address space of a row given a 100 MB file it must not read (issue 18):
/// room to hold the file, so that a read cannot hide behind a failed
/// allocation, but not to parse it as well.
const HOLD_NOT_PARSE_KB: u64 = 256 * 1024;
/// A row still running after this long is a hang.
const HANG_GUARD: Duration = Duration::from_secs(300);

const MB: usize = 1024 * 1024;

/// One hostile input: how to make it, what to run, what must come out.
struct Row {
    /// What the row tries.
    name: &'static str,
    /// Writes the input files into the directory; returns the arguments of `dama`.
    setup: fn(&Path) -> Vec<String>,
    /// Standard input, if any.
    stdin: Option<fn() -> Vec<u8>>,
    /// The exit code expected: 1 for bad input, 2 for a bad command line.
    code: i32,
    /// A piece of the output (stderr, or stdout for a successful run) that must appear.
    expect: &'static str,
    /// The address space it may use (unix).
    memory: Memory,
}

/// The address space a row may use.
#[derive(Clone, Copy)]
enum Memory {
    /// A fixed limit, in KiB.
    Limit(u64),
    /// This many KiB above what `dama` needs to start and play a move
    /// ([`start_floor_kb`]): a limit that follows the binary's own size, so
    /// that a row tests what the process does with its input, not how large
    /// its code has grown.
    AboveStart(u64),
}

impl Memory {
    fn kb(self) -> u64 {
        match self {
            Memory::Limit(kb) => kb,
            Memory::AboveStart(headroom) => start_floor_kb() + headroom,
        }
    }
}

/// The least address space, in KiB (to 256 KiB), under which `dama` starts,
/// reads a small record or saved game and plays a move: the larger of what
/// `dama replay` of a two-move record and `dama play --load` of it followed by a
/// typed move need. Found once, by bisection over `ulimit -v`.
fn start_floor_kb() -> u64 {
    static FLOOR: std::sync::OnceLock<u64> = std::sync::OnceLock::new();
    *FLOOR.get_or_init(|| {
        if !cfg!(unix) {
            return 0;
        }
        let dir = scratch("floor");
        let record = "[Variant \"dama\"]\n1. a3-a4 h6-h5 *\n";
        write(&dir, "small.pdn", record);
        let replay = |kb: u64| run(&dir, &args(&["replay", "small.pdn"]), None, kb).is_ok_and(|(code, _)| code == 0);
        let play = |kb: u64| {
            write(&dir, "game.pdn", record);
            let argv = args(&["play", "--load", "game.pdn", "--white", "human", "--black", "human"]);
            run(&dir, &argv, Some(b"b3-b4\n".to_vec()), kb)
                .is_ok_and(|(code, text)| code == 0 && text.contains("White played b3-b4."))
        };
        let floor = least_kb(&replay).max(least_kb(&play));
        eprintln!("dama starts and plays a move in {floor} KiB of address space");
        let _ = std::fs::remove_dir_all(&dir);
        floor
    })
}

/// The least limit in KiB (to 256 KiB) under which `ok` holds, between 1 MiB
/// and [`MEMORY_LIMIT_KB`], which must hold.
fn least_kb(ok: &dyn Fn(u64) -> bool) -> u64 {
    let (mut bad, mut good) = (1024u64, MEMORY_LIMIT_KB);
    assert!(ok(good), "dama fails a small input even under {good} KiB");
    while good - bad > 256 {
        let mid = (bad + good) / 2;
        if ok(mid) {
            good = mid;
        } else {
            bad = mid;
        }
    }
    good
}

fn write(dir: &Path, name: &str, data: impl AsRef<[u8]>) -> String {
    std::fs::write(dir.join(name), data).unwrap();
    name.to_string()
}

fn args(list: &[&str]) -> Vec<String> {
    list.iter().map(|s| s.to_string()).collect()
}

/// A variant file that extends `dama` with `body` after it.
fn child(body: &str) -> String {
    format!("extends = \"dama\"\n{body}")
}

fn big_variant(d: &Path) -> Vec<String> {
    let mut s = child("# ");
    s.push_str(&"x".repeat(10 * MB));
    s.push('\n');
    args(&["validate", &write(d, "big.toml", s)])
}

fn big_variant_for_moves(d: &Path) -> Vec<String> {
    let mut s = child("");
    while s.len() < 10 * MB {
        s.push_str("[men]\nmoves = [\"F\"]\n");
    }
    args(&["moves", &write(d, "big.toml", s)])
}

fn nested_arrays(d: &Path) -> Vec<String> {
    let n = 100_000;
    let s = format!("a = {}{}\n", "[".repeat(n), "]".repeat(n));
    args(&["validate", &write(d, "nested.toml", s)])
}

fn nested_tables(d: &Path) -> Vec<String> {
    let n = 50_000;
    let s = format!("a = {}1{}\n", "{b = ".repeat(n), "}".repeat(n));
    args(&["validate", &write(d, "nested.toml", s)])
}

fn nested_headers(d: &Path) -> Vec<String> {
    let s = format!("[{}]\nb = 1\n", vec!["a"; 50_000].join("."));
    args(&["validate", &write(d, "nested.toml", s)])
}

fn nul_variant(d: &Path) -> Vec<String> {
    args(&[
        "validate",
        &write(d, "nul.toml", b"extends = \"dama\"\n\0\0\0name = \"x\0y\"\n"),
    ])
}

fn binary_variant(d: &Path) -> Vec<String> {
    // A megabyte of pseudo-random bytes (no UTF-8 check can pass it).
    let mut x: u32 = 12345;
    let data: Vec<u8> = (0..MB)
        .map(|_| {
            x = x.wrapping_mul(1_103_515_245).wrapping_add(12345);
            (x >> 16) as u8
        })
        .collect();
    args(&["show", &write(d, "random.toml", data)])
}

fn invalid_utf8_variant(d: &Path) -> Vec<String> {
    args(&[
        "validate",
        &write(d, "latin1.toml", b"extends = \"dama\"\nname = \"Dama \xe9\xe9\"\n"),
    ])
}

fn board_0x0(d: &Path) -> Vec<String> {
    args(&[
        "validate",
        &write(d, "b.toml", child("[board]\nwidth = 0\nheight = 0\n")),
    ])
}

fn board_1000x1000(d: &Path) -> Vec<String> {
    args(&[
        "moves",
        &write(d, "b.toml", child("[board]\nwidth = 1000\nheight = 1000\n")),
    ])
}

fn board_negative(d: &Path) -> Vec<String> {
    args(&[
        "validate",
        &write(
            d,
            "b.toml",
            child("[board]\nwidth = -8\nheight = 99999999999999999999\n"),
        ),
    ])
}

fn setup_repeated(d: &Path) -> Vec<String> {
    let list: Vec<String> = (0..5000).map(|i| format!("\"a{}\"", 1 + i % 8)).collect();
    let s = child(&format!("[setup]\nwhite = [{}]\n", list.join(",")));
    args(&["validate", &write(d, "setup.toml", s)])
}

fn setup_off_board(d: &Path) -> Vec<String> {
    let list: Vec<String> = (0..20_000).map(|i| format!("\"z{i}\"")).collect();
    let s = child(&format!("[setup]\nblack = [{}]\n", list.join(",")));
    args(&["validate", &write(d, "setup.toml", s)])
}

fn setup_huge_ranges(d: &Path) -> Vec<String> {
    let list: Vec<String> = (0..20_000).map(|i| format!("\"1-{}\"", 1_000_000_000u64 + i)).collect();
    let s = format!("extends = \"russian\"\n[setup]\nwhite = [{}]\n", list.join(","));
    args(&["validate", &write(d, "setup.toml", s)])
}

fn extends_chain(d: &Path) -> Vec<String> {
    for i in 0..1000 {
        let parent = if i == 999 {
            "dama".to_string()
        } else {
            format!("chain{}.toml", i + 1)
        };
        write(d, &format!("chain{i}.toml"), format!("extends = \"{parent}\"\n"));
    }
    args(&["validate", "chain0.toml"])
}

fn extends_cycle(d: &Path) -> Vec<String> {
    write(d, "a.toml", "extends = \"b.toml\"\n");
    write(d, "b.toml", "extends = \"a.toml\"\n");
    args(&["show", "a.toml"])
}

fn extends_dev_zero(d: &Path) -> Vec<String> {
    args(&["validate", &write(d, "z.toml", "extends = \"/dev/zero\"\n")])
}

fn extends_directory(d: &Path) -> Vec<String> {
    std::fs::create_dir_all(d.join("sub.toml")).unwrap();
    args(&["validate", &write(d, "x.toml", "extends = \"sub.toml\"\n")])
}

fn variant_is_directory(d: &Path) -> Vec<String> {
    std::fs::create_dir_all(d.join("dir.toml")).unwrap();
    args(&["validate", "dir.toml"])
}

fn variant_missing(_: &Path) -> Vec<String> {
    args(&["validate", "nothere.toml"])
}

fn variant_empty(d: &Path) -> Vec<String> {
    args(&["validate", &write(d, "empty.toml", "")])
}

/// 10 MB of movetext on one line (the second `d3-d4` is illegal): 1.4 million
/// moves, refused as they are read, past 100,000 (a game of more is no game
/// played; issue 38.4), before a move is replayed.
fn big_pdn(d: &Path) -> Vec<String> {
    let mut s = String::from("[Variant \"dama\"]\n");
    while s.len() < 10 * MB {
        s.push_str("1. d3-d4 d6-d5 ");
    }
    s.push_str("*\n");
    args(&["replay", "-q", &write(d, "big.pdn", s)])
}

/// Issue 38.4: one game of 18 MB of legal movetext (two kings each way going
/// round a cycle) took gigabytes and aborted (exit code 134) under `ulimit -v
/// 1000000`; a game of more than 100,000 plies is now refused where it goes
/// past them.
fn pdn_one_long_game(d: &Path) -> Vec<String> {
    let mut s = String::from("[Variant \"international\"]\n[SetUp \"1\"]\n[FEN \"W:WK47,46:BK4,5\"]\n\n");
    let mut n = 1;
    while s.len() < 18 * MB {
        s.push_str(&format!("{n}. 47-41 4-9 {}. 41-47 9-4\n", n + 1));
        n += 2;
    }
    s.push_str("*\n");
    args(&["replay", "-q", &write(d, "long-game.pdn", s)])
}

/// A file over the reader's limit (sparse: nothing is written).
fn pdn_over_limit(d: &Path) -> Vec<String> {
    let f = std::fs::File::create(d.join("huge.pdn")).unwrap();
    f.set_len(200 * MB as u64).unwrap();
    args(&["replay", "huge.pdn"])
}

/// A sparse file of `len` bytes (nothing is written).
fn sparse(d: &Path, name: &str, len: usize) -> String {
    let f = std::fs::File::create(d.join(name)).unwrap();
    f.set_len(len as u64).unwrap();
    name.to_string()
}

/// (issue 18) The size is checked before reading: a 100 MB file is refused
/// unread (see [`UNREAD_HEADROOM_KB`] and [`HOLD_NOT_PARSE_KB`]).
fn pdn_100_mb(d: &Path) -> Vec<String> {
    args(&["replay", &sparse(d, "huge.pdn", 100 * MB)])
}

/// (issue 38) The limit holds to the byte: one byte over 64 MiB is refused
/// unread; a record of exactly 64 MiB is read (here NUL bytes: not a move).
fn pdn_one_byte_over_the_limit(d: &Path) -> Vec<String> {
    args(&["replay", &sparse(d, "over.pdn", 64 * MB + 1)])
}

fn pdn_at_the_limit(d: &Path) -> Vec<String> {
    args(&["replay", &sparse(d, "at.pdn", 64 * MB)])
}

fn case_100_mb(d: &Path) -> Vec<String> {
    args(&["cases", &sparse(d, "huge.toml", 100 * MB)])
}

fn case_100_mb_in_a_directory(d: &Path) -> Vec<String> {
    std::fs::create_dir_all(d.join("cases")).unwrap();
    sparse(d, "cases/huge.toml", 100 * MB);
    args(&["cases", "--check", "cases"])
}

/// A case whose snapshot file is 100 MB: `--check` reports it as missing.
fn snapshot_100_mb(d: &Path) -> Vec<String> {
    write(d, "c.toml", "variant = \"dama\"\nfen = \"W:Wd6:Bd7,c8\"\n");
    sparse(d, "c.snap", 100 * MB);
    args(&["cases", "--check", "c.toml"])
}

/// A case file that is `/dev/zero`: it claims no size, so only a bounded
/// read stops (the size check alone would read forever).
fn case_dev_zero(d: &Path) -> Vec<String> {
    #[cfg(unix)]
    std::os::unix::fs::symlink("/dev/zero", d.join("zero.toml")).unwrap();
    args(&["cases", "zero.toml"])
}

fn save_100_mb(d: &Path) -> Vec<String> {
    args(&["play", "--load", &sparse(d, "huge.pdn", 100 * MB)])
}

fn pdn_one_huge_token(d: &Path) -> Vec<String> {
    let s = format!("[Variant \"dama\"]\n1. {} *\n", "d3".repeat(3 * MB));
    args(&["replay", "-q", &write(d, "tok.pdn", s)])
}

fn pdn_huge_bad_token(d: &Path) -> Vec<String> {
    let s = format!("[Variant \"dama\"]\n1. d3{} *\n", "&".repeat(3 * MB));
    args(&["replay", "-q", &write(d, "tok.pdn", s)])
}

fn pdn_nul(d: &Path) -> Vec<String> {
    args(&[
        "replay",
        &write(d, "nul.pdn", b"[Variant \"dama\"]\n1. d3-d4\0 d6-d5 *\n"),
    ])
}

fn pdn_invalid_utf8_move(d: &Path) -> Vec<String> {
    args(&[
        "replay",
        &write(d, "bad.pdn", b"[Variant \"dama\"]\n1. d3-d4 d6\xff-d5 *\n"),
    ])
}

fn pdn_latin1_tag(d: &Path) -> Vec<String> {
    args(&[
        "replay",
        "-q",
        &write(
            d,
            "latin1.pdn",
            b"[Variant \"dama\"]\n[Site \"Ankara, T\xfcrkiye\"]\n1. d3-d4 *\n",
        ),
    ])
}

fn pdn_deep_variations(d: &Path) -> Vec<String> {
    let n = 200_000;
    let s = format!("[Variant \"dama\"]\n1. d3-d4 {}{} *\n", "(".repeat(n), ")".repeat(n));
    args(&["replay", "-q", &write(d, "deep.pdn", s)])
}

fn pdn_unclosed_variation(d: &Path) -> Vec<String> {
    let s = format!("[Variant \"dama\"]\n1. d3-d4 {}\n", "(".repeat(200_000));
    args(&["replay", "-q", &write(d, "open.pdn", s)])
}

fn pdn_unclosed_comment(d: &Path) -> Vec<String> {
    let s = format!("[Variant \"dama\"]\n1. d3-d4 {{{}\n", "x".repeat(MB));
    args(&["replay", "-q", &write(d, "open.pdn", s)])
}

fn pdn_many_tags(d: &Path) -> Vec<String> {
    let mut s = String::new();
    for i in 0..100_000 {
        let _ = writeln!(s, "[T{i} \"v\"]");
    }
    s.push_str("*\n");
    args(&["replay", "-q", &write(d, "tags.pdn", s)])
}

fn pdn_huge_tag(d: &Path) -> Vec<String> {
    let s = format!("[Variant \"{}\"]\n1. d3-d4 *\n", "x".repeat(5 * MB));
    args(&["replay", "-q", &write(d, "tag.pdn", s)])
}

fn pdn_long_game(d: &Path) -> Vec<String> {
    let mut s = String::from("[Variant \"dama\"]\n");
    for i in 1..50_000 {
        let _ = writeln!(s, "{i}. d3-d4 d6-d5");
    }
    s.push_str("*\n");
    args(&["replay", "-q", &write(d, "long.pdn", s)])
}

fn pdn_variant_file_chain(d: &Path) -> Vec<String> {
    extends_chain(d);
    let s = "[VariantFile \"chain0.toml\"]\n1. d3-d4 *\n";
    args(&["replay", "-q", &write(d, "g.pdn", s)])
}

fn fen_repeated_squares(_: &Path) -> Vec<String> {
    let fen = format!("W:W{}:Ba7", vec!["a2"; 20_000].join(","));
    args(&["moves", "dama", "--fen", &fen])
}

fn fen_1000_squares(_: &Path) -> Vec<String> {
    let fen = format!("W:W{}:Ba7", vec!["a2"; 1000].join(","));
    args(&["moves", "dama", "--fen", &fen])
}

fn fen_long_garbage(_: &Path) -> Vec<String> {
    let fen = format!("W:{}", "W".repeat(100_000));
    args(&["moves", "dama", "--fen", &fen])
}

fn fen_control_chars(_: &Path) -> Vec<String> {
    args(&["perft", "dama", "--depth", "1", "--fen", "W:Wa2\u{1}\u{7f}:Bb7"])
}

fn fen_huge_numeric_range(_: &Path) -> Vec<String> {
    args(&["moves", "russian", "--fen", "W:W1-99999999999999999999:B12"])
}

fn usage_no_files(_: &Path) -> Vec<String> {
    args(&["validate"])
}

fn usage_bad_depth(_: &Path) -> Vec<String> {
    args(&["perft", "dama", "--depth", "-1"])
}

fn usage_unknown_flag(_: &Path) -> Vec<String> {
    args(&["moves", "dama", "--no-such-flag"])
}

fn usage_bad_level(_: &Path) -> Vec<String> {
    args(&["play", "dama", "--level", "99"])
}

fn perft_10000_threads(_: &Path) -> Vec<String> {
    args(&["perft", "dama", "--depth", "3", "--threads", "10000"])
}

fn egtb_2_pow_32_threads(d: &Path) -> Vec<String> {
    let dir = d.join("tables").display().to_string();
    args(&[
        "egtb",
        "build",
        "dama",
        "--pieces",
        "2",
        "--dir",
        &dir,
        "--threads",
        "4294967296",
    ])
}

fn match_2000_threads(_: &Path) -> Vec<String> {
    args(&["match", "dama", "--games", "2", "--threads", "2000"])
}

fn tune_300_threads(_: &Path) -> Vec<String> {
    args(&["tune", "dama", "--games", "2", "--threads", "300"])
}

fn openings_100_mb(d: &Path) -> Vec<String> {
    args(&[
        "match",
        "dama",
        "--games",
        "2",
        "--openings-file",
        &sparse(d, "huge.txt", 100 * MB),
    ])
}

fn tune_positions_100_mb(d: &Path) -> Vec<String> {
    args(&["tune", "dama", "--positions", &sparse(d, "huge.pdn", 100 * MB)])
}

fn play_junk_line(d: &Path) -> Vec<String> {
    let _ = d;
    args(&[
        "play", "dama", "--white", "human", "--black", "human", "--save", "game.pdn",
    ])
}

fn ten_mb_line() -> Vec<u8> {
    let mut v = vec![b'x'; 10 * MB];
    v.extend_from_slice(b"\nd3-d4\n");
    v
}

/// 20 MB with no line end, then the end of input.
fn twenty_mb_no_newline() -> Vec<u8> {
    vec![b'x'; 20 * MB]
}

/// A 20 MB line, a legal move, and the end of input without a last line end.
fn twenty_mb_line_then_move() -> Vec<u8> {
    let mut v = vec![b'x'; 20 * MB];
    v.extend_from_slice(b"\nd3-d4");
    v
}

fn nul_lines() -> Vec<u8> {
    b"\0\0\0\nd3\0-d4\n\xff\xfe\n".to_vec()
}

fn stdin_only(_: &Path) -> Vec<String> {
    args(&["validate", "-"])
}

fn replay_stdin(_: &Path) -> Vec<String> {
    args(&["replay", "-q", "--variant", "dama", "-"])
}

fn ten_mb_of_toml() -> Vec<u8> {
    let mut v = b"extends = \"dama\"\n".to_vec();
    v.resize(10 * MB, b'#');
    v
}

fn ten_mb_of_pdn_junk() -> Vec<u8> {
    let mut v = b"1. ".to_vec();
    v.resize(10 * MB, b'(');
    v
}

fn rows() -> Vec<Row> {
    let row = |name, setup, code, expect| Row {
        name,
        setup,
        stdin: None,
        code,
        expect,
        memory: Memory::Limit(MEMORY_LIMIT_KB),
    };
    vec![
        // Variant files.
        row(
            "10 MB variant file",
            big_variant as fn(&Path) -> Vec<String>,
            1,
            "limited to 1048576 bytes",
        ),
        row(
            "10 MB variant file (moves)",
            big_variant_for_moves,
            1,
            "limited to 1048576 bytes",
        ),
        row("100,000 nested arrays", nested_arrays, 1, "nested too deeply"),
        row("50,000 nested inline tables", nested_tables, 1, "nested too deeply"),
        row("50,000-part table header", nested_headers, 1, "nested too deeply"),
        row("NUL bytes in a variant file", nul_variant, 1, "TOML syntax error"),
        row(
            "1 MB of random bytes as a variant",
            binary_variant,
            1,
            "not valid UTF-8",
        ),
        row(
            "invalid UTF-8 (Latin-1) in a variant file",
            invalid_utf8_variant,
            1,
            "not valid UTF-8",
        ),
        row("0×0 board", board_0x0, 1, "at least one"),
        row("1000×1000 board", board_1000x1000, 1, "1000×1000"),
        row("negative and overflowing board sizes", board_negative, 1, "b.toml:3"),
        row("5,000 repeated setup squares", setup_repeated, 1, "repeats squares"),
        row("20,000 off-board setup squares", setup_off_board, 1, "z1"),
        row("20,000 huge numeric setup ranges", setup_huge_ranges, 1, "setup.toml:3"),
        row(
            "`extends` chain of 1,000 files",
            extends_chain,
            1,
            "longer than 64 files",
        ),
        row("`extends` cycle", extends_cycle, 1, "cycle"),
        row("`extends` = /dev/zero", extends_dev_zero, 1, "not a regular file"),
        row("`extends` a directory", extends_directory, 1, "directory"),
        row("variant path is a directory", variant_is_directory, 1, "directory"),
        row("variant file missing", variant_missing, 1, "nothere.toml"),
        row("empty variant file", variant_empty, 1, "empty"),
        // PDN records.
        row(
            "10 MB PDN on one line",
            big_pdn,
            1,
            "the game goes on past 100000 moves",
        ),
        Row {
            memory: Memory::Limit(1_000_000),
            ..row(
                "one game of 18 MB, refused past 100,000 plies",
                pdn_one_long_game,
                1,
                "the game goes on past 100000 moves",
            )
        },
        row("200 MB PDN (over the limit)", pdn_over_limit, 1, "larger than"),
        row("one 6 MB move token", pdn_one_huge_token, 1, "error"),
        Row {
            memory: Memory::AboveStart(UNREAD_HEADROOM_KB),
            ..row(
                "100 MB PDN, refused unread",
                pdn_100_mb,
                1,
                "larger than 67108864 bytes",
            )
        },
        Row {
            memory: Memory::AboveStart(UNREAD_HEADROOM_KB),
            ..row(
                "PDN of 64 MiB and 1 byte, refused unread",
                pdn_one_byte_over_the_limit,
                1,
                "larger than 67108864 bytes",
            )
        },
        row("PDN of exactly 64 MiB, read", pdn_at_the_limit, 1, "is not a move"),
        Row {
            memory: Memory::AboveStart(UNREAD_HEADROOM_KB),
            ..row(
                "100 MB saved game, refused unread",
                save_100_mb,
                1,
                "larger than 16777216 bytes",
            )
        },
        row("one 3 MB token of junk", pdn_huge_bad_token, 1, "error"),
        row("NUL byte in PDN movetext", pdn_nul, 1, "error"),
        row(
            "invalid UTF-8 in PDN movetext",
            pdn_invalid_utf8_move,
            1,
            "is not a move",
        ),
        row("Latin-1 in a PDN tag is read as Latin-1", pdn_latin1_tag, 0, "game 1"),
        row("200,000 nested variations", pdn_deep_variations, 0, "game 1"),
        row("200,000 unclosed variations", pdn_unclosed_variation, 1, "missing `)`"),
        row("unclosed 1 MB comment", pdn_unclosed_comment, 1, "missing `}`"),
        row(
            "100,000 tags, no variant",
            pdn_many_tags,
            1,
            "does not say which variant",
        ),
        row("5 MB variant name in a tag", pdn_huge_tag, 1, "error"),
        row("50,000-move game", pdn_long_game, 1, "not a legal move"),
        row(
            "PDN naming a 1,000-file extends chain",
            pdn_variant_file_chain,
            1,
            "longer than 64 files",
        ),
        // Rule cases.
        Row {
            memory: Memory::Limit(HOLD_NOT_PARSE_KB),
            ..row(
                "100 MB case file, refused unread",
                case_100_mb,
                1,
                "case files are limited to 1048576",
            )
        },
        Row {
            memory: Memory::Limit(HOLD_NOT_PARSE_KB),
            ..row(
                "100 MB case file in a directory",
                case_100_mb_in_a_directory,
                1,
                "case files are limited to 1048576",
            )
        },
        Row {
            memory: Memory::Limit(HOLD_NOT_PARSE_KB),
            ..row("100 MB snapshot file", snapshot_100_mb, 1, "no snapshot at")
        },
        Row {
            memory: Memory::Limit(HOLD_NOT_PARSE_KB),
            ..row("case file is /dev/zero", case_dev_zero, 1, "more than 1048576")
        },
        // FEN.
        row(
            "FEN with 20,000 squares",
            fen_repeated_squares,
            1,
            "a FEN takes at most",
        ),
        row(
            "FEN with 1,000 squares, one given twice",
            fen_1000_squares,
            1,
            "given twice",
        ),
        row("FEN of 100,000 letters", fen_long_garbage, 1, "invalid FEN"),
        row("FEN with control characters", fen_control_chars, 1, "invalid FEN"),
        row("FEN with a 20-digit range", fen_huge_numeric_range, 1, "invalid FEN"),
        // Command line.
        row("no files to validate", usage_no_files, 2, "required"),
        row("negative depth", usage_bad_depth, 2, "error"),
        row("unknown flag", usage_unknown_flag, 2, "--no-such-flag"),
        row("level out of range", usage_bad_level, 2, "99"),
        // One cap and one message for every --threads (issue 38).
        row(
            "perft --threads 10000",
            perft_10000_threads,
            2,
            "--threads takes 0 (one per core) or 1 to 256 threads",
        ),
        row(
            "egtb build --threads 4294967296",
            egtb_2_pow_32_threads,
            2,
            "--threads takes 0 (one per core) or 1 to 256 threads",
        ),
        row(
            "match --threads 2000",
            match_2000_threads,
            2,
            "--threads takes 1 to 256 threads",
        ),
        row(
            "tune --threads 300",
            tune_300_threads,
            2,
            "--threads takes 1 to 256 threads",
        ),
        // Files an option reads are bounded (issue 38).
        Row {
            memory: Memory::AboveStart(UNREAD_HEADROOM_KB),
            ..row(
                "100 MB --openings-file, refused unread",
                openings_100_mb,
                1,
                "larger than 16777216 bytes",
            )
        },
        Row {
            memory: Memory::AboveStart(UNREAD_HEADROOM_KB),
            ..row(
                "100 MB tune --positions, refused unread",
                tune_positions_100_mb,
                1,
                "larger than 67108864 bytes",
            )
        },
        // Standard input.
        Row {
            name: "10 MB variant on standard input",
            setup: stdin_only,
            stdin: Some(ten_mb_of_toml),
            code: 1,
            expect: "larger than 1048576 bytes",
            memory: Memory::Limit(MEMORY_LIMIT_KB),
        },
        Row {
            name: "10 MB of open variations on standard input",
            setup: replay_stdin,
            stdin: Some(ten_mb_of_pdn_junk),
            code: 1,
            expect: "missing `)`",
            memory: Memory::Limit(MEMORY_LIMIT_KB),
        },
        Row {
            name: "10 MB line typed into `dama play`",
            setup: play_junk_line,
            stdin: Some(ten_mb_line),
            code: 0,
            expect: "d3-d4",
            memory: Memory::Limit(MEMORY_LIMIT_KB),
        },
        Row {
            name: "NUL bytes and invalid UTF-8 typed into `dama play`",
            setup: play_junk_line,
            stdin: Some(nul_lines),
            code: 0,
            expect: "unexpected control character U+0000",
            memory: Memory::Limit(MEMORY_LIMIT_KB),
        },
        // The rest of an over-long line is read and dropped, never kept.
        Row {
            name: "20 MB without a line end typed into `dama play`",
            setup: play_junk_line,
            stdin: Some(twenty_mb_no_newline),
            code: 0,
            expect: "End of input: the game is saved in game.pdn",
            memory: Memory::AboveStart(SMALL_HEADROOM_KB),
        },
        Row {
            name: "20 MB line, then a move, typed into `dama play`",
            setup: play_junk_line,
            stdin: Some(twenty_mb_line_then_move),
            code: 0,
            expect: "White played d3-d4.",
            memory: Memory::AboveStart(SMALL_HEADROOM_KB),
        },
    ]
}

/// Runs `dama` in `dir` with `args`, under the memory limit (in KiB) and the hang guard.
fn run(dir: &Path, args: &[String], stdin: Option<Vec<u8>>, memory_kb: u64) -> Result<(i32, String), String> {
    let cmd = if cfg!(unix) {
        let mut c = Command::new("sh");
        c.arg("-c")
            .arg(format!("ulimit -v {memory_kb} 2>/dev/null; exec \"$0\" \"$@\""))
            .arg(BIN);
        c
    } else {
        Command::new(BIN)
    };
    let mut cmd = plain(cmd, dir);
    cmd.args(args)
        .stdin(if stdin.is_some() { Stdio::piped() } else { Stdio::null() })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = cmd.spawn().map_err(|e| format!("cannot start dama: {e}"))?;
    let feeder = stdin.map(|data| {
        let mut pipe = child.stdin.take().unwrap();
        std::thread::spawn(move || {
            use std::io::Write;
            // The process may stop reading early: a broken pipe is fine.
            let _ = pipe.write_all(&data);
        })
    });
    let read = |r: Option<Box<dyn std::io::Read + Send>>| {
        std::thread::spawn(move || {
            let mut buf = Vec::new();
            if let Some(mut r) = r {
                let _ = r.read_to_end(&mut buf);
            }
            buf
        })
    };
    let out = read(child.stdout.take().map(|s| Box::new(s) as _));
    let err = read(child.stderr.take().map(|s| Box::new(s) as _));
    let started = Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().map_err(|e| e.to_string())? {
            break s;
        }
        if started.elapsed() > HANG_GUARD {
            let _ = child.kill();
            let _ = child.wait();
            return Err(format!("still running after {HANG_GUARD:?}: a hang"));
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    if let Some(f) = feeder {
        let _ = f.join();
    }
    let out = out.join().unwrap();
    let err = err.join().unwrap();
    let Some(code) = status.code() else {
        return Err(format!(
            "killed by a signal ({status}); stderr: {}",
            String::from_utf8_lossy(&err[..err.len().min(2000)])
        ));
    };
    let total = out.len() + err.len();
    let mut text = String::from_utf8_lossy(&err).into_owned();
    text.push_str(&String::from_utf8_lossy(&out));
    if total > MAX_OUTPUT {
        return Err(format!(
            "printed {total} bytes (limit {MAX_OUTPUT}); it starts: {}",
            text.chars().take(500).collect::<String>()
        ));
    }
    Ok((code, text))
}

#[test]
fn hostile_inputs_get_bounded_clear_errors() {
    let only = std::env::var("DAMA_HOSTILE_ONLY").ok();
    let mut failures = Vec::new();
    let mut ran = 0;
    for (i, row) in rows().into_iter().enumerate() {
        if only.as_deref().is_some_and(|o| !row.name.contains(o)) {
            continue;
        }
        if !cfg!(unix) && row.name.contains("/dev/zero") {
            continue;
        }
        ran += 1;
        let dir = scratch(&i.to_string());
        let args = (row.setup)(&dir);
        let result = run(&dir, &args, row.stdin.map(|f| f()), row.memory.kb());
        let _ = std::fs::remove_dir_all(&dir);
        match result {
            Err(e) => failures.push(format!("{}: {e}", row.name)),
            Ok((code, text)) => {
                if text.contains("panicked") || code == 101 {
                    failures.push(format!("{}: panicked (exit {code}): {text}", row.name));
                } else if code != row.code {
                    failures.push(format!(
                        "{}: exit code {code}, expected {}; output:\n{}",
                        row.name,
                        row.code,
                        text.chars().take(1500).collect::<String>()
                    ));
                } else if !text.contains(row.expect) {
                    failures.push(format!(
                        "{}: output lacks `{}`:\n{}",
                        row.name,
                        row.expect,
                        text.chars().take(1500).collect::<String>()
                    ));
                }
            }
        }
    }
    assert!(ran > 0, "no row matched DAMA_HOSTILE_ONLY");
    assert!(
        failures.is_empty(),
        "{} of {ran} rows failed:\n\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}

/// (issue 38) Text from a file is shown with its control characters as
/// `�` (U+FFFD), as error messages show them: a variant's name and
/// description (`show`, `cases`, `play`), a case's description (`cases`)
/// and a record's tags (`replay`, `analyze`) cannot clear the screen or
/// retitle the terminal of whoever looks at them.
#[test]
fn terminal_escapes_in_files_are_shown_as_replacement_characters() {
    // ESC [2J clears the screen; ESC ]0;...BEL sets the window title.
    const EVIL: &str = "C\\u001b[2J\\u001b]0;PWNED\\u0007";
    let d = scratch("escapes");
    write(
        &d,
        "evil.toml",
        format!(
            "extends = \"international\"\nid = \"evil\"\nname = \"{EVIL}\"\n\
             description = \"A description \\u001b[31mred\\u001b[0m\\rback\"\n\
             sources = [\"\\u001b]8;;http://x\\u0007link\"]\n"
        ),
    );
    write(
        &d,
        "case.toml",
        format!("variant = \"evil.toml\"\ndescription = \"the case {EVIL}\"\nfen = \"W:W31:B20\"\n"),
    );
    let pdn = "[Event \"e\u{1b}[2J\"]\n[White \"w\u{1b}]0;PWNED\u{7}\"]\n[Black \"b\u{9b}31m\"]\n\
               [Variant \"russian\"]\n1. c3-d4 *\n";
    write(&d, "game.pdn", pdn);
    let runs: [(&[&str], &str); 5] = [
        (&["show", "evil.toml"], ""),
        (&["cases", "case.toml"], ""),
        (&["replay", "game.pdn"], ""),
        (&["analyze", "game.pdn", "--depth", "1"], ""),
        (&["play", "evil.toml", "--white", "human", "--black", "human"], "quit\n"),
    ];
    for (args, stdin) in runs {
        let (code, out, err) = support::run(&d, args, stdin);
        let all = format!("{out}{err}");
        assert!(!all.contains("panicked"), "{args:?}: {all}");
        for bad in ['\u{1b}', '\u{7}', '\u{9b}', '\r'] {
            assert!(
                !all.contains(bad),
                "{args:?} (exit {code}) printed U+{:04X}:\n{}",
                bad as u32,
                all.escape_debug()
            );
        }
        assert!(all.contains('\u{fffd}'), "{args:?} (exit {code}): {all}");
    }
    let (_, out, _) = support::run(&d, &["show", "evil.toml"], "");
    assert!(out.contains("C\u{fffd}[2J\u{fffd}]0;PWNED\u{fffd} (evil)"), "{out}");
    assert!(out.contains("\u{fffd}[31mred\u{fffd}[0m\u{fffd}back"), "{out}");
    let (_, out, _) = support::run(&d, &["replay", "game.pdn"], "");
    assert!(out.contains("[White \"w\u{fffd}]0;PWNED\u{fffd}\"]"), "{out}");
    let _ = std::fs::remove_dir_all(&d);
}
