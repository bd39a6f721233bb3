//! `dama moves` lists every way of playing a move; `dama perft` times even
//! short runs; the board drawing reads on light and dark terminals.

mod support;

use support::dama;

/// A move that several paths play lists the others (issue 18), in text and JSON.
#[test]
fn moves_list_every_path() {
    let (code, out, err) = dama(&["moves", "dama", "--fen", "W:WKa5:Bb5,e5"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("a5xc5xf5         (captures b5 e5, 2 paths)\n  also a5xd5xf5\n"),
        "{out}"
    );
    let (code, out, err) = dama(&["moves", "dama", "--fen", "W:WKa5:Bb5,e5", "--format", "json"]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    for m in v.as_array().unwrap() {
        let all = m["all_paths"].as_array().unwrap();
        assert_eq!(all.len() as u64, m["paths"].as_u64().unwrap(), "{m}");
        assert_eq!(all[0], m["notation"]);
    }
}

/// The seconds column has microseconds, so a short run does not read 0.000.
#[test]
fn perft_shows_short_times() {
    let (code, out, err) = dama(&["perft", "dama", "--depth", "2"]);
    assert_eq!(code, 0, "{err}");
    let row = out.lines().find(|l| l.trim_start().starts_with("1 ")).unwrap();
    let secs = row.split_whitespace().nth(2).unwrap();
    assert_eq!(secs.split('.').nth(1).map(str::len), Some(6), "{row}");
}

/// White's pieces are drawn in reverse video rather than bright white
/// (unreadable on a light background). The last move's captured squares are
/// marked `x` (pinned by the play snapshots).
#[test]
fn boards_mark_captures_and_read_on_any_background() {
    let (code, out, err) = dama(&["show", "dama", "--color", "always"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("\x1b[1;7mw\x1b[0m"), "{out}");
    assert!(!out.contains("\x1b[1;97m"), "{out}");
}

/// (issue 37) A FEN refused only for a man on its promotion rank names the
/// option that accepts it; other FEN errors do not.
#[test]
fn a_man_on_its_promotion_rank_names_the_option() {
    for cmd in ["moves", "perft"] {
        let mut args = vec![cmd, "dama", "--fen", "W:Wd8:Bh2"];
        if cmd == "perft" {
            args.extend(["--depth", "1"]);
        }
        let (code, _, err) = dama(&args);
        assert_eq!(code, 1, "{err}");
        assert!(
            err.contains("help: to study this position, pass --allow-men-on-promotion-rank"),
            "{cmd}: {err}"
        );
        args.push("--allow-men-on-promotion-rank");
        let (code, _, err) = dama(&args);
        assert_eq!(code, 0, "{cmd}: {err}");
    }
    let (code, _, err) = dama(&["moves", "dama", "--fen", "W:Wz9:Bh2"]);
    assert_eq!(code, 1);
    assert!(!err.contains("allow-men-on-promotion-rank"), "{err}");
}

/// A king against eleven men in tests/variants/big16.toml: 21,898 moves
/// played by 472,714 capture paths.
const BIG16_FEN: &str = "W:WKa7:Bg13,a2,p8,g3,a10,k15,e2,b2,d11,c5,e9";
const BIG16_MOVES: usize = 21_898;
const BIG16_PATHS: u64 = 472_714;

/// Issue 38: in a 16×16 variant whose capture tree explodes
/// (tests/variants/big16.toml), a position can have hundreds of thousands
/// of moves with many paths each. `dama moves` lists every move once with
/// its path count, but at most 10,000 other ways in all (it listed up to
/// 100 for every move, millions of lines, and searched each move's paths
/// again to write its notation: 470 s here, time quadratic in the moves).
#[test]
fn moves_lists_a_bounded_number_of_ways() {
    let file = support::root().join("tests/variants/big16.toml");
    let file = file.to_str().unwrap();
    let (code, out, err) = dama(&["moves", file, "--fen", BIG16_FEN]);
    assert_eq!(code, 0, "{err}");
    let also = out.lines().filter(|l| l.starts_with("  also ")).count();
    let rows: Vec<&str> = out.lines().filter(|l| !l.starts_with("  ")).collect();
    assert_eq!(rows.len(), BIG16_MOVES, "{}", &out[..out.len().min(2000)]);
    assert!(also <= 10_000, "{also} ways listed");
    // Every path is still counted: the listed ways and the rest add up.
    let paths: u64 = rows
        .iter()
        .map(|r| {
            r.split(", ")
                .find_map(|p| p.strip_suffix(" paths)"))
                .map_or(1, |n| n.parse::<u64>().unwrap())
        })
        .sum();
    assert_eq!(paths, BIG16_PATHS);
}
