//! The conventions of a command-line tool (issue 18): shell completions, a
//! manual page kept in docs/dama.1, and the exit codes in `dama --help`.
//!
//! `DAMA_UPDATE_DOCS=1 cargo test -p dama-cli --test conventions` rewrites
//! docs/dama.1 from `dama man`; review the diff.

mod support;

use support::{dama, root};

#[test]
fn completions_for_every_shell() {
    let (code, out, err) = dama(&["completions", "bash"]);
    assert_eq!(code, 0, "{err}");
    assert!(err.is_empty(), "{err}");
    assert!(out.contains("_dama()"), "a bash function completing dama:\n{out}");
    assert!(out.contains("complete -F _dama"), "registered for dama:\n{out}");
    for sub in ["play", "validate", "moves", "completions", "man"] {
        assert!(out.contains(sub), "the script completes `{sub}`");
    }
    for shell in ["zsh", "fish", "powershell", "elvish"] {
        let (code, out, err) = dama(&["completions", shell]);
        assert_eq!(code, 0, "{shell}: {err}");
        assert!(out.contains("dama"), "{shell}: {out}");
    }
    let (code, _, _) = dama(&["completions", "cmd"]);
    assert_eq!(code, 2, "an unknown shell is a usage error");
}

#[test]
fn the_man_page_in_docs_is_current() {
    let (code, page, err) = dama(&["man"]);
    assert_eq!(code, 0, "{err}");
    assert!(page.contains(".TH dama 1"), "{page}");
    assert!(page.contains("Exit codes"), "the man page lists the exit codes");
    let path = root().join("docs/dama.1");
    if std::env::var("DAMA_UPDATE_DOCS").is_ok_and(|v| !v.is_empty() && v != "0") {
        std::fs::write(&path, &page).unwrap();
        return;
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        committed == page,
        "docs/dama.1 is not what `dama man` prints; run \
         `DAMA_UPDATE_DOCS=1 cargo test -p dama-cli --test conventions` and review the diff"
    );
}

#[test]
fn the_exit_codes_are_documented() {
    let (code, help, _) = dama(&["--help"]);
    assert_eq!(code, 0);
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    for (n, what) in [(0, "success"), (1, "checked and failed"), (2, "a wrong command line")] {
        assert!(
            help.contains(&format!("{n} {what}")),
            "`dama --help` lacks exit code {n}:\n{help}"
        );
        assert!(
            readme.contains(&format!("| {n} | {what}")),
            "README.md lacks exit code {n}"
        );
    }
}
