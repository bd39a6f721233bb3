//! With `--format json`, a failing command writes its error on stdout as
//! JSON too (issue 18): one document, `{"errors": [...]}`, each error with
//! the fields of a `dama validate --format json` diagnostic, while the
//! message for people stays on stderr and the exit code stays 1.

mod support;

use serde_json::Value;
use support::{root, run, scratch};

/// One failing run: arguments, standard input, the code of the first
/// error and the location (file, line, column) it must give, if any.
struct Row {
    args: &'static [&'static str],
    stdin: &'static str,
    code: &'static str,
    location: Option<(&'static str, u64, u64)>,
}

fn rows() -> Vec<Row> {
    let row = |args, code, location| Row {
        args,
        stdin: "",
        code,
        location,
    };
    let unknown_key = Some(("tests/variants/invalid/unknown-key.toml", 4, 1));
    vec![
        row(&["moves", "dama", "--fen", "W:Wz9"], "fen", Some(("--fen", 1, 4))),
        row(
            &["moves", "tests/variants/invalid/unknown-key.toml"],
            "E0110",
            unknown_key,
        ),
        row(&["moves", "no-such-variant"], "E0001", None),
        row(
            &["show", "tests/variants/invalid/unknown-key.toml"],
            "E0110",
            unknown_key,
        ),
        row(
            &["replay", "tests/pdn/bad-backward-move.pdn"],
            "move-illegal",
            Some(("tests/pdn/bad-backward-move.pdn", 6, 4)),
        ),
        row(&["replay", "no/such/file.pdn"], "read", None),
        row(
            &["replay", "--variant", "no-such-variant", "tests/pdn/liberal-mixed.pdn"],
            "E0001",
            None,
        ),
        Row {
            args: &["replay", "-"],
            stdin: "[Variant \"dama\"]\n1. d3-d4 d6-",
            code: "pdn-syntax",
            location: Some(("<stdin>", 2, 13)),
        },
        Row {
            args: &["replay", "-"],
            stdin: "  \n",
            code: "no-game",
            location: None,
        },
        Row {
            args: &["replay", "-"],
            stdin: "1. d3-d4 *\n",
            code: "variant",
            location: Some(("<stdin>", 1, 1)),
        },
        Row {
            args: &["replay", "-"],
            stdin: "[Variant \"dama\"]\n1. d3-d4 d3-d4 *\n",
            code: "move-illegal",
            location: Some(("<stdin>", 2, 10)),
        },
        row(&["match", "dama", "--fen", "W:Wz9"], "fen", Some(("--fen", 1, 4))),
        row(
            &["match", "tests/variants/invalid/unknown-key.toml"],
            "E0110",
            unknown_key,
        ),
    ]
}

#[test]
fn failures_are_json_on_stdout_and_text_on_stderr() {
    let mut failures = Vec::new();
    for r in rows() {
        let mut args = r.args.to_vec();
        args.extend(["--format", "json"]);
        let what = args.join(" ");
        let (code, out, err) = run(&root(), &args, r.stdin);
        if code != 1 {
            failures.push(format!("{what}: exit code {code}, expected 1\n{err}"));
            continue;
        }
        if err.is_empty() {
            failures.push(format!("{what}: no message for people on stderr"));
        }
        let v: Value = match serde_json::from_str(&out) {
            Ok(v) => v,
            Err(e) => {
                failures.push(format!("{what}: stdout is not one JSON document ({e}):\n{out}"));
                continue;
            }
        };
        let Some(errors) = v["errors"].as_array().filter(|e| !e.is_empty()) else {
            failures.push(format!("{what}: no `errors` array:\n{out}"));
            continue;
        };
        for e in errors {
            for key in ["severity", "code", "message", "key", "location", "help"] {
                if e.get(key).is_none() {
                    failures.push(format!("{what}: an error lacks `{key}`:\n{out}"));
                }
            }
        }
        let first = &errors[0];
        if first["code"] != r.code || first["severity"] != "error" {
            failures.push(format!("{what}: expected an error with code {}:\n{out}", r.code));
        }
        let location = r
            .location
            .map(|(file, line, column)| serde_json::json!({"file": file, "line": line, "column": column}))
            .unwrap_or(Value::Null);
        if first["location"] != location {
            failures.push(format!("{what}: expected location {location}:\n{out}"));
        }
        if first["message"]
            .as_str()
            .is_none_or(|m| m.is_empty() || !err.contains(m))
        {
            failures.push(format!("{what}: the message is not the one on stderr:\n{out}\n{err}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn a_variant_that_does_not_load_lists_its_diagnostics() {
    let (code, out, _) = run(
        &root(),
        &["show", "tests/variants/invalid/many-problems.toml", "--format", "json"],
        "",
    );
    assert_eq!(code, 1);
    let v: Value = serde_json::from_str(&out).unwrap();
    let (_, report, _) = run(
        &root(),
        &[
            "validate",
            "tests/variants/invalid/many-problems.toml",
            "--format",
            "json",
        ],
        "",
    );
    let report: Value = serde_json::from_str(&report).unwrap();
    assert_eq!(
        v["errors"], report[0]["diagnostics"],
        "the same diagnostics as validate"
    );
}

#[test]
fn a_record_naming_a_bad_variant_file_gives_the_record_error_then_the_diagnostics() {
    let d = scratch("variant-file");
    std::fs::write(d.join("v.toml"), "extends = \"dama\"\n[capture]\nmajorty = \"none\"\n").unwrap();
    std::fs::write(d.join("g.pdn"), "[VariantFile \"v.toml\"]\n1. d3-d4 *\n").unwrap();
    let (code, out, err) = run(&d, &["replay", "g.pdn", "--format", "json"], "");
    assert_eq!(code, 1, "{err}");
    let v: Value = serde_json::from_str(&out).unwrap();
    let codes: Vec<&str> = v["errors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["code"].as_str().unwrap())
        .collect();
    assert_eq!(codes, ["variant", "E0110"], "{out}");
    assert_eq!(v["errors"][0]["location"]["file"], "g.pdn");
    let _ = std::fs::remove_dir_all(d);
}

#[test]
fn text_output_stays_off_stdout_on_failure() {
    for r in rows() {
        let (code, out, err) = run(&root(), r.args, r.stdin);
        assert_eq!(code, 1, "{:?}: {err}", r.args);
        assert_eq!(out, "", "{:?}: text-mode errors go to stderr only", r.args);
    }
}
