//! `dama egtb build`, `probe` and `stats` on small English tables, pinned
//! by a snapshot; a table for other rules is refused.

mod support;

use support::{dama, scratch};

#[test]
fn build_probe_stats_session() {
    let dir = scratch("egtb");
    let d = dir.to_str().unwrap();
    let mut session = String::new();
    for args in [
        vec!["egtb", "build", "english", "--pieces", "3", "--dir", d],
        vec!["egtb", "probe", "english", "--fen", "W:WK1,K2:BK32", "--dir", d],
        vec!["egtb", "probe", "english", "--fen", "W:WK14:BK32", "--dir", d],
        vec!["egtb", "stats", "english", "--dir", d],
    ] {
        let (code, out, err) = dama(&args);
        assert_eq!(code, 0, "{args:?}: {err}");
        session.push_str(&format!(
            "$ dama {}\n{}\n",
            args.join(" ").replace(d, "DIR"),
            out.replace(d, "DIR")
        ));
    }
    insta::assert_snapshot!("egtb_session", session);
    // A position with more pieces than the tables hold.
    let (code, _, err) = dama(&["egtb", "probe", "english", "--fen", "W:W21,22:B9,10", "--dir", d]);
    assert_eq!(code, 1);
    assert!(err.contains("no table for"), "{err}");
    // The same folder for other rules: the header says so.
    let other = dir.join("other.toml");
    std::fs::write(
        &other,
        "extends = \"english\"\nid = \"english\"\nname = \"Not English\"\n",
    )
    .unwrap();
    let (code, _, err) = dama(&[
        "egtb",
        "probe",
        other.to_str().unwrap(),
        "--fen",
        "W:WK1:BK32",
        "--dir",
        d,
    ]);
    assert_eq!(code, 1);
    assert!(err.contains("was built for the rules of english"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}
