//! `dama replay game.pdn`: check every move of every game in a PDN record
//! and show each game.

use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;

use dama_engine::pdn::{self, PdnError, PdnGame};
use dama_engine::{Game, Loaded, Rules};

use super::Ctx;
use crate::cli::Format;
use crate::exit::Exit;
use crate::render;

/// Largest record read, in bytes.
const MAX_PDN_BYTES: u64 = 64 << 20;

/// Arguments of `dama replay`.
#[derive(Debug, clap::Args)]
pub struct ReplayArgs {
    /// The PDN file to check (`-` reads standard input).
    pub file: String,
    /// The variant (built-in id or .toml path) for games whose record does not
    /// name one; when given, it also overrides the variant the record names.
    #[arg(long)]
    pub variant: Option<String>,
    /// Print only one summary line per game (no tags, moves or board).
    #[arg(long, short)]
    pub quiet: bool,
    /// Output format.
    #[arg(long, value_enum, default_value_t)]
    pub format: Format,
}

pub fn run(ctx: &Ctx, args: ReplayArgs) -> Exit {
    let text = match read_input(&args.file) {
        Ok(t) => t,
        Err(msg) => {
            eprintln!("error: {msg}");
            return Exit::Failure;
        }
    };
    // Every game's syntax is checked before anything is shown, so that a
    // record with an error anywhere shows none of its games; each game is
    // read again when its turn comes, so only one is held at a time.
    let mut total = 0;
    for g in pdn::games(&text) {
        if let Err(e) = g {
            report(ctx, &args.file, &text, &e);
            return Exit::Failure;
        }
        total += 1;
    }
    if total == 0 {
        eprintln!(
            "error: {}: no game found (a PDN game is tags such as [Event \"?\"] and moves ending with a result)",
            args.file
        );
        return Exit::Failure;
    }
    let base_dir = if args.file == "-" {
        None
    } else {
        Path::new(&args.file).parent()
    };
    // The variant given on the command line, loaded once.
    let forced: Option<Loaded> = match &args.variant {
        Some(v) => match ctx.load_variant(v) {
            Ok(l) => Some(l),
            Err(e) => return e,
        },
        None => None,
    };
    let mut cache: HashMap<String, Arc<Rules>> = HashMap::new();
    // The JSON array's elements, printed once every game has replayed.
    let mut json = String::new();
    for (i, g) in pdn::games(&text).enumerate() {
        let g = match g {
            Ok(g) => g,
            Err(e) => {
                report(ctx, &args.file, &text, &e);
                return Exit::Failure;
            }
        };
        let g = &g;
        let rules: Arc<Rules> = match &forced {
            Some(l) => {
                if let Some(named) = g.variant_name(base_dir) {
                    if named != l.rules.id() && g.tag("VariantFile").is_none() {
                        eprintln!(
                            "note: game {} names variant `{named}`; replaying it as `{}` as asked by --variant",
                            i + 1,
                            l.rules.id()
                        );
                    }
                }
                Arc::new(l.rules.clone())
            }
            None => match cached(&mut cache, g, base_dir) {
                Ok(r) => r,
                Err(e) => {
                    report(ctx, &args.file, &text, &e);
                    if let PdnError::Variant { load: None, .. } = e {
                        eprintln!("  = help: give the variant with --variant, e.g. --variant dama");
                    }
                    return Exit::Failure;
                }
            },
        };
        let game = match g.replay(Arc::clone(&rules)) {
            Ok(game) => game,
            Err(e) => {
                report(ctx, &args.file, &text, &e);
                return Exit::Failure;
            }
        };
        match args.format {
            Format::Json => push_json(&mut json, &game_json(g, &game)),
            Format::Text => {
                if args.quiet {
                    println!("{}", summary_line(i + 1, g, &game));
                } else {
                    if i > 0 {
                        println!();
                    }
                    show_game(ctx, i + 1, total, g, &game);
                }
            }
        }
    }
    if args.format == Format::Json {
        println!("[\n{json}\n]");
    } else if !args.quiet && total > 1 {
        println!("\nAll {total} games checked: every move is legal.");
    }
    Exit::Success
}

/// The rules of the variant `g` names, loaded once per name.
fn cached(
    cache: &mut HashMap<String, Arc<Rules>>,
    g: &PdnGame,
    base_dir: Option<&Path>,
) -> Result<Arc<Rules>, PdnError> {
    if let Some(r) = g.variant_name(base_dir).and_then(|n| cache.get(&n)) {
        return Ok(Arc::clone(r));
    }
    let loaded = g.load_variant(None, base_dir)?;
    let rules = Arc::new(loaded.rules);
    if let Some(n) = g.variant_name(base_dir) {
        cache.insert(n, Arc::clone(&rules));
    }
    Ok(rules)
}

fn read_input(file: &str) -> Result<String, String> {
    use std::io::Read;
    let mut bytes = Vec::new();
    if file == "-" {
        std::io::stdin()
            .take(MAX_PDN_BYTES + 1)
            .read_to_end(&mut bytes)
            .map_err(|e| format!("cannot read standard input: {e}"))?;
    } else {
        let f = std::fs::File::open(file).map_err(|e| format!("cannot read {file}: {e}"))?;
        if f.metadata().is_ok_and(|m| m.is_dir()) {
            return Err(format!("{file} is a directory, not a PDN file"));
        }
        // Refused before reading when the size is known; `take` bounds the rest.
        if f.metadata().is_ok_and(|m| m.len() > MAX_PDN_BYTES) {
            return Err(format!("{file} is larger than {MAX_PDN_BYTES} bytes"));
        }
        f.take(MAX_PDN_BYTES + 1)
            .read_to_end(&mut bytes)
            .map_err(|e| format!("cannot read {file}: {e}"))?;
    }
    if bytes.len() as u64 > MAX_PDN_BYTES {
        return Err(format!("{file} is larger than {MAX_PDN_BYTES} bytes"));
    }
    match String::from_utf8(bytes) {
        Ok(s) => Ok(s),
        // Old PDN files are often Latin-1: read them as such rather than refuse.
        Err(e) => Ok(e.into_bytes().iter().map(|&b| b as char).collect()),
    }
}

/// At most 100 characters of `src` around 1-based `column` (cut ends marked
/// `…`, control characters shown as `�`), and the column within that window.
fn window(src: &str, column: usize) -> (String, usize) {
    const WIDTH: usize = 100;
    let chars: Vec<char> = src
        .chars()
        .map(|c| if c.is_control() { '\u{fffd}' } else { c })
        .collect();
    let col = column.saturating_sub(1).min(chars.len());
    if chars.len() <= WIDTH {
        return (chars.into_iter().collect(), column);
    }
    let start = col.saturating_sub(WIDTH / 3).min(chars.len() - WIDTH);
    let end = start + WIDTH;
    let mut shown: String = chars[start..end].iter().collect();
    let mut at = col - start + 1;
    if start > 0 {
        shown.insert(0, '…');
        at += 1;
    }
    if end < chars.len() {
        shown.push('…');
    }
    (shown, at)
}

/// Prints a PDN error with the line of the record and a caret under the column.
fn report(ctx: &Ctx, file: &str, text: &str, e: &PdnError) {
    let (line, column) = e.position();
    let name = if file == "-" { "<stdin>" } else { file };
    let label = if ctx.color_err {
        "\x1b[1;31merror\x1b[0m"
    } else {
        "error"
    };
    // The message without its own "line L, column C: " prefix.
    let msg = e.to_string();
    let msg = msg.split_once(": ").map_or(msg.as_str(), |(_, m)| m);
    eprintln!("{label}: {msg}");
    eprintln!("  --> {name}:{line}:{column}");
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    if let Some(src) = text.lines().nth(line.saturating_sub(1)) {
        let src = src.trim_end_matches('\r');
        // (rel, issue 7) A hostile record can be one 10 MB line: show a
        // window of it around the column, as render::diagnostic does.
        let (src, column) = window(src, column);
        let src = src.as_str();
        let num = line.to_string();
        let pad = " ".repeat(num.len());
        let width = match e {
            PdnError::Move { .. } | PdnError::AfterEnd { .. } => src
                .chars()
                .skip(column.saturating_sub(1))
                .take_while(|c| !c.is_whitespace())
                .count()
                .max(1),
            _ => 1,
        };
        let caret = "^".repeat(width);
        let caret = if ctx.color_err {
            format!("\x1b[1;31m{caret}\x1b[0m")
        } else {
            caret
        };
        eprintln!(
            "{pad} |\n{num} | {src}\n{pad} | {}{caret}",
            " ".repeat(column.saturating_sub(1))
        );
    }
    if let PdnError::Variant { load: Some(le), .. } = e {
        ctx.report_load_error(le);
    }
}

fn plies(n: usize) -> String {
    if n == 1 {
        "1 ply".into()
    } else {
        format!("{n} plies")
    }
}

fn result_text(game: &Game) -> String {
    match game.outcome() {
        Some(o) => format!("{} ({o})", o.result.pdn()),
        None => "* (the game goes on)".to_string(),
    }
}

fn summary_line(n: usize, g: &PdnGame, game: &Game) -> String {
    format!(
        "game {n} (line {}): {} - {}, {}, {}, {}",
        g.line,
        g.tag("White").unwrap_or("?"),
        g.tag("Black").unwrap_or("?"),
        game.rules().id(),
        plies(game.ply_count()),
        result_text(game)
    )
}

/// The moves with their numbers, wrapped at 80 columns.
fn movetext(game: &Game) -> String {
    let first = game.rules().start_position().side_to_move();
    let mut out = String::new();
    let mut line = String::new();
    for (i, ply) in game.plies().iter().enumerate() {
        let n = game.move_number_of(i);
        let mut w = String::new();
        if ply.side() == first {
            w.push_str(&format!("{n}. "));
        } else if i == 0 {
            w.push_str(&format!("{n}... "));
        }
        w.push_str(&ply.notation);
        if !line.is_empty() && line.len() + 1 + w.len() > 78 {
            out.push_str(&line);
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&w);
    }
    out.push_str(&line);
    out
}

fn show_game(ctx: &Ctx, n: usize, total: usize, g: &PdnGame, game: &Game) {
    let r = game.rules();
    if total > 1 {
        println!("Game {n} of {total} (line {})", g.line);
    }
    for t in &g.tags {
        println!("[{} \"{}\"]", t.name, t.value);
    }
    if !g.tags.is_empty() {
        println!();
    }
    println!("Variant: {} ({})", r.name(), r.id());
    if !game.starts_from_initial() {
        println!("Start: {}", r.to_fen(game.start_position()));
    }
    if game.plies().is_empty() {
        println!("No moves.");
    } else {
        println!("{}", movetext(game));
    }
    let marks: Vec<_> = game
        .last_ply()
        .map(|p| vec![p.mv.from(), p.mv.to()])
        .unwrap_or_default();
    println!(
        "\nFinal position after {} ({} to move, {}):\n",
        plies(game.ply_count()),
        game.side_to_move(),
        r.to_fen(game.position())
    );
    print!("{}", render::board(r, game.position(), &marks, ctx.color_out));
    println!("\nResult: {}", result_text(game));
}

/// Adds `value` to the elements of a JSON array in `out`, laid out as
/// `serde_json::to_string_pretty` lays out an element of an array (the
/// text of each game rather than all the games' values is kept).
fn push_json(out: &mut String, value: &serde_json::Value) {
    let text = serde_json::to_string_pretty(value).unwrap_or_default();
    if !out.is_empty() {
        out.push_str(",\n");
    }
    for (i, line) in text.lines().enumerate() {
        if i > 0 {
            out.push('\n');
        }
        out.push_str("  ");
        out.push_str(line);
    }
}

fn game_json(g: &PdnGame, game: &Game) -> serde_json::Value {
    let r = game.rules();
    serde_json::json!({
        "line": g.line,
        "tags": g.tags.iter().map(|t| (t.name.clone(), serde_json::Value::String(t.value.clone()))).collect::<serde_json::Map<_, _>>(),
        "variant": r.id(),
        "start": r.to_fen(game.start_position()),
        "moves": game.plies().iter().map(|p| p.notation.clone()).collect::<Vec<_>>(),
        "final": r.to_fen(game.position()),
        "result": game.outcome().map_or("*", |o| o.result.pdn()),
        "reason": game.outcome().map(|o| o.reason.to_string()),
    })
}
