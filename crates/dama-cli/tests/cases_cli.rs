//! `dama cases` and `dama diagram` end to end: the walk-through of
//! docs/testing-rules.md, and a rule change caught by `--check` on exactly
//! the cases that show the rule.

mod support;

use support::{root, run, scratch};

const VARIANT: &str = r#"extends = "dama"
id = "backward-dama"
name = "Turkish draughts with backward captures"

[men]
captures = ["F", "B", "L", "R"]
"#;

#[test]
fn pin_a_variant_then_see_a_rule_change_fail() {
    let dir = scratch("cases-walkthrough");
    let cases = dir.join("my-cases");
    std::fs::create_dir_all(&cases).unwrap();
    std::fs::write(cases.join("backward-dama.toml"), VARIANT).unwrap();
    std::fs::write(
        cases.join("man_captures_backward.toml"),
        "variant = \"backward-dama.toml\"\nfen = \"W:Wd4:Bd3\"\nexpect_moves = [\"d4xd2\"]\n",
    )
    .unwrap();
    std::fs::write(
        cases.join("man_still_steps_forward.toml"),
        "variant = \"backward-dama.toml\"\nfen = \"W:Wd4:Bh8\"\nexpect_moves = [\"d4-d5\", \"d4-c4\", \"d4-e4\"]\n",
    )
    .unwrap();

    // Rendering: the variant file is skipped, both cases render.
    let (code, out, err) = run(&dir, &["cases", "my-cases"], "");
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("  d4xd2  captures d3"), "{out}");
    assert!(err.contains("2 cases: 2 rendered"), "{err}");

    // No snapshots yet: --check fails.
    let (code, out, _) = run(&dir, &["cases", "my-cases", "--check"], "");
    assert_eq!(code, 1);
    assert!(out.contains("new     my-cases/man_captures_backward.toml"), "{out}");

    // Accept, then check.
    let (code, out, err) = run(&dir, &["cases", "my-cases", "--update"], "");
    assert_eq!(code, 0, "{out}{err}");
    assert!(cases.join("man_captures_backward.snap").is_file());
    let (code, _, err) = run(&dir, &["cases", "my-cases", "--check"], "");
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("2 cases: 2 ok"), "{err}");

    // Change the rule: only the case that shows it fails, with a diff.
    std::fs::write(
        cases.join("backward-dama.toml"),
        VARIANT.replace(r#"["F", "B", "L", "R"]"#, r#"["F", "L", "R"]"#),
    )
    .unwrap();
    let (code, out, err) = run(&dir, &["cases", "my-cases", "--check"], "");
    assert_eq!(code, 1);
    assert!(out.contains("CHANGED my-cases/man_captures_backward.toml"), "{out}");
    assert!(out.contains("  -  d4xd2  captures d3"), "{out}");
    assert!(out.contains("  +  d4-d5"), "{out}");
    assert!(out.contains("ok      my-cases/man_still_steps_forward.toml"), "{out}");
    assert!(err.contains("expected move `d4xd2` is not legal"), "{err}");

    // --update refuses a rendering that contradicts the case's expectations.
    let (code, out, _) = run(&dir, &["cases", "my-cases", "--update"], "");
    assert_eq!(code, 1);
    assert!(out.contains("refused"), "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_modified_copy_of_dama_fails_exactly_the_cases_that_show_the_rule() {
    let dir = scratch("cases-override");
    let dama_toml = std::fs::read_to_string(root().join("variants/dama.toml")).unwrap();
    let modified: String = dama_toml
        .lines()
        .map(|l| {
            if l.starts_with("no_reversal") {
                "no_reversal = false"
            } else {
                l
            }
        })
        .collect::<Vec<_>>()
        .join("\n");
    assert_ne!(modified, dama_toml.trim_end());
    let path = dir.join("dama-mod.toml");
    std::fs::write(&path, modified).unwrap();
    let (code, out, err) = run(
        &root(),
        &[
            "cases",
            "tests/rules/dama",
            "--variant",
            path.to_str().unwrap(),
            "--check",
        ],
        "",
    );
    assert_eq!(code, 1, "{out}{err}");
    let changed: Vec<&str> = out.lines().filter(|l| l.starts_with("CHANGED")).collect();
    assert_eq!(
        changed,
        ["CHANGED tests/rules/dama/4_5_king_may_not_turn_back.toml"],
        "{out}"
    );
    // The whole game no longer replays: its 16th move now has a longer capture.
    assert!(
        err.contains("7_1_a_whole_game.toml: `moves` move 16 (`a3xe1`)"),
        "{err}"
    );
    assert!(err.contains("41 ok, 1 changed, 1 failed to render"), "{err}");

    // And with the variant unchanged, everything passes.
    let (code, _, err) = run(&root(), &["cases", "tests/rules/dama", "--check"], "");
    assert_eq!(code, 0, "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn diagram_writes_svg() {
    let dir = scratch("diagram");
    let (code, _, err) = run(
        &dir,
        &[
            "diagram",
            "dama",
            "--fen",
            "W:WKd1:Bd3,f5,h4,b3",
            "--move",
            "d1xd5xh5xh3xa3",
            "--svg",
            "t4.svg",
        ],
        "",
    );
    assert_eq!(code, 0, "{err}");
    let svg = std::fs::read_to_string(dir.join("t4.svg")).unwrap();
    assert!(svg.starts_with("<svg") && svg.contains("d1xd5xh5xh3xa3"), "{svg}");
    let (code, _, err) = run(&dir, &["diagram", "dama", "--move", "e3-e5", "--svg", "x.svg"], "");
    assert_eq!(code, 1);
    assert!(err.contains("not a legal move"), "{err}");
    let case = root().join("tests/rules/dama/4_7_paths_with_the_same_captures_are_one_move.toml");
    let (code, out, err) = run(&dir, &["diagram", "--case", case.to_str().unwrap(), "--svg", "-"], "");
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.matches("marker-end").count(), 3, "three moves drawn");
    let _ = std::fs::remove_dir_all(&dir);
}

/// (issue 37) `--check` advises `--update` only for what `--update` accepts:
/// a new rendering whose expectations are not met is refused by it.
#[test]
fn check_advises_only_what_works() {
    let dir = scratch("cases-advice");
    std::fs::write(
        dir.join("unmet.toml"),
        "variant = \"dama\"\nfen = \"W:Wd4:Bh8\"\nexpect_moves = [\"d4-d6\"]\n",
    )
    .unwrap();
    let (code, _, err) = run(&dir, &["cases", "unmet.toml", "--check"], "");
    assert_eq!(code, 1);
    assert!(!err.contains("--update` to accept"), "{err}");
    assert!(
        err.contains("1 changed or new case has unmet expectations, which `--update` refuses"),
        "{err}"
    );
    // With a case that --update accepts as well, both are said.
    std::fs::write(dir.join("fine.toml"), "variant = \"dama\"\nfen = \"W:Wd4:Bh8\"\n").unwrap();
    let (code, _, err) = run(&dir, &["cases", ".", "--check"], "");
    assert_eq!(code, 1);
    assert!(
        err.contains(
            "run `dama cases . --update` to accept the new renderings of the cases whose expectations are met"
        ),
        "{err}"
    );
    assert!(err.contains("which `--update` refuses"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// (issues 37, 38) A case file's problems are all reported, and hostile
/// fields make a bounded report.
#[test]
fn case_errors_are_complete_and_bounded() {
    let dir = scratch("cases-hostile");
    std::fs::write(
        dir.join("two.toml"),
        "variant = \"dama\"\nfen = \"W:Wd4:Bh8\"\nshow_afterr = \"d4-d5\"\nexpect_cout = 3\n",
    )
    .unwrap();
    let (code, _, err) = run(&dir, &["cases", "two.toml"], "");
    assert_eq!(code, 1);
    assert!(err.contains("two.toml:3:1: unknown field `show_afterr`"), "{err}");
    assert!(err.contains("two.toml:4:1: unknown field `expect_cout`"), "{err}");

    let long = "d".repeat(500_000);
    std::fs::write(
        dir.join("long.toml"),
        format!("variant = \"dama\"\nfen = \"W:Wd4:Bh8\"\nshow_after = \"{long}\"\n"),
    )
    .unwrap();
    let (code, out, err) = run(&dir, &["cases", "long.toml"], "");
    assert_eq!(code, 1);
    assert!(out.len() + err.len() < 2_000, "{} bytes", out.len() + err.len());

    let dupes = vec!["\"d4-d5\""; 50_000].join(", ");
    std::fs::write(
        dir.join("dupes.toml"),
        format!("variant = \"dama\"\nfen = \"W:Wd4:Bh8\"\nexpect_moves = [{dupes}]\n"),
    )
    .unwrap();
    let (code, _, err) = run(&dir, &["cases", "dupes.toml"], "");
    assert_eq!(code, 1);
    assert!(err.lines().count() < 30, "{} lines", err.lines().count());
    assert!(err.contains("and 49,989 more expected moves listed twice"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}
