//! `dama egtb build`, `probe` and `stats` on small English tables, pinned
//! by a snapshot; a table for other rules is refused. The engines of
//! `dama match` and `dama hub` play with the tables (`--egtb DIR`,
//! `set-param name=egtb`).

mod support;

use std::io::{BufRead, BufReader, Write};
use std::process::Stdio;

use serde_json::json;
use support::server::Server;
use support::{command, dama, root, run, scratch};

#[test]
fn build_probe_stats_session() {
    let dir = scratch("egtb");
    let d = dir.to_str().unwrap();
    let mut session = String::new();
    for args in [
        vec!["egtb", "build", "english", "--pieces", "3", "--dir", d],
        vec!["egtb", "probe", "english", "--fen", "W:WK1,K2:BK32", "--dir", d],
        vec!["egtb", "probe", "english", "--fen", "W:WK14:BK32", "--dir", d],
        vec!["egtb", "stats", "english", "--dir", d],
    ] {
        let (code, out, err) = dama(&args);
        assert_eq!(code, 0, "{args:?}: {err}");
        session.push_str(&format!(
            "$ dama {}\n{}\n",
            args.join(" ").replace(d, "DIR"),
            out.replace(d, "DIR")
        ));
    }
    insta::assert_snapshot!("egtb_session", session);
    // A position with more pieces than the tables hold.
    let (code, _, err) = dama(&["egtb", "probe", "english", "--fen", "W:W21,22:B9,10", "--dir", d]);
    assert_eq!(code, 1);
    assert!(err.contains("no table for"), "{err}");
    // The same folder for other rules: the header says so.
    let other = dir.join("other.toml");
    std::fs::write(
        &other,
        "extends = \"english\"\nid = \"english\"\nname = \"Not English\"\n",
    )
    .unwrap();
    let (code, _, err) = dama(&[
        "egtb",
        "probe",
        other.to_str().unwrap(),
        "--fen",
        "W:WK1:BK32",
        "--dir",
        d,
    ]);
    assert_eq!(code, 1);
    assert!(err.contains("was built for the rules of english"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Four kings, White to move: every move captures into KK v K, a win in 7
/// plies by the tables.
const FOUR_KINGS: &str = "W:WK1,K2:BK3,K6";

#[test]
fn match_and_hub_play_with_the_tables() {
    let dir = scratch("egtb-play");
    let d = dir.to_str().unwrap();
    let (code, _, err) = dama(&["egtb", "build", "english", "--pieces", "3", "--dir", d]);
    assert_eq!(code, 0, "{err}");
    // Both engines with the tables: White wins both games in 7 plies.
    let (code, out, err) = dama(&[
        "match",
        "english",
        "--fen",
        FOUR_KINGS,
        "--games",
        "2",
        "--openings",
        "0",
        "--white",
        "engine",
        "--black",
        "engine",
        "--depth",
        "2",
        "--egtb",
        d,
        "--format",
        "json",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(!err.contains("warning"), "{err}");
    let report: serde_json::Value = serde_json::from_str(&out).unwrap();
    let games = report["results"].as_array().expect("results");
    assert_eq!(games.len(), 2);
    for g in games {
        assert_eq!(g["plies"], 7, "{g}");
        assert_eq!(g["result"], "1-0", "{g}");
    }
    // A folder without tables for the variant: a warning, and the match is played.
    let empty = dir.join("empty");
    std::fs::create_dir_all(&empty).unwrap();
    let (code, _, err) = dama(&[
        "match",
        "english",
        "--fen",
        FOUR_KINGS,
        "--games",
        "2",
        "--openings",
        "0",
        "--depth",
        "2",
        "--egtb",
        empty.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(err.matches("warning: no endgame table for english").count(), 1, "{err}");
    // A folder that is not there: an error.
    let missing = dir.join("missing");
    let (code, _, err) = dama(&["match", "english", "--games", "2", "--egtb", missing.to_str().unwrap()]);
    assert_eq!(code, 1);
    assert!(err.contains("not a folder of endgame tables"), "{err}");

    // The hub: the parameter is declared, set, and the search answers from the tables.
    let input = format!(
        "hub\nset-param name=variant value=english\nset-param name=egtb value=\"{d}\"\ninit\n\
         pos fen=\"{FOUR_KINGS}\"\nlevel depth=2\ngo think\nset-param name=egtb value=\"{}\"\nquit\n",
        missing.display()
    );
    let (code, out, err) = run(&root(), &["hub"], &input);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("param name=egtb value=\"\" type=string"), "{out}");
    // A win in 7 plies is 100 - 7/100 men, as Scan writes it.
    assert!(
        out.lines().any(|l| l.starts_with("info ") && l.contains("score=99.93")),
        "{out}"
    );
    assert!(out.lines().any(|l| l.starts_with("done move=")), "{out}");
    assert!(out.contains("error message=\"egtb: "), "{out}");
    // `--egtb DIR` on the command line too.
    let (code, out, err) = run(&root(), &["hub", "english", "--egtb", d], "hub\nquit\n");
    assert_eq!(code, 0, "{err}");
    assert!(
        out.lines()
            .any(|l| l.starts_with("param name=egtb value=") && l.contains(d)),
        "{out}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// The variants whose whole games are played with tables below: two 8×8
/// boards with men moving forward (one with orthogonal moves), flying
/// kings, and the 10×10 board.
const VARIANTS: [&str; 4] = ["dama", "english", "russian", "international"];

/// Builds the tables of `variant` up to `pieces` pieces in `dir`.
fn build(variant: &str, pieces: &str, dir: &str) {
    let (code, _, err) = dama(&["egtb", "build", variant, "--pieces", pieces, "--dir", dir]);
    assert_eq!(code, 0, "{variant}: {err}");
}

/// A whole game from the initial position through `dama hub` with the
/// tables, one `go` per ply (at most `max` plies): the moves played.
fn hub_game(variant: &str, dir: &str, max: usize) -> Vec<String> {
    let mut child = command(&root())
        .arg("hub")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("dama hub");
    let mut input = child.stdin.take().unwrap();
    let mut output = BufReader::new(child.stdout.take().unwrap());
    writeln!(
        input,
        "hub\nset-param name=variant value={variant}\nset-param name=egtb value=\"{dir}\"\ninit\nlevel depth=1"
    )
    .unwrap();
    let mut moves: Vec<String> = Vec::new();
    let mut line = String::new();
    'game: while moves.len() < max {
        writeln!(input, "pos moves=\"{}\"\ngo think", moves.join(" ")).unwrap();
        input.flush().unwrap();
        loop {
            line.clear();
            assert!(output.read_line(&mut line).unwrap() > 0, "{variant}: the hub ended");
            let l = line.trim();
            assert!(!l.contains("the search failed"), "{variant} after {moves:?}: {l}");
            if l.starts_with("error") {
                assert!(l.contains("no legal move"), "{variant} after {moves:?}: {l}");
                break 'game;
            }
            if let Some(rest) = l.strip_prefix("done") {
                match rest.split_whitespace().find_map(|w| w.strip_prefix("move=")) {
                    Some(m) => moves.push(m.trim_matches('"').to_string()),
                    None => break 'game,
                }
                break;
            }
        }
    }
    writeln!(input, "quit").unwrap();
    drop(input);
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "{variant}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    moves
}

/// Every front end that takes `--egtb` plays whole games from the initial
/// position with tables (which hold none of its positions until the end):
/// `match`, `play`, `analyze`, `hub`, and `serve`. Every position with
/// more pieces than the tables is no table's, never an index into one.
#[test]
fn every_front_end_plays_whole_games_with_the_tables() {
    let dir = scratch("egtb-whole");
    let d = dir.to_str().unwrap();
    for v in VARIANTS {
        build(v, "2", d);
        let (code, out, err) = dama(&[
            "match",
            v,
            "--games",
            "2",
            "--openings",
            "0",
            "--white",
            "engine",
            "--black",
            "engine",
            "--depth",
            "1",
            "--egtb",
            d,
            "--format",
            "json",
        ]);
        assert_eq!(code, 0, "{v}: {err}");
        assert!(!err.contains("warning"), "{v}: {err}");
        let report: serde_json::Value = serde_json::from_str(&out).unwrap();
        let games = report["results"].as_array().expect("results");
        assert_eq!(games.len(), 2, "{v}");
        for g in games {
            assert!(g["plies"].as_u64().unwrap() > 0, "{v}: {g}");
        }
        let file = format!("{v}.pdn");
        let (code, out, err) = run(
            &dir,
            &[
                "play", v, "--white", "computer", "--black", "computer", "--depth", "1", "--egtb", d, "--save", &file,
            ],
            "",
        );
        assert_eq!(code, 0, "{v}: {err}");
        assert!(out.contains("Game over"), "{v}: {out}");
        let (code, out, err) = run(&dir, &["analyze", &file, "--depth", "1", "--egtb", d], "");
        assert_eq!(code, 0, "{v}: {err}\n{out}");
        assert!(!err.contains("warning"), "{v}: {err}");
        let moves = hub_game(v, d, 300);
        assert!(moves.len() > 10, "{v}: {moves:?}");
    }
    // The server: a whole game at level 1 in each variant.
    let s = Server::start_with(0, &["--egtb", d]);
    for v in VARIANTS {
        let g = s.json("POST", "/api/games", json!({"variant": v}));
        let id = g["id"].as_str().unwrap().to_string();
        let mut plies = 0;
        loop {
            let r = s.json("POST", &format!("/api/games/{id}/computer"), json!({"level": 1}));
            assert_eq!(r["ok"], true, "{v}: {r}");
            plies += 1;
            if !r["game"]["result"].is_null() || plies >= 300 {
                break;
            }
        }
        assert!(plies > 10, "{v}");
    }
    drop(s);
    // A folder that is not there: the server does not start.
    let missing = dir.join("missing");
    let (code, _, err) = dama(&["serve", "--port", "0", "--egtb", missing.to_str().unwrap()]);
    assert_eq!(code, 1);
    assert!(err.contains("not a folder of endgame tables"), "{err}");
    let (code, _, err) = run(
        &dir,
        &["analyze", "english.pdn", "--egtb", missing.to_str().unwrap()],
        "",
    );
    assert_eq!(code, 1);
    assert!(err.contains("not a folder of endgame tables"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `dama egtb probe` on a position with more pieces than any table: "no
/// table", with 8 men as with 9 or a full board.
#[test]
fn probe_of_a_full_board_is_no_table() {
    let dir = scratch("egtb-probe-full");
    let d = dir.to_str().unwrap();
    build("english", "2", d);
    for fen in [
        "B:W21,22,23,24,25,26,27,28:B1",
        "B:W21,22,23,24,25,26,27,28,29:B1",
        "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12",
    ] {
        let (code, _, err) = dama(&["egtb", "probe", "english", "--fen", fen, "--dir", d]);
        assert_eq!(code, 1, "{fen}: {err}");
        assert!(err.contains("no table for"), "{fen}: {err}");
        assert!(!err.contains("panicked"), "{fen}: {err}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A damaged table (an entry byte changed, bytes appended, a sparse
/// extension to 20 GB) is reported by every command that reads it, naming
/// the file and what is wrong: `stats` and `probe` fail, the engines warn
/// and play without it.
#[test]
fn damaged_tables_are_reported() {
    let dir = scratch("egtb-damaged");
    let d = dir.to_str().unwrap();
    build("english", "2", d);
    let path = dir.join("english").join("m0k1-m0k1.egtb");
    let name = path.display().to_string();
    let good = std::fs::read(&path).unwrap();
    let mut flipped = good.clone();
    let at = good.len() - 8 - 50;
    flipped[at] ^= 0x10;
    let mut longer = good.clone();
    longer.extend_from_slice(b"appended");
    for (what, damage) in [
        ("checksum", Some(flipped)),
        ("longer than its header says", Some(longer)),
        ("longer than its header says", None),
    ] {
        match damage {
            Some(bytes) => std::fs::write(&path, bytes).unwrap(),
            None => {
                std::fs::write(&path, &good).unwrap();
                let f = std::fs::OpenOptions::new().write(true).open(&path).unwrap();
                f.set_len(20 << 30).unwrap();
            }
        }
        let said = |err: &str| err.contains(&name) && err.contains(what);
        let (code, out, err) = dama(&["egtb", "stats", "english", "--dir", d]);
        assert_eq!(code, 1, "{what}: {out}");
        assert!(said(&err), "{what}: {err}");
        let (code, _, err) = dama(&["egtb", "probe", "english", "--fen", "W:WK1:BK32", "--dir", d]);
        assert_eq!(code, 1, "{what}");
        assert!(said(&err), "{what}: {err}");
        let (code, _, err) = dama(&[
            "match",
            "english",
            "--fen",
            "W:WK1,K2:BK3",
            "--games",
            "2",
            "--openings",
            "0",
            "--depth",
            "1",
            "--egtb",
            d,
        ]);
        assert_eq!(code, 0, "{what}: {err}");
        assert!(err.contains("warning:") && said(&err), "{what}: {err}");
        let (code, out, err) = run(
            &dir,
            &[
                "play",
                "english",
                "--white",
                "computer",
                "--black",
                "computer",
                "--depth",
                "1",
                "--fen",
                "W:WK1,K2:BK3",
                "--egtb",
                d,
                "--save",
                "p.pdn",
            ],
            "",
        );
        assert_eq!(code, 0, "{what}: {err}");
        assert!(out.contains("Game over"), "{what}: {out}");
        assert!(err.contains("warning:") && said(&err), "{what}: {err}");
        let _ = std::fs::remove_file(dir.join("p.pdn"));
        let (code, _, err) = run(&root(), &["hub", "english", "--egtb", d], "hub\nquit\n");
        assert_eq!(code, 0, "{what}: {err}");
        assert!(err.contains("warning:") && said(&err), "{what}: {err}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// `--material M --only` builds one slice from the tables it leads to,
/// as a task of a build spread over machines does: slice by slice in the
/// order of the build, the files are those of one build; a slice whose
/// tables are missing is refused, naming the first one missing.
#[test]
fn one_slice_at_a_time_builds_the_same_files() {
    let dir = scratch("egtb-only");
    let (whole, parts) = (dir.join("whole"), dir.join("parts"));
    let (w, p) = (whole.to_str().unwrap(), parts.to_str().unwrap());
    let (code, _, err) = dama(&["egtb", "build", "english", "--material", "KK v K", "--dir", w]);
    assert_eq!(code, 0, "{err}");
    let (code, _, err) = dama(&["egtb", "build", "english", "--material", "KK v K", "--only", "--dir", p]);
    assert_eq!(code, 1);
    assert!(err.contains("no table for - v K"), "{err}");
    for m in ["- v K", "K v -", "K v K", "KK v -", "KK v K"] {
        let (code, out, err) = dama(&["egtb", "build", "english", "--material", m, "--only", "--dir", p]);
        assert_eq!(code, 0, "{m}: {err}");
        assert!(out.contains("1 built"), "{m}: {out}");
    }
    let files = |d: &std::path::Path| {
        let mut v: Vec<(String, Vec<u8>)> = std::fs::read_dir(d.join("english"))
            .unwrap()
            .map(|e| e.unwrap().path())
            .map(|f| {
                (
                    f.file_name().unwrap().to_string_lossy().into_owned(),
                    std::fs::read(&f).unwrap(),
                )
            })
            .collect();
        v.sort();
        v
    };
    assert_eq!(files(&whole).len(), 5);
    assert!(files(&whole) == files(&parts));
    // --only needs --material.
    let (code, _, err) = dama(&["egtb", "build", "english", "--pieces", "2", "--only", "--dir", p]);
    assert_eq!(code, 2, "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}
