//! `dama tune`: tunes on a few tiny self-play games and writes a weights
//! file that `dama match --white-eval` reads; bad files are refused with
//! their line.

mod support;

use support::{dama, scratch};

#[test]
fn tune_writes_weights_that_a_match_reads() {
    let dir = scratch("tune-writes");
    let out = dir.join("dama.weights.toml");
    let out_s = out.to_str().unwrap();
    let args = [
        "tune",
        "dama",
        "--games",
        "4",
        "--nodes",
        "200",
        "--max-plies",
        "60",
        "--seed",
        "3",
        "--out",
        out_s,
    ];
    let (code, text, err) = dama(&args);
    assert_eq!(code, 0, "{err}");
    assert!(text.contains("mean squared error:"), "{text}");
    assert!(text.contains("king"), "{text}");
    assert!(err.contains("tuning: pass"), "{err}");
    let first = std::fs::read_to_string(&out).unwrap();
    assert!(first.contains("variant = \"dama\""), "{first}");
    assert!(first.contains("[weights]"), "{first}");
    // The same seed gives the same weights, whatever the threads.
    let mut again = args.to_vec();
    again.extend(["--threads", "2"]);
    let (code, _, err) = dama(&again);
    assert_eq!(code, 0, "{err}");
    assert_eq!(std::fs::read_to_string(&out).unwrap(), first);
    // A match reads it.
    let (code, text, err) = dama(&[
        "match",
        "dama",
        "--games",
        "2",
        "--depth",
        "1",
        "--black",
        "engine",
        "--white-eval",
        out_s,
        "--black-eval",
        "derived",
        "--max-plies",
        "20",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(text.contains("eval"), "{text}");
}

#[test]
fn weights_for_other_rules_or_with_a_typo_are_refused() {
    let dir = scratch("tune-refused");
    let path = dir.join("w.toml");
    let p = path.to_str().unwrap();
    // Written for dama, played with russian.
    let (code, _, err) = dama(&[
        "tune",
        "dama",
        "--games",
        "2",
        "--nodes",
        "100",
        "--max-plies",
        "30",
        "--out",
        p,
    ]);
    assert_eq!(code, 0, "{err}");
    let (code, _, err) = dama(&["match", "russian", "--games", "2", "--depth", "1", "--eval", p]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("tune again"), "{err}");
    // A misspelt weight: its line and the right name.
    let text = std::fs::read_to_string(&path)
        .unwrap()
        .replace("king_mobility =", "kng_mobility =");
    std::fs::write(&path, &text).unwrap();
    let line = text.lines().position(|l| l.starts_with("kng_mobility")).unwrap() + 1;
    let (code, _, err) = dama(&["match", "dama", "--games", "2", "--depth", "1", "--eval", p]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains(&format!("line {line}, column 1")), "{err}");
    assert!(err.contains("did you mean `king_mobility`"), "{err}");
    // A missing file.
    let (code, _, err) = dama(&["match", "dama", "--eval", dir.join("none.toml").to_str().unwrap()]);
    assert_eq!(code, 1, "{err}");
}

#[test]
fn tune_without_positions_is_an_error() {
    let (code, _, err) = dama(&["tune", "dama", "--games", "0"]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("no positions"), "{err}");
}

#[test]
fn a_second_round_starts_from_the_first_and_kept_weights_stay() {
    let dir = scratch("tune-rounds");
    let first = dir.join("r1.toml");
    let second = dir.join("r2.toml");
    let base = ["tune", "dama", "--games", "4", "--nodes", "200", "--max-plies", "60"];
    let mut args = base.to_vec();
    args.extend(["--out", first.to_str().unwrap()]);
    let (code, _, err) = dama(&args);
    assert_eq!(code, 0, "{err}");
    // The second round plays with the first round's weights and keeps two of them.
    let mut args = base.to_vec();
    args.extend([
        "--from",
        first.to_str().unwrap(),
        "--keep",
        "king,trade",
        "--seed",
        "2",
        "--out",
        second.to_str().unwrap(),
    ]);
    let (code, text, err) = dama(&args);
    assert_eq!(code, 0, "{err}");
    let weight = |path: &std::path::Path, name: &str| {
        let text = std::fs::read_to_string(path).unwrap();
        let line = text
            .lines()
            .find(|l| l.starts_with(&format!("{name} =")))
            .unwrap()
            .to_string();
        line
    };
    assert_eq!(weight(&first, "king"), weight(&second, "king"), "{text}");
    assert_eq!(weight(&first, "trade"), weight(&second, "trade"), "{text}");
    // A name that is not a weight is a usage error with the closest name.
    let (code, _, err) = dama(&["tune", "dama", "--games", "1", "--keep", "kng"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("did you mean `king`"), "{err}");
    // A missing start file is an error.
    let (code, _, err) = dama(&[
        "tune",
        "dama",
        "--games",
        "1",
        "--from",
        dir.join("none.toml").to_str().unwrap(),
    ]);
    assert_eq!(code, 1, "{err}");
}

/// `--out` never replaces what is not a weights file (issue 38): a game
/// record or a text file is refused before the games are played, and left
/// as it was.
#[test]
fn the_weights_never_replace_a_file_that_is_not_weights() {
    let dir = scratch("tune-refused");
    let notes = dir.join("notes.txt");
    std::fs::write(&notes, "my notes\n").unwrap();
    let (code, _, err) = dama(&[
        "tune",
        "dama",
        "--games",
        "2",
        "--nodes",
        "50",
        "--max-plies",
        "20",
        "--out",
        notes.to_str().unwrap(),
    ]);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("it exists and is not an evaluation weights file; it is not overwritten"),
        "{err}"
    );
    assert!(!err.contains("self-play"), "refused after the games: {err}");
    assert_eq!(std::fs::read_to_string(&notes).unwrap(), "my notes\n");
    let _ = std::fs::remove_dir_all(&dir);
}
