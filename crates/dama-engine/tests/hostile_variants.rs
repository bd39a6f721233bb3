//! Hostile variant files: whatever the input, loading returns findings (or
//! a variant), never panics, and finishes quickly. Each case names the code
//! it must produce.

use std::path::PathBuf;

use dama_engine::LoadError;
use dama_engine::{
    load, load_text, source::BUILTIN, source::MAX_CHAIN, source::MAX_DIAGNOSTICS, source::MAX_FILE_BYTES,
};

/// The codes of a failed load.
fn codes(r: Result<dama_engine::Loaded, LoadError>) -> Vec<&'static str> {
    match r {
        Ok(l) => panic!("expected an error, got variant {}", l.rules.id()),
        Err(e) => e.diagnostics.iter().map(|d| d.code.as_str()).collect(),
    }
}

fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("hostile-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn deeply_nested_arrays() {
    let text = format!("a = {}{}", "[".repeat(100_000), "]".repeat(100_000));
    assert_eq!(codes(load_text("t.toml", &text, None)), ["E0101"]);
    let open = format!("a = {}", "[".repeat(100_000));
    assert!(codes(load_text("t.toml", &open, None)).iter().all(|c| *c == "E0101"));
}

#[test]
fn deeply_nested_inline_tables() {
    let text = format!("a = {}1{}", "{b = ".repeat(100_000), "}".repeat(100_000));
    assert!(codes(load_text("t.toml", &text, None)).iter().all(|c| *c == "E0101"));
    let dotted = format!("{}b = 1", "a.".repeat(100_000));
    assert_eq!(codes(load_text("t.toml", &dotted, None)), ["E0101"]);
    let headers = format!("[{}b]", "a.".repeat(100_000));
    assert!(codes(load_text("t.toml", &headers, None)).iter().all(|c| *c == "E0101"));
}

#[test]
fn nul_bytes_and_control_characters() {
    assert_eq!(codes(load_text("t.toml", "extends = \"dama\"\0\n", None)), ["E0101"]);
    assert_eq!(codes(load_text("t.toml", "\0\0\0", None))[0], "E0101");
    let e = load_text(
        "t.toml",
        "extends = \"dama\"\nname = \"a\u{7}b\"\nid = \"x\u{1b}\"\n",
        None,
    );
    // Escapes are not control characters; raw ones are a TOML error.
    assert!(codes(e).iter().all(|c| *c == "E0101"));
}

#[test]
fn invalid_utf8_file() {
    let dir = scratch("utf8");
    let p = dir.join("latin1.toml");
    std::fs::write(&p, b"extends = \"dama\"\nname = \"Caf\xe9\"\n").unwrap();
    let e = load(p.to_str().unwrap()).unwrap_err();
    assert_eq!(e.diagnostics[0].code, "E0004");
    let loc = e.diagnostics[0].location.as_ref().unwrap();
    assert_eq!((loc.line, loc.column), (2, 12));
}

#[test]
fn ten_megabyte_file() {
    let dir = scratch("big");
    let p = dir.join("big.toml");
    let mut text = String::from("extends = \"dama\"\n");
    while text.len() < 10 << 20 {
        text.push_str("# padding padding padding padding padding padding padding padding\n");
    }
    std::fs::write(&p, &text).unwrap();
    assert_eq!(codes(load(p.to_str().unwrap())), ["E0003"]);
    assert_eq!(codes(load_text("t.toml", &text, None)), ["E0003"]);
    // A parent that is too big.
    let child = dir.join("child.toml");
    std::fs::write(&child, "extends = \"big.toml\"\n").unwrap();
    assert_eq!(codes(load(child.to_str().unwrap())), ["E0103"]);
}

#[test]
fn files_that_are_not_files() {
    let dir = scratch("notfiles");
    assert_eq!(codes(load(dir.to_str().unwrap())), ["E0002"]);
    #[cfg(unix)]
    {
        // A parent that never ends must not be read forever.
        let child = dir.join("child.toml");
        std::fs::write(&child, "extends = \"/dev/zero\"\n").unwrap();
        assert_eq!(codes(load(child.to_str().unwrap())), ["E0103"]);
        assert_eq!(codes(load("/dev/zero")), ["E0002"]);
    }
}

#[test]
fn board_sizes() {
    let board = |w: &str, h: &str| format!("extends = \"dama\"\n[board]\nwidth = {w}\nheight = {h}\n");
    assert_eq!(codes(load_text("t.toml", &board("0", "0"), None)), ["E0201", "E0201"]);
    // Boards are at most 16×16 (`dama_engine::geometry::MAX_SIDE`).
    assert_eq!(codes(load_text("t.toml", &board("17", "17"), None)), ["E0202", "E0202"]);
    assert_eq!(codes(load_text("t.toml", &board("16", "17"), None)), ["E0202"]);
    assert_eq!(codes(load_text("t.toml", &board("17", "16"), None)), ["E0202"]);
    for (w, h) in [("9", "9"), ("16", "16"), ("16", "9"), ("10", "12")] {
        let l = load_text("t.toml", &board(w, h), None).unwrap_or_else(|e| panic!("{w}×{h}: {e}"));
        assert_eq!(
            (l.rules.width().to_string(), l.rules.height().to_string()),
            (w.into(), h.into())
        );
    }
    assert_eq!(
        codes(load_text("t.toml", &board("1000", "1000"), None)),
        ["E0202", "E0202"]
    );
    assert_eq!(codes(load_text("t.toml", &board("4294967295", "8"), None)), ["E0202"]);
    assert_eq!(codes(load_text("t.toml", &board("4294967296", "8"), None)), ["E0114"]);
    assert_eq!(
        codes(load_text("t.toml", &board("99999999999999999999999", "8"), None)),
        ["E0114"]
    );
    assert_eq!(codes(load_text("t.toml", &board("-1", "8"), None)), ["E0114"]);
    assert_eq!(
        codes(load_text("t.toml", &board("inf", "nan"), None)),
        ["E0113", "E0113"]
    );
    // Small boards are fine where the setup fits.
    let tiny = "extends = \"dama\"\n[board]\nwidth = 1\nheight = 3\n[setup]\nwhite = [\"a1\"]\nblack = [\"a3\"]\n";
    load_text("t.toml", tiny, None).unwrap();
}

#[test]
fn huge_numbers_elsewhere() {
    for (key, value) in [
        ("promotion]\nrank", "4294967295"),
        ("promotion]\nrank", "-4294967296"),
        ("kings]\nmove_range", "4294967295"),
        ("kings]\nmove_range", "-1"),
        ("end]\nno_capture_draw_plies", "18446744073709551615"),
        ("pdn]\ngame_type", "1e300"),
    ] {
        let text = format!("extends = \"dama\"\n[{key} = {value}\n");
        let r = load_text("t.toml", &text, None);
        assert!(r.is_err() || key.starts_with("kings"), "{text}");
    }
}

#[test]
fn thousands_of_setup_squares() {
    // Valid squares repeated: every repetition is an error, the report is capped.
    let items = vec!["\"a2-h3\""; 5000].join(", ");
    let text = format!("extends = \"dama\"\n[setup]\nwhite = [{items}]\n");
    let e = load_text("t.toml", &text, None).unwrap_err();
    assert_eq!(e.diagnostics.len(), MAX_DIAGNOSTICS + 1);
    assert_eq!(e.diagnostics.last().unwrap().code, "E0005");
    // Thousands of wrong types.
    let items = vec!["1"; 5000].join(", ");
    let text = format!("extends = \"dama\"\n[setup]\nwhite = [{items}]\n");
    let e = load_text("t.toml", &text, None).unwrap_err();
    assert!(e.diagnostics.len() <= MAX_DIAGNOSTICS + 1);
    // Thousands of directions.
    let items = vec!["\"F\""; 100_000].join(", ");
    let text = format!("extends = \"dama\"\n[men]\nmoves = [{items}]\n");
    let l = load_text("t.toml", &text, None).unwrap();
    assert_eq!(l.warnings.len(), 1);
}

#[test]
fn long_strings() {
    let long = "x".repeat(500_000);
    let text = format!("extends = \"{long}\"\n");
    let e = load_text("t.toml", &text, None).unwrap_err();
    assert_eq!(e.diagnostics[0].code, "E0103");
    assert!(e.diagnostics[0].message.len() < 200);
    let text = format!("extends = \"dama\"\n[capture]\nmajority = \"{long}\"\n{long} = 1\n");
    let e = load_text("t.toml", &text, None).unwrap_err();
    assert!(e.diagnostics.iter().all(|d| d.message.len() < 300), "{e}");
}

#[test]
fn extends_chain_of_a_thousand_files() {
    let dir = scratch("chain");
    std::fs::write(dir.join("f0.toml"), "extends = \"dama\"\n").unwrap();
    for i in 1..1000 {
        std::fs::write(
            dir.join(format!("f{i}.toml")),
            format!("extends = \"f{}.toml\"\n", i - 1),
        )
        .unwrap();
    }
    assert_eq!(codes(load(dir.join("f999.toml").to_str().unwrap())), ["E0105"]);
    // Within the limit it loads.
    let ok = dir.join(format!("f{}.toml", MAX_CHAIN - 2));
    load(ok.to_str().unwrap()).unwrap();
}

#[test]
fn cycles() {
    let dir = scratch("cycle");
    for (a, b) in [("a", "b"), ("b", "c"), ("c", "a")] {
        std::fs::write(dir.join(format!("{a}.toml")), format!("extends = \"{b}.toml\"\n")).unwrap();
    }
    assert_eq!(codes(load(dir.join("a.toml").to_str().unwrap())), ["E0104"]);
    // Through a path that names the same file differently.
    let name = dir.file_name().unwrap().to_string_lossy().into_owned();
    std::fs::write(dir.join("self.toml"), format!("extends = \"../{name}/./self.toml\"\n")).unwrap();
    assert_eq!(codes(load(dir.join("self.toml").to_str().unwrap())), ["E0104"]);
}

#[test]
fn garbage_never_panics() {
    // Deterministic mutations of every shipped file: deleted, doubled and
    // replaced bytes. Each load must return, with findings or a variant.
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let junk = [
        "[", "]", "=", "\"", "\n", "[[", "x", "0", "-", ".", "{", "}", ",", "#", "'", "é", "\\",
    ];
    for (_, text) in BUILTIN {
        for _ in 0..60 {
            let mut t: Vec<char> = text.chars().collect();
            for _ in 0..(1 + next() % 4) {
                let i = (next() as usize) % t.len().max(1);
                match next() % 3 {
                    0 if !t.is_empty() => {
                        t.remove(i);
                    }
                    1 => {
                        let c = t.get(i).copied().unwrap_or('x');
                        t.insert(i, c);
                    }
                    _ => {
                        let j = junk[(next() as usize) % junk.len()];
                        for (k, c) in j.chars().enumerate() {
                            t.insert((i + k).min(t.len()), c);
                        }
                    }
                }
            }
            let s: String = t.into_iter().collect();
            let _ = load_text("mutant.toml", &s, None).map_err(|e| {
                assert!(!e.diagnostics.is_empty());
                for d in &e.diagnostics {
                    let _ = d.to_string();
                }
            });
        }
    }
}

const _: () = assert!(MAX_FILE_BYTES >= 64 << 10 && MAX_CHAIN >= 8);

#[test]
fn every_board_size_and_shape() {
    // Every size from 1×1 to 8×8, both square sets, both notations: each
    // loads or gives findings; none panics (compiling also asks the move
    // generator whether the first player can move).
    for w in 1..=8u8 {
        for h in 1..=8u8 {
            for squares in ["all", "dark"] {
                for notation in ["algebraic", "numeric"] {
                    let top = format!("{}{h}", (b'a' + w - 1) as char);
                    let text = format!(
                        "extends = \"dama\"\n[board]\nwidth = {w}\nheight = {h}\nsquares = \"{squares}\"\nnotation = \"{notation}\"\n\
                         [setup]\nwhite = []\nblack = []\nwhite_kings = [\"a1\"]\nblack_kings = [\"{top}\"]\n"
                    );
                    match load_text("t.toml", &text, None) {
                        Ok(l) => {
                            let start = l.rules.start_position();
                            let _ = l.rules.legal_moves(&start);
                        }
                        Err(e) => assert!(!e.diagnostics.is_empty()),
                    }
                }
            }
        }
    }
}

/// (issue 37) A bare `extends` name is a built-in variant, whatever lies
/// beside: a file `dama` (here a 2 MB binary, say) is not read for
/// `extends = "dama"`, and a warning says so.
#[test]
fn a_file_named_like_a_builtin_does_not_shadow_it() {
    let dir = scratch("shadow");
    std::fs::write(dir.join("dama"), vec![0x7fu8; 2 << 20]).unwrap();
    let child = dir.join("mine.toml");
    std::fs::write(&child, "extends = \"dama\"\n[capture]\nmajority = \"none\"\n").unwrap();
    let l = load(child.to_str().unwrap()).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(l.files[1].name, "<builtin:dama>");
    let w: Vec<_> = l.warnings.iter().map(|d| (d.code.as_str(), d.key.as_deref())).collect();
    assert_eq!(w, [("W0108", Some("extends"))], "{:?}", l.warnings);
    let help = l.warnings[0].help.as_deref().unwrap_or("");
    assert!(help.contains("dama`)") && help.contains("as a path"), "{help}");
    assert_eq!(
        l.warnings[0].location.as_ref().map(|loc| (loc.line, loc.column)),
        Some((1, 11))
    );
    // A `dama.toml` beside that differs from the built-in is warned about too.
    std::fs::remove_file(dir.join("dama")).unwrap();
    std::fs::write(dir.join("dama.toml"), "extends = \"keny\"\n").unwrap();
    let l = load(child.to_str().unwrap()).unwrap();
    assert_eq!(l.warnings.len(), 1, "{:?}", l.warnings);
    assert!(l.warnings[0].message.contains("dama.toml"), "{}", l.warnings[0].message);
    // One identical to the built-in is no cause for warning.
    std::fs::write(
        dir.join("dama.toml"),
        dama_engine::source::builtin_text("dama").unwrap().1,
    )
    .unwrap();
    assert!(load(child.to_str().unwrap()).unwrap().warnings.is_empty());
    // Named as a path, the file is the parent.
    std::fs::write(dir.join("base"), "extends = \"keny\"\nname = \"Base\"\n").unwrap();
    std::fs::write(&child, "extends = \"./base\"\n").unwrap();
    let l = load(child.to_str().unwrap()).unwrap();
    assert_eq!(l.rules.name(), "Base, modified");
    // As a bare name, it is an unknown built-in, and the help says how to name it.
    std::fs::write(&child, "extends = \"base\"\n").unwrap();
    let e = load(child.to_str().unwrap()).unwrap_err();
    assert_eq!(e.diagnostics.len(), 1, "{e}");
    assert_eq!(e.diagnostics[0].code.as_str(), "E0103");
    assert!(
        e.diagnostics[0]
            .help
            .as_deref()
            .unwrap_or("")
            .contains("extends = \"./base\""),
        "{e}"
    );
    std::fs::remove_dir_all(&dir).ok();
}

/// (issue 37) Every problem of a `[setup]` in one run: a bad first player, a
/// square listed twice, a square off the board, a man on its promotion rank
/// and a side with no pieces.
#[test]
fn every_setup_problem_at_once() {
    // The file is kept out of tests/variants/invalid, whose files get a CLI snapshot each.
    let text = include_str!("../../../tests/variants/support/setup-every-problem.toml");
    let e = load_text("t.toml", text, None).unwrap_err();
    let mut found: Vec<(&str, String)> = e
        .diagnostics
        .iter()
        .map(|d| (d.code.as_str(), d.key.clone().unwrap_or_default()))
        .collect();
    found.sort();
    assert_eq!(
        found,
        [
            ("E0111", "setup.first".to_string()),
            ("E0701", "setup.white[2]".to_string()),
            ("E0703", "setup.white[1]".to_string()),
            ("E0704", "setup.black".to_string()),
            ("E0705", "setup.white[3]".to_string()),
        ],
        "{e}"
    );
}

/// (issue 37) A child that enlarges the board but keeps its parent's setup
/// is told so; one that states its own setup, or keeps the size, is not.
#[test]
fn a_larger_board_with_the_parents_setup_is_warned_about() {
    let l = load_text(
        "nine.toml",
        "extends = \"dama\"\n[board]\nwidth = 9\nheight = 9\n",
        None,
    )
    .unwrap();
    assert_eq!(l.warnings.len(), 1, "{:?}", l.warnings);
    let w = &l.warnings[0];
    assert_eq!((w.code.as_str(), w.key.as_deref()), ("W0708", Some("board.width")));
    assert_eq!(
        w.message,
        "the board is 9×9, but [setup] is inherited from <builtin:dama>, where it was written for its 8×8 board"
    );
    assert_eq!(
        w.location.as_ref().map(|l| (l.file.as_str(), l.line)),
        Some(("nine.toml", 3))
    );
    let own = "extends = \"dama\"\n[board]\nwidth = 9\nheight = 9\n[setup]\nwhite = [\"a2-i3\"]\nblack = [\"a7-i8\"]\n";
    assert!(load_text("nine.toml", own, None).unwrap().warnings.is_empty());
    let same = "extends = \"dama\"\n[board]\nwidth = 8\n";
    assert!(load_text("eight.toml", same, None).unwrap().warnings.is_empty());
    // The 6×6 case has its own errors and their help; no warning on top.
    let e = load_text("six.toml", "extends = \"dama\"\n[board]\nwidth = 6\n", None).unwrap_err();
    assert!(e.diagnostics.iter().all(|d| d.code.as_str() == "E0701"), "{e}");
}

/// (issue 37) The words of four diagnostics.
#[test]
fn diagnostics_say_what_is_expected() {
    let one = |text: &str| {
        let e = load_text("t.toml", text, None).unwrap_err();
        assert_eq!(e.diagnostics.len(), 1, "{e}");
        e.diagnostics[0].clone()
    };
    // A word written as an array names the type expected.
    let d = one("extends = \"dama\"\n[board]\nsquares = [\"dark\"]\n");
    assert_eq!(d.code.as_str(), "E0113");
    assert_eq!(
        d.message,
        "wrong type for `board.squares`: expected a string, found an array"
    );
    assert_eq!(d.help.as_deref(), Some("allowed values: `all`, `dark`"));
    // An unknown preference lists the preferences.
    let d = one("extends = \"dama\"\n[capture]\npriority = [\"zzz\"]\n");
    assert_eq!(d.code.as_str(), "E0111");
    let help = d.help.unwrap_or_default();
    assert!(help.starts_with("allowed values: `by_king`"), "{help}");
    // No far-fetched key is offered; a typo still is.
    for (table, key) in [
        ("kings", "captures_kings"),
        ("capture", "captures_kings"),
        ("men", "capture_king"),
    ] {
        let d = one(&format!("extends = \"dama\"\n[{table}]\n{key} = true\n"));
        assert_eq!(d.code.as_str(), "E0110");
        let help = d.help.unwrap_or_default();
        match table {
            "men" => assert_eq!(help, "did you mean `capture_kings`?"),
            _ => assert!(!help.starts_with("did you mean"), "[{table}] {key}: {help}"),
        }
    }
    // "an [end] section".
    let e = load_text("t.toml", "name = \"x\"\n[board]\nwidth = 8\n", None).unwrap_err();
    let end = e
        .diagnostics
        .iter()
        .find(|d| d.key.as_deref() == Some("end"))
        .expect("end is missing");
    assert!(
        end.help.as_deref().unwrap_or("").starts_with("add an [end] section"),
        "{end}"
    );
}
