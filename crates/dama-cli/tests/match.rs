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
