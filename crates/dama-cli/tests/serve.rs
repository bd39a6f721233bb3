//! `dama serve` over HTTP: the API's answers, bad requests, and a load test
//! of 100 clients playing at once (loopback only, bounded in count and time).
// A test's own notes on stderr: the binary under test, not this file, must
// survive a full stderr (crate::stderr).
#![allow(clippy::disallowed_macros)]

mod support;

use std::time::{Duration, Instant};

use serde_json::{json, Value};
use support::server::{raw, Server};

/// The index of a square named algebraically (`d4`), as the API numbers squares.
fn sq(name: &str) -> u64 {
    let b = name.as_bytes();
    let file = u64::from(b[0] - b'a');
    let rank: u64 = name[1..].parse::<u64>().unwrap() - 1;
    rank * 16 + file
}

#[test]
fn a_game_over_the_api() {
    let s = Server::start(0);
    let v = s.json("GET", "/api/variants", json!(null));
    let ids: Vec<&str> = v["variants"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v["id"].as_str().unwrap())
        .collect();
    assert!(ids.contains(&"dama") && ids.contains(&"english"), "{ids:?}");

    let g = s.json("POST", "/api/games", json!({"variant": "dama"}));
    let id = g["id"].as_str().unwrap().to_string();
    assert_eq!(g["board"]["width"], 8);
    assert_eq!(g["board"]["squares"].as_array().unwrap().len(), 64);
    assert_eq!(g["legal"].as_array().unwrap().len(), 8);
    assert_eq!(g["side"], "white");

    // A move by its squares.
    let r = s.json(
        "POST",
        &format!("/api/games/{id}/move"),
        json!({"squares": [sq("d3"), sq("d4")]}),
    );
    assert_eq!(r["ok"], true, "{r}");
    assert_eq!(r["game"]["last"]["text"], "d3-d4");
    // An illegal one: refused with the words of `dama play`, not an HTTP error.
    let r = s.json(
        "POST",
        &format!("/api/games/{id}/move"),
        json!({"squares": [sq("a6"), sq("a4")]}),
    );
    assert_eq!(r["ok"], false);
    assert_eq!(r["error"]["code"], "move-illegal");
    let message = r["error"]["message"].as_str().unwrap().to_string();
    let cli = support::run(
        &std::env::temp_dir(),
        &[
            "play",
            "dama",
            "--white",
            "human",
            "--black",
            "human",
            "--save",
            &std::env::temp_dir()
                .join(format!("serve-{}.pdn", std::process::id()))
                .display()
                .to_string(),
        ],
        "d3-d4\na6-a4\nquit\n",
    );
    let _ = std::fs::remove_file(std::env::temp_dir().join(format!("serve-{}.pdn", std::process::id())));
    assert!(
        cli.1.contains(&message),
        "the CLI says it otherwise:\n{}\n---\n{message}",
        cli.1
    );

    // The computer answers within its bounds.
    let r = s.json("POST", &format!("/api/games/{id}/computer"), json!({"level": 2}));
    assert_eq!(r["ok"], true, "{r}");
    assert_eq!(r["game"]["plies"].as_array().unwrap().len(), 2);
    // Undo, redo, resign, the record.
    let u = s.json("POST", &format!("/api/games/{id}/undo"), json!({"count": 2}));
    assert_eq!(u["plies"].as_array().unwrap().len(), 0);
    let u = s.json("POST", &format!("/api/games/{id}/redo"), json!({"count": 1}));
    assert_eq!(u["plies"].as_array().unwrap().len(), 1);
    let p = s.json("GET", &format!("/api/games/{id}/pdn"), json!(null));
    assert!(p["pdn"].as_str().unwrap().contains("1. d3-d4"), "{p}");
    let r = s.json("POST", &format!("/api/games/{id}/resign"), json!({}));
    assert_eq!(r["result"]["pdn"], "1-0", "{r}");
    assert!(r["result"]["text"].as_str().unwrap().contains("White wins"), "{r}");

    // A game rebuilt from its moves (a page whose server restarted), and from PDN.
    let again = s.json(
        "POST",
        "/api/games",
        json!({"variant": "dama", "moves": ["d3-d4", "d6-d5"]}),
    );
    assert_eq!(again["plies"].as_array().unwrap().len(), 2);
    let from_pdn = s.json("POST", "/api/games", json!({"pdn": p["pdn"]}));
    assert_eq!(from_pdn["plies"].as_array().unwrap().len(), 1);
    assert_eq!(from_pdn["board"]["id"], "dama");
}

#[test]
fn the_analysis_streams_each_depth_then_done() {
    let s = Server::start(0);
    let g = s.json("POST", "/api/games", json!({"variant": "russian"}));
    let id = g["id"].as_str().unwrap();
    let t0 = Instant::now();
    let (status, body) = s
        .request("GET", &format!("/api/games/{id}/analysis?ms=300"), None)
        .unwrap();
    assert_eq!(status, 200, "{body}");
    assert!(t0.elapsed() < Duration::from_secs(10), "the analysis overran its time");
    let infos = body.matches("event: info").count();
    assert!(infos >= 1, "{body}");
    assert_eq!(body.matches("event: done").count(), 1, "{body}");
    assert!(body.contains("\"pv\":[") && body.contains("\"best\":{"), "{body}");
}

#[test]
fn a_multi_capture_has_its_full_path() {
    let s = Server::start(0);
    let g = s.json(
        "POST",
        "/api/games",
        json!({"variant": "dama", "fen": "W:Wd2:Bd3,d5,h8"}),
    );
    let legal = g["legal"].as_array().unwrap();
    assert_eq!(legal.len(), 1, "{g}");
    assert_eq!(legal[0]["squares"], json!([sq("d2"), sq("d4"), sq("d6")]));
    assert_eq!(legal[0]["captures"], json!([sq("d3"), sq("d5")]));
    let id = g["id"].as_str().unwrap();
    // Only part of the path is not a move.
    let r = s.json(
        "POST",
        &format!("/api/games/{id}/move"),
        json!({"squares": [sq("d2"), sq("d4")]}),
    );
    assert_eq!(r["ok"], false, "{r}");
    let r = s.json(
        "POST",
        &format!("/api/games/{id}/move"),
        json!({"squares": [sq("d2"), sq("d4"), sq("d6")]}),
    );
    assert_eq!(r["ok"], true, "{r}");
    assert_eq!(r["game"]["last"]["captures"], json!([sq("d3"), sq("d5")]));
}

#[test]
fn the_designer_s_findings() {
    let s = Server::start(0);
    let v = s.json(
        "POST",
        "/api/validate",
        json!({"toml": "extends = \"dama\"\n[capture]\nmajorty = \"none\"\n"}),
    );
    assert_eq!(v["ok"], false);
    // One shape for a diagnostic everywhere (issue 31): the location is nested, as in `dama validate --format json`.
    assert_eq!(v["diagnostics"][0]["location"]["line"], 3, "{v}");
    assert!(
        v["diagnostics"][0]["help"].as_str().unwrap().contains("majority"),
        "{v}"
    );
    let v = s.json(
        "POST",
        "/api/validate",
        json!({"toml": "extends = \"dama\"\n[capture]\nmajority = \"none\"\n"}),
    );
    assert_eq!(v["ok"], true, "{v}");
    assert_eq!(v["pieces"].as_array().unwrap().len(), 32);
    // Played at once.
    let g = s.json(
        "POST",
        "/api/games",
        json!({"toml": "extends = \"dama\"\n[capture]\nmajority = \"none\"\n"}),
    );
    // (issue 32) Only the compiled rules are kept: the text is the page's
    // own, never echoed back (it was, in every game answer).
    assert_eq!(g["source"]["pasted"], true, "{g}");
    assert!(g["source"].get("toml").is_none(), "{g}");
    assert!(!g.to_string().contains("majority"), "{g}");
    // The first thing a new user does (issue 16): the Turkish file as the
    // editor shows it, with `majority = "none"`, loads and plays.
    let shown = s.json("GET", "/api/variants/dama", json!(null));
    let text = shown["toml"].as_str().unwrap();
    assert!(text.contains("majority = \"max_pieces\""), "{text}");
    let edited = text.replace("majority = \"max_pieces\"", "majority = \"none\"");
    let v = s.json("POST", "/api/validate", json!({"toml": edited}));
    assert_eq!(v["ok"], true, "{v}");
    assert_ne!(v["rules"], shown["rules"], "the rules in words did not change");
    let g = s.json(
        "POST",
        "/api/games",
        json!({"toml": edited, "fen": "W:Wd2,h2:Bd3,h3,h5"}),
    );
    // Without the majority rule, the one-piece capture is legal beside the two-piece one.
    assert_eq!(g["legal"].as_array().unwrap().len(), 2, "{g}");
    // A 10×10 board played on its dark squares, numbered.
    let i = s.json("POST", "/api/games", json!({"variant": "international"}));
    assert_eq!(i["board"]["width"], 10);
    assert_eq!(i["board"]["squares"].as_array().unwrap().len(), 50);
    assert_eq!(i["board"]["numeric"], true);
    // A path in `extends` is never read.
    let v = s.json(
        "POST",
        "/api/validate",
        json!({"toml": "extends = \"/etc/hostname.toml\"\n"}),
    );
    assert_eq!(v["diagnostics"][0]["code"], "E0103", "{v}");
}

#[test]
fn bad_requests_get_a_4xx_and_a_message() {
    let s = Server::start(0);
    let cases: &[(&str, &str, Option<&str>, u16)] = &[
        ("POST", "/api/games", Some("not json"), 400),
        ("POST", "/api/games", Some("{\"variant\": \"damma\"}"), 400),
        (
            "POST",
            "/api/games",
            Some("{\"variant\": \"dama\", \"fen\": \"W:Wz99\"}"),
            400,
        ),
        (
            "POST",
            "/api/games",
            Some("{\"variant\": \"dama\", \"moves\": [\"a1-a8\"]}"),
            400,
        ),
        ("POST", "/api/games", Some("{\"colour\": 1}"), 422),
        ("GET", "/api/games/nope", None, 404),
        ("POST", "/api/games/nope/move", Some("{\"text\": \"d3-d4\"}"), 404),
        ("GET", "/no/such/page", None, 404),
        ("POST", "/api/validate", Some("[]"), 422),
        ("GET", "/api/games/nope/analysis?ms=soon", None, 400),
    ];
    for (method, path, body, want) in cases {
        let (status, text) = s.request(method, path, *body).unwrap();
        assert_eq!(status, *want, "{method} {path} {body:?}: {text}");
        let v: Value =
            serde_json::from_str(&text).unwrap_or_else(|e| panic!("{method} {path}: not JSON ({e}): {text}"));
        assert!(v["error"]["message"].as_str().is_some_and(|m| !m.is_empty()), "{text}");
    }
    // A body over the limit.
    let big = format!("{{\"toml\": \"{}\"}}", "x".repeat(300 << 10));
    let (status, _) = s.request("POST", "/api/validate", Some(&big)).unwrap();
    assert_eq!(status, 413);
    // The server still answers.
    assert_eq!(s.request("GET", "/api/variants", None).unwrap().0, 200);
}

/// 100 clients at once, each playing its own game: its moves by squares
/// and the computer's replies at level 1. Bounded: 12 plies each, two
/// minutes in all. No request may fail, and the server's memory stays small.
#[test]
fn a_hundred_clients_play_at_once() {
    const CLIENTS: usize = 100;
    const PLIES: usize = 12;
    let s = Server::start(0);
    let port = s.port;
    let (rss0, _) = s.memory_kib();
    let t0 = Instant::now();
    let workers: Vec<_> = (0..CLIENTS)
        .map(|c| {
            std::thread::spawn(move || {
                let mut errors = Vec::new();
                let mut requests = 0u32;
                let mut call = |method: &str, path: &str, body: Value| -> Option<Value> {
                    requests += 1;
                    match support::server::request(port, method, path, Some(&body.to_string())) {
                        Ok((200, text)) => serde_json::from_str(&text).ok(),
                        Ok((status, text)) => {
                            errors.push(format!("{method} {path}: {status} {text}"));
                            None
                        }
                        Err(e) => {
                            errors.push(format!("{method} {path}: {e}"));
                            None
                        }
                    }
                };
                let variant = ["dama", "english", "russian"][c % 3];
                let Some(g) = call("POST", "/api/games", json!({"variant": variant})) else {
                    return (errors, requests);
                };
                let id = g["id"].as_str().unwrap_or("").to_string();
                let mut game = g;
                for ply in 0..PLIES {
                    if !game["result"].is_null() {
                        break;
                    }
                    let r = if ply % 2 == 0 {
                        let legal = game["legal"].as_array().cloned().unwrap_or_default();
                        let Some(m) = legal.get((c + ply) % legal.len().max(1)) else {
                            break;
                        };
                        call(
                            "POST",
                            &format!("/api/games/{id}/move"),
                            json!({"squares": m["squares"]}),
                        )
                    } else {
                        call("POST", &format!("/api/games/{id}/computer"), json!({"level": 1}))
                    };
                    match r {
                        Some(r) if r["ok"] == true => game = r["game"].clone(),
                        Some(r) => {
                            errors.push(format!("{variant} game {id}, ply {ply}: not played: {r}"));
                            break;
                        }
                        None => break,
                    }
                }
                (errors, requests)
            })
        })
        .collect();
    let mut errors = Vec::new();
    let mut requests = 0;
    for w in workers {
        let (e, n) = w.join().expect("a client thread");
        errors.extend(e);
        requests += n;
    }
    let elapsed = t0.elapsed();
    let (rss, peak) = s.memory_kib();
    eprintln!(
        "load test: {CLIENTS} clients, {requests} requests in {:.2} s, {} errors; server memory {} KiB before, {} KiB after, peak {} KiB",
        elapsed.as_secs_f64(),
        errors.len(),
        rss0,
        rss,
        peak
    );
    assert!(
        errors.is_empty(),
        "{} errors, first: {:?}",
        errors.len(),
        errors.first()
    );
    assert!(elapsed < Duration::from_secs(120), "took {elapsed:?}");
    // Four searches at once with 4 MB tables, and small games: well under 256 MiB.
    assert!(peak < 256 * 1024, "peak memory {peak} KiB");
}

/// Issue 37: a PDN record that goes on after a threefold repetition is
/// imported whole; the game says where the rules had ended it.
#[test]
fn a_record_past_a_threefold_repetition_is_imported_whole() {
    let s = Server::start(0);
    let text = std::fs::read_to_string(support::root().join("tests/pdn/past-end/international-threefold.pdn")).unwrap();
    let g = s.json("POST", "/api/games", json!({"pdn": text}));
    assert_eq!(g["plies"].as_array().map(Vec::len), Some(10), "{g}");
    assert_eq!(g["passed_end"]["ply"], 9, "{g}");
    assert_eq!(g["passed_end"]["rule"], "threefold repetition", "{g}");
    assert_eq!(g["result"]["pdn"], "1-0", "{g}");
    // A game that never went past an end says nothing of it.
    let plain = s.json("POST", "/api/games", json!({"variant": "dama"}));
    assert!(plain["passed_end"].is_null(), "{plain}");
}

/// The `Host` header names the server, or the request is refused (421),
/// so that another site's page cannot reach it through a name of its own
/// (DNS rebinding); `--allow-host` adds a name (issue 32).
#[test]
fn a_request_for_another_host_is_refused() {
    let s = Server::start_with(0, &["--allow-host", "board.example"]);
    let answer = |host: &str| raw(s.port, &format!("GET /api/variants HTTP/1.1\r\nHost: {host}")).unwrap();
    let refused = answer("evil.example");
    assert!(refused.starts_with("HTTP/1.1 421"), "{refused}");
    let body = refused.split_once("\r\n\r\n").map(|(_, b)| b).unwrap_or("");
    let v: Value = serde_json::from_str(body).unwrap_or_else(|e| panic!("{e}: {refused}"));
    assert_eq!(v["error"]["code"], "host", "{v}");
    for host in [
        format!("127.0.0.1:{}", s.port),
        format!("localhost:{}", s.port),
        format!("[::1]:{}", s.port),
        "board.example".to_string(),
    ] {
        let ok = answer(&host);
        assert!(ok.starts_with("HTTP/1.1 200"), "{host}: {ok}");
    }
    // A request with no Host at all is not for this server either.
    let none = raw(s.port, "GET /api/variants HTTP/1.0").unwrap();
    assert!(
        none.starts_with("HTTP/1.0 421") || none.starts_with("HTTP/1.1 421"),
        "{none}"
    );
}

/// Every answer keeps the page out of other sites' frames and keeps
/// browsers from guessing types; a method a path does not take is the
/// API's JSON error; the icon is there (issue 32).
#[test]
fn every_answer_carries_the_security_headers() {
    let s = Server::start(0);
    for path in ["/", "/app.js", "/api/variants", "/api/games/nope", "/favicon.ico"] {
        let a = raw(s.port, &format!("GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{}", s.port)).unwrap();
        let head = a
            .split_once("\r\n\r\n")
            .map(|(h, _)| h.to_ascii_lowercase())
            .unwrap_or_default();
        assert!(head.contains("x-frame-options: deny"), "{path}: {head}");
        assert!(head.contains("x-content-type-options: nosniff"), "{path}: {head}");
        assert!(head.contains("referrer-policy: no-referrer"), "{path}: {head}");
        assert!(
            head.contains("frame-ancestors 'none'") || head.contains("default-src 'self'"),
            "{path}: {head}"
        );
    }
    let icon = raw(
        s.port,
        &format!("GET /favicon.ico HTTP/1.1\r\nHost: 127.0.0.1:{}", s.port),
    )
    .unwrap();
    assert!(icon.starts_with("HTTP/1.1 200") && icon.contains("<svg"), "{icon}");
    let (status, text) = s.request("DELETE", "/api/games", None).unwrap();
    assert_eq!(status, 405, "{text}");
    let v: Value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("not JSON ({e}): {text}"));
    assert_eq!(v["error"]["code"], "method", "{v}");
}

/// A pasted variant is at most 32 KiB: a larger one is refused with a
/// message that says so (413), before anything is compiled (issue 32).
#[test]
fn a_pasted_variant_over_the_cap_is_refused() {
    let s = Server::start(0);
    let text = format!("extends = \"dama\"\ndescription = \"{}\"\n", "x".repeat(40 << 10));
    for path in ["/api/validate", "/api/games"] {
        let body = json!({ "toml": text }).to_string();
        let (status, answer) = s.request("POST", path, Some(&body)).unwrap();
        assert_eq!(status, 413, "{path}: {answer}");
        let v: Value = serde_json::from_str(&answer).unwrap();
        assert_eq!(v["error"]["code"], "too-large", "{v}");
        assert!(v["error"]["message"].as_str().unwrap_or("").contains("32768"), "{v}");
    }
}

/// (issue 32) A pasted 16×16 variant whose capture tree explodes
/// (tests/variants/big16.toml: a king with 81.7 million capture paths):
/// a new game of that position is refused at once with a message that
/// says why, and the other games are served meanwhile (each game has its
/// own lock, and the engine's work runs off the async threads).
#[test]
fn a_position_too_heavy_to_list_is_refused_and_others_are_served() {
    let s = Server::start(0);
    let toml = std::fs::read_to_string(support::root().join("tests/variants/big16.toml")).unwrap();
    let other = s.json("POST", "/api/games", json!({"variant": "dama"}));
    let other_id = other["id"].as_str().unwrap().to_string();
    let port = s.port;
    let heavy = std::thread::spawn(move || {
        let body = json!({
            "toml": toml,
            "fen": "W:WKa7:Bg13,a2,p8,g3,a10,k15,e2,b2,d11,c5,e9,g14,g16,n5",
        });
        support::server::request(port, "POST", "/api/games", Some(&body.to_string())).unwrap()
    });
    // Served while the heavy request is in flight.
    for _ in 0..5 {
        assert_eq!(s.request("GET", "/api/variants", None).unwrap().0, 200);
        let g = s.json("GET", &format!("/api/games/{other_id}"), json!(null));
        assert_eq!(g["id"], other_id);
    }
    let (status, text) = heavy.join().unwrap();
    assert_eq!(status, 422, "{text}");
    let v: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(v["error"]["code"], "too-large", "{v}");
    assert!(
        v["error"]["message"].as_str().unwrap_or("").contains("dama moves"),
        "{v}"
    );
    // A position of the same variant with a few hundred thousand paths plays.
    let toml = std::fs::read_to_string(support::root().join("tests/variants/big16.toml")).unwrap();
    let g = s.json(
        "POST",
        "/api/games",
        json!({"toml": toml, "fen": "W:WKa7:Bg13,a2,p8,g3,a10,k15,e2,b2,d11,c5,e9"}),
    );
    assert!(!g["legal"].as_array().unwrap().is_empty());
}

/// (issue 32) A client that trickles its request's head is closed (after
/// the 10 s the head may take: the read below waits up to 40 s), and a
/// crowd of connections that say nothing does not lock people out: past
/// 512 the oldest silent one is closed, so a request is still answered.
#[test]
fn idle_and_trickling_connections_cannot_hold_the_server() {
    use std::io::{Read, Write};
    let s = Server::start(0);
    let mut trickle = std::net::TcpStream::connect(("127.0.0.1", s.port)).unwrap();
    trickle
        .write_all(b"GET /api/variants HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        .unwrap();
    let idle: Vec<std::net::TcpStream> = (0..600)
        .map(|_| std::net::TcpStream::connect(("127.0.0.1", s.port)).unwrap())
        .collect();
    let (status, text) = s.request("GET", "/api/variants", None).unwrap();
    assert_eq!(status, 200, "{text}");
    trickle.set_read_timeout(Some(Duration::from_secs(40))).unwrap();
    let mut rest = Vec::new();
    // Closed by the server: the read ends (a 408 answer, or nothing), and
    // does not time out.
    let read = trickle.read_to_end(&mut rest);
    assert!(read.is_ok(), "the trickling connection was kept open: {read:?}");
    drop(idle);
}

/// (issue 32) `GET /api/games/{id}/review`: the score of every position,
/// for White, from the start to the last ply; a decided end is ±MATE.
#[test]
fn a_review_scores_every_position_of_the_game() {
    let s = Server::start(0);
    let g = s.json(
        "POST",
        "/api/games",
        json!({"variant": "dama", "fen": "W:Wd6,a2:Bd7,c8", "moves": ["d6xd8xb8"]}),
    );
    let id = g["id"].as_str().unwrap();
    let r = s.json("GET", &format!("/api/games/{id}/review"), json!(null));
    let points = r["points"].as_array().unwrap();
    assert_eq!(points.len(), 2, "{r}");
    assert_eq!(points[0]["ply"], 0);
    // White to move wins at once; after the capture Black has no piece.
    assert!(points[0]["white"].as_i64().unwrap() > 0, "{r}");
    assert!(points[1]["white"].as_i64().unwrap() > 20_000, "{r}");
    assert!(points[1]["text"].is_string(), "{r}");
}

/// (issue 32) The store's bound, 4,096 games, half of them of a pasted
/// variant (each compiles its own rules), stays small: the server's peak
/// memory under 256 MiB (about 100 MiB when measured).
#[test]
fn four_thousand_games_stay_small() {
    let s = Server::start(0);
    let toml = "extends = \"dama\"\nname = \"Mine\"\n[capture]\nmajority = \"none\"\n";
    for i in 0..4096 {
        let body = if i % 2 == 0 {
            json!({ "toml": toml })
        } else {
            json!({ "variant": "international" })
        };
        let (status, text) = s.request("POST", "/api/games", Some(&body.to_string())).unwrap();
        assert_eq!(status, 200, "game {i}: {text}");
    }
    let (rss, peak) = s.memory_kib();
    eprintln!("4096 games: {} MiB now, {} MiB at the peak", rss / 1024, peak / 1024);
    assert!(peak < 256 * 1024, "{peak} KiB at the peak");
}
