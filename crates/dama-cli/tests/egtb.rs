//! `dama egtb build`, `probe` and `stats` on small English tables, pinned
//! by a snapshot; a table for other rules is refused. The engines of
//! `dama match` and `dama hub` play with the tables (`--egtb DIR`,
//! `set-param name=egtb`).

mod support;

use support::{dama, root, run, scratch};

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
