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
    assert_eq!(v[0]["result"], "0-1");
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
