//! What the integration tests of the `dama` binary share: where the binary
//! and the repository are, how to run the binary, fresh scratch
//! directories. Each test file takes it with `mod support;` (cargo builds
//! no test of its own from `tests/support/mod.rs`).
//!
//! Every run is `dama --color never ...` with `NO_COLOR` removed, so the
//! output is plain text whatever the environment says.

// Each test file uses only some of these.
#![allow(dead_code)]

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// The `dama` binary built for these tests.
pub const BIN: &str = env!("CARGO_BIN_EXE_dama");

/// The repository root (where `variants/` and `tests/` are).
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .expect("repository root")
}

/// A fresh, empty directory for one test, `name` telling it from the
/// others of the same test file: under the system's temporary directory,
/// named after the test file and the process. A test removes it when it
/// passes; a failed test leaves it for a look.
pub fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!(
        "dama-{}-{}-{name}",
        env!("CARGO_CRATE_NAME"),
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("scratch directory");
    d
}

/// `cmd`, which runs `dama` (directly, or through a wrapper that passes its
/// arguments on), made to run in `dir` with plain output: `--color never`
/// comes first among the arguments added after this.
pub fn plain(mut cmd: Command, dir: &Path) -> Command {
    cmd.current_dir(dir).env_remove("NO_COLOR").args(["--color", "never"]);
    cmd
}

/// `dama --color never`, to run in `dir`; add the arguments.
pub fn command(dir: &Path) -> Command {
    plain(Command::new(BIN), dir)
}

/// Runs `dama --color never ARGS` in `dir` with `stdin` as its standard
/// input, to the end: (exit code, stdout, stderr). The exit code is -1 when
/// the process was killed by a signal. The output must be UTF-8.
pub fn run(dir: &Path, args: &[&str], stdin: &str) -> (i32, String, String) {
    let mut child = command(dir)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run dama");
    let mut pipe = child.stdin.take().expect("stdin of dama");
    let input = stdin.as_bytes().to_vec();
    // From a thread, so that a long input cannot block against a full output
    // pipe; the program may stop before reading it all: a broken pipe is fine.
    let feeder = std::thread::spawn(move || {
        let _ = pipe.write_all(&input);
    });
    let out = child.wait_with_output().expect("wait for dama");
    let _ = feeder.join();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).expect("dama printed invalid UTF-8 on stdout"),
        String::from_utf8(out.stderr).expect("dama printed invalid UTF-8 on stderr"),
    )
}

/// Runs `dama --color never ARGS` in the repository root, with nothing on
/// standard input: (exit code, stdout, stderr).
pub fn dama(args: &[&str]) -> (i32, String, String) {
    run(&root(), args, "")
}

/// `dama serve` for the server and browser tests.
pub mod server;

/// Stops `child` (a `dama match` or `dama dxp --connect` writing `pdn`,
/// its stderr piped) with `kill -SIGNAL` once it has said `games` lines
/// `game …` on stderr, checks that it did not end well, and returns the
/// record it left and its games (it must be there and read as PDN).
#[allow(dead_code)]
pub fn stop_after_games(
    child: &mut std::process::Child,
    games: usize,
    signal: &str,
    pdn: &Path,
) -> (String, Vec<dama_engine::pdn::PdnGame>) {
    use std::io::BufRead;
    let err = std::io::BufReader::new(child.stderr.take().expect("stderr piped"));
    let mut seen = 0;
    for line in err.lines() {
        if line.expect("stderr is text").starts_with("game ") {
            seen += 1;
            if seen == games {
                break;
            }
        }
    }
    assert_eq!(seen, games, "{signal}: it did not get to game {games}");
    let status = Command::new("kill")
        .args([&format!("-{signal}"), &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    let status = child.wait().unwrap();
    assert!(!status.success(), "{signal}: {status}");
    let text = std::fs::read_to_string(pdn).unwrap_or_else(|e| panic!("{signal}: no {}: {e}", pdn.display()));
    let read = dama_engine::pdn::read_games(&text).unwrap_or_else(|e| panic!("{signal}: {e}\n{text}"));
    (text, read)
}
