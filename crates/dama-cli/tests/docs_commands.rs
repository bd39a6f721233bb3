//! Every `dama` command shown in README.md and docs/*.md is run, so that the
//! docs cannot drift from the program again (issue 37).
//!
//! The commands are taken from the code blocks of each file: indented blocks
//! and fenced blocks marked `sh`, `console` or nothing, a line starting with
//! `dama ` or `$ dama `; fenced `text` blocks only where a line starts with
//! `$ dama `. A trailing `\` joins the next line, a `#` after a space starts a
//! comment, `&&` runs commands one after the other and `|` pipes one into the
//! next. Where a block shows output after a `$ dama ...` line (the lines up to
//! the next `$ ` line or the end of the block), that output is compared with
//! what the program prints on standard output and standard error together,
//! as a terminal shows them; a line `...` stands for any number of lines.
//!
//! Each file's commands run in order in one scratch directory, with `tests/`
//! and `variants/` linked to the repository's, HOME pointing inside it, and
//! the few input files the docs take for granted (a game record, a variant
//! file, a file of openings) written first. A fenced `toml` block whose
//! paragraph names a file (`my-cases/x.toml`) is written to that file when
//! it is reached, as a reader following the doc would. Long runs are cut
//! down (`LIMITS` below: fewer games, lower depths); interactive commands get
//! `quit` on standard input; a few commands are not run, each with its
//! reason (`SKIP`). Every command must end without a crash, with exit code 0
//! unless `EXPECT_EXIT` says what the doc says it exits with.
//!
//! A failure names the doc file and line and the command, and shows the
//! difference.
// A test's own notes on stderr: the binary under test, not this file, must
// survive a full stderr (crate::stderr).
#![allow(clippy::disallowed_macros)]
#![cfg(unix)]

mod support;

use std::collections::HashMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// Commands not run, with the reason: (doc file, start of the command).
const SKIP: &[(&str, &str, &str)] = &[
    (
        "README.md",
        "dama serve --port 8757 --open",
        "a server that runs until stopped and opens a browser (tests/serve.rs and browser.rs test it)",
    ),
    (
        "README.md",
        "dama dxp international --listen",
        "a server that runs until stopped (tests/dxp.rs)",
    ),
    (
        "README.md",
        "dama dxp international --connect",
        "needs a DXP engine listening on 127.0.0.1:27531 (tests/dxp.rs)",
    ),
    (
        "docs/dxp.md",
        "dama dxp international --listen --port 27600",
        "a server run in the background with `&` (tests/dxp.rs)",
    ),
    (
        "docs/dxp.md",
        "dama dxp international --connect 127.0.0.1:27600",
        "needs the server above (tests/dxp.rs)",
    ),
    (
        "docs/dxp.md",
        "dama replay m.pdn",
        "reads the record the skipped match above writes",
    ),
    (
        "docs/endgames.md",
        "dama serve --egtb",
        "a server that runs until stopped (tests/egtb.rs plays whole games through it with tables)",
    ),
];

/// Commands that crash today because of a defect of the program, not of the
/// doc: (doc file, start of the command, the defect). Each is still run; a
/// crash is reported on stderr as this defect instead of failing the test,
/// and once it is fixed the entry should go (the test says so).
const KNOWN_DEFECTS: &[(&str, &str, &str)] = &[
    // None known: the English tables panic of issue 37 is fixed (tests/egtb.rs).
];

/// Exit codes the docs give for commands that fail on purpose: (doc file,
/// command, which occurrence of it in the file (1 = first), exit code).
const EXPECT_EXIT: &[(&str, &str, usize, i32)] = &[
    // "A mistake is reported ... and the exit code is 1."
    ("docs/variant-format.md", "dama validate my-dama.toml", 2, 1),
    // "The exit status is 1."
    ("docs/testing-rules.md", "dama cases my-cases --check", 2, 1),
    // "It refuses while the case's own `expect_moves` contradicts it"
    ("docs/testing-rules.md", "dama cases my-cases --update", 2, 1),
    // "This fails on `4_5_king_may_not_turn_back` ..."
    ("docs/testing-rules.md", "dama cases tests/rules/dama --variant", 1, 1),
];

/// Standard input for the interactive commands (by subcommand).
fn stdin_for(args: &[String]) -> &'static str {
    match args.first().map(String::as_str) {
        Some("play") | Some("hub") => "quit\n",
        _ => "",
    }
}

/// The limits put on long runs: the arguments as the test runs them.
fn limit(args: &[String]) -> Vec<String> {
    let sub = args.first().map(String::as_str).unwrap_or("");
    let mut out: Vec<String> = Vec::new();
    let mut i = 0;
    let cap = |v: &str, max: u64| -> String {
        match v.parse::<u64>() {
            Ok(n) if n > max => max.to_string(),
            _ => v.to_string(),
        }
    };
    while i < args.len() {
        let a = &args[i];
        let next = args.get(i + 1);
        let capped = match (sub, a.as_str(), next) {
            ("match" | "tune", "--games", Some(v)) => Some(cap(v, 2)),
            ("match" | "tune", "--nodes" | "--white-nodes" | "--black-nodes", Some(v)) => Some(cap(v, 300)),
            ("match", "--white-level" | "--black-level" | "--level", Some(v)) => Some(cap(v, 2)),
            ("perft", "--depth", Some(v)) => Some(cap(v, 5)),
            ("analyze", "--depth", Some(v)) => Some(cap(v, 4)),
            ("egtb", "--pieces", Some(v)) => Some(cap(v, 3)),
            _ => None,
        };
        out.push(a.clone());
        if let Some(v) = capped {
            out.push(v);
            i += 2;
        } else {
            i += 1;
        }
    }
    if sub == "match" {
        if !out.iter().any(|a| a == "--games") {
            out.extend(["--games".into(), "2".into()]);
        }
        out.extend(["--max-plies".into(), "12".into()]);
    }
    if sub == "tune" && !out.iter().any(|a| a == "--games") {
        out.extend(["--games".into(), "2".into()]);
    }
    out
}

/// A synopsis (`dama validate FILE...`, `dama hub [VARIANT]`), not a command.
fn is_synopsis(args: &[String]) -> bool {
    args.iter().any(|a| {
        a.contains("VARIANT")
            || a.starts_with('[')
            || a.starts_with('<')
            || matches!(a.as_str(), "FILE" | "FILE..." | "N" | "MS" | "HOST:PORT")
    })
}

/// Files the docs take for granted, written into the scratch directory first.
fn setup(dir: &Path) {
    let write = |name: &str, text: &str| {
        let p = dir.join(name);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    };
    // A short Turkish game (README: replay, analyze; docs/analyze.md).
    write(
        "game.pdn",
        "[Event \"docs\"]\n[Variant \"dama\"]\n[Result \"*\"]\n\n1. d3-d4 h6-h5 2. a3-a4 *\n",
    );
    // README: `dama validate my-variant.toml`, and the file of its indented
    // block `# my-dama.toml` (written here: the block also holds a command).
    for name in ["my-variant.toml", "my-dama.toml"] {
        write(name, "extends = \"dama\"\n[capture]\nmajority = \"none\"\n");
    }
    // docs/strength.md: `--openings-file openings.fen`.
    write(
        "openings.fen",
        "# two openings\nW:Wa2,b2,c2,d2,e2,f2,g2,h2,a3,b3,c3,d3,e3,f3,g3,h3:Ba6,b6,c6,d6,e6,f6,g6,h6,a7,b7,c7,d7,e7,f7,g7,h7\n",
    );
    for link in ["tests", "variants"] {
        std::os::unix::fs::symlink(support::root().join(link), dir.join(link)).unwrap();
    }
}

/// What a reader does between two commands, as the doc's prose says:
/// (doc file, command, occurrence, action before it).
fn before(file: &str, cmd: &str, nth: usize, dir: &Path) {
    let write = |name: &str, text: String| std::fs::write(dir.join(name), text).unwrap();
    match (file, cmd, nth) {
        // "Had you written `majorty`:"
        ("docs/variant-format.md", "dama validate my-dama.toml", 2) => write(
            "my-dama.toml",
            "extends = \"dama\"\n[capture]\nmajorty = \"none\"\n".into(),
        ),
        ("docs/variant-format.md", "dama show ./my-dama.toml", 1) => write(
            "my-dama.toml",
            "extends = \"dama\"\n[capture]\nmajority = \"none\"\n".into(),
        ),
        // "Put `captures = ["F", "L", "R"]` back in the variant file"
        ("docs/testing-rules.md", "dama cases my-cases --check", 2) => {
            let p = "my-cases/backward-dama.toml";
            let text = std::fs::read_to_string(dir.join(p))
                .unwrap_or_else(|e| panic!("{file}: {p}, which the doc writes earlier: {e}"));
            let changed = text.replace(
                "captures = [\"F\", \"B\", \"L\", \"R\"]",
                "captures = [\"F\", \"L\", \"R\"]",
            );
            assert_ne!(text, changed, "{file}: the variant file to change");
            write(p, changed);
        }
        _ => {}
    }
}

/// Shell commands other than `dama` that the docs show, done here.
fn other_command(file: &str, line: usize, cmd: &str, dir: &Path) -> Result<(), String> {
    if cmd.starts_with("sed 's/^no_reversal = true .*/no_reversal = false/' variants/dama.toml") {
        let text = std::fs::read_to_string(dir.join("variants/dama.toml")).unwrap();
        let out: Vec<String> = text
            .lines()
            .map(|l| {
                if l.starts_with("no_reversal = true ") {
                    "no_reversal = false".to_string()
                } else {
                    l.to_string()
                }
            })
            .collect();
        assert!(
            out.iter().any(|l| l == "no_reversal = false"),
            "{file}:{line}: the sed command changes nothing in variants/dama.toml"
        );
        std::fs::write(dir.join("dama-mod.toml"), out.join("\n") + "\n").unwrap();
        return Ok(());
    }
    Err(format!(
        "{file}:{line}: `{cmd}` is not a dama command this test knows how to do (add it to other_command)"
    ))
}

/// A command found in a doc.
#[derive(Debug)]
struct DocCommand {
    line: usize,
    text: String,
    /// The output the doc shows, when it shows some.
    output: Option<Vec<String>>,
    /// Not a `dama` command (`$ sed ...`).
    other: bool,
}

/// Something to do while walking a doc, in order.
#[derive(Debug)]
enum Step {
    Run(DocCommand),
    /// A file the doc writes (a `toml` block after a paragraph naming it).
    Write(String, String),
}

fn strip_comment(line: &str) -> &str {
    let (mut single, mut double) = (false, false);
    let b = line.as_bytes();
    for (i, &c) in b.iter().enumerate() {
        match c {
            b'\'' if !double => single = !single,
            b'"' if !single => double = !double,
            b'#' if !single && !double && i > 0 && b[i - 1].is_ascii_whitespace() => {
                return line[..i].trim_end();
            }
            _ => {}
        }
    }
    line.trim_end()
}

/// The commands (and files written) of one markdown file, in order.
fn steps(text: &str) -> Vec<Step> {
    let lines: Vec<&str> = text.lines().collect();
    let mut steps = Vec::new();
    let mut i = 0;
    // The paragraph before the current line (blank lines end it, not clear it).
    let mut paragraph = String::new();
    let mut in_paragraph = false;
    while i < lines.len() {
        let l = lines[i];
        if let Some(lang) = l.trim_start().strip_prefix("```") {
            let lang = lang.trim().to_string();
            let start = i + 1;
            let mut end = start;
            while end < lines.len() && !lines[end].trim_start().starts_with("```") {
                end += 1;
            }
            let block: Vec<(usize, &str)> = (start..end).map(|k| (k + 1, lines[k])).collect();
            match lang.as_str() {
                "sh" | "console" | "" | "bash" | "shell" => block_steps(&block, false, &mut steps),
                "text" => block_steps(&block, true, &mut steps),
                "toml" => {
                    if let Some(name) = named_file(&paragraph) {
                        let body: Vec<&str> = block.iter().map(|(_, l)| *l).collect();
                        steps.push(Step::Write(name, body.join("\n") + "\n"));
                    }
                }
                _ => {}
            }
            paragraph.clear();
            in_paragraph = false;
            i = end + 1;
            continue;
        }
        let prev_blank = i == 0 || lines[i - 1].trim().is_empty();
        if l.starts_with("    ") && prev_blank && !l.trim().is_empty() {
            let mut end = i;
            let mut block = Vec::new();
            while end < lines.len() && (lines[end].starts_with("    ") || lines[end].trim().is_empty()) {
                block.push((end + 1, lines[end]));
                end += 1;
            }
            block_steps(&block, false, &mut steps);
            i = end;
            continue;
        }
        if l.trim().is_empty() {
            in_paragraph = false;
        } else {
            if !in_paragraph {
                paragraph.clear();
                in_paragraph = true;
            }
            paragraph.push_str(l);
            paragraph.push('\n');
        }
        i += 1;
    }
    steps
}

/// The last backticked `something.toml` of a paragraph: the file a `toml`
/// block after it is.
fn named_file(paragraph: &str) -> Option<String> {
    paragraph
        .split('`')
        .enumerate()
        .filter(|(k, s)| k % 2 == 1 && s.ends_with(".toml") && !s.contains(' '))
        // Never a file of the repository (`tests/` and `variants/` are linked).
        .filter(|(_, s)| {
            !s.starts_with('/') && !s.contains("..") && !s.starts_with("tests/") && !s.starts_with("variants/")
        })
        .map(|(_, s)| s.to_string())
        .last()
}

fn block_steps(block: &[(usize, &str)], dollar_only: bool, steps: &mut Vec<Step>) {
    let mut k = 0;
    while k < block.len() {
        let (n, raw) = block[k];
        let t = raw.trim();
        let (dollar, rest) = match t.strip_prefix("$ ") {
            Some(r) => (true, r),
            None => (false, t),
        };
        if !dollar && (dollar_only || !rest.starts_with("dama ")) {
            k += 1;
            continue;
        }
        let mut cmd = strip_comment(rest).to_string();
        while cmd.ends_with('\\') && k + 1 < block.len() {
            cmd.pop();
            k += 1;
            cmd.push(' ');
            cmd.push_str(strip_comment(block[k].1.trim()));
        }
        k += 1;
        let mut output = None;
        if dollar {
            let mut out = Vec::new();
            while k < block.len() && !block[k].1.trim_start().starts_with("$ ") {
                out.push(block[k].1.trim_end().to_string());
                k += 1;
            }
            while out.last().is_some_and(|l| l.is_empty()) {
                out.pop();
            }
            if !out.is_empty() {
                output = Some(out);
            }
        }
        let other = !cmd.starts_with("dama ");
        steps.push(Step::Run(DocCommand {
            line: n,
            text: cmd,
            output,
            other,
        }));
    }
}

/// Shell-like words: spaces split, quotes group, `~/` is the home folder.
fn words(cmd: &str, home: &Path) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut have = false;
    let mut quote: Option<char> = None;
    for c in cmd.chars() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), c) => cur.push(c),
            (None, '"' | '\'') => {
                quote = Some(c);
                have = true;
            }
            (None, c) if c.is_whitespace() => {
                if have {
                    out.push(std::mem::take(&mut cur));
                    have = false;
                }
            }
            (None, c) => {
                cur.push(c);
                have = true;
            }
        }
    }
    if have {
        out.push(cur);
    }
    out.into_iter()
        .map(|w| match w.strip_prefix("~/") {
            Some(rest) => home.join(rest).display().to_string(),
            None => w,
        })
        .collect()
}

/// Runs `dama ARGS` in `dir` with standard error on the same pipe as
/// standard output: (exit code, output); -1 when killed by a signal.
fn run(dir: &Path, args: &[String], stdin: &[u8]) -> (i32, String) {
    use std::io::Write;
    // A command that does not end within 5 minutes (a server the SKIP list
    // missed) is stopped: exit code 124, reported as a failure.
    let mut child = Command::new("sh")
        .arg("-c")
        .arg("exec timeout 300 \"$0\" --color never \"$@\" 2>&1")
        .arg(support::BIN)
        .args(args)
        .current_dir(dir)
        .env_remove("NO_COLOR")
        .env_remove("DAMA_EGTB_DIR")
        .env("HOME", dir.join("home"))
        .env("XDG_DATA_HOME", dir.join("home/.local/share"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("run dama");
    let mut pipe = child.stdin.take().unwrap();
    let input = stdin.to_vec();
    let feeder = std::thread::spawn(move || {
        let _ = pipe.write_all(&input);
    });
    let out = child.wait_with_output().expect("wait for dama");
    let _ = feeder.join();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

/// Does `got` match `want`, where a `want` line `...` stands for any
/// number of lines (trailing spaces ignored)?
fn matches(want: &[String], got: &[&str]) -> bool {
    match want.split_first() {
        None => got.is_empty(),
        Some((w, rest)) if w.trim() == "..." => (0..=got.len()).any(|skip| matches(rest, &got[skip..])),
        Some((w, rest)) => got
            .split_first()
            .is_some_and(|(g, grest)| g.trim_end() == w.trim_end() && matches(rest, grest)),
    }
}

/// Runs every command of one doc; the failures, each naming file and line.
fn check_doc(file: &str) -> Vec<String> {
    let root = support::root();
    let text = std::fs::read_to_string(root.join(file)).unwrap();
    let dir = support::scratch(&file.replace(['/', '.'], "-"));
    setup(&dir);
    let home = dir.join("home");
    std::fs::create_dir_all(&home).unwrap();
    let mut failures = Vec::new();
    let mut seen: HashMap<String, usize> = HashMap::new();
    for step in steps(&text) {
        let c = match step {
            Step::Write(name, body) => {
                let p: PathBuf = dir.join(&name);
                std::fs::create_dir_all(p.parent().unwrap()).unwrap();
                std::fs::write(p, body).unwrap();
                continue;
            }
            Step::Run(c) => c,
        };
        let at = format!("{file}:{}: `{}`", c.line, c.text);
        if c.other {
            if let Err(e) = other_command(file, c.line, &c.text, &dir) {
                failures.push(e);
            }
            continue;
        }
        if let Some((_, _, why)) = SKIP
            .iter()
            .find(|(f, start, _)| *f == file && c.text.starts_with(start))
        {
            eprintln!("skipped {at}: {why}");
            continue;
        }
        // `a && b` runs b after a succeeds; `a | b` pipes a into b.
        for part in c.text.split(" && ") {
            let part = part.trim();
            let nth = {
                let e = seen.entry(part.to_string()).or_default();
                *e += 1;
                *e
            };
            before(file, part, nth, &dir);
            let stages: Vec<&str> = part.split(" | ").map(str::trim).collect();
            let mut input = Vec::new();
            let mut last = (0, String::new());
            let mut stopped = false;
            for stage in &stages {
                let mut w = words(stage, &home);
                if w.first().map(String::as_str) != Some("dama") {
                    failures.push(format!("{at}: `{stage}` is not a dama command"));
                    stopped = true;
                    break;
                }
                w.remove(0);
                if is_synopsis(&w) {
                    stopped = true;
                    break;
                }
                // /tmp/dama-mod.toml of docs/testing-rules.md is made in the scratch folder.
                for a in &mut w {
                    if a == "/tmp/dama-mod.toml" {
                        *a = "dama-mod.toml".into();
                    }
                }
                let args = limit(&w);
                let stdin: Vec<u8> = if input.is_empty() {
                    stdin_for(&args).as_bytes().to_vec()
                } else {
                    std::mem::take(&mut input)
                };
                last = run(&dir, &args, &stdin);
                input = last.1.clone().into_bytes();
                let known = KNOWN_DEFECTS
                    .iter()
                    .find(|(f, start, _)| *f == file && part.starts_with(start));
                if let Some((_, _, defect)) = known {
                    if last.0 == -1 || last.0 == 101 {
                        eprintln!("KNOWN DEFECT {at}: crashed: {defect}");
                        stopped = true;
                        break;
                    }
                    eprintln!("{at}: the known defect ({defect}) is fixed: remove it from KNOWN_DEFECTS");
                }
                if last.0 == -1 || last.0 == 101 {
                    failures.push(format!(
                        "{at}: crashed (exit code {}) running `dama {}`:\n{}",
                        last.0,
                        args.join(" "),
                        last.1
                    ));
                    stopped = true;
                    break;
                }
            }
            if stopped {
                break;
            }
            let want_exit = EXPECT_EXIT
                .iter()
                .find(|(f, cmd, k, _)| *f == file && part.starts_with(cmd) && *k == nth)
                .map_or(0, |e| e.3);
            if last.0 != want_exit {
                failures.push(format!(
                    "{at}: exit code {}, the doc implies {want_exit}; it printed:\n{}",
                    last.0, last.1
                ));
                break;
            }
            if let Some(want) = &c.output {
                let got: Vec<&str> = last.1.lines().collect();
                if !matches(want, &got) {
                    let mut msg = format!(
                        "{at}: the output differs from the doc's\n--- the doc ({file}:{}):\n",
                        c.line + 1
                    );
                    for l in want {
                        let _ = writeln!(msg, "{l}");
                    }
                    let _ = writeln!(msg, "--- the program:");
                    for l in &got {
                        let _ = writeln!(msg, "{l}");
                    }
                    failures.push(msg);
                }
            }
        }
    }
    if failures.is_empty() {
        let _ = std::fs::remove_dir_all(&dir);
    }
    failures
}

/// README.md and every docs/*.md.
fn doc_files() -> Vec<String> {
    let root = support::root();
    let mut files = vec!["README.md".to_string()];
    let mut docs: Vec<String> = std::fs::read_dir(root.join("docs"))
        .unwrap()
        .filter_map(|e| {
            let name = e.ok()?.file_name().into_string().ok()?;
            name.ends_with(".md").then(|| format!("docs/{name}"))
        })
        .collect();
    docs.sort();
    files.extend(docs);
    files
}

#[test]
fn every_command_in_the_docs_runs_and_prints_what_the_doc_shows() {
    let mut failures = Vec::new();
    let mut ran = 0;
    for file in doc_files() {
        let text = std::fs::read_to_string(support::root().join(&file)).unwrap();
        ran += steps(&text).iter().filter(|s| matches!(s, Step::Run(_))).count();
        failures.extend(check_doc(&file));
    }
    assert!(
        ran >= 40,
        "only {ran} commands found in the docs: is the extraction broken?"
    );
    assert!(
        failures.is_empty(),
        "{} doc command(s) diverge from the program:\n\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}

/// The extraction itself, on a small made-up doc.
#[test]
fn the_extraction_finds_commands_outputs_and_files() {
    let doc = "Intro `dama x` in prose.\n\n    dama variants   # the ids\n    dama match dama \\\n        --games 4\n\nCreate `my/v.toml`:\n\n```toml\nextends = \"dama\"\n```\n\n```text\nvariant  depth\ndama     9\n$ dama validate v.toml\nv.toml: ok\n...\n\n$ dama show v.toml\n```\n";
    let s = steps(doc);
    let runs: Vec<(usize, &str, Option<&Vec<String>>)> = s
        .iter()
        .filter_map(|s| match s {
            Step::Run(c) => Some((c.line, c.text.as_str(), c.output.as_ref())),
            Step::Write(..) => None,
        })
        .collect();
    assert_eq!(runs.len(), 4, "{s:?}");
    assert_eq!(runs[0].1, "dama variants");
    assert_eq!((runs[1].0, runs[1].1), (4, "dama match dama  --games 4"));
    assert_eq!(runs[2].1, "dama validate v.toml");
    assert_eq!(runs[2].2.unwrap(), &vec!["v.toml: ok".to_string(), "...".to_string()]);
    assert_eq!(runs[3].2, None);
    assert!(s
        .iter()
        .any(|s| matches!(s, Step::Write(n, b) if n == "my/v.toml" && b == "extends = \"dama\"\n")));
    assert!(matches(&["a".into(), "...".into(), "d".into()], &["a", "b", "c", "d"]));
    assert!(!matches(&["a".into(), "d".into()], &["a", "b", "d"]));
    assert_eq!(
        limit(&words("match dama --games 200 --white-level 6", Path::new("/h"))),
        [
            "match",
            "dama",
            "--games",
            "2",
            "--white-level",
            "2",
            "--max-plies",
            "12"
        ]
    );
}
