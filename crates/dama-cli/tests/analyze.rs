//! `dama analyze`: the summary of a small fixed game at a fixed depth, the
//! annotated record (which must replay), the JSON fields, and bad input.

mod support;

use support::{dama, root, run, scratch};

/// A short Turkish game with a blunder in it (fixed: the snapshot depends on it).
const GAME: &str = "[Event \"analyze test\"]
[White \"Ayse\"]
[Black \"Emre\"]
[Variant \"dama\"]

1. g3-g4 c6-c5 2. g2-g3 c5-b5 3. f3-f4 b5-b4 4. b3xb5 b6xb4 5. b2-b3 b4xb2 *
";

/// A Russian game from a set-up position: Black's last man steps into a capture.
const BLUNDER: &str = "[Variant \"russian\"]
[SetUp \"1\"]
[FEN \"B:Wa1,h4:Bf6\"]

1... f6-g5 2. h4xf6 1-0
";

#[test]
fn summary_of_a_small_game() {
    let (code, out, err) = run(&root(), &["analyze", "-", "--depth", "4"], GAME);
    assert_eq!(code, 0, "{err}");
    assert!(err.is_empty(), "{err}");
    insta::assert_snapshot!("analyze_summary", out);
    // The same again: the analysis at a fixed depth is reproducible.
    let (_, again, _) = run(&root(), &["analyze", "-", "--depth", "4"], GAME);
    assert_eq!(out, again);
}

#[test]
fn a_blunder_and_a_forced_move() {
    let (code, out, err) = run(&root(), &["analyze", "-", "--depth", "4"], BLUNDER);
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    let black = lines.iter().find(|l| l.starts_with("1... f6-g5")).expect(&out);
    assert!(black.contains("??") && black.contains("best f6-e5"), "{out}");
    let white = lines.iter().find(|l| l.starts_with("2. h4xf6")).expect(&out);
    assert!(white.ends_with("forced"), "{out}");
    assert!(!white.contains('?'), "{out}");
    assert!(
        out.contains("Black: 1 moves (1 judged), 0 inaccuracies, 0 mistakes, 1 blunder"),
        "{out}"
    );
}

#[test]
fn the_annotated_record_replays() {
    let dir = scratch("annotated");
    let path = dir.join("annotated.pdn");
    let file = path.to_str().unwrap();
    for (record, depth) in [(GAME, "3"), (BLUNDER, "3")] {
        let (code, out, err) = run(&root(), &["analyze", "-", "--depth", depth, "-o", file], record);
        assert_eq!(code, 0, "{err}");
        assert!(out.contains("Annotated record written to"), "{out}");
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.contains("[Annotator \"dama "), "{text}");
        assert!(text.contains(", depth 3\"]"), "{text}");
        assert!(text.contains('{'), "comments: {text}");
        let (code, replayed, err) = dama(&["replay", file, "--quiet"]);
        assert_eq!(code, 0, "{text}\n{err}");
        // The same game: same moves, same result as the original.
        let (_, original, _) = run(&root(), &["replay", "-", "--quiet"], record);
        assert_eq!(
            replayed.split_once(':').map(|x| x.1),
            original.split_once(':').map(|x| x.1),
            "{text}"
        );
    }
    // The blunder is marked with its NAG and the tags are kept.
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.contains("1... f6-g5 $4 {"), "{text}");
    assert!(text.contains("[FEN \"B:Wa1,h4:Bf6\"]"), "{text}");
    // --pdn - writes the record on standard output, and it replays from a pipe.
    let (code, out, err) = run(&root(), &["analyze", "-", "--depth", "2", "--pdn", "-"], GAME);
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("[Event \"analyze test\"]"), "{out}");
    assert!(out.contains("[White \"Ayse\"]"), "{out}");
    let (code, _, err) = run(&root(), &["replay", "-"], &out);
    assert_eq!(code, 0, "{out}\n{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn json_has_stable_fields() {
    let (code, out, err) = run(&root(), &["analyze", "-", "--depth", "3", "--format", "json"], BLUNDER);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).expect("one JSON document");
    assert_eq!(v["limits"], "depth 3");
    assert_eq!(v["thresholds"]["blunder"], 200);
    let game = &v["games"][0];
    assert_eq!(game["variant"], "russian");
    assert_eq!(game["result"], "1-0");
    let first = &game["plies"][0];
    let mut keys: Vec<&str> = first.as_object().unwrap().keys().map(String::as_str).collect();
    keys.sort();
    assert_eq!(
        keys,
        [
            "best",
            "best_line",
            "best_score",
            "depth",
            "eval",
            "eval_text",
            "fen",
            "forced",
            "full",
            "judgement",
            "loss",
            "move",
            "nag",
            "number",
            "played_score",
            "ply",
            "side",
            "text"
        ]
    );
    assert_eq!(first["move"], "f6-g5");
    assert_eq!(first["side"], "black");
    assert_eq!(first["best"], "f6-e5");
    assert_eq!(first["judgement"], "blunder");
    assert_eq!(first["nag"], 4);
    assert_eq!(first["forced"], false);
    assert_eq!(game["plies"][1]["forced"], true);
    assert_eq!(game["plies"][1]["judgement"], serde_json::Value::Null);
    assert_eq!(game["black"]["blunders"], 1);
    assert_eq!(game["white"]["judged"], 0);
}

#[test]
fn bad_input() {
    // A file that does not exist.
    let (code, out, err) = dama(&["analyze", "no/such/game.pdn"]);
    assert_eq!(code, 1);
    assert!(out.is_empty(), "{out}");
    assert!(err.starts_with("error: cannot read no/such/game.pdn"), "{err}");
    // An illegal move: where and why, before any analysis.
    let bad = "[Variant \"dama\"]\n1. d3-d4 d6-d4 *\n";
    let (code, _, err) = run(&root(), &["analyze", "-"], bad);
    assert_eq!(code, 1);
    assert!(err.contains("--> <stdin>:2:10"), "{err}");
    // The same as JSON errors.
    let (code, out, _) = run(&root(), &["analyze", "-", "--format", "json"], bad);
    assert_eq!(code, 1);
    let v: serde_json::Value = serde_json::from_str(&out).expect("json");
    assert_eq!(v["errors"][0]["code"], "move-illegal");
    assert_eq!(v["errors"][0]["location"]["line"], 2);
    // Not PDN at all, and no game.
    let (code, _, err) = run(&root(), &["analyze", "-"], "  \n");
    assert_eq!(code, 1);
    assert!(err.contains("no game found"), "{err}");
    let (code, _, err) = run(&root(), &["analyze", "-"], "1. d3-d4 *\n");
    assert_eq!(code, 1);
    assert!(err.contains("--variant"), "{err}");
    // Thresholds that do not grow are a usage error.
    let (code, _, err) = run(&root(), &["analyze", "-", "--mistake", "10"], GAME);
    assert_eq!(code, 2);
    assert!(err.contains("thresholds must grow"), "{err}");
    // An output file that cannot be written.
    let (code, _, err) = run(
        &root(),
        &["analyze", "-", "--depth", "1", "-o", "no/such/dir/out.pdn"],
        BLUNDER,
    );
    assert_eq!(code, 1);
    assert!(err.contains("cannot write no/such/dir/out.pdn"), "{err}");
}

/// Issue 37: a record that goes on after a threefold repetition is analysed
/// to its end with the warning `dama replay` gives; `--strict` refuses it.
#[test]
fn a_record_past_a_threefold_repetition_is_analysed_with_a_warning() {
    let path = "tests/pdn/past-end/international-threefold.pdn";
    let (code, out, err) = dama(&["analyze", path, "--depth", "1", "--format", "json"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains("warning: game 1: the rules ended the game before `47-41` (ply 9, move 5)"),
        "{err}"
    );
    let v: serde_json::Value = serde_json::from_str(&out).expect("json");
    assert_eq!(v["games"][0]["plies"].as_array().map(Vec::len), Some(10), "{v}");
    assert_eq!(v["games"][0]["warnings"][0]["code"], "past-end", "{v}");
    let (code, _, err) = dama(&["analyze", "--strict", path, "--depth", "1"]);
    assert_eq!(code, 1);
    assert!(err.contains("comes after the end of the game"), "{err}");
}

/// `--pdn` never replaces what is not a game record (issue 38): a text file
/// is refused before the analysis and left as it was; a record is replaced.
#[test]
fn the_annotated_record_never_replaces_a_file_that_is_not_a_record() {
    let dir = scratch("refused");
    let notes = dir.join("notes.txt");
    std::fs::write(&notes, "my notes\n").unwrap();
    let (code, out, err) = run(&dir, &["analyze", "-", "--depth", "1", "--pdn", "notes.txt"], GAME);
    assert_eq!(code, 1, "{out}{err}");
    assert!(
        err.contains("error: cannot write notes.txt: it exists and is not a game record; it is not overwritten"),
        "{err}"
    );
    assert!(!out.contains("Annotated record written"), "{out}");
    assert_eq!(std::fs::read_to_string(&notes).unwrap(), "my notes\n");
    std::fs::write(dir.join("old.pdn"), GAME).unwrap();
    let (code, out, err) = run(&dir, &["analyze", "-", "--depth", "1", "--pdn", "old.pdn"], GAME);
    assert_eq!(code, 0, "{out}{err}");
    let _ = std::fs::remove_dir_all(&dir);
}
