//! Games survive faults (issue 7): `dama play --save FILE` is killed with
//! SIGKILL between two moves, again and again, and resumed each time with
//! `--load FILE`; the record must hold every move made. A kill at an
//! arbitrary instant (right after a move is typed) must leave a record that
//! loads and holds either every move or every move but the last. A truncated
//! or corrupt save file gives a clear error and is never overwritten.
//!
//! Unix only: `Child::kill` sends SIGKILL there, so nothing runs at exit.
#![cfg(unix)]

mod support;

use std::io::{Read, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Stdio};
use std::sync::mpsc::{channel, Receiver};
use std::time::Duration;

use dama_engine::pdn::read_games;
use dama_engine::{Position, Rules};
use support::{command, run, scratch};

/// Longest wait for the program to answer: a guard against a hang, not a speed test.
const GUARD: Duration = Duration::from_secs(120);

/// A running `dama play` with its output collected as it comes.
struct Session {
    child: Child,
    stdin: ChildStdin,
    out: Receiver<Vec<u8>>,
    text: String,
}

impl Session {
    fn start(dir: &Path, args: &[&str]) -> Session {
        let mut child = command(dir)
            .arg("play")
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start dama play");
        let stdin = child.stdin.take().unwrap();
        let mut stdout = child.stdout.take().unwrap();
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            let mut buf = [0u8; 4096];
            loop {
                match stdout.read(&mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(n) => {
                        if tx.send(buf[..n].to_vec()).is_err() {
                            break;
                        }
                    }
                }
            }
        });
        Session {
            child,
            stdin,
            out: rx,
            text: String::new(),
        }
    }

    /// Number of move prompts (`White> `, `Black> `) printed so far.
    fn prompts(&self) -> usize {
        self.text.matches("White> ").count() + self.text.matches("Black> ").count()
    }

    /// Waits until `n` prompts have been printed.
    fn wait_prompts(&mut self, n: usize) {
        while self.prompts() < n {
            match self.out.recv_timeout(GUARD) {
                Ok(chunk) => self.text.push_str(&String::from_utf8_lossy(&chunk)),
                Err(e) => {
                    let err = self.stderr_now();
                    panic!(
                        "waiting for prompt {n} ({e}); output so far:\n{}\nstderr: {err}",
                        self.text
                    )
                }
            }
        }
    }

    fn stderr_now(&mut self) -> String {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let mut s = String::new();
        if let Some(mut e) = self.child.stderr.take() {
            let _ = e.read_to_string(&mut s);
        }
        s
    }

    fn send(&mut self, line: &str) {
        writeln!(self.stdin, "{line}").expect("write to dama play");
        self.stdin.flush().unwrap();
    }

    /// SIGKILL: no destructor, no exit handler, no final save runs.
    fn kill(mut self) {
        self.child.kill().expect("kill");
        let status = self.child.wait().unwrap();
        assert!(status.code().is_none(), "killed, so no exit code: {status}");
    }
}

/// The positions a saved record replays to, first to last.
fn recorded_positions(rules: &Rules, file: &Path) -> Vec<Position> {
    let text = std::fs::read_to_string(file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
    let games = read_games(&text).unwrap_or_else(|e| panic!("the save file does not read: {e}\n{text}"));
    assert_eq!(games.len(), 1, "{text}");
    let game = games[0]
        .replay(rules.clone())
        .unwrap_or_else(|e| panic!("the save file does not replay: {e}\n{text}"));
    game.positions().collect()
}

/// A move to play in `pos`, varied by `k`, written in full notation.
fn pick(rules: &Rules, pos: &Position, k: usize) -> Option<(String, Position)> {
    let moves = rules.legal_moves(pos);
    let m = *moves.as_slice().get((k * 7 + 3) % moves.len().max(1))?;
    Some((rules.format_move_full(pos, &m), pos.after(&m)))
}

#[test]
fn killed_between_moves_and_resumed_the_record_holds_every_move() {
    let dir = scratch("between");
    let rules = Rules::builtin("dama").unwrap();
    let mut expected = vec![rules.start_position()];
    let mut k = 0;
    for round in 0..4 {
        let mut s = if round == 0 {
            Session::start(
                &dir,
                &["dama", "--white", "human", "--black", "human", "--save", "game.pdn"],
            )
        } else {
            Session::start(&dir, &["--load", "game.pdn", "--white", "human", "--black", "human"])
        };
        s.wait_prompts(1);
        if round > 0 {
            let plies = expected.len() - 1;
            assert!(
                s.text.contains(&format!("after {plies} plies")),
                "round {round}: resumed at the wrong point:\n{}",
                s.text
            );
        }
        // A few moves, then a kill once the prompt for the next one is shown.
        for i in 0..3 + round {
            let pos = *expected.last().unwrap();
            let Some((text, next)) = pick(&rules, &pos, k) else {
                break;
            };
            k += 1;
            s.send(&text);
            s.wait_prompts(i + 2);
            expected.push(next);
        }
        s.kill();
        assert_eq!(
            recorded_positions(&rules, &dir.join("game.pdn")),
            expected,
            "round {round}: the record lost a move"
        );
    }
    assert!(expected.len() > 12, "played {} plies", expected.len() - 1);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn killed_at_any_instant_the_record_loads_and_loses_at_most_the_last_move() {
    let dir = scratch("instant");
    let rules = Rules::builtin("dama").unwrap();
    let mut expected = vec![rules.start_position()];
    for round in 0..6 {
        let mut s = if round == 0 {
            Session::start(
                &dir,
                &["dama", "--white", "human", "--black", "human", "--save", "g.pdn"],
            )
        } else {
            Session::start(&dir, &["--load", "g.pdn", "--white", "human", "--black", "human"])
        };
        s.wait_prompts(1);
        let pos = *expected.last().unwrap();
        let (text, next) = pick(&rules, &pos, round).expect("a legal move");
        s.send(&text);
        // Kill at some instant while the move is being played and saved.
        std::thread::sleep(Duration::from_millis([0, 1, 3, 7, 15, 30][round]));
        s.kill();
        let got = recorded_positions(&rules, &dir.join("g.pdn"));
        let mut with_move = expected.clone();
        with_move.push(next);
        assert!(
            got == expected || got == with_move,
            "round {round}: the record holds {} plies, expected {} or {}",
            got.len() - 1,
            expected.len() - 1,
            with_move.len() - 1
        );
        expected = got;
        // No temporary file is left to be mistaken for the record.
        let strays: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| n != "g.pdn" && !n.starts_with(".g.pdn.tmp"))
            .collect();
        assert!(strays.is_empty(), "unexpected files: {strays:?}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_damaged_save_file_is_refused_and_left_untouched() {
    let dir = scratch("damaged");
    let (code, _, err) = run(
        &dir,
        &[
            "play", "dama", "--white", "human", "--black", "human", "--save", "good.pdn",
        ],
        "a3-a4\nh6-h5\nb3-b4\ng6-g5\n",
    );
    assert_eq!(code, 0, "{err}");
    let good = std::fs::read(dir.join("good.pdn")).unwrap();
    let text = String::from_utf8(good.clone()).unwrap();
    assert!(text.contains("b3-b4") && text.contains("g6-g5"), "{text}");

    let star = text.rfind('*').expect("a game in progress ends with `*`");
    let damaged: Vec<(&str, Vec<u8>)> = vec![
        ("cut before the result", text.as_bytes()[..star].to_vec()),
        ("cut in the tags", text.as_bytes()[..text.len() / 4].to_vec()),
        ("cut in a move", {
            let i = text.find("b3-b4").unwrap_or(star) + 3;
            text.as_bytes()[..i].to_vec()
        }),
        ("empty", Vec::new()),
        (
            "binary junk",
            (0..2000u32)
                .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8)
                .collect(),
        ),
        ("an illegal move", text.replace("g6-g5", "g6-g3").into_bytes()),
        ("NUL bytes", text.replace("h6-h5", "h6\0h5").into_bytes()),
        (
            "an unknown variant",
            text.replace("\"dama\"", "\"no-such-variant\"").into_bytes(),
        ),
    ];
    for (what, bytes) in damaged {
        let file = dir.join("bad.pdn");
        std::fs::write(&file, &bytes).unwrap();
        // Resuming it: a clear error, exit 1, the file untouched.
        let (code, _, err) = run(
            &dir,
            &["play", "--load", "bad.pdn", "--white", "human", "--black", "human"],
            "d3-d4\n",
        );
        assert_eq!(code, 1, "{what}: resuming should fail:\n{err}");
        assert!(err.contains("error"), "{what}: {err}");
        assert!(!err.contains("panicked"), "{what}: {err}");
        assert_eq!(
            std::fs::read(&file).unwrap(),
            bytes,
            "{what}: the damaged file was changed"
        );
        // Starting a new game over it: refused, the file untouched.
        let (code, _, err) = run(
            &dir,
            &[
                "play", "dama", "--white", "human", "--black", "human", "--save", "bad.pdn",
            ],
            "d3-d4\n",
        );
        assert_eq!(
            code, 1,
            "{what}: a new game over an existing file should be refused:\n{err}"
        );
        assert_eq!(
            std::fs::read(&file).unwrap(),
            bytes,
            "{what}: a new game overwrote the file"
        );
    }
    // The good record still resumes, with its four plies.
    let (code, out, err) = run(
        &dir,
        &["play", "--load", "good.pdn", "--white", "human", "--black", "human"],
        "",
    );
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("after 4 plies"), "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}
