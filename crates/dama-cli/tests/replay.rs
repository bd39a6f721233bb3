//! `dama replay` on the sample records in tests/pdn: every `bad-*.pdn` fails
//! with exit code 1 and a line:column error, every other file replays.

mod support;

use support::{dama, root, run};

#[test]
fn sample_records() {
    let mut files: Vec<String> = std::fs::read_dir(root().join("tests/pdn"))
        .expect("tests/pdn")
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".pdn"))
        .collect();
    files.sort();
    assert!(files.len() >= 3);
    for name in files {
        let path = format!("tests/pdn/{name}");
        let (code, out, err) = dama(&["replay", &path]);
        if name.starts_with("bad-") {
            assert_eq!(code, 1, "{name}: {out}{err}");
            assert!(err.contains(&format!("--> {path}:")), "{name}: {err}");
        } else {
            assert_eq!(code, 0, "{name}: {err}");
            assert!(err.is_empty(), "{name}: {err}");
        }
        insta::assert_snapshot!(
            format!("replay_{}", name.trim_end_matches(".pdn")),
            format!("exit {code}\n{out}{err}")
        );
    }
}

#[test]
fn standard_input_quiet_json_and_errors() {
    let record = "[Event \"x\"]\n[Variant \"dama\"]\n1. d3-d4 a6-a5 2. d4-d5 0-1\n";
    let (code, out, _) = run(&root(), &["replay", "-", "--quiet"], record);
    assert_eq!(code, 0);
    assert_eq!(
        out,
        "game 1 (line 1): ? - ?, dama, 3 plies, 0-1 (Black wins: as recorded)\n"
    );
    let (code, out, _) = run(&root(), &["replay", "-", "--format", "json"], record);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&out).expect("json");
    assert_eq!(v[0]["moves"][2], "d4-d5");
    assert_eq!(v[0]["result"]["pdn"], "0-1");
    // No variant named: --variant supplies it.
    let (code, _, err) = run(&root(), &["replay", "-"], "1. d3-d4 *\n");
    assert_eq!(code, 1);
    assert!(err.contains("--variant"), "{err}");
    let (code, _, _) = run(&root(), &["replay", "-", "--variant", "croda"], "1. d3-d4 *\n");
    assert_eq!(code, 0);
    // Cut short.
    let (code, _, err) = run(&root(), &["replay", "-"], "[Variant \"dama\"]\n1. d3-d4 d6-");
    assert_eq!(code, 1);
    insta::assert_snapshot!("replay_truncated", err);
    let (code, _, err) = dama(&["replay", "no/such/file.pdn"]);
    assert_eq!(code, 1);
    assert!(err.starts_with("error: cannot read no/such/file.pdn"), "{err}");
    let (code, _, err) = run(&root(), &["replay", "-"], "  \n");
    assert_eq!(code, 1);
    assert!(err.contains("no game found"), "{err}");
}

/// Issue 37: a record that goes on after a threefold repetition (a club game
/// the arbiter did not stop) replays to its end, with a warning naming the
/// ply and the rule, in text and in JSON; `--strict` refuses it as before.
#[test]
fn a_record_past_a_threefold_repetition_replays_with_a_warning() {
    let path = "tests/pdn/past-end/international-threefold.pdn";
    let (code, out, err) = dama(&["replay", path]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        err,
        format!(
            "warning: game 1: the rules ended the game before `47-41` (ply 9, move 5): Draw: threefold \
             repetition; the record goes on and is replayed to its end\n  --> {path}:13:4\n"
        )
    );
    assert!(out.contains("Final position after 10 plies"), "{out}");
    assert!(out.contains("Result: 1-0 (White wins: as recorded)"), "{out}");
    let (code, out, _) = dama(&["replay", path, "--format", "json"]);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&out).expect("json");
    let w = &v[0]["warnings"][0];
    assert_eq!(w["severity"], "warning");
    assert_eq!(w["code"], "past-end");
    assert_eq!(w["ply"], 9);
    assert_eq!(w["rule"], "threefold repetition");
    assert_eq!(w["location"]["line"], 13);
    assert_eq!(v[0]["result"]["pdn"], "1-0");
    let (code, _, err) = dama(&["replay", "--strict", path]);
    assert_eq!(code, 1);
    assert!(
        err.contains("`47-41` comes after the end of the game (Draw: threefold repetition)"),
        "{err}"
    );
}

/// Issue 37: the same after a draw by the kings-only clock (Russian, 15
/// moves each), here with the record ending within the draw: `*` takes the
/// end the rules give at the last position.
#[test]
fn a_record_past_a_kings_only_draw_replays_with_a_warning() {
    use dama_engine::{Game, Rules};
    // Kings walk to new positions, giving nothing to take, until the rules
    // draw the game; then a man moves and the record ends, Black winning.
    let r = Rules::builtin("russian").unwrap();
    let mut game = Game::from_position(r.clone(), r.parse_fen("W:WKc1,h2:BKf8,a7").unwrap());
    while !game.is_over() {
        let seen: Vec<_> = game.positions().collect();
        let next = game
            .legal_moves()
            .iter()
            .copied()
            .find(|m| {
                let after = game.position().after(m);
                m.is_king_move()
                    && !m.is_capture()
                    && !seen.contains(&after)
                    && !r.legal_moves(&after).iter().any(|m| m.is_capture())
            })
            .expect("a king move to a new position");
        game.play(next).unwrap();
    }
    assert_eq!(game.ply_count(), 30);
    game.go_past_end().unwrap();
    game.play_text("h2-g3").unwrap();
    let text = game
        .to_pdn(&dama_engine::pdn::PdnTags::default())
        .replace("\"*\"", "\"0-1\"")
        .replace(" *\n", " 0-1\n");
    let d = support::scratch("past-kings-only");
    std::fs::write(d.join("r.pdn"), &text).unwrap();
    let path = d.join("r.pdn").display().to_string();
    let path = path.as_str();
    let (code, out, err) = dama(&["replay", "--quiet", path]);
    assert_eq!(code, 0, "{err}");
    assert!(
        err.starts_with("warning: game 1: the rules ended the game before `")
            && err.contains("(ply 31, move 16): Draw: 30 plies of king moves without a capture;"),
        "{err}"
    );
    assert!(out.contains("0-1 (Black wins: as recorded)"), "{out}");
    let (code, _, err) = dama(&["replay", "--strict", path]);
    assert_eq!(code, 1);
    assert!(
        err.contains("(Draw: 30 plies of king moves without a capture)"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&d);
}
