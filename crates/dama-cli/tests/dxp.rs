//! `dama dxp`: two processes play a match over loopback, and a listener
//! survives garbage, truncated messages and hang-ups. Every wait has a
//! generous guard so that a hang fails the test instead of blocking the
//! suite (no test asserts how long anything takes).

mod support;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::time::Duration;

use support::{command, dama, root, scratch};

/// How long a step may take before it counts as hung.
const GUARD: Duration = Duration::from_secs(240);

/// A `dama dxp --listen --port 0` of the test's own, killed when dropped.
struct Listener {
    child: Child,
    port: u16,
    stderr: Receiver<String>,
}

impl Listener {
    fn start(extra: &[&str]) -> Listener {
        // 60 s of silence unless the test sets its own `--timeout`.
        let timeout: &[&str] = if extra.contains(&"--timeout") {
            &[]
        } else {
            &["--timeout", "60"]
        };
        let mut child = command(&root())
            .args(["dxp", "international", "--listen", "--port", "0"])
            .args(timeout)
            .args(extra)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("run dama dxp --listen");
        let err = child.stderr.take().expect("stderr of dama dxp");
        let (tx, stderr) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(err).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let first = stderr.recv_timeout(GUARD).expect("the listener's address");
        let port = first
            .rsplit(':')
            .next()
            .and_then(|p| p.trim().parse().ok())
            .unwrap_or_else(|| panic!("no port in {first:?}"));
        Listener { child, port, stderr }
    }

    /// What the listener wrote on stderr so far.
    fn log(&self) -> Vec<String> {
        self.stderr.try_iter().collect()
    }
}

impl Drop for Listener {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A raw DXP connection.
struct Peer {
    stream: TcpStream,
    buf: Vec<u8>,
}

impl Peer {
    fn connect(port: u16) -> Peer {
        let stream = TcpStream::connect(("127.0.0.1", port)).expect("connect to the listener");
        stream.set_read_timeout(Some(GUARD)).unwrap();
        Peer {
            stream,
            buf: Vec::new(),
        }
    }

    fn send_raw(&mut self, bytes: &[u8]) {
        self.stream.write_all(bytes).expect("send");
    }

    fn send(&mut self, text: &str) {
        self.send_raw(format!("{text}\0").as_bytes());
    }

    /// The next message, or `None` when the listener closed the connection.
    fn recv(&mut self) -> Option<String> {
        loop {
            if let Some(i) = self.buf.iter().position(|&b| b == 0) {
                let frame: Vec<u8> = self.buf.drain(..=i).collect();
                return Some(String::from_utf8(frame[..i].to_vec()).expect("ASCII from dama"));
            }
            let mut chunk = [0u8; 256];
            match self.stream.read(&mut chunk) {
                Ok(0) => return None,
                Ok(n) => self.buf.extend_from_slice(&chunk[..n]),
                Err(e) if e.kind() == std::io::ErrorKind::ConnectionReset => return None,
                Err(e) => panic!("reading from the listener: {e}"),
            }
        }
    }
}

fn gamereq(follower: char) -> String {
    format!("R01{:<32}{follower}001000A", "test")
}

#[test]
fn two_processes_play_a_match_over_loopback_and_the_pdn_replays() {
    let listener = Listener::start(&["--once", "--level", "2", "--max-plies", "160"]);
    let dir = scratch("match");
    let pdn = dir.join("match.pdn");
    let port = listener.port.to_string();
    let addr = format!("127.0.0.1:{port}");
    let (code, out, err) = dama(&[
        "dxp",
        "international",
        "--connect",
        &addr,
        "--games",
        "2",
        "--level",
        "1",
        "--max-plies",
        "160",
        "--name",
        "initiator",
        "--pdn",
        pdn.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{out}\n{err}");
    assert!(out.contains("initiator against dama, 2 games:"), "{out}");
    assert_eq!(err.matches("game ").count(), 2, "{err}");
    assert!(!err.contains("panicked"), "{err}");
    let mut child = listener;
    // The listener (--once) ends when the initiator's last GAMEEND says stop.
    let status = wait_for(&mut child.child);
    assert_eq!(status, Some(0), "{:?}", child.log());
    assert!(!child.log().iter().any(|l| l.contains("panicked")));
    let (code, out, err) = dama(&["replay", pdn.to_str().unwrap()]);
    assert_eq!(code, 0, "{out}\n{err}");
    let text = std::fs::read_to_string(&pdn).unwrap();
    assert_eq!(text.matches("[Event ").count(), 2, "{text}");
    assert!(
        text.contains("[White \"initiator\"]") && text.contains("[Black \"dama\"]"),
        "{text}"
    );
    let _ = std::fs::remove_dir_all(dir);
}

/// The exit code of `child`, waiting at most `GUARD`.
fn wait_for(child: &mut Child) -> Option<i32> {
    let start = std::time::Instant::now();
    while start.elapsed() < GUARD {
        if let Some(s) = child.try_wait().expect("wait") {
            return s.code();
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let _ = child.kill();
    panic!("the listener did not end");
}

#[test]
fn garbage_and_truncated_messages_get_an_error_and_the_listener_keeps_running() {
    let listener = Listener::start(&["--level", "1"]);
    let mut peer = Peer::connect(listener.port);
    for bad in [
        &b"X123\0"[..],
        b"M00\0",
        b"M0012323801\0",
        b"\xff\xfe\0",
        b"E9\0",
        b"\0",
        b"A\0",
    ] {
        peer.send_raw(bad);
        let reply = peer.recv().expect("an answer, not a hang-up");
        assert!(reply.starts_with("Cerror: "), "{bad:?} -> {reply}");
    }
    // A move with no game: an error, not a crash.
    peer.send("M0000322800");
    assert!(peer.recv().unwrap().starts_with("Cerror: "));
    // A game request that is cut off is only a bad message.
    peer.send(&gamereq('W')[..20]);
    assert!(peer.recv().unwrap().starts_with("Cerror: "));
    // A message with no end: the listener hangs up rather than buffer it.
    peer.send_raw(&[b'C'; 4000]);
    assert_eq!(peer.recv(), None);

    // A peer that hangs up in the middle of a message.
    let mut peer = Peer::connect(listener.port);
    peer.send_raw(b"R01trunc");
    drop(peer);

    // Still listening: a game, a takeback, the end.
    let mut peer = Peer::connect(listener.port);
    peer.send("CHello");
    peer.send(&gamereq('W'));
    let acc = peer.recv().unwrap();
    assert_eq!(acc, format!("A{:<32}0", "dama"));
    let first = peer.recv().unwrap();
    assert!(first.starts_with('M') && first.len() == 11, "{first}");
    // An illegal answer: an error and the end of that game.
    peer.send("M0000010200");
    let e = peer.recv().unwrap();
    assert!(
        e.starts_with("Cerror: M0000010200: 1-2 is not a legal move here"),
        "{e}"
    );
    assert_eq!(peer.recv().unwrap(), "E00");
    peer.send("E00");
    // A new game; then take the follower's first move back: it moves again.
    peer.send(&gamereq('W'));
    assert!(peer.recv().unwrap().starts_with('A'));
    assert!(peer.recv().unwrap().starts_with('M'));
    peer.send("B001W");
    assert_eq!(peer.recv().unwrap(), "K0");
    assert!(peer.recv().unwrap().starts_with('M'));
    // A takeback to a position the game never had is declined.
    peer.send("B009Z");
    assert_eq!(peer.recv().unwrap(), "K2");
    // We end the game and want no other: confirmed, then the follower hangs up.
    peer.send("E01");
    assert_eq!(peer.recv().unwrap(), "E00");
    assert_eq!(peer.recv(), None);

    // And it still accepts connections.
    let mut peer = Peer::connect(listener.port);
    peer.send(&gamereq('Z'));
    assert!(peer.recv().unwrap().starts_with('A'));
    drop(peer);
    let log = listener.log();
    assert!(!log.iter().any(|l| l.contains("panicked")), "{log:?}");
    assert!(log.iter().any(|l| l.contains("chat: Hello")), "{log:?}");
}

#[test]
fn variants_dxp_cannot_carry_are_refused() {
    let (code, _, err) = dama(&["dxp", "dama-10x10", "--listen", "--port", "0"]);
    assert_eq!(code, 1);
    assert!(err.contains("cannot be played over DXP"), "{err}");
    let (code, _, _) = dama(&["dxp", "international"]);
    assert_eq!(code, 2);
}

/// An initiator stopped midway (issue 37: `--pdn` was written only when the
/// whole match ended; a match stopped after two games left no file) leaves
/// every finished game in its record, readable by `dama replay`: each game
/// is added as it ends, before its line on stderr.
#[cfg(unix)]
#[test]
fn an_initiator_stopped_midway_leaves_every_finished_game() {
    for signal in ["KILL", "INT"] {
        let listener = Listener::start(&["--level", "1", "--max-plies", "40"]);
        let dir = scratch(&format!("stopped-{signal}"));
        let pdn = dir.join("match.pdn");
        let addr = format!("127.0.0.1:{}", listener.port);
        let mut child = command(&dir)
            .args([
                "dxp",
                "international",
                "--connect",
                &addr,
                "--games",
                "1000",
                "--level",
                "1",
            ])
            .args(["--max-plies", "40", "--pdn", "match.pdn"])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("run dama dxp --connect");
        let (text, games) = support::stop_after_games(&mut child, 2, signal, &pdn);
        assert!(games.len() >= 2, "{signal}: {} games\n{text}", games.len());
        let (code, out, err) = dama(&["replay", pdn.to_str().unwrap()]);
        assert_eq!(code, 0, "{signal}: {out}{err}");
        drop(listener);
        let _ = std::fs::remove_dir_all(&dir);
    }
}

/// (issue 38) A peer's CHAT and the name in its GAMEREQ are written on the
/// listener's stderr with their control characters as `�`: a peer cannot
/// clear the screen or retitle the terminal of whoever runs the listener.
#[test]
fn a_peers_chat_and_name_cannot_drive_the_listeners_terminal() {
    let listener = Listener::start(&["--level", "1"]);
    let mut peer = Peer::connect(listener.port);
    peer.send("C\x1b[2J\x1b]0;PWNED\x07");
    // A name of 32 characters with escapes in it.
    peer.send(&format!("R01{:<32}W001000A", "\x1b]0;OWNED\x07\x1b[2J"));
    assert!(peer.recv().unwrap().starts_with('A'));
    peer.send("E01");
    // The follower's first move, then the confirmation and the hang-up.
    while peer.recv().is_some() {}
    drop(peer);
    let log = wait_log(&listener, |l| l.iter().any(|l| l.contains("ended the session")));
    let text = log.join("\n");
    assert!(!text.contains(['\x1b', '\x07']), "{}", text.escape_debug());
    assert!(text.contains("chat: \u{fffd}[2J\u{fffd}]0;PWNED\u{fffd}"), "{text}");
    assert!(text.contains("game with \u{fffd}]0;OWNED\u{fffd}\u{fffd}[2J"), "{text}");
}

/// The listener's stderr until `done` holds for it (at most `GUARD`).
fn wait_log(listener: &Listener, done: impl Fn(&[String]) -> bool) -> Vec<String> {
    let start = std::time::Instant::now();
    let mut log = Vec::new();
    while !done(&log) {
        assert!(start.elapsed() < GUARD, "the listener did not get there: {log:?}");
        if let Ok(line) = listener.stderr.recv_timeout(Duration::from_millis(100)) {
            log.push(line);
        }
    }
    log.extend(listener.log());
    log
}

/// (issue 38) A message must arrive whole within the message deadline once
/// it has begun: a peer that sends a byte at a time, slower than that, is
/// disconnected with a message that says so, and does not hold the
/// single-connection listener for the whole `--timeout` (60 s here).
#[test]
fn a_peer_that_drips_a_message_is_disconnected_at_the_message_deadline() {
    let listener = Listener::start(&["--level", "1", "--message-deadline-ms", "300"]);
    let mut peer = Peer::connect(listener.port);
    let started = std::time::Instant::now();
    let mut closed = false;
    // A byte every 100 ms: each read is quick, the message never ends.
    for b in gamereq('W').bytes().cycle().take(2000) {
        if peer.stream.write_all(&[b]).is_err() {
            closed = true;
            break;
        }
        std::thread::sleep(Duration::from_millis(100));
        if started.elapsed() > GUARD {
            break;
        }
    }
    assert!(closed, "the listener kept the dripping peer");
    let log = wait_log(&listener, |l| l.iter().any(|l| l.contains("disconnected")));
    assert!(
        log.iter()
            .any(|l| l.contains("took more than 300 ms to send one message")),
        "{log:?}"
    );
    // Still listening, and a peer in no hurry between messages is kept.
    let mut peer = Peer::connect(listener.port);
    peer.send("CHello");
    std::thread::sleep(Duration::from_millis(500));
    peer.send(&gamereq('Z'));
    assert!(peer.recv().unwrap().starts_with('A'));
}

/// (issue 38) A peer that floods bad messages and reads none of the
/// answers: the listener says in words that the peer does not read
/// (after `--timeout`, 1 s here), not "Resource temporarily unavailable
/// (os error 11)"; it reports the first bad messages and counts the rest
/// instead of writing a line for each; and it still takes connections.
#[test]
fn a_flood_from_a_peer_that_does_not_read_is_counted_and_dropped() {
    let listener = Listener::start(&["--level", "1", "--timeout", "1"]);
    let peer = Peer::connect(listener.port);
    let mut stream = peer.stream.try_clone().unwrap();
    stream.set_write_timeout(Some(Duration::from_secs(5))).unwrap();
    // 3 MB of bad messages; the answers are never read.
    let flood = std::thread::spawn(move || {
        let chunk = b"X\0".repeat(64 * 1024);
        for _ in 0..24 {
            if stream.write_all(&chunk).is_err() {
                break;
            }
        }
    });
    let log = wait_log(&listener, |l| l.iter().any(|l| l.contains("disconnected")));
    let _ = flood.join();
    drop(peer);
    let text = log.join("\n");
    assert!(!text.contains("os error"), "{text}");
    assert!(text.contains("has read nothing we sent for 1 s"), "{text}");
    let shown = log.iter().filter(|l| l.contains("the peer sent a bad message")).count();
    assert_eq!(shown, 10, "{text}");
    assert!(
        log.iter().any(|l| l.contains("more bad or unexpected messages")),
        "{text}"
    );
    assert!(log.len() < 30, "{} lines: {text}", log.len());
    let mut peer = Peer::connect(listener.port);
    peer.send(&gamereq('Z'));
    assert!(peer.recv().unwrap().starts_with('A'));
}

/// Bad messages from a peer that does read the answers: every one gets its
/// CHAT, stderr shows the first ten and then how many more there were.
#[test]
fn bad_messages_are_all_answered_and_reported_up_to_a_count() {
    let listener = Listener::start(&["--level", "1"]);
    let mut peer = Peer::connect(listener.port);
    peer.send_raw(&b"X\0".repeat(500));
    for _ in 0..500 {
        assert!(peer.recv().unwrap().starts_with("Cerror: "));
    }
    // Between games a GAMEEND is answered with the peer's own stop code.
    peer.send("E01");
    assert_eq!(peer.recv().unwrap(), "E01");
    let log = wait_log(&listener, |l| l.iter().any(|l| l.contains("ended the session")));
    let shown = log.iter().filter(|l| l.contains("the peer sent a bad message")).count();
    assert_eq!(shown, 10, "{log:?}");
    assert!(
        log.iter()
            .any(|l| l.contains("and 490 more bad or unexpected messages")),
        "{log:?}"
    );
}
