//! Variant files through the `dama` binary: the invalid corpus in
//! tests/variants/invalid (one snapshot of `dama validate` per file), the
//! valid files in tests/variants/valid, `dama show` of every shipped
//! variant, and the "done when" checks.
//!
//! Run `cargo insta review` after an intended change of wording.

mod support;

use std::path::Path;

use dama_engine::source::BUILTIN;
use support::{dama, root, run};

/// The path of `p` relative to the repository root, with `/` separators.
fn rel(p: &Path) -> String {
    p.strip_prefix(root()).unwrap_or(p).to_string_lossy().replace('\\', "/")
}

#[test]
fn invalid_variants() {
    insta::glob!("../../../tests/variants/invalid", "*.toml", |path| {
        let file = rel(&path.canonicalize().unwrap());
        let (code, stdout, stderr) = dama(&["validate", &file]);
        assert_eq!(code, 1, "{file} should be invalid:\n{stderr}");
        assert!(stdout.is_empty(), "{file}: text output goes to stderr");
        assert!(!stderr.contains("panicked"), "{file}: {stderr}");
        insta::assert_snapshot!(format!("exit code: {code}\n{stderr}"));
    });
}

#[test]
fn valid_variants() {
    insta::glob!("../../../tests/variants/valid", "*.toml", |path| {
        let file = rel(&path.canonicalize().unwrap());
        let (code, _, stderr) = dama(&["validate", &file]);
        assert_eq!(code, 0, "{file} should be valid:\n{stderr}");
        let (code, show, _) = dama(&["show", &file]);
        assert_eq!(code, 0);
        insta::assert_snapshot!(format!("$ dama validate {file}\n{stderr}\n$ dama show {file}\n{show}"));
    });
}

#[test]
fn show_every_shipped_variant() {
    for (id, _) in BUILTIN {
        let (code, stdout, stderr) = dama(&["show", id]);
        assert_eq!(code, 0, "{id}: {stderr}");
        assert!(stderr.is_empty(), "{id} has warnings: {stderr}");
        insta::assert_snapshot!(format!("show_{id}"), stdout);
    }
}

#[test]
fn shipped_variant_files_validate() {
    // `dama validate variants/*.toml` exits 0, with no warning either.
    let mut files: Vec<String> = std::fs::read_dir(root().join("variants"))
        .unwrap()
        .map(|e| format!("variants/{}", e.unwrap().file_name().to_string_lossy()))
        .filter(|f| f.ends_with(".toml"))
        .collect();
    files.sort();
    assert!(files.len() >= BUILTIN.len());
    let args: Vec<&str> = std::iter::once("validate")
        .chain(files.iter().map(String::as_str))
        .collect();
    let (code, _, stderr) = dama(&args);
    assert_eq!(code, 0, "{stderr}");
    for f in &files {
        assert!(stderr.contains(&format!("{f}: ok\n")), "{f}: {stderr}");
    }
    // A directory stands for its .toml files.
    let (code, _, stderr) = dama(&["validate", "variants"]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(stderr.lines().count(), files.len());
}

#[test]
fn misspelled_key_names_the_nearest_key() {
    let (code, _, stderr) = dama(&["validate", "tests/variants/invalid/unknown-key.toml"]);
    assert_eq!(code, 1);
    assert!(
        stderr.contains("tests/variants/invalid/unknown-key.toml:4:1"),
        "{stderr}"
    );
    assert!(stderr.contains("`majorty`"), "{stderr}");
    assert!(stderr.contains("did you mean `majority`?"), "{stderr}");
}

#[test]
fn three_line_file_describes_its_change() {
    let (code, _, stderr) = dama(&["validate", "tests/variants/valid/three-line.toml"]);
    assert_eq!(code, 0, "{stderr}");
    let (code, out, _) = dama(&["show", "./tests/variants/valid/three-line.toml"]);
    assert_eq!(code, 0);
    assert!(out.contains("capture.majority = \"none\""), "{out}");
    assert!(out.contains("Any complete capture sequence may be chosen."), "{out}");
    let (_, dama, _) = dama(&["show", "dama"]);
    assert!(!dama.contains("Any complete capture sequence may be chosen."));
}

#[test]
fn json_output_has_stable_fields() {
    let (code, stdout, stderr) = dama(&[
        "validate",
        "--format",
        "json",
        "tests/variants/invalid/unknown-key.toml",
        "tests/variants/invalid/empty-file.toml",
        "tests/variants/valid/with-warnings.toml",
        "tests/variants/valid/three-line.toml",
    ]);
    assert_eq!(code, 1);
    assert!(stderr.is_empty(), "{stderr}");
    let v: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    for file in v.as_array().unwrap() {
        for key in ["file", "valid", "diagnostics"] {
            assert!(file.get(key).is_some(), "{key} missing in {file}");
        }
        for d in file["diagnostics"].as_array().unwrap() {
            for key in ["severity", "code", "message", "key", "location", "help"] {
                assert!(d.get(key).is_some(), "{key} missing in {d}");
            }
        }
    }
    insta::assert_snapshot!(stdout);
}

#[test]
fn json_output_when_everything_is_valid() {
    let (code, stdout, _) = dama(&["validate", "--format", "json", "dama", "variants/keny.toml"]);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(v[0]["valid"], true);
    assert_eq!(v[1]["valid"], true);
}

#[test]
fn validate_reads_standard_input() {
    let (code, _, stderr) = run(&root(), &["validate", "-"], "extends = \"dama\"\n[men]\nmovs = []\n");
    assert_eq!(code, 1);
    assert!(stderr.contains("<stdin>:3:1"), "{stderr}");
    assert!(stderr.contains("did you mean `moves`?"), "{stderr}");
}

#[test]
fn unknown_variant_names_the_nearest() {
    let (code, _, stderr) = dama(&["show", "turksh"]);
    assert_eq!(code, 1);
    assert!(stderr.contains("did you mean `turkish`?"), "{stderr}");
}

/// (issue 18) `--allow-men-on-promotion-rank` reads study positions with a
/// man on its own promotion rank, in `moves`, `perft` and `diagram`.
#[test]
fn study_positions_may_put_men_on_their_promotion_rank() {
    let fen = "W:Wa8:Bh6";
    let (code, _, stderr) = dama(&["moves", "dama", "--fen", fen]);
    assert_eq!(code, 1);
    assert!(stderr.contains("invalid FEN at column 4: White men on a8"), "{stderr}");
    let flag = "--allow-men-on-promotion-rank";
    let (code, stdout, stderr) = dama(&["moves", "dama", "--fen", fen, flag]);
    assert_eq!(
        (code, stdout.as_str()),
        (0, "a8-b8            (promotes)\n"),
        "{stderr}"
    );
    let (code, stdout, stderr) = dama(&["perft", "dama", "--fen", fen, flag, "--depth", "2"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stdout.lines().any(|l| l.split_whitespace().take(2).eq(["2", "2"])),
        "{stdout}"
    );
    let (code, stdout, stderr) = dama(&["diagram", "dama", "--fen", fen, flag, "--svg", "-"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.starts_with("<svg"), "{stdout}");
    // The flag is about --fen: without one it is a usage error.
    let (code, _, stderr) = dama(&["moves", "dama", flag]);
    assert_eq!(code, 2, "{stderr}");
}

/// (issue 37) On the command line too, a bare name is a built-in variant,
/// whatever files lie in the current directory, and a file is named as a path.
#[test]
fn a_bare_name_on_the_command_line_is_a_builtin() {
    let dir = support::scratch("bare-names");
    // The binary copied there, say.
    std::fs::write(dir.join("dama"), vec![0x7fu8; 1 << 16]).unwrap();
    let (code, _, err) = run(&dir, &["validate", "dama"], "");
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains("warning[W0108]: `dama` is the built-in variant, not the file dama"),
        "{err}"
    );
    let (code, out, err) = run(&dir, &["show", "dama"], "");
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("Turkish draughts"), "{out}");
    // A file with no built-in's name: read only when named as a path.
    std::fs::write(dir.join("mybase"), "extends = \"keny\"\nname = \"Base\"\n").unwrap();
    let (code, _, err) = run(&dir, &["show", "mybase"], "");
    assert_eq!(code, 1);
    assert!(err.contains("no built-in variant named `mybase`"), "{err}");
    assert!(err.contains("(`./mybase`)"), "{err}");
    let (code, out, err) = run(&dir, &["show", "./mybase"], "");
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("Base"), "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}
