//! One JSON shape per view (issue 31): the CLI's `--format json` and the web
//! API give what `tests/views/*.json` holds, as Python's `to_dict()` does
//! (crates/dama-py/tests/test_dama.py reads the same files).

mod support;

use serde_json::{json, Value};
use support::server::Server;

/// The variant file of `tests/views/diagnostics.json`.
const MINE: &str = "extends = \"dama\"\n[capture]\nmajorty = \"none\"\n";

/// The position of `tests/views/moves.json`.
const FEN: &str = "W:Wd6,a2:Bd7,c8";

fn expected(name: &str) -> Value {
    let path = support::root().join("tests/views").join(name);
    serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap()
}

#[test]
fn dama_moves_gives_the_move_view() {
    let (code, out, err) = support::dama(&["moves", "dama", "--fen", FEN, "--format", "json"]);
    assert_eq!(code, 0, "{err}");
    let mut rows: Value = serde_json::from_str(&out).unwrap();
    for row in rows.as_array_mut().unwrap() {
        // What `dama moves` adds to the view: its counts of paths.
        let row = row.as_object_mut().unwrap();
        assert!(
            row.remove("paths").is_some() && row.remove("all_paths").is_some(),
            "{row:?}"
        );
    }
    assert_eq!(rows, expected("moves.json"));
}

#[test]
fn validate_and_the_designer_give_the_diagnostic_view() {
    let dir = support::scratch("views");
    std::fs::write(dir.join("mine.toml"), MINE).unwrap();
    let (code, out, _) = support::run(&dir, &["validate", "mine.toml", "--format", "json"], "");
    assert_eq!(code, 1);
    let files: Value = serde_json::from_str(&out).unwrap();
    let want = expected("diagnostics.json");
    assert_eq!(files[0]["diagnostics"], want);

    let server = Server::start(0);
    let mut v = server.json("POST", "/api/validate", json!({ "toml": MINE }));
    // A pasted text has no file name.
    for d in v["diagnostics"].as_array_mut().unwrap() {
        d["location"]["file"] = json!("mine.toml");
    }
    assert_eq!(v["diagnostics"], want);
    let _ = std::fs::remove_dir_all(dir);
}

/// The game of `tests/views/game.json`: one capture from this position.
const GAME_FEN: &str = "W:Wd6:Bd7,c8";
const GAME_MOVE: &str = "d6xd8xb8";

/// `v` without the keys a front end adds to a view.
fn without(mut v: Value, keys: &[&str]) -> Value {
    let obj = v.as_object_mut().expect("an object");
    for k in keys {
        assert!(obj.remove(*k).is_some(), "no `{k}` in {obj:?}");
    }
    v
}

#[test]
fn replay_and_the_web_api_give_the_game_view() {
    let want = expected("game.json");
    let record = format!("[Variant \"dama\"]\n[FEN \"{GAME_FEN}\"]\n1. {GAME_MOVE} 1-0\n");
    let (code, out, err) = support::run(&support::root(), &["replay", "-", "--format", "json"], &record);
    assert_eq!(code, 0, "{err}");
    let games: Value = serde_json::from_str(&out).unwrap();
    // What replay adds to the view: the record's line and tags.
    assert_eq!(without(games[0].clone(), &["line", "tags"]), want);

    let server = Server::start(0);
    let g = server.json(
        "POST",
        "/api/games",
        json!({"variant": "dama", "fen": GAME_FEN, "moves": [GAME_MOVE]}),
    );
    // What the page reads besides the view.
    let page = ["id", "board", "source", "pieces", "legal", "last", "redo"];
    assert_eq!(without(g, &page), want);
}

#[test]
fn the_web_computer_gives_the_search_view() {
    let want = expected("search.json");
    let server = Server::start_with(0, &["--depth", "2"]);
    let g = server.json("POST", "/api/games", json!({"variant": "dama", "fen": GAME_FEN}));
    let id = g["id"].as_str().unwrap();
    let r = server.json("POST", &format!("/api/games/{id}/computer"), json!({}));
    // The time it took is the one figure that changes from run to run.
    assert!(r["search"]["ms"].is_u64(), "{r}");
    assert_eq!(without(r["search"].clone(), &["ms"]), want);
}
