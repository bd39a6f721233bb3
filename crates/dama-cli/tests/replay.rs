//! `dama replay` on the sample records in tests/pdn: every `bad-*.pdn` fails
//! with exit code 1 and a line:column error, every other file replays.

use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .expect("repository root")
}

/// Runs `dama --color never ARGS` in the repository root: (exit code, stdout, stderr).
fn dama(args: &[&str], stdin: Option<&str>) -> (i32, String, String) {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_dama"))
        .current_dir(root())
        .arg("--color")
        .arg("never")
        .args(args)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("run dama");
    if let Some(mut i) = child.stdin.take() {
        i.write_all(stdin.unwrap_or("").as_bytes()).expect("write stdin");
    }
    let out = child.wait_with_output().expect("wait for dama");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

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
        let (code, out, err) = dama(&["replay", &path], None);
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
    let (code, out, _) = dama(&["replay", "-", "--quiet"], Some(record));
    assert_eq!(code, 0);
    assert_eq!(
        out,
        "game 1 (line 1): ? - ?, dama, 3 plies, 0-1 (Black wins: as recorded)\n"
    );
    let (code, out, _) = dama(&["replay", "-", "--format", "json"], Some(record));
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&out).expect("json");
    assert_eq!(v[0]["moves"][2], "d4-d5");
    assert_eq!(v[0]["result"], "0-1");
    // No variant named: --variant supplies it.
    let (code, _, err) = dama(&["replay", "-"], Some("1. d3-d4 *\n"));
    assert_eq!(code, 1);
    assert!(err.contains("--variant"), "{err}");
    let (code, _, _) = dama(&["replay", "-", "--variant", "croda"], Some("1. d3-d4 *\n"));
    assert_eq!(code, 0);
    // Cut short.
    let (code, _, err) = dama(&["replay", "-"], Some("[Variant \"dama\"]\n1. d3-d4 d6-"));
    assert_eq!(code, 1);
    insta::assert_snapshot!("replay_truncated", err);
    let (code, _, err) = dama(&["replay", "no/such/file.pdn"], None);
    assert_eq!(code, 1);
    assert!(err.starts_with("error: cannot read no/such/file.pdn"), "{err}");
    let (code, _, err) = dama(&["replay", "-"], Some("  \n"));
    assert_eq!(code, 1);
    assert!(err.contains("no game found"), "{err}");
}
