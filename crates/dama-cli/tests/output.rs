//! Output that cannot be written (issue 18). Each row runs one command with
//! its standard output on `/dev/full` (every write fails with "No space left
//! on device"): it must end by itself with exit code 1 and say why on
//! stderr, never panic (exit code 101) nor end with success having written
//! nothing. A reader that goes away early (a broken pipe, as in
//! `dama moves dama | head -c1`) is no error: exit code 0, nothing on stderr.
#![cfg(unix)]

mod support;

use std::io::{Read, Write};
use std::path::PathBuf;
use std::process::{Child, Stdio};

use support::{command, root, scratch};

/// One command whose output is lost.
struct Row {
    /// Arguments of `dama` (`ROOT` stands for the repository root).
    args: &'static [&'static str],
    /// Standard input.
    stdin: &'static str,
}

const fn row(args: &'static [&'static str]) -> Row {
    Row { args, stdin: "" }
}

fn rows() -> Vec<Row> {
    vec![
        row(&["moves", "dama"]),
        row(&["moves", "dama", "--format", "json"]),
        row(&["replay", "ROOT/tests/pdn/pydraughts-turkish.pdn"]),
        row(&["replay", "-q", "ROOT/tests/pdn/liberal-mixed.pdn"]),
        row(&["replay", "--format", "json", "ROOT/tests/pdn/liberal-mixed.pdn"]),
        row(&["perft", "dama", "--depth", "3"]),
        row(&["perft", "dama", "--depth", "3", "--divide"]),
        row(&["cases", "ROOT/tests/rules/dama"]),
        row(&["cases", "--check", "ROOT/tests/rules/dama"]),
        row(&["match", "dama", "--games", "2", "--depth", "1"]),
        row(&["match", "dama", "--games", "2", "--depth", "1", "--format", "json"]),
        Row {
            args: &[
                "play", "dama", "--white", "human", "--black", "human", "--save", "g.pdn",
            ],
            stdin: "d3-d4\nd6-d5\nmoves\n",
        },
        Row {
            args: &[
                "play", "dama", "--white", "computer", "--black", "computer", "--depth", "1", "--save", "c.pdn",
            ],
            stdin: "",
        },
        row(&["show", "dama"]),
        row(&["show", "dama", "--format", "json"]),
        row(&["variants"]),
        row(&["variants", "--format", "json"]),
        row(&["validate", "--format", "json", "dama"]),
        row(&["diagram", "dama", "--svg", "-"]),
        row(&["completions", "bash"]),
        row(&["man"]),
        Row {
            args: &["hub"],
            stdin: "hub\ninit\nquit\n",
        },
    ]
}

/// Starts `dama --color never ARGS` in a scratch directory, its stdout
/// given by `stdout`, its stderr piped, `stdin` written to it.
fn start(name: &str, args: &[&str], stdin: &str, stdout: Stdio) -> (Child, PathBuf) {
    let dir = scratch(name);
    let root = root().display().to_string();
    let args: Vec<String> = args.iter().map(|a| a.replace("ROOT", &root)).collect();
    let mut child = command(&dir)
        .args(&args)
        .stdin(Stdio::piped())
        .stdout(stdout)
        .stderr(Stdio::piped())
        .spawn()
        .expect("run dama");
    let mut pipe = child.stdin.take().unwrap();
    // The program may stop before reading it all: a broken pipe is fine.
    let _ = pipe.write_all(stdin.as_bytes());
    (child, dir)
}

/// Waits for `child`, then removes its directory: (exit code, stderr), -1 for a signal.
fn finish((mut child, dir): (Child, PathBuf)) -> (i32, String) {
    let mut err = String::new();
    child.stderr.take().unwrap().read_to_string(&mut err).unwrap();
    let status = child.wait().unwrap();
    let _ = std::fs::remove_dir_all(dir);
    (status.code().unwrap_or(-1), err)
}

#[test]
#[cfg(target_os = "linux")]
fn a_full_disk_is_an_error_not_a_panic() {
    let mut failures = Vec::new();
    for (i, row) in rows().iter().enumerate() {
        let full = std::fs::OpenOptions::new().write(true).open("/dev/full").unwrap();
        let child = start(&format!("full{i}"), row.args, row.stdin, Stdio::from(full));
        let (code, err) = finish(child);
        let what = row.args.join(" ");
        if code != 1 || err.contains("panicked") {
            failures.push(format!("{what}: exit code {code}, expected 1; stderr:\n{err}"));
        } else if !err.contains("dama: cannot write the output: No space left on device") {
            failures.push(format!("{what}: stderr does not say why:\n{err}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
#[cfg(target_os = "linux")]
fn help_on_a_full_disk_is_an_error() {
    for args in [&["--help"][..], &["moves", "--help"], &["--version"]] {
        let full = std::fs::OpenOptions::new().write(true).open("/dev/full").unwrap();
        let (code, err) = finish(start("help", args, "", Stdio::from(full)));
        assert_eq!(code, 1, "{args:?}: {err}");
        assert!(err.contains("cannot write the output"), "{args:?}: {err}");
    }
}

/// Reads one byte of the output and closes the pipe, as `| head -c1` does.
fn read_one_byte_then_close(name: &str, args: &[&str]) -> (i32, String) {
    let (mut child, dir) = start(name, args, "", Stdio::piped());
    let mut out = child.stdout.take().unwrap();
    let mut byte = [0u8; 1];
    out.read_exact(&mut byte).unwrap();
    drop(out);
    finish((child, dir))
}

#[test]
fn a_reader_that_stops_early_is_no_error() {
    // `moves` may have written everything before the pipe closes; `cases`
    // prints about 90 KB, more than a pipe holds, so its writes do fail.
    for args in [&["moves", "dama"][..], &["cases", "ROOT/tests/rules"]] {
        let (code, err) = read_one_byte_then_close("pipe", args);
        assert_eq!(code, 0, "{args:?}: {err}");
        assert_eq!(err, "", "{args:?}: a broken pipe is not reported");
    }
}

/// Commands that write mostly on stderr: errors, warnings, progress,
/// reports (issue 38: `moves nosuch`, `replay`, `match` and `egtb build`
/// panicked with `2>/dev/full`).
fn stderr_rows() -> Vec<Row> {
    vec![
        row(&["moves", "nosuch"]),
        row(&["moves", "dama", "--fen", "W:Wz9"]),
        row(&["show", "nosuch"]),
        row(&["replay"]),
        row(&["replay", "nosuch.pdn"]),
        row(&["replay", "ROOT/tests/pdn/liberal-mixed.pdn"]),
        row(&["perft", "nosuch", "--depth", "1"]),
        row(&["validate", "nosuch.toml"]),
        row(&["cases", "nosuch"]),
        row(&["diagram", "nosuch", "--svg", "-"]),
        row(&["play", "nosuch"]),
        row(&["play", "--load", "nosuch.pdn"]),
        row(&["analyze", "nosuch.pdn"]),
        row(&["match", "dama", "--games", "2", "--depth", "1", "-v", "--pdn", "m.pdn"]),
        row(&["match", "dama", "--games", "2", "--depth", "1", "--pdn", "/dev/full"]),
        row(&["egtb", "build", "english", "--pieces", "2", "--dir", "tables"]),
        row(&["egtb", "probe", "english", "--fen", "W:WK1:BK32", "--dir", "tables"]),
        row(&["egtb", "stats", "english", "--dir", "tables"]),
        row(&["tune", "dama", "--games", "0"]),
        row(&["tune", "dama", "--games", "2", "--nodes", "50", "--max-plies", "20"]),
        row(&["dxp", "dama", "--connect", "127.0.0.1:1", "--timeout", "1"]),
        row(&["serve", "--port", "1", "--host", "256.0.0.1"]),
        row(&["nosuch-command"]),
    ]
}

/// With stderr on `/dev/full`, and with both stdout and stderr there,
/// every command ends by itself and never panics (exit code 101): a
/// message that cannot be shown is lost, nothing else (issue 38).
#[test]
#[cfg(target_os = "linux")]
fn a_full_stderr_is_no_panic() {
    let mut failures = Vec::new();
    let all: Vec<Row> = rows().into_iter().chain(stderr_rows()).collect();
    for (i, row) in all.iter().enumerate() {
        for both in [false, true] {
            let dir = scratch(&format!("stderr{i}-{both}"));
            let root = root().display().to_string();
            let args: Vec<String> = row.args.iter().map(|a| a.replace("ROOT", &root)).collect();
            let full = || Stdio::from(std::fs::OpenOptions::new().write(true).open("/dev/full").unwrap());
            let mut child = command(&dir)
                .args(&args)
                .stdin(Stdio::piped())
                .stdout(if both { full() } else { Stdio::null() })
                .stderr(full())
                .spawn()
                .expect("run dama");
            let mut pipe = child.stdin.take().unwrap();
            let _ = pipe.write_all(row.stdin.as_bytes());
            drop(pipe);
            let status = child.wait().unwrap();
            let _ = std::fs::remove_dir_all(dir);
            let what = format!("{}{}", row.args.join(" "), if both { " (stdout full too)" } else { "" });
            match status.code() {
                Some(101) => failures.push(format!("{what}: exit code 101, a panic")),
                None => failures.push(format!("{what}: killed by a signal ({status})")),
                Some(_) => {}
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
