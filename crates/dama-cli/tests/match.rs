//! `dama match`: scores add up, games always end, output is stable.

mod support;

use support::{dama, scratch};

/// Snapshots named `match_*.snap` (the module is `r#match`, an awkward file-name prefix).
fn snapshots() -> insta::Settings {
    let mut s = insta::Settings::clone_current();
    s.set_prepend_module_to_snapshot(false);
    s
}

/// The JSON report without the fields that depend on the machine's speed.
fn stable_json(text: &str) -> serde_json::Value {
    let mut v: serde_json::Value = serde_json::from_str(text).unwrap();
    let o = v.as_object_mut().unwrap();
    o.remove("elapsed_seconds");
    o.remove("threads");
    for side in ["a", "b"] {
        if let Some(p) = o.get_mut(side).and_then(|p| p.as_object_mut()) {
            p.remove("seconds_per_move");
            p.remove("longest_move_seconds");
        }
    }
    v
}

#[test]
fn engine_against_random_mover_json() {
    let (code, out, err) = dama(&["match", "dama", "--games", "4", "--depth", "2", "--format", "json"]);
    assert_eq!(code, 0, "{err}");
    let v = stable_json(&out);
    let n = |k: &str| v[k].as_u64().unwrap();
    assert_eq!(n("wins") + n("draws") + n("losses"), 4);
    assert_eq!(v["results"].as_array().unwrap().len(), 4);
    // Colors alternate.
    let sides: Vec<&str> = v["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["a_plays"].as_str().unwrap())
        .collect();
    assert_eq!(sides, ["white", "black", "white", "black"]);
    snapshots().bind(|| insta::assert_json_snapshot!("match_json", v));
}

#[test]
fn text_report() {
    let (code, out, err) = dama(&["match", "keny", "--games", "2", "--depth", "1", "--seed", "3"]);
    assert_eq!(code, 0, "{err}");
    snapshots().bind(|| insta::assert_snapshot!("match_text", out));
    // The time goes to standard error, out of the way of the figures.
    assert!(err.contains("Time: "), "{err}");
}

#[test]
fn games_always_end() {
    // Two random movers rarely finish in 12 plies: the cap draws the game.
    let (code, out, err) = dama(&[
        "match",
        "croda",
        "--white",
        "random",
        "--black",
        "random",
        "--games",
        "3",
        "--max-plies",
        "12",
        "--format",
        "json",
    ]);
    assert_eq!(code, 0, "{err}");
    let v = stable_json(&out);
    for g in v["results"].as_array().unwrap() {
        let plies = g["plies"].as_u64().unwrap();
        assert!(plies <= 12, "{g}");
        if plies == 12 {
            assert_eq!(g["reason"], "adjudicated after 12 plies");
            assert_eq!(g["result"], "1/2-1/2");
        }
    }
}

#[test]
fn engine_against_engine_and_pdn_output() {
    let dir = scratch("pdn");
    let pdn = dir.join("games.pdn");
    let (code, out, err) = dama(&[
        "match",
        "dameo",
        "--white",
        "engine",
        "--black",
        "engine",
        "--white-level",
        "2",
        "--black-level",
        "1",
        "--games",
        "2",
        "--max-plies",
        "80",
        "--pdn",
        pdn.to_str().unwrap(),
        "--format",
        "json",
    ]);
    assert_eq!(code, 0, "{err}");
    let v = stable_json(&out);
    assert_eq!(v["a"]["name"], "engine (level 2: depth 2)");
    assert_eq!(v["b"]["name"], "engine (level 1: depth 1)");
    let text = std::fs::read_to_string(&pdn).unwrap();
    let games = dama_engine::pdn::read_games(&text).unwrap();
    assert_eq!(games.len(), 2);
    let rules = std::sync::Arc::new(dama_engine::Rules::builtin("dameo").unwrap());
    for (g, r) in games.iter().zip(v["results"].as_array().unwrap()) {
        let game = g.replay(std::sync::Arc::clone(&rules)).unwrap();
        assert_eq!(game.ply_count() as u64, r["plies"].as_u64().unwrap());
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_arguments() {
    let (code, _, err) = dama(&["match", "nosuchvariant", "--games", "1"]);
    assert_eq!(code, 1, "{err}");
    let (code, _, _) = dama(&["match", "dama", "--games", "0"]);
    assert_eq!(code, 2);
    let (code, _, _) = dama(&["match", "dama", "--level", "11"]);
    assert_eq!(code, 2);
}

/// `--verbose` prints a line per game as the match goes; `--pdn` names a
/// user's variant file, so that `dama replay` can read the games back.
#[test]
fn verbose_lines_and_replayable_records_of_a_users_variant() {
    let dir = scratch("verbose");
    let variant = dir.join("mine.toml");
    std::fs::write(&variant, "extends = \"dama\"\nid = \"mine\"\nname = \"Mine\"\n").unwrap();
    let pdn = dir.join("games.pdn");
    let (code, _, err) = dama(&[
        "match",
        variant.to_str().unwrap(),
        "--games",
        "2",
        "--depth",
        "1",
        "--max-plies",
        "60",
        "--verbose",
        "--pdn",
        pdn.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = err.lines().filter(|l| l.starts_with("game ")).collect();
    assert_eq!(lines.len(), 2, "{err}");
    assert!(
        lines[0].starts_with("game 1/2: engine (depth 1) (White) - random mover (Black): "),
        "{err}"
    );
    assert!(
        lines[1].starts_with("game 2/2: random mover (White) - engine (depth 1) (Black): "),
        "{err}"
    );
    let text = std::fs::read_to_string(&pdn).unwrap();
    assert!(text.contains("[VariantFile "), "{text}");
    let (code, out, err) = dama(&["replay", pdn.to_str().unwrap()]);
    assert_eq!(code, 0, "{out}{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A side given its own level is the engine: `--white-level 2 --black-level 1`
/// is engine against engine, and the report has the Elo difference with its
/// interval, from the pairs of games.
#[test]
fn levels_alone_make_two_engines_and_an_elo_interval() {
    let (code, out, err) = dama(&[
        "match",
        "dama",
        "--white-level",
        "2",
        "--black-level",
        "1",
        "--games",
        "4",
        "--max-plies",
        "60",
        "--format",
        "json",
    ]);
    assert_eq!(code, 0, "{err}");
    let v = stable_json(&out);
    assert_eq!(v["a"]["kind"], "engine");
    assert_eq!(v["b"]["kind"], "engine");
    assert_eq!(v["b"]["name"], "engine (level 1: depth 1)");
    let pairs: Vec<u64> = v["pairs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p.as_u64().unwrap())
        .collect();
    assert_eq!(pairs.iter().sum::<u64>(), 2);
    assert_eq!(v["elo"]["model"], "pentanomial");
    assert!(v["elo"]["los"].as_f64().is_some(), "{v}");
    assert_eq!(v["sprt"], serde_json::Value::Null);
    // The text report says the same in words.
    let (code, out, err) = dama(&[
        "match",
        "dama",
        "--white-level",
        "2",
        "--black-depth",
        "1",
        "--games",
        "2",
        "--max-plies",
        "40",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("against engine (depth 1)"), "{out}");
    assert!(out.contains("  Elo difference "), "{out}");
    assert!(out.contains("95% interval"), "{out}");
    assert!(out.contains("  pairs scoring 0, 1/2, 1, 3/2, 2 points: "), "{out}");
    assert!(err.contains(" thread"), "{err}");
}

/// `--nodes` and the per-side node budgets.
#[test]
fn node_budgets() {
    let (code, out, err) = dama(&[
        "match",
        "dama",
        "--white-nodes",
        "300",
        "--black-nodes",
        "100",
        "--games",
        "2",
        "--max-plies",
        "30",
        "--format",
        "json",
    ]);
    assert_eq!(code, 0, "{err}");
    let v = stable_json(&out);
    assert_eq!(v["a"]["name"], "engine (300 nodes)");
    assert_eq!(v["b"]["name"], "engine (100 nodes)");
    assert_eq!(v["a"]["limits"]["nodes"], 300);
    assert_eq!(v["b"]["limits"]["depth"], serde_json::Value::Null);
}

/// `--white-search` gives player A its own search switches (and makes
/// player B the engine too); the report names the switches that differ
/// from the defaults. A wrong switch is refused with a did-you-mean.
#[test]
fn search_switches_per_side() {
    let (code, out, err) = dama(&[
        "match",
        "dama",
        "--nodes",
        "300",
        "--white-search",
        "reductions=deep,aspiration=on,futility=off,capture_order=off",
        "--black-search",
        "reductions=off",
        "--games",
        "2",
        "--max-plies",
        "30",
        "--format",
        "json",
    ]);
    assert_eq!(code, 0, "{err}");
    let v = stable_json(&out);
    let a = v["a"]["name"].as_str().unwrap();
    let b = v["b"]["name"].as_str().unwrap();
    for switch in ["reductions=deep", "aspiration=on", "futility=off", "capture_order=off"] {
        let d = dama_engine::SearchOptions::default().to_string();
        assert!(a.contains(switch) != d.contains(switch), "{a}");
    }
    assert!(b.starts_with("engine (300 nodes, search reductions=off"), "{b}");
    let n = |k: &str| v[k].as_u64().unwrap();
    assert_eq!(n("wins") + n("draws") + n("losses"), 2);

    let (code, _, err) = dama(&["match", "dama", "--white-search", "reduction=deep"]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("unknown search option `reduction` (did you mean `reductions`?)"),
        "{err}"
    );
    let (code, _, err) = dama(&["match", "dama", "--search", "futility=sometimes"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("cannot be `sometimes`: expected on|off"), "{err}");
}

/// The games and results do not depend on the number of threads.
#[test]
fn threads_do_not_change_the_games() {
    let run = |threads: &str| {
        let dir = scratch(&format!("threads{threads}"));
        let pdn = dir.join("games.pdn");
        let (code, out, err) = dama(&[
            "match",
            "croda",
            "--black",
            "engine",
            "--depth",
            "1",
            "--games",
            "6",
            "--max-plies",
            "50",
            "--threads",
            threads,
            "--pdn",
            pdn.to_str().unwrap(),
            "--format",
            "json",
        ]);
        assert_eq!(code, 0, "{err}");
        let text = std::fs::read_to_string(&pdn).unwrap();
        let _ = std::fs::remove_dir_all(&dir);
        (stable_json(&out), text)
    };
    let (one, pdn_one) = run("1");
    let (three, pdn_three) = run("3");
    assert_eq!(one, three);
    assert_eq!(pdn_one, pdn_three);
    let (code, _, _) = dama(&["match", "dama", "--threads", "0"]);
    assert_eq!(code, 2);
}

/// `--sprt` stops the match when the test decides and says so.
#[test]
fn sprt_stops_the_match() {
    let (code, out, err) = dama(&[
        "match",
        "dama",
        "--depth",
        "2",
        "--games",
        "40",
        "--max-plies",
        "120",
        "--sprt",
        "0,200",
        "--format",
        "json",
    ]);
    assert_eq!(code, 0, "{err}");
    let v = stable_json(&out);
    let s = &v["sprt"];
    assert_eq!(s["decision"], "H1", "{v}");
    assert!(s["llr"].as_f64().unwrap() >= s["upper"].as_f64().unwrap(), "{v}");
    assert!((s["upper"].as_f64().unwrap() - 19f64.ln()).abs() < 1e-9);
    let games = v["games"].as_u64().unwrap();
    assert!(games < 40 && games % 2 == 0, "{v}");
    assert_eq!(v["results"].as_array().unwrap().len() as u64, games);
    let (code, out, err) = dama(&[
        "match",
        "dama",
        "--depth",
        "1",
        "--games",
        "2",
        "--max-plies",
        "40",
        "--sprt",
        "-5,5",
        "--alpha",
        "0.1",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("SPRT elo0 -5, elo1 5 (alpha 0.1, beta 0.05"), "{out}");
    assert!(out.contains("LLR "), "{out}");
}

#[test]
fn bad_statistics_arguments() {
    for args in [
        &["match", "dama", "--sprt", "5,0"][..],
        &["match", "dama", "--sprt", "5"],
        &["match", "dama", "--sprt", "0,x"],
        &["match", "dama", "--alpha", "0.1"],
        &["match", "dama", "--sprt", "0,5", "--beta", "0.7"],
        &["match", "dama", "--openings", "3", "--openings-file", "x.fen"],
    ] {
        let (code, _, err) = dama(args);
        assert_eq!(code, 2, "{args:?}: {err}");
    }
}

/// `--openings-file`: FEN lines or PDN games, each played with both colors;
/// a bad entry is an error naming its line.
#[test]
fn openings_from_a_file() {
    let dir = scratch("openings");
    let fens = dir.join("start.fen");
    std::fs::write(
        &fens,
        "# two openings\nW:Wa3,b3,c3,d3:Ba6,b6,c6,d6\nB:Wa3,b3,c3,d3:Ba6,b6,c6,d6\n",
    )
    .unwrap();
    let pdn = dir.join("games.pdn");
    let (code, out, err) = dama(&[
        "match",
        "dama",
        "--depth",
        "1",
        "--games",
        "6",
        "--max-plies",
        "40",
        "--openings-file",
        fens.to_str().unwrap(),
        "--pdn",
        pdn.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("openings from "), "{out}");
    assert!(out.contains("(2 in the file)"), "{out}");
    let games = dama_engine::pdn::read_games(&std::fs::read_to_string(&pdn).unwrap()).unwrap();
    let fen = |i: usize| games[i].tag("FEN").unwrap_or("").to_string();
    assert!(fen(0).starts_with("W:"), "{}", fen(0));
    assert_eq!(fen(0), fen(1));
    assert!(fen(2).starts_with("B:"), "{}", fen(2));
    assert_eq!(fen(4), fen(0), "the list is cycled");

    // A PDN file of openings: the moves are played from the start.
    let book = dir.join("book.pdn");
    std::fs::write(&book, "[Variant \"dama\"]\n1. d3-d4 d6-d5 *\n").unwrap();
    let (code, out, err) = dama(&[
        "match",
        "dama",
        "--depth",
        "1",
        "--games",
        "2",
        "--max-plies",
        "40",
        "--openings-file",
        book.to_str().unwrap(),
        "--format",
        "json",
    ]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(stable_json(&out)["games"], 2);

    let bad = dir.join("bad.fen");
    std::fs::write(&bad, "W:Wa3:Ba6\n\nnot a position\n").unwrap();
    let (code, _, err) = dama(&["match", "dama", "--openings-file", bad.to_str().unwrap()]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("line 3"), "{err}");
    let (code, _, err) = dama(&[
        "match",
        "dama",
        "--openings-file",
        dir.join("none.fen").to_str().unwrap(),
    ]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("cannot read"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A match stopped midway (issue 38: SIGINT or `kill -9` after some games
/// left no file at all) leaves every finished game on disk, readable by
/// `dama replay`: each game is added to `--pdn` as it ends, before its
/// `--verbose` line is printed.
#[cfg(unix)]
#[test]
fn a_match_stopped_midway_leaves_every_finished_game() {
    use std::process::Stdio;
    for signal in ["KILL", "INT"] {
        let dir = scratch(&format!("stopped-{signal}"));
        let pdn = dir.join("m.pdn");
        let mut child = support::command(&dir)
            .args(["match", "dama", "-n", "1000", "--black", "engine", "--depth", "2"])
            .args(["--max-plies", "60", "--threads", "2", "--verbose", "--pdn", "m.pdn"])
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start dama match");
        let (text, games) = support::stop_after_games(&mut child, 3, signal, &pdn);
        assert!(games.len() >= 3, "{signal}: {} games\n{text}", games.len());
        for (i, g) in games.iter().enumerate() {
            assert_eq!(g.tag("Round"), Some((i + 1).to_string().as_str()), "{signal}");
        }
        let (code, out, err) = dama(&["replay", pdn.to_str().unwrap()]);
        assert_eq!(code, 0, "{signal}: {out}{err}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}

/// The record goes only where a record may go (issue 38): a text file, a
/// device or a folder is refused before any game is played, and left as it
/// was; a symbolic link is written through; the file keeps its mode.
#[cfg(unix)]
#[test]
fn the_record_never_replaces_what_is_not_a_record() {
    use std::os::unix::fs::PermissionsExt;
    let dir = scratch("refused");
    let notes = dir.join("notes.txt");
    std::fs::write(&notes, "my notes\n").unwrap();
    std::fs::set_permissions(&notes, std::fs::Permissions::from_mode(0o600)).unwrap();
    let match_to = |target: &str| {
        support::run(
            &dir,
            &[
                "match",
                "dama",
                "--games",
                "2",
                "--depth",
                "1",
                "--max-plies",
                "20",
                "--pdn",
                target,
            ],
            "",
        )
    };
    for (target, why) in [
        ("notes.txt", "it exists and is not a game record; it is not overwritten"),
        ("/dev/full", "it is a character device, not a regular file"),
        (".", "it is a directory, not a regular file"),
    ] {
        let (code, out, err) = match_to(target);
        assert_eq!(code, 1, "{target}: {out}{err}");
        assert!(
            err.contains(&format!("error: cannot write {target}: {why}")),
            "{target}: {err}"
        );
        // Refused before the match: no report.
        assert!(out.is_empty(), "{target}: {out}");
    }
    assert_eq!(std::fs::read_to_string(&notes).unwrap(), "my notes\n");
    // A record of ours, mode 600, behind a symbolic link: written through.
    let (code, _, err) = match_to("real.pdn");
    assert_eq!(code, 0, "{err}");
    let real = dir.join("real.pdn");
    std::fs::set_permissions(&real, std::fs::Permissions::from_mode(0o600)).unwrap();
    std::os::unix::fs::symlink("real.pdn", dir.join("link.pdn")).unwrap();
    let (code, _, err) = match_to("link.pdn");
    assert_eq!(code, 0, "{err}");
    assert!(std::fs::symlink_metadata(dir.join("link.pdn"))
        .unwrap()
        .file_type()
        .is_symlink());
    assert_eq!(std::fs::metadata(&real).unwrap().permissions().mode() & 0o777, 0o600);
    let games = dama_engine::pdn::read_games(&std::fs::read_to_string(&real).unwrap()).unwrap();
    assert_eq!(games.len(), 2);
    let _ = std::fs::remove_dir_all(&dir);
}

/// The peak resident size (KiB) of `dama match dama -n GAMES`, read from
/// /proc when its `stop_at`-th game is done; the match is killed then.
#[cfg(target_os = "linux")]
fn peak_kib_after(games: &str, stop_at: usize) -> u64 {
    use std::io::{BufRead, BufReader};
    use std::process::Stdio;
    let dir = scratch(&format!("memory-{games}"));
    let mut child = support::command(&dir)
        .args(["match", "dama", "-n", games, "--depth", "1", "--max-plies", "20"])
        .args(["--threads", "1", "--verbose", "--pdn", "m.pdn"])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start dama match");
    let err = BufReader::new(child.stderr.take().unwrap());
    let mut seen = 0;
    for line in err.lines() {
        if line.unwrap().starts_with("game ") {
            seen += 1;
            if seen == stop_at {
                break;
            }
        }
    }
    let status = std::fs::read_to_string(format!("/proc/{}/status", child.id())).unwrap();
    let _ = child.kill();
    let _ = child.wait();
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(seen, stop_at, "{games} games: the match stopped early");
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap_or_else(|| panic!("no VmHWM in {status}"))
}

/// The memory of a match does not depend on `--games` (issue 38: `--games
/// 1000000` took about 660 MB before the first game): after its first 20
/// games, a match of a million games holds about what one of 40 does.
#[cfg(target_os = "linux")]
#[test]
fn memory_does_not_grow_with_the_number_of_games() {
    let small = peak_kib_after("40", 20);
    let large = peak_kib_after("1000000", 20);
    assert!(
        large < small + 32 * 1024,
        "peak resident size: {small} KiB for 40 games, {large} KiB for a million"
    );
}
