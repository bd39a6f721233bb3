//! `dama play` driven through standard input, as a script would drive it.

mod support;

use std::path::Path;
use std::sync::Arc;

use dama_engine::Game;
use dama_engine::Rules;
use dama_engine::{random_move, Engine, Limits, Rng, SearchRoot};
use support::{run, scratch};

/// A saved record without its date (the only line that changes from day to day).
fn record(path: &Path) -> String {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .filter(|l| !l.starts_with("[Date "))
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn short_game_to_the_result() {
    let d = scratch("short");
    // White blocks Black's last man: Black has no legal move and loses.
    let (code, out, err) = run(
        &d,
        &[
            "play",
            "dama",
            "--fen",
            "W:Wa1,a3,b2,c1:Ba2",
            "--save",
            "g.pdn",
            "--depth",
            "2",
        ],
        "c1-c2\n",
    );
    assert_eq!(code, 0, "{err}");
    insta::assert_snapshot!("short_game", out);
    insta::assert_snapshot!("short_game_record", record(&d.join("g.pdn")));
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn illegal_moves_are_explained_and_the_game_goes_on() {
    let d = scratch("illegal");
    let (code, out, err) = run(
        &d,
        &["play", "dama", "--save", "g.pdn", "--level", "2"],
        "d3-d5\nd3-e4\ne6-e5\nz9-a1\nhello\nd3-d4\n",
    );
    assert_eq!(code, 0, "{err}");
    insta::assert_snapshot!("illegal", out);
    assert!(record(&d.join("g.pdn")).contains("1. d3-d4 "));
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn undo_and_redo() {
    let d = scratch("undo");
    let (code, out, err) = run(
        &d,
        &["play", "dama", "--save", "g.pdn", "--depth", "2"],
        "d3-d4\nundo\nundo\nredo\nmoves\n",
    );
    assert_eq!(code, 0, "{err}");
    insta::assert_snapshot!("undo", out);
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn save_and_resume() {
    let d = scratch("save");
    let (code, out, err) = run(
        &d,
        &["play", "keny", "--save", "g.pdn", "--depth", "2"],
        "c2-c4\nsave copy.pdn\nquit\n",
    );
    assert_eq!(code, 0, "{err}");
    insta::assert_snapshot!("save", out);
    let saved = record(&d.join("g.pdn"));
    assert_eq!(saved, record(&d.join("copy.pdn")));
    insta::assert_snapshot!("save_record", saved);

    // Resume: the game goes on from where it was, and keeps saving to the same file.
    let (code, out, err) = run(&d, &["play", "--load", "g.pdn"], "fen\n");
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("Resuming the game in g.pdn after 2 plies."), "{out}");
    // The players and the computer's limits are as recorded (issue 18: a
    // resumed game used to fall back to level 5).
    assert!(out.contains("White: a person. Black: the computer (depth 2)."), "{out}");
    // Still the same game, with the same tags.
    let moves = |r: &str| r.split("\n\n").nth(1).unwrap_or("").to_string();
    assert_eq!(moves(&saved), moves(&record(&d.join("g.pdn"))));
    assert_eq!(moves(&saved), "1. c2-c4 b7-b5 *");
    assert_eq!(saved, record(&d.join("g.pdn")));
    // A limit given now replaces the recorded one.
    let (code, out, err) = run(&d, &["play", "--load", "g.pdn", "--level", "3"], "quit\n");
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("Black: the computer (level 3: depth 3)."), "{out}");
    let _ = std::fs::remove_dir_all(&d);
}

/// Every game setting is kept in the record: a `--level 1` game resumes at
/// level 1, and after one ply the count is singular.
#[test]
fn resumed_games_keep_their_level_and_say_when_the_rules_changed() {
    let d = scratch("resume-level");
    let (code, _, err) = run(
        &d,
        &["play", "dama", "--save", "g.pdn", "--level", "1", "--white", "human"],
        "d3-d4\nquit\n",
    );
    assert_eq!(code, 0, "{err}");
    let (code, out, err) = run(&d, &["play", "--load", "g.pdn"], "quit\n");
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("Black: the computer (level 1: depth 1)."), "{out}");
    assert!(out.contains("after 2 plies."), "{out}");

    // A user's variant whose file changes after the game was saved.
    std::fs::write(
        d.join("mine.toml"),
        "extends = \"dama\"\nid = \"mine\"\nname = \"Mine\"\n",
    )
    .unwrap();
    let (code, _, err) = run(
        &d,
        &[
            "play",
            "mine.toml",
            "--save",
            "m.pdn",
            "--white",
            "human",
            "--black",
            "human",
        ],
        "d3-d4\nquit\n",
    );
    assert_eq!(code, 0, "{err}");
    let (code, out, err) = run(&d, &["play", "--load", "m.pdn"], "quit\n");
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("after 1 ply."), "{out}");
    assert!(!err.contains("changed since"), "{err}");
    std::fs::write(
        d.join("mine.toml"),
        "extends = \"dama\"\nid = \"mine\"\nname = \"Mine\"\n[end]\nthreefold_repetition = false\n",
    )
    .unwrap();
    let (code, _, err) = run(&d, &["play", "--load", "m.pdn"], "quit\n");
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("changed since the game was saved"), "{err}");
    let _ = std::fs::remove_dir_all(&d);
}

/// Words that are not moves are unknown commands, with a suggestion.
#[test]
fn unknown_commands_are_not_read_as_moves() {
    let d = scratch("unknown");
    let (code, out, err) = run(
        &d,
        &[
            "play", "dama", "--save", "g.pdn", "--white", "human", "--black", "human",
        ],
        "clear\nhlep\nundoo\n",
    );
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("Unknown command `clear`."), "{out}");
    assert!(out.contains("Unknown command `hlep`: did you mean `help`?"), "{out}");
    assert!(out.contains("Unknown command `undoo`: did you mean `undo`?"), "{out}");
    assert!(!out.contains("is not a square"), "{out}");
    let _ = std::fs::remove_dir_all(&d);
}

/// The computer shows that it thinks, and the person's own move is echoed.
#[test]
fn the_computer_shows_its_thinking() {
    let d = scratch("thinking");
    let (code, out, err) = run(
        &d,
        &[
            "play",
            "dama",
            "--save",
            "g.pdn",
            "--depth",
            "3",
            "--thinking",
            "always",
        ],
        "d3-d4\nquit\n",
    );
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("White played d3-d4."), "{out}");
    assert!(out.contains("  thinking: depth 1, "), "{out}");
    assert!(out.contains("  thinking: depth 3, "), "{out}");
    let (_, quiet, _) = run(
        &d,
        &["play", "dama", "--save", "h.pdn", "--depth", "3"],
        "d3-d4\nquit\n",
    );
    assert!(!quiet.contains("thinking"), "{quiet}");
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn a_damaged_save_is_an_error_and_is_never_overwritten() {
    let d = scratch("damaged");
    let (code, _, err) = run(&d, &["play", "dama", "--save", "g.pdn", "--depth", "1"], "d3-d4\n");
    assert_eq!(code, 0, "{err}");
    let full = std::fs::read_to_string(d.join("g.pdn")).unwrap();

    // Cut inside a tag, cut inside the moves, emptied, and garbage.
    let cut_tag = &full[..full.find("[Result").unwrap() + 5];
    let cut_moves = full.trim_end().strip_suffix('*').unwrap().to_string() + "d3-";
    for (name, text) in [
        ("tag", cut_tag.to_string()),
        ("moves", cut_moves),
        ("empty", String::new()),
        ("garbage", "\u{0}\u{1}not a game".to_string()),
    ] {
        let p = d.join(format!("{name}.pdn"));
        std::fs::write(&p, &text).unwrap();
        let file = format!("{name}.pdn");
        let (code, out, err) = run(&d, &["play", "dama", "--load", &file], "d3-d4\n");
        assert_eq!(code, 1, "{name}: {out}");
        assert!(err.contains(&format!("cannot resume {file}")), "{name}: {err}");
        assert!(err.contains("left untouched"), "{name}: {err}");
        // A fresh game may not be saved over it either.
        let (code2, _, err2) = run(&d, &["play", "dama", "--save", &file], "d3-d4\n");
        assert_eq!(code2, 1, "{name}");
        assert!(err2.contains("not overwritten"), "{name}: {err2}");
        assert_eq!(std::fs::read_to_string(&p).unwrap(), text, "{name}");
        if name == "tag" {
            insta::assert_snapshot!("damaged_tag", err);
        }
    }
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn autosave_is_announced_and_written() {
    let d = scratch("autosave");
    let (code, out, err) = run(&d, &["play", "armenian", "--depth", "1"], "d3-d4\n");
    assert_eq!(code, 0, "{err}");
    let line = out.lines().find(|l| l.contains("autosaved to")).unwrap();
    let path = line
        .split("autosaved to ")
        .nth(1)
        .and_then(|s| s.strip_suffix(" after every move."))
        .unwrap();
    assert!(
        path.starts_with("./dama-armenian-") && path.ends_with(".dama-autosave.pdn"),
        "{path}"
    );
    let text = std::fs::read_to_string(d.join(path)).unwrap();
    assert!(
        text.contains("[Variant \"armenian\"]") && text.contains("1. d3-d4"),
        "{text}"
    );
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn resign_and_draw_offers() {
    let d = scratch("resign");
    let (code, out, _) = run(&d, &["play", "dama", "--save", "r.pdn", "--depth", "1"], "resign\n");
    assert_eq!(code, 0);
    assert!(out.contains("Game over: Black wins (White resigned)."), "{out}");
    assert!(std::fs::read_to_string(d.join("r.pdn"))
        .unwrap()
        .contains("[Result \"0-1\"]"));

    // Level material, early in the game: the computer declines.
    let (_, out, _) = run(&d, &["play", "dama", "--save", "d1.pdn", "--depth", "2"], "draw\n");
    assert!(out.contains("Black declines the draw"), "{out}");
    // A lone king against three kings: the computer, far behind, accepts.
    let (_, out, _) = run(
        &d,
        &[
            "play",
            "dama",
            "--save",
            "d2.pdn",
            "--depth",
            "2",
            "--fen",
            "W:WKa1,Kb3,Kc5:BKh8",
        ],
        "draw\n",
    );
    assert!(out.contains("Black accepts the draw."), "{out}");
    assert!(out.contains("Game over: draw (by agreement)."), "{out}");
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn computer_against_computer_runs_to_the_end() {
    let d = scratch("cvc");
    let (code, out, err) = run(
        &d,
        &[
            "play",
            "dama",
            "--white",
            "computer",
            "--black",
            "computer",
            "--depth",
            "3",
            "--fen",
            "W:WKa1:Bc7,h7",
            "--save",
            "c.pdn",
        ],
        "",
    );
    assert_eq!(code, 0, "{err}");
    insta::assert_snapshot!("computer_vs_computer", out);
    let _ = std::fs::remove_dir_all(&d);
}

/// A whole game against the computer in each of the five games, the
/// person's moves fed on standard input. The moves are chosen here by a
/// random mover, playing against the same engine at the same level
/// in-process (the engine is deterministic at fixed-depth levels), so the
/// script knows every reply in advance.
#[test]
fn full_games_against_the_computer() {
    let d = scratch("full");
    for v in ["dama", "armenian", "keny", "croda", "dameo"] {
        let rules = Arc::new(Rules::builtin(v).unwrap());
        let mut game = Game::new(Arc::clone(&rules));
        let mut engine = Engine::new(&rules);
        engine.set_seed(0);
        let mut rng = Rng::new(5);
        let mut script = String::new();
        while !game.is_over() {
            let m = if game.side_to_move() == dama_engine::Color::White {
                let m = random_move(&rules, game.position(), &mut rng).unwrap();
                script.push_str(&rules.format_move_full(game.position(), &m));
                script.push('\n');
                m
            } else {
                engine
                    .search(&SearchRoot::from_game(&game), &Limits::level(2))
                    .best
                    .unwrap()
            };
            game.play(m).unwrap();
        }
        let outcome = game.outcome().unwrap();
        let file = format!("{v}.pdn");
        let (code, out, err) = run(&d, &["play", v, "--level", "2", "--save", &file], &script);
        assert_eq!(code, 0, "{v}: {err}");
        let end = out.lines().rev().find(|l| l.starts_with("Game over: ")).unwrap_or("");
        let expected = match outcome.result {
            dama_engine::GameResult::WhiteWins => "Game over: White wins",
            dama_engine::GameResult::BlackWins => "Game over: Black wins",
            dama_engine::GameResult::Draw => "Game over: draw",
        };
        assert!(end.starts_with(expected), "{v}: expected {outcome}, got `{end}`");
        assert!(
            end.contains(&outcome.reason.to_string()),
            "{v}: expected {outcome}, got `{end}`"
        );
        let saved = std::fs::read_to_string(d.join(&file)).unwrap();
        assert!(saved.contains(&format!("[Result \"{}\"]", outcome.result.pdn())), "{v}");
        // The record replays to the same end.
        let games = dama_engine::pdn::read_games(&saved).unwrap();
        let again = games[0].replay(Arc::clone(&rules)).unwrap();
        assert_eq!(again.outcome(), Some(outcome), "{v}");
        assert_eq!(again.ply_count(), game.ply_count(), "{v}");
    }
    let _ = std::fs::remove_dir_all(&d);
}

/// Boards whose squares are numbered get a key to the numbers beside them;
/// two people can play at one keyboard.
#[test]
fn numbered_boards_show_a_key() {
    let d = scratch("numbered");
    let (code, out, err) = run(
        &d,
        &[
            "play", "english", "--white", "human", "--black", "human", "--save", "g.pdn",
        ],
        "11-15\n22-18\n",
    );
    assert_eq!(code, 0, "{err}");
    insta::assert_snapshot!("numbered", out);
    let _ = std::fs::remove_dir_all(&d);
}

/// Issue 37: `--load` of a finished game never touches its record (it used
/// to rewrite the players, so that the record said the engine had resigned):
/// play says the game is over, lets the player look at it, and quits.
#[test]
fn a_finished_record_is_never_rewritten_by_load() {
    let d = scratch("finished");
    let (code, out, err) = run(
        &d,
        &["play", "dama", "--save", "r.pdn", "--depth", "1"],
        "d3-d4\nresign\n",
    );
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("Game over: Black wins (White resigned)."), "{out}");
    let before = std::fs::read(d.join("r.pdn")).unwrap();
    let (code, out, err) = run(
        &d,
        &["play", "--load", "r.pdn", "--white", "computer"],
        "board\nfen\nd6-d5\nundo\nresign\nquit\n",
    );
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        std::fs::read(d.join("r.pdn")).unwrap(),
        before,
        "the record was rewritten"
    );
    assert!(
        out.contains("The game in r.pdn is over after 2 plies; its record is left as it is."),
        "{out}"
    );
    assert!(out.contains("Game over: Black wins (White resigned)."), "{out}");
    assert!(
        out.contains("The game is over and its record is left as it is."),
        "{out}"
    );
    // `fen` still shows the position.
    assert!(
        out.lines().any(|l| l.starts_with("W:W") || l.starts_with("B:W")),
        "{out}"
    );
    // The end of input quits too; --save elsewhere writes nothing either.
    let (code, _, err) = run(&d, &["play", "--load", "r.pdn", "--save", "other.pdn"], "");
    assert_eq!(code, 0, "{err}");
    assert_eq!(std::fs::read(d.join("r.pdn")).unwrap(), before);
    assert!(!d.join("other.pdn").exists());
}

/// `save FILE` and the autosave never replace what is not a game record
/// (issue 38: `save notes.txt` overwrote a mode-600 text file, `save
/// link.pdn` replaced the link, autosave after `--load` turned 600 into 644
/// and broke hard links): a text file, a device, a fifo are refused and
/// left as they were; a link is written through; the mode is kept; a file
/// with several hard links is refused, both names keeping the record.
#[cfg(unix)]
#[test]
fn saving_replaces_only_game_records_and_keeps_them_as_they_were() {
    use std::os::unix::fs::PermissionsExt;
    let d = scratch("save-policy");
    let mode = |p: &str| std::fs::metadata(d.join(p)).unwrap().permissions().mode() & 0o777;
    let notes = d.join("notes.txt");
    std::fs::write(&notes, "my notes\n").unwrap();
    std::fs::set_permissions(&notes, std::fs::Permissions::from_mode(0o600)).unwrap();
    let fifo = std::process::Command::new("mkfifo")
        .arg(d.join("fifo.pdn"))
        .status()
        .is_ok_and(|s| s.success());
    let (code, out, err) = run(
        &d,
        &[
            "play", "dama", "--white", "human", "--black", "human", "--save", "g.pdn",
        ],
        "d3-d4\nsave notes.txt\nsave /dev/full\nsave fifo.pdn\nsave .\nsave copy.pdn\nquit\n",
    );
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("Cannot save to notes.txt: it exists and is not a game record; it is not overwritten"),
        "{out}"
    );
    assert!(
        out.contains("Cannot save to /dev/full: it is a character device, not a regular file"),
        "{out}"
    );
    if fifo {
        assert!(
            out.contains("Cannot save to fifo.pdn: it is a fifo, not a regular file"),
            "{out}"
        );
    }
    assert!(out.contains("Cannot save to .: it is a directory"), "{out}");
    assert_eq!(std::fs::read_to_string(&notes).unwrap(), "my notes\n");
    assert_eq!(mode("notes.txt"), 0o600);
    assert!(out.contains("Saved to copy.pdn."), "{out}");

    // A link to a mode-600 record: written through, the link and the mode stay.
    std::fs::set_permissions(d.join("copy.pdn"), std::fs::Permissions::from_mode(0o600)).unwrap();
    std::os::unix::fs::symlink("copy.pdn", d.join("link.pdn")).unwrap();
    let (code, out, err) = run(&d, &["play", "--load", "g.pdn"], "a6-a5\nsave link.pdn\nquit\n");
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("Saved to link.pdn."), "{out}");
    assert!(std::fs::symlink_metadata(d.join("link.pdn"))
        .unwrap()
        .file_type()
        .is_symlink());
    assert!(
        record(&d.join("copy.pdn")).contains("1. d3-d4 a6-a5"),
        "{}",
        record(&d.join("copy.pdn"))
    );
    assert_eq!(mode("copy.pdn"), 0o600);

    // The autosave of a resumed mode-600 record keeps its mode.
    std::fs::set_permissions(d.join("g.pdn"), std::fs::Permissions::from_mode(0o600)).unwrap();
    let (code, _, err) = run(&d, &["play", "--load", "g.pdn"], "c3-c4\nquit\n");
    assert_eq!(code, 0, "{err}");
    assert!(
        record(&d.join("g.pdn")).contains("2. c3-c4"),
        "{}",
        record(&d.join("g.pdn"))
    );
    assert_eq!(mode("g.pdn"), 0o600);

    // Hard links: refused before anything is played, both names unchanged.
    std::fs::hard_link(d.join("g.pdn"), d.join("hard.pdn")).unwrap();
    let before = std::fs::read_to_string(d.join("g.pdn")).unwrap();
    let (code, _, err) = run(&d, &["play", "--load", "g.pdn"], "d4-d5\nquit\n");
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("it has 2 hard links"), "{err}");
    assert_eq!(std::fs::read_to_string(d.join("g.pdn")).unwrap(), before);
    assert_eq!(std::fs::read_to_string(d.join("hard.pdn")).unwrap(), before);
    let _ = std::fs::remove_dir_all(&d);
}

/// Temporary files `.g.pdn.tmp-PID` of a process killed during a save are
/// removed at the next save of `g.pdn` when their process is gone (issue
/// 38: they stayed for ever); other names and live processes' are left.
#[cfg(target_os = "linux")]
#[test]
fn temporary_files_of_killed_saves_are_cleaned() {
    let d = scratch("stale");
    let (code, _, err) = run(
        &d,
        &[
            "play", "dama", "--white", "human", "--black", "human", "--save", "g.pdn",
        ],
        "quit\n",
    );
    assert_eq!(code, 0, "{err}");
    // 4294967295 is above any PID Linux gives; PID 1 always runs.
    for f in [
        ".g.pdn.tmp-4294967295",
        ".g.pdn.tmp-1",
        ".h.pdn.tmp-4294967295",
        "g.pdn.tmp-4294967295",
    ] {
        std::fs::write(d.join(f), "x").unwrap();
    }
    let (code, _, err) = run(&d, &["play", "--load", "g.pdn"], "d3-d4\nquit\n");
    assert_eq!(code, 0, "{err}");
    assert!(!d.join(".g.pdn.tmp-4294967295").exists());
    for f in [".g.pdn.tmp-1", ".h.pdn.tmp-4294967295", "g.pdn.tmp-4294967295"] {
        assert!(d.join(f).exists(), "{f}");
    }
    let _ = std::fs::remove_dir_all(&d);
}
