//! The page in a real browser: the distribution's headless Chromium,
//! driven over WebDriver (chromedriver) with fantoccini.
//!
//! Without a browser these tests are counted as ignored, with one notice
//! saying what is missing, unless `CI` is set: there they fail, saying what
//! is missing (`.ci/run` installs the `chromium` and `chromium-driver`
//! packages first). libtest cannot ignore a test at run time, so this file
//! has its own `main` (libtest-mimic; `harness = false` in Cargo.toml),
//! which lists the tests in [`TESTS`].
// A test's own notes on stderr: the binary under test, not this file, must
// survive a full stderr (crate::stderr).
#![allow(clippy::disallowed_macros)]

mod support;

use std::cell::RefCell;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use fantoccini::{Client, ClientBuilder, Locator};
use libtest_mimic::{Arguments, Completion, Failed, Trial};
use serde_json::{json, Value};
use support::server::{free_port, Server};

/// The square index of an algebraic name (`d4`), as the page's `data-sq`.
fn sq(name: &str) -> u32 {
    let b = name.as_bytes();
    let file = u32::from(b[0] - b'a');
    let rank: u32 = name[1..].parse::<u32>().unwrap() - 1;
    rank * 16 + file
}

/// chromedriver, stopped when dropped.
struct Driver(Child);

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn find_program(names: &[&str]) -> Option<String> {
    let path = std::env::var("PATH").unwrap_or_default();
    for n in names {
        for dir in path.split(':').chain(["/usr/bin", "/usr/lib/chromium"]) {
            let p = std::path::Path::new(dir).join(n);
            if p.is_file() {
                return Some(p.display().to_string());
            }
        }
    }
    None
}

/// The tests: name, body, and whether it runs only when asked (`--ignored`).
const TESTS: &[(&str, fn(), bool)] = &[
    (
        "a_game_played_by_clicks_to_its_result",
        a_game_played_by_clicks_to_its_result,
        false,
    ),
    (
        "an_illegal_click_is_refused_with_the_engine_s_words",
        an_illegal_click_is_refused_with_the_engine_s_words,
        false,
    ),
    (
        "a_multi_capture_entered_square_by_square",
        a_multi_capture_entered_square_by_square,
        false,
    ),
    (
        "a_typo_in_the_editor_is_shown_at_its_line",
        a_typo_in_the_editor_is_shown_at_its_line,
        false,
    ),
    (
        "a_reload_keeps_the_game_even_after_a_server_restart",
        a_reload_keeps_the_game_even_after_a_server_restart,
        false,
    ),
    (
        "a_pasted_variant_lives_in_the_page_not_on_the_server",
        a_pasted_variant_lives_in_the_page_not_on_the_server,
        false,
    ),
    (
        "a_new_game_is_not_overwritten_by_the_old_game_s_reply",
        a_new_game_is_not_overwritten_by_the_old_game_s_reply,
        false,
    ),
    (
        "an_analysis_ends_when_the_position_changes",
        an_analysis_ends_when_the_position_changes,
        false,
    ),
    (
        "back_in_play_the_computer_moves_and_the_board_turns_for_black",
        back_in_play_the_computer_moves_and_the_board_turns_for_black,
        false,
    ),
    (
        "the_move_list_and_a_phone_s_width",
        the_move_list_and_a_phone_s_width,
        false,
    ),
    (
        "keys_and_the_wheel_step_through_the_game_and_the_bar_shows_the_score",
        keys_and_the_wheel_step_through_the_game_and_the_bar_shows_the_score,
        false,
    ),
    (
        "a_piece_dragged_and_dropped_is_played",
        a_piece_dragged_and_dropped_is_played,
        false,
    ),
    (
        "a_position_set_up_in_the_editor_is_played",
        a_position_set_up_in_the_editor_is_played,
        false,
    ),
    (
        "the_score_over_the_game_and_a_point_clicked",
        the_score_over_the_game_and_a_point_clicked,
        false,
    ),
    (
        "an_analysis_until_stopped_runs_until_stop",
        an_analysis_until_stopped_runs_until_stop,
        false,
    ),
    // Writes docs/serve-*.png; run by hand.
    ("screenshots", screenshots, true),
];

fn main() {
    let args = Arguments::from_args();
    let ci = std::env::var_os("CI").is_some();
    // Without chromedriver or chromium every test is ignored, with one
    // notice; in CI they run and fail, saying what is missing.
    let missing = programs().err().filter(|_| !ci);
    if let Some(why) = &missing {
        if !args.list {
            eprintln!(
                "note: the browser tests are ignored: {why} (install chromium and chromium-driver to run them; with CI set they fail)"
            );
        }
    }
    let trials = TESTS
        .iter()
        .map(|&(name, body, by_hand)| {
            Trial::ignorable_test(name, move || run_trial(body)).with_ignored_flag(by_hand || missing.is_some())
        })
        .collect();
    libtest_mimic::run(&args, trials).exit();
}

thread_local! {
    /// Why the browser of this thread's test could not start, if it could not.
    static NO_BROWSER: RefCell<Option<String>> = const { RefCell::new(None) };
}

/// Runs one test: ignored (with the reason) when its browser could not start.
fn run_trial(body: fn()) -> Result<Completion, Failed> {
    NO_BROWSER.with(|n| n.borrow_mut().take());
    body();
    Ok(match NO_BROWSER.with(|n| n.borrow_mut().take()) {
        Some(why) => Completion::ignored_with(why),
        None => Completion::Completed,
    })
}

/// chromedriver and chromium, or what is missing.
fn programs() -> Result<(String, String), String> {
    // DAMA_CHROMEDRIVER names another chromedriver (or a missing one, to see
    // what a machine without a browser says).
    let driver = match std::env::var("DAMA_CHROMEDRIVER") {
        Ok(p) if !p.is_empty() => std::path::Path::new(&p).is_file().then_some(p),
        _ => find_program(&["chromedriver"]),
    };
    let Some(driver) = driver else {
        return Err("no chromedriver (on PATH, or where DAMA_CHROMEDRIVER says)".into());
    };
    let Some(chrome) = find_program(&["chromium", "chromium-browser", "google-chrome"]) else {
        return Err("no chromium on PATH".into());
    };
    Ok((driver, chrome))
}

/// Why there is no browser: a failure in CI; elsewhere the test is counted
/// as ignored, with the reason ([`run_trial`]).
fn no_browser(why: &str) -> Option<(Driver, Client)> {
    if std::env::var_os("CI").is_some() {
        panic!(
            "the browser tests cannot start a browser: {why}\n\
             install Debian's `chromium` and `chromium-driver` packages (.ci/run does so when they are missing)"
        );
    }
    NO_BROWSER.with(|n| *n.borrow_mut() = Some(why.to_string()));
    None
}

/// A headless Chromium session, or `None` (after [`no_browser`]).
async fn browser() -> Option<(Driver, Client)> {
    let (driver, chrome) = match programs() {
        Ok(p) => p,
        Err(why) => return no_browser(&why),
    };
    let port = free_port();
    let child = match Command::new(&driver)
        .arg(format!("--port={port}"))
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
    {
        Ok(c) => Driver(c),
        Err(e) => return no_browser(&format!("{driver} does not start: {e}")),
    };
    let mut caps = serde_json::Map::new();
    caps.insert(
        "goog:chromeOptions".into(),
        json!({
            "binary": chrome,
            "args": ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1280,1000"],
        }),
    );
    let url = format!("http://127.0.0.1:{port}");
    let t0 = Instant::now();
    loop {
        let connector = hyper_util::client::legacy::connect::HttpConnector::new();
        match ClientBuilder::new(connector)
            .capabilities(caps.clone())
            .connect(&url)
            .await
        {
            Ok(c) => return Some((child, c)),
            Err(e) if t0.elapsed() > Duration::from_secs(20) => {
                return no_browser(&format!("chromedriver gives no session: {e}"))
            }
            Err(_) => tokio::time::sleep(Duration::from_millis(200)).await,
        }
    }
}

/// Runs a script in the page and returns its value.
async fn js(c: &Client, script: &str) -> Value {
    c.execute(script, vec![])
        .await
        .unwrap_or_else(|e| panic!("{script}: {e}"))
}

/// Waits (up to 20 s) until `script` returns something truthy; returns it.
async fn until(c: &Client, what: &str, script: &str) -> Value {
    let t0 = Instant::now();
    loop {
        let v = js(c, script).await;
        let truthy = !(v.is_null() || v == json!(false) || v == json!("") || v == json!(0));
        if truthy {
            return v;
        }
        if t0.elapsed() > Duration::from_secs(20) {
            let state = js(
                c,
                "return JSON.stringify({fen: ui.game && ui.game.fen, plies: ui.game && ui.game.plies.length, busy: ui.busy, \
                 status: document.querySelector('#status').textContent, message: document.querySelector('#message').textContent, \
                 result: document.querySelector('#result').textContent})",
            )
            .await;
            panic!("waited 20 s for {what}; the page: {}", state.as_str().unwrap_or(""));
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

async fn open(c: &Client, s: &Server) {
    c.goto(&s.url()).await.expect("the page loads");
    until(
        c,
        "the page to be ready",
        "return document.body.dataset.ready === 'yes' && !!document.querySelector('#board rect')",
    )
    .await;
}

async fn click(c: &Client, css: &str) {
    // The board is drawn anew on every change (an analysis redraws it as it
    // deepens): an element found just before may be gone, so find it again.
    for tries_left in (0..3).rev() {
        let found = c.find(Locator::Css(css)).await.unwrap_or_else(|e| panic!("{css}: {e}"));
        match found.click().await {
            Ok(_) => return,
            Err(e) if tries_left > 0 && e.to_string().contains("stale element") => continue,
            Err(e) => panic!("click {css}: {e}"),
        }
    }
}

/// Chooses `value` in the select element `css`.
async fn select(c: &Client, css: &str, value: &str) {
    c.find(Locator::Css(css))
        .await
        .unwrap_or_else(|e| panic!("{css}: {e}"))
        .select_by_value(value)
        .await
        .unwrap_or_else(|e| panic!("{css} = {value}: {e}"));
}

/// Plays `moves` (origin and destination) by clicks, each answered before
/// the next: the page is for two players (or the person's turn each time).
async fn play_by_clicks(c: &Client, moves: &[(&str, &str)]) {
    let start = js(c, "return ui.game.plies.length").await.as_u64().unwrap_or(0);
    for (k, (from, to)) in moves.iter().enumerate() {
        click_square(c, from).await;
        click_square(c, to).await;
        let want = start + k as u64 + 1;
        until(
            c,
            &format!("{from}-{to} played"),
            &format!("return ui.game.plies.length === {want} && !ui.busy"),
        )
        .await;
    }
}

async fn click_square(c: &Client, name: &str) {
    click(c, &format!("#board rect[data-sq=\"{}\"]", sq(name))).await;
}

/// Sets up `fen` (Turkish draughts) from the Analyse panel: two players.
async fn set_up(c: &Client, fen: &str) {
    click(c, "#tab-analyse").await;
    let input = c.find(Locator::Css("#fen")).await.unwrap();
    input.clear().await.unwrap();
    input.send_keys(fen).await.unwrap();
    let before = js(c, "return ui.game.id").await;
    click(c, "#fen-load").await;
    // The page shows the FEN as the engine writes it (squares sorted), so
    // wait for the new game rather than for the text typed.
    until(
        c,
        "the position",
        &format!("return ui.game.id !== {before} && ui.game.plies.length === 0 && !ui.busy"),
    )
    .await;
    click(c, "#tab-play").await;
}

async fn moves_played(c: &Client) -> Vec<String> {
    let v = js(
        c,
        "return [...document.querySelectorAll('#moves li')].map(l => l.textContent)",
    )
    .await;
    serde_json::from_value(v).unwrap_or_default()
}

macro_rules! with_browser {
    (|$c:ident, $s:ident| $body:block) => {{
        let rt = tokio::runtime::Runtime::new().unwrap();
        rt.block_on(async {
            let Some((_driver, $c)) = browser().await else { return };
            let $s = Server::start(0);
            $body
            let _ = $c.close().await;
        });
    }};
}

fn a_game_played_by_clicks_to_its_result() {
    with_browser!(|c, s| {
        open(&c, &s).await;
        // One man each: White walks into the black man's capture.
        set_up(&c, "W:Wd3:Bc6").await;
        for (k, (from, to)) in [("d3", "d4"), ("c6", "c5"), ("d4", "d5")].into_iter().enumerate() {
            click_square(&c, from).await;
            click_square(&c, to).await;
            until(
                &c,
                "the move",
                &format!("return document.querySelectorAll('#moves li').length === {}", k + 1),
            )
            .await;
        }
        // Black must take, sideways: c5xe5, and White has nothing left.
        click_square(&c, "c5").await;
        click_square(&c, "e5").await;
        let result = until(
            &c,
            "the result",
            "return !document.querySelector('#result').hidden && document.querySelector('#result').textContent",
        )
        .await;
        let result = result.as_str().unwrap();
        assert!(result.starts_with("Game over: Black wins"), "{result}");
        assert!(result.contains("0-1"), "{result}");
        assert_eq!(moves_played(&c).await, ["d3-d4", "c6-c5", "d4-d5", "c5xe5"]);
    });
}

fn an_illegal_click_is_refused_with_the_engine_s_words() {
    with_browser!(|c, s| {
        open(&c, &s).await;
        // A capture is mandatory: the a2 man may not step.
        set_up(&c, "W:Wd4,a2:Bd5,h8").await;
        click_square(&c, "a2").await;
        click_square(&c, "a3").await;
        let shown = until(
            &c,
            "the explanation",
            "return !document.querySelector('#message').hidden && document.querySelector('#message').textContent",
        )
        .await;
        let shown = shown.as_str().unwrap().to_string();
        // The words the API (and `dama play`) give for the same move.
        let g = s.json(
            "POST",
            "/api/games",
            json!({"variant": "dama", "fen": "W:Wd4,a2:Bd5,h8"}),
        );
        let id = g["id"].as_str().unwrap();
        let r = s.json("POST", &format!("/api/games/{id}/move"), json!({"text": "a2-a3"}));
        assert_eq!(shown, r["error"]["message"].as_str().unwrap());
        assert!(shown.contains("mandatory") || shown.contains("capture"), "{shown}");
        assert!(moves_played(&c).await.is_empty(), "the move was played");
    });
}

fn a_multi_capture_entered_square_by_square() {
    with_browser!(|c, s| {
        open(&c, &s).await;
        set_up(&c, "W:Wd2:Bd3,d5,h8").await;
        click_square(&c, "d2").await;
        // Only the first landing is offered.
        let dests = until(
            &c,
            "the destinations",
            "return [...document.querySelectorAll('#board .dest')].map(d => Number(d.dataset.sq))",
        )
        .await;
        assert_eq!(dests, json!([sq("d4")]));
        click_square(&c, "d4").await;
        let dests = until(
            &c,
            "the next landing",
            "return [...document.querySelectorAll('#board .dest')].map(d => Number(d.dataset.sq))",
        )
        .await;
        assert_eq!(dests, json!([sq("d6")]));
        assert!(moves_played(&c).await.is_empty(), "played before the last landing");
        click_square(&c, "d6").await;
        until(
            &c,
            "the capture",
            "return document.querySelectorAll('#moves li').length === 1",
        )
        .await;
        assert_eq!(js(&c, "return ui.game.plies[0].full").await, json!("d2xd4xd6"));
        let captured = js(
            &c,
            "return [...document.querySelectorAll('#board .captured')].map(d => Number(d.dataset.sq))",
        )
        .await;
        assert_eq!(captured, json!([sq("d3"), sq("d5")]));
    });
}

fn a_typo_in_the_editor_is_shown_at_its_line() {
    with_browser!(|c, s| {
        open(&c, &s).await;
        click(&c, "#tab-design").await;
        until(
            &c,
            "the editor filled",
            "return document.querySelector('#toml').value.length > 0",
        )
        .await;
        let editor = c.find(Locator::Css("#toml")).await.unwrap();
        editor.clear().await.unwrap();
        editor
            .send_keys("extends = \"dama\"\nname = \"No majority\"\n\n[capture]\nmajorty = \"none\"\n")
            .await
            .unwrap();
        let line = until(
            &c,
            "the diagnostic",
            "const d = document.querySelector('#diagnostics li.error'); return d && d.dataset.line",
        )
        .await;
        assert_eq!(line, json!("5"));
        let text = js(&c, "return document.querySelector('#diagnostics li.error').textContent").await;
        let text = text.as_str().unwrap();
        assert!(text.contains("line 5") && text.contains("majority"), "{text}");
        assert_eq!(
            js(&c, "return document.querySelector('#gutter .err').textContent").await,
            json!("5\n")
        );
        // Fixed, it is valid and plays.
        editor.clear().await.unwrap();
        editor
            .send_keys("extends = \"dama\"\nname = \"No majority\"\n\n[capture]\nmajority = \"none\"\n")
            .await
            .unwrap();
        until(&c, "valid", "return document.querySelector('#design-state').textContent.includes('valid') && !document.querySelector('#design-play').disabled").await;
        let rules = js(&c, "return document.querySelector('#rules').textContent").await;
        assert!(!rules.as_str().unwrap().is_empty());
        click(&c, "#design-play").await;
        until(
            &c,
            "the new variant's game",
            "return ui.game && ui.game.board.name === 'No majority'",
        )
        .await;
    });
}

fn a_reload_keeps_the_game_even_after_a_server_restart() {
    let rt = tokio::runtime::Runtime::new().unwrap();
    rt.block_on(async {
        let Some((_driver, c)) = browser().await else { return };
        let port = free_port();
        let s = Server::start(port);
        open(&c, &s).await;
        select(&c, "#level", "1").await;
        click_square(&c, "d3").await;
        click_square(&c, "d4").await;
        // The computer answers (animated), then the page shows two moves.
        until(
            &c,
            "the computer's reply",
            "return document.querySelectorAll('#moves li').length === 2 && !ui.busy",
        )
        .await;
        let before = moves_played(&c).await;
        c.refresh().await.unwrap();
        open(&c, &s).await;
        assert_eq!(moves_played(&c).await, before, "a reload lost the game");
        // A new server knows nothing: the page rebuilds the game from its copy.
        drop(s);
        let s = Server::start(port);
        c.refresh().await.unwrap();
        open(&c, &s).await;
        until(
            &c,
            "the restored moves",
            "return document.querySelectorAll('#moves li').length === 2",
        )
        .await;
        assert_eq!(moves_played(&c).await, before, "a restart lost the game");
        let _ = c.close().await;
    });
}

/// The screenshots of docs/serve.md and the README, made again by
/// `cargo test -p dama-cli --test browser screenshots -- --ignored`.
/// (issue 32) The computer thinking for the old game (level 10, five
/// seconds) while another variant is chosen: its answer is dropped, and the
/// new game stays on the board (it replaced the English board with the
/// Turkish game's position).
fn a_new_game_is_not_overwritten_by_the_old_game_s_reply() {
    with_browser!(|c, s| {
        open(&c, &s).await;
        select(&c, "#level", "10").await;
        // The person plays Black: the computer thinks for White at once.
        select(&c, "#mode", "black").await;
        until(&c, "the computer thinking", "return ui.busy").await;
        // English: Black moves first, so the computer has nothing to play there.
        select(&c, "#variant", "english").await;
        until(&c, "the English game", "return ui.game.board.id === 'english'").await;
        // Past the old search's five seconds.
        tokio::time::sleep(Duration::from_millis(6000)).await;
        assert_eq!(js(&c, "return ui.game.board.id").await, json!("english"));
        assert_eq!(js(&c, "return ui.game.plies.length").await, json!(0));
        assert_eq!(
            js(&c, "return document.querySelector('#variant').value").await,
            json!("english")
        );
    });
}

/// (issue 32) A running analysis is of one position: a move stops it, and
/// nothing of it is drawn on the new position.
fn an_analysis_ends_when_the_position_changes() {
    with_browser!(|c, s| {
        open(&c, &s).await;
        select(&c, "#mode", "two").await;
        click(&c, "#tab-analyse").await;
        js(&c, "document.querySelector('#think').value = '10000'; return true").await;
        click(&c, "#analyse").await;
        until(
            &c,
            "a first depth",
            "return document.querySelector('#eval').textContent.startsWith('Depth')",
        )
        .await;
        click(&c, "#tab-play").await;
        click_square(&c, "d3").await;
        click_square(&c, "d4").await;
        until(&c, "the move", "return ui.game.plies.length === 1 && !ui.busy").await;
        assert_eq!(js(&c, "return ui.analysis === null").await, json!(true));
        tokio::time::sleep(Duration::from_millis(1500)).await;
        assert_eq!(
            js(
                &c,
                "return ui.best === null && document.querySelector('#eval').textContent === ''"
            )
            .await,
            json!(true)
        );
    });
}

/// (issue 32) Stepping back in Analyse to the computer's turn, then back to
/// Play: the computer moves (it stalled); and playing Black turns the board.
fn back_in_play_the_computer_moves_and_the_board_turns_for_black() {
    with_browser!(|c, s| {
        open(&c, &s).await;
        select(&c, "#level", "1").await;
        click_square(&c, "d3").await;
        click_square(&c, "d4").await;
        until(&c, "the reply", "return ui.game.plies.length === 2 && !ui.busy").await;
        click(&c, "#tab-analyse").await;
        click(&c, "#back").await;
        until(&c, "one ply back", "return ui.game.plies.length === 1 && !ui.busy").await;
        click(&c, "#tab-play").await;
        until(
            &c,
            "the computer's move again",
            "return ui.game.plies.length === 2 && !ui.busy",
        )
        .await;
        assert_eq!(js(&c, "return ui.flipped").await, json!(false));
        select(&c, "#mode", "black").await;
        assert_eq!(js(&c, "return ui.flipped").await, json!(true));
    });
}

/// (issue 32) The move list is numbered by move, two plies a row, and never
/// runs sideways (two CSS columns overflowed after 22 plies); at a phone's
/// 390 px the header wraps (the Design tab was cut off), nothing scrolls
/// sideways, and a 10×10 board's square numbers are at least 9 px high
/// (about 5).
fn the_move_list_and_a_phone_s_width() {
    with_browser!(|c, s| {
        c.set_window_size(390, 844).await.unwrap();
        open(&c, &s).await;
        select(&c, "#mode", "two").await;
        play_by_clicks(
            &c,
            &[("d3", "d4"), ("h6", "h5"), ("c3", "c4"), ("g6", "g5"), ("b3", "b4")],
        )
        .await;
        let numbers = js(
            &c,
            "return [...document.querySelectorAll('#moves li')].map(l => l.dataset.n || '')",
        )
        .await;
        assert_eq!(numbers, json!(["1.", "", "2.", "", "3."]));
        let fits = "const e = document.documentElement; return e.scrollWidth <= e.clientWidth";
        assert_eq!(js(&c, fits).await, json!(true), "the page scrolls sideways at 390 px");
        let design = js(
            &c,
            "return document.querySelector('#tab-design').getBoundingClientRect().right",
        )
        .await;
        assert!(
            design.as_f64().unwrap() <= 390.0,
            "the Design tab is cut off at {design}"
        );
        select(&c, "#variant", "international").await;
        until(
            &c,
            "the 10×10 board",
            "return ui.game.board.id === 'international' && !ui.busy",
        )
        .await;
        let smallest = js(
            &c,
            "return Math.min(...[...document.querySelectorAll('#board text.num')].map(t => t.getBoundingClientRect().height))",
        )
        .await;
        assert!(smallest.as_f64().unwrap() >= 9.0, "square numbers {smallest} px high");
        let list = "const m = document.querySelector('#moves'); return m.scrollWidth <= m.clientWidth";
        assert_eq!(js(&c, list).await, json!(true));
    });
}

/// (issue 32) In Analyse, ← → Home End and the wheel over the board step
/// through the game, as on lidraughts; an analysis fills the evaluation bar,
/// which goes when the position changes.
fn keys_and_the_wheel_step_through_the_game_and_the_bar_shows_the_score() {
    with_browser!(|c, s| {
        open(&c, &s).await;
        select(&c, "#mode", "two").await;
        play_by_clicks(&c, &[("d3", "d4"), ("h6", "h5"), ("c3", "c4")]).await;
        click(&c, "#tab-analyse").await;
        let body = c.find(Locator::Css("body")).await.unwrap();
        let plies = |n: usize| format!("return ui.game.plies.length === {n} && !ui.busy");
        // WebDriver's keys: ← U+E012, → U+E014, Home U+E011, End U+E010.
        body.send_keys("\u{E012}").await.unwrap();
        until(&c, "one ply back (←)", &plies(2)).await;
        body.send_keys("\u{E011}").await.unwrap();
        until(&c, "the start (Home)", &plies(0)).await;
        body.send_keys("\u{E014}").await.unwrap();
        until(&c, "one ply on (→)", &plies(1)).await;
        body.send_keys("\u{E010}").await.unwrap();
        until(&c, "the end (End)", &plies(3)).await;
        js(
            &c,
            "document.querySelector('#board').dispatchEvent(new WheelEvent('wheel', {deltaY: -100, bubbles: true, cancelable: true})); return true",
        )
        .await;
        until(&c, "one ply back (the wheel)", &plies(2)).await;
        click(&c, "#analyse").await;
        let share = until(
            &c,
            "the evaluation bar",
            "const b = document.querySelector('#evalbar'); return !b.hidden && b.dataset.white",
        )
        .await;
        let share: f64 = share.as_str().unwrap().parse().unwrap();
        assert!((0.0..=1.0).contains(&share), "{share}");
        body.send_keys("\u{E012}").await.unwrap();
        until(&c, "one ply back", &plies(1)).await;
        assert_eq!(
            js(&c, "return document.querySelector('#evalbar').hidden").await,
            json!(true)
        );
    });
}

/// (issue 32) A piece dragged with the mouse and dropped on its
/// destination is played; a press with no move is still a click.
fn a_piece_dragged_and_dropped_is_played() {
    use fantoccini::actions::{InputSource, MouseActions, PointerAction, MOUSE_BUTTON_LEFT};
    with_browser!(|c, s| {
        open(&c, &s).await;
        select(&c, "#mode", "two").await;
        let square = |name: &str| format!("#board rect[data-sq=\"{}\"]", sq(name));
        let from = c.find(Locator::Css(&square("d3"))).await.unwrap();
        let to = c.find(Locator::Css(&square("d4"))).await.unwrap();
        let drag = MouseActions::new("mouse".into())
            .then(PointerAction::MoveToElement {
                element: from,
                duration: None,
                x: 0.0,
                y: 0.0,
            })
            .then(PointerAction::Down {
                button: MOUSE_BUTTON_LEFT,
            })
            .then(PointerAction::MoveToElement {
                element: to,
                duration: Some(Duration::from_millis(300)),
                x: 0.0,
                y: 0.0,
            })
            .then(PointerAction::Up {
                button: MOUSE_BUTTON_LEFT,
            });
        c.perform_actions(drag).await.unwrap();
        until(&c, "the dropped move", "return ui.game.plies.length === 1 && !ui.busy").await;
        assert_eq!(moves_played(&c).await, ["d3-d4"]);
        // Clicks still play.
        click_square(&c, "h6").await;
        click_square(&c, "h5").await;
        until(&c, "the clicked move", "return ui.game.plies.length === 2 && !ui.busy").await;
    });
}

/// (issue 32) The position editor: pieces put and removed square by square,
/// the side to move, Clear, Play from here; a position the engine refuses
/// keeps the editor open with the engine's reason.
fn a_position_set_up_in_the_editor_is_played() {
    with_browser!(|c, s| {
        open(&c, &s).await;
        click(&c, "#tab-analyse").await;
        click(&c, "#edit").await;
        click(&c, "#edit-clear").await;
        // A white man on d8, Black's back rank: a man on its promotion rank.
        click(&c, "#palette button[data-piece=\"wm\"]").await;
        click_square(&c, "d8").await;
        click(&c, "#palette button[data-piece=\"bm\"]").await;
        click_square(&c, "a6").await;
        let before = js(&c, "return ui.game.id").await;
        click(&c, "#edit-done").await;
        let refused = until(
            &c,
            "the engine's reason",
            "return document.querySelector('#message').textContent",
        )
        .await;
        assert!(!refused.as_str().unwrap().is_empty());
        assert_eq!(
            js(&c, "return document.querySelector('#edit-panel').hidden").await,
            json!(false)
        );
        assert_eq!(js(&c, "return ui.game.id").await, before);
        // The man on d8 taken off again, a king put on d4: White to move captures.
        click(&c, "#palette button[data-piece=\"\"]").await;
        click_square(&c, "d8").await;
        click(&c, "#palette button[data-piece=\"wk\"]").await;
        click_square(&c, "d4").await;
        click(&c, "#palette button[data-piece=\"bm\"]").await;
        click_square(&c, "d6").await;
        click(&c, "#edit-done").await;
        until(
            &c,
            "the game from the set-up position",
            &format!("return ui.game.id !== {before} && !ui.edit && !ui.busy"),
        )
        .await;
        assert_eq!(js(&c, "return ui.game.pieces.length").await, json!(3));
        assert_eq!(
            js(&c, "return ui.game.legal.every(m => m.captures.length > 0)").await,
            json!(true)
        );
        assert_eq!(
            js(&c, "return document.querySelector('#edit-panel').hidden").await,
            json!(true)
        );
    });
}

/// (issue 32) Review the game: a graph of the score of every position (the
/// server judges them within 4 s), and a point clicked steps to that ply.
fn the_score_over_the_game_and_a_point_clicked() {
    with_browser!(|c, s| {
        open(&c, &s).await;
        select(&c, "#mode", "two").await;
        play_by_clicks(&c, &[("d3", "d4"), ("h6", "h5"), ("c3", "c4"), ("g6", "g5")]).await;
        click(&c, "#tab-analyse").await;
        click(&c, "#review").await;
        let points = until(
            &c,
            "the graph",
            "return !document.querySelector('#graph').hidden && document.querySelectorAll('#graph .point').length",
        )
        .await;
        assert_eq!(points, json!(5));
        click(&c, "#graph .point[data-ply=\"1\"]").await;
        until(&c, "ply 1", "return ui.game.plies.length === 1 && !ui.busy").await;
        assert_eq!(
            js(&c, "return document.querySelector('#graph .point.current').dataset.ply").await,
            json!("1")
        );
        click(&c, "#graph .point[data-ply=\"4\"]").await;
        until(&c, "ply 4 again", "return ui.game.plies.length === 4 && !ui.busy").await;
    });
}

/// (issue 32) "until stopped": the analysis goes on (round after round)
/// until Stop is pressed, and then stays stopped.
fn an_analysis_until_stopped_runs_until_stop() {
    with_browser!(|c, s| {
        open(&c, &s).await;
        click(&c, "#tab-analyse").await;
        select(&c, "#think", "0").await;
        click(&c, "#analyse").await;
        until(
            &c,
            "an endless analysis",
            "return document.querySelector('#eval').textContent.includes('until stopped')",
        )
        .await;
        // Still running after the 3 s a default analysis takes.
        tokio::time::sleep(Duration::from_millis(3500)).await;
        assert_eq!(js(&c, "return ui.analysis !== null").await, json!(true));
        click(&c, "#stop").await;
        assert_eq!(js(&c, "return ui.analysis === null").await, json!(true));
        tokio::time::sleep(Duration::from_millis(1000)).await;
        assert_eq!(
            js(
                &c,
                "return ui.analysis === null && !document.querySelector('#analyse').disabled"
            )
            .await,
            json!(true)
        );
    });
}

/// (issue 32) The server keeps a pasted variant's rules, not its text: the
/// page keeps the text, names the variant in its selector (New game plays
/// it again, not a built-in), and rebuilds the game from its own copy on a
/// server that has never seen it.
fn a_pasted_variant_lives_in_the_page_not_on_the_server() {
    let rt = tokio::runtime::Runtime::new().unwrap();
    rt.block_on(async {
        let Some((_driver, c)) = browser().await else { return };
        let port = free_port();
        let s = Server::start(port);
        open(&c, &s).await;
        select(&c, "#mode", "two").await;
        js(
            &c,
            "newGame({toml: 'extends = \"dama\"\\nname = \"Kept\"\\n[capture]\\nmajority = \"none\"\\n'}); return true",
        )
        .await;
        until(
            &c,
            "the pasted game",
            "return ui.game && ui.game.board.name === 'Kept' && !ui.busy",
        )
        .await;
        assert_eq!(js(&c, "return ui.game.source.toml === undefined").await, json!(true));
        let shown = js(
            &c,
            "const s = document.querySelector('#variant'); return s.options[s.selectedIndex].textContent",
        )
        .await;
        assert_eq!(shown, json!("Kept (pasted)"));
        click_square(&c, "d3").await;
        click_square(&c, "d4").await;
        until(
            &c,
            "the move",
            "return document.querySelectorAll('#moves li').length === 1 && !ui.busy",
        )
        .await;
        let before = moves_played(&c).await;
        // A server that has never seen the variant: the page sends its own copy.
        drop(s);
        let s = Server::start(port);
        c.refresh().await.unwrap();
        open(&c, &s).await;
        until(
            &c,
            "the rebuilt game",
            "return ui.game && ui.game.board.name === 'Kept' && document.querySelectorAll('#moves li').length === 1",
        )
        .await;
        assert_eq!(moves_played(&c).await, before, "the restart lost the pasted game");
        // New game plays the pasted variant again.
        let id = js(&c, "return ui.game.id").await;
        click(&c, "#new").await;
        until(
            &c,
            "a new game of the pasted variant",
            &format!("return ui.game.id !== {id} && ui.game.plies.length === 0 && !ui.busy"),
        )
        .await;
        assert_eq!(js(&c, "return ui.game.board.name").await, json!("Kept"));
        let _ = c.close().await;
    });
}

fn screenshots() {
    with_browser!(|c, s| {
        let docs = support::root().join("docs");
        let shot = |name: &'static str| {
            let c = c.clone();
            let path = docs.join(name);
            async move {
                tokio::time::sleep(Duration::from_millis(400)).await;
                let png = c.screenshot().await.expect("a screenshot");
                std::fs::write(&path, png).expect("docs/ is writable");
            }
        };
        open(&c, &s).await;
        select(&c, "#level", "2").await;
        for (k, (from, to)) in [("d3", "d4"), ("c3", "c4")].into_iter().enumerate() {
            click_square(&c, from).await;
            click_square(&c, to).await;
            until(
                &c,
                "the reply",
                &format!(
                    "return document.querySelectorAll('#moves li').length === {} && !ui.busy",
                    2 * k + 2
                ),
            )
            .await;
        }
        click_square(&c, "e3").await;
        shot("serve-play.png").await;

        // English draughts, analysed: the best move drawn on the board.
        select(&c, "#mode", "two").await;
        select(&c, "#variant", "english").await;
        until(
            &c,
            "English draughts",
            "return ui.game.board.id === 'english' && !ui.busy",
        )
        .await;
        // A few plies, each a legal move's squares clicked in turn.
        for k in 0..4 {
            let squares = js(
                &c,
                &format!("const l = ui.game.legal; return l[({k} * 3) % l.length].squares"),
            )
            .await;
            for i in squares.as_array().unwrap() {
                click(&c, &format!("#board rect[data-sq=\"{i}\"]")).await;
            }
            until(
                &c,
                "the move",
                &format!("return document.querySelectorAll('#moves li').length === {}", k + 1),
            )
            .await;
        }
        click(&c, "#tab-analyse").await;
        select(&c, "#think", "1000").await;
        click(&c, "#analyse").await;
        until(
            &c,
            "the analysis",
            "return document.querySelector('#eval').textContent.includes('done')",
        )
        .await;
        click(&c, "#pdn-export").await;
        until(
            &c,
            "the record",
            "return document.querySelector('#pdn').value.length > 0",
        )
        .await;
        shot("serve-analyse.png").await;

        // The Design panel: a typo found at its line, the rules in words.
        click(&c, "#tab-play").await;
        select(&c, "#variant", "dama").await;
        until(&c, "Turkish draughts", "return ui.game.board.id === 'dama' && !ui.busy").await;
        click(&c, "#tab-design").await;
        until(
            &c,
            "the rules",
            "return document.querySelector('#rules').textContent.length > 0",
        )
        .await;
        let editor = c.find(Locator::Css("#toml")).await.unwrap();
        editor.clear().await.unwrap();
        editor
            .send_keys("# Turkish draughts where any capture may be chosen.\nextends = \"dama\"\nname = \"Dama, free capture\"\n\n[capture]\nmajorty = \"none\"\n")
            .await
            .unwrap();
        until(
            &c,
            "the diagnostic",
            "return document.querySelector('#diagnostics li.error')",
        )
        .await;
        shot("serve-design.png").await;

        // A phone's width: international draughts, its square numbers readable.
        c.set_window_size(390, 844).await.unwrap();
        click(&c, "#tab-play").await;
        select(&c, "#variant", "international").await;
        until(
            &c,
            "international draughts",
            "return ui.game.board.id === 'international' && !ui.busy",
        )
        .await;
        shot("serve-phone.png").await;
    });
}
