//! `dama analyze game.pdn`: every move of a record searched again and
//! judged against the engine's best move (`dama_play::Analyzer`); a
//! summary, an annotated PDN record, or JSON.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use dama_engine::pdn::{self, PdnAnnotation, PdnGame, PdnTags};
use dama_engine::{search::score_text, Color, Game, Limits, Loaded, Rules};
use dama_play::{Analyzer, EngineConfig, GameAnalysis, PlyAnalysis, Thresholds};

use super::Ctx;
use crate::args::OutputArgs;
use crate::cli::Format;
use crate::error::CliError;
use crate::exit::Exit;
use crate::json::Code;
use crate::out::{out, outln};
use crate::render;

use crate::engine_setup::{variant_file, EngineArgs};
use crate::records::{cached, read_input, replay_game, report, warn_past_end, NO_GAME_HELP};

/// The depth searched unless told otherwise.
pub const DEFAULT_DEPTH: u32 = 8;

/// Plies of the best line written in a PDN comment.
const COMMENT_LINE: usize = 6;

/// Arguments of `dama analyze`.
#[derive(Debug, clap::Args)]
pub struct AnalyzeArgs {
    /// The PDN file to analyse (`-` reads standard input); every game in it is analysed.
    pub file: String,
    /// The variant (built-in id or .toml path) for games whose record does not
    /// name one; when given, it also overrides the variant the record names.
    #[arg(long)]
    pub variant: Option<String>,
    /// Write the annotated record to FILE (`-`: to standard output instead of the summary).
    #[arg(long = "pdn", short = 'o', value_name = "FILE")]
    pub pdn: Option<PathBuf>,
    /// The least loss of an inaccuracy (?!), in hundredths of a man.
    #[arg(long, default_value_t = 30, value_parser = clap::value_parser!(i32).range(1..))]
    pub inaccuracy: i32,
    /// The least loss of a mistake (?), in hundredths of a man.
    #[arg(long, default_value_t = 80, value_parser = clap::value_parser!(i32).range(1..))]
    pub mistake: i32,
    /// The least loss of a blunder (??), in hundredths of a man.
    #[arg(long, default_value_t = 200, value_parser = clap::value_parser!(i32).range(1..))]
    pub blunder: i32,
    #[command(flatten)]
    pub output: OutputArgs,
    // The engine (tables are used for every game whose variant has some in the folder).
    #[command(flatten)]
    pub engine: EngineArgs,
    /// Refuse a record that goes on after the rules ended the game (a
    /// threefold repetition, a draw by a ply count), instead of analysing
    /// it to its end with a warning.
    #[arg(long)]
    pub strict: bool,
}

/// One game of the record, replayed.
struct Record {
    pdn: PdnGame,
    game: Game,
    /// Where the record went on after the rules ended the game, as JSON.
    warning: Option<serde_json::Value>,
}

pub fn run(ctx: &Ctx, args: AnalyzeArgs) -> Exit {
    if !(args.inaccuracy <= args.mistake && args.mistake <= args.blunder) {
        return CliError::usage(format!(
            "the thresholds must grow: --inaccuracy {} <= --mistake {} <= --blunder {}",
            args.inaccuracy, args.mistake, args.blunder
        ))
        .report(Some(ctx));
    }
    let thresholds = Thresholds {
        inaccuracy: args.inaccuracy,
        mistake: args.mistake,
        blunder: args.blunder,
    };
    let limits = if args.engine.has_limits() {
        args.engine.limits().limits()
    } else {
        Limits::depth(DEFAULT_DEPTH)
    };
    let to_stdout = args.pdn.as_deref() == Some(Path::new("-"));
    if to_stdout && args.output.format == Format::Json {
        return CliError::usage("--pdn - writes the record on standard output; it cannot go with --format json")
            .report(Some(ctx));
    }

    let (records, forced) = match read_records(ctx, &args) {
        Ok(r) => r,
        Err(e) => return e,
    };
    // A target that would be refused is refused before the analysis.
    if let Some(path) = args.pdn.as_deref().filter(|_| !to_stdout) {
        if let Err(e) = crate::savefile::check_target(path, crate::savefile::Kind::GameRecord) {
            return ctx.write_error(path, &e);
        }
    }

    // The engine's set-up (the tables' folder checked, the weights read)
    // once for each variant of the record.
    let mut configs: std::collections::HashMap<u64, EngineConfig> = Default::default();
    for r in &records {
        let rules = r.game.rules();
        if let std::collections::hash_map::Entry::Vacant(slot) = configs.entry(rules.fingerprint()) {
            match args.engine.config(ctx, rules) {
                Ok(c) => slot.insert(c),
                Err(e) => return e,
            };
        }
    }

    // Analyse every game; progress on a terminal.
    let tty = render::stderr_tty();
    let total = records.len();
    let mut analyses = Vec::with_capacity(total);
    for (gi, r) in records.iter().enumerate() {
        let mut analyzer = Analyzer::new(r.game.rules(), limits.clone()).with_thresholds(thresholds);
        if let Some(config) = configs.get(&r.game.rules().fingerprint()) {
            analyzer = analyzer.with_engine(config.engine(r.game.rules()));
        }
        let mut progress = |p: &PlyAnalysis, plies: usize| {
            if tty {
                let mut err = std::io::stderr().lock();
                let game = if total > 1 {
                    format!("game {}/{total}, ", gi + 1)
                } else {
                    String::new()
                };
                let _ = write!(err, "\ranalysing {game}ply {}/{plies} ", p.index + 1);
                let _ = err.flush();
            }
        };
        analyses.push(analyzer.analyze(&r.game, &mut progress));
    }
    if tty && records.iter().any(|r| r.game.ply_count() > 0) {
        eprint!("\r{:40}\r", "");
    }

    // The annotated record.
    let annotator = format!("dama {}, {}", env!("CARGO_PKG_VERSION"), limits.describe());
    if let Some(path) = &args.pdn {
        let text = records
            .iter()
            .zip(&analyses)
            .map(|(r, a)| annotated(r, a, &annotator, forced.as_ref()))
            .collect::<Vec<_>>()
            .join("\n");
        if to_stdout {
            out!("{text}");
            return Exit::Success;
        }
        if let Err(e) = ctx.write_file(path, &text, crate::savefile::Kind::GameRecord) {
            return e;
        }
    }

    match args.output.format {
        Format::Json => {
            let games: Vec<serde_json::Value> = records.iter().zip(&analyses).map(|(r, a)| game_json(r, a)).collect();
            let v = serde_json::json!({
                "annotator": annotator,
                "limits": limits.describe(),
                "thresholds": {
                    "inaccuracy": thresholds.inaccuracy,
                    "mistake": thresholds.mistake,
                    "blunder": thresholds.blunder,
                },
                "games": games,
            });
            outln!("{}", serde_json::to_string_pretty(&v).unwrap_or_default());
        }
        Format::Text => {
            for (i, (r, a)) in records.iter().zip(&analyses).enumerate() {
                if i > 0 {
                    outln!();
                }
                if total > 1 {
                    outln!("Game {} of {total} (line {})", i + 1, r.pdn.line);
                }
                show(r, a);
            }
            if let Some(path) = &args.pdn {
                outln!("\nAnnotated record written to {}.", path.display());
            }
        }
    }
    Exit::Success
}

/// Reads and replays every game of the record (all of them before any is
/// analysed, so that a bad record fails at once), and the variant given by
/// `--variant`.
fn read_records(ctx: &Ctx, args: &AnalyzeArgs) -> Result<(Vec<Record>, Option<Loaded>), Exit> {
    let text = read_input(&args.file).map_err(|msg| CliError::failed(Code::Read, msg).report(Some(ctx)))?;
    let forced: Option<Loaded> = match &args.variant {
        Some(v) => Some(ctx.load_variant(v)?),
        None => None,
    };
    let base_dir = if args.file == "-" {
        None
    } else {
        Path::new(&args.file).parent()
    };
    let mut cache = std::collections::HashMap::new();
    let mut records = Vec::new();
    for g in pdn::games(&text) {
        let g = g.map_err(|e| {
            report(ctx, &args.file, &text, &e);
            Exit::Failure
        })?;
        let rules: Arc<Rules> = match &forced {
            Some(l) => Arc::new(l.rules.clone()),
            None => cached(&mut cache, &g, base_dir).map_err(|e| {
                report(ctx, &args.file, &text, &e);
                if let pdn::PdnError::Variant { load: None, .. } = e {
                    eprintln!("  = help: give the variant with --variant, e.g. --variant dama");
                }
                Exit::Failure
            })?,
        };
        let game = replay_game(&g, rules, args.strict).map_err(|e| {
            report(ctx, &args.file, &text, &e);
            Exit::Failure
        })?;
        let warning = warn_past_end(&args.file, records.len() + 1, &g, &game);
        records.push(Record { pdn: g, game, warning });
    }
    if records.is_empty() {
        return Err(CliError::failed(Code::NoGame, format!("{}: no game found", args.file))
            .help(NO_GAME_HELP)
            .report(Some(ctx)));
    }
    Ok((records, forced))
}

/// A score for White, in words (`+0.35`, `win in 7 plies`: White wins).
fn eval_text(white_score: i32) -> String {
    score_text(white_score)
}

/// The comment after a move in the annotated record.
fn comment(p: &PlyAnalysis) -> String {
    let eval = eval_text(p.white_score());
    if p.forced {
        format!("{eval} forced")
    } else if p.is_best() {
        eval
    } else {
        let line: Vec<&str> = p.best_line.iter().take(COMMENT_LINE).map(String::as_str).collect();
        let line = if line.is_empty() {
            p.best_notation.clone()
        } else {
            line.join(" ")
        };
        format!("{eval} best: {line} ({})", eval_text(p.white_best_score()))
    }
}

/// The game as an annotated PDN record: its tags, an `Annotator` tag, and
/// every move with its NAG and comment.
fn annotated(r: &Record, a: &GameAnalysis, annotator: &str, forced: Option<&Loaded>) -> String {
    let tag = |n: &str| r.pdn.tag(n).unwrap_or("?").to_string();
    let standard = ["Event", "Site", "Date", "Round", "White", "Black", "Annotator"];
    let mut extra: Vec<(String, String)> = r
        .pdn
        .tags
        .iter()
        .filter(|t| !standard.iter().any(|s| s.eq_ignore_ascii_case(&t.name)))
        .filter(|t| forced.is_none() || !t.name.eq_ignore_ascii_case("VariantFile"))
        .map(|t| (t.name.clone(), t.value.clone()))
        .collect();
    extra.push(("Annotator".into(), annotator.to_string()));
    let variant_file = match forced {
        Some(l) => variant_file(l),
        None => r.pdn.tag("VariantFile").map(str::to_string),
    };
    let tags = PdnTags {
        event: tag("Event"),
        site: tag("Site"),
        date: r.pdn.tag("Date").unwrap_or("????.??.??").to_string(),
        round: tag("Round"),
        white: tag("White"),
        black: tag("Black"),
        variant_file,
        extra,
    };
    let notes: Vec<PdnAnnotation> = a
        .plies
        .iter()
        .map(|p| PdnAnnotation {
            nag: p.judgement.map(|j| j.nag()),
            comment: Some(comment(p)),
        })
        .collect();
    r.game.to_pdn_annotated(&tags, &notes)
}

/// The move with its number: `12.` or `12...`.
fn numbered(game: &Game, p: &PlyAnalysis) -> String {
    let first = game.rules().start_position().side_to_move();
    let dots = if p.side == first { "." } else { "..." };
    format!("{}{dots} {}", p.move_number, p.notation)
}

fn show(r: &Record, a: &GameAnalysis) {
    let rules = r.game.rules();
    outln!(
        "{} - {}, {} ({}), {}; evaluations in men, for White",
        dama_engine::text::printable(r.pdn.tag("White").unwrap_or("?")),
        dama_engine::text::printable(r.pdn.tag("Black").unwrap_or("?")),
        dama_engine::text::printable(rules.name()),
        rules.id(),
        a.limits.describe()
    );
    if a.plies.is_empty() {
        outln!("No moves.");
        return;
    }
    outln!();
    let moves: Vec<String> = a.plies.iter().map(|p| numbered(&r.game, p)).collect();
    let evals: Vec<String> = a.plies.iter().map(|p| eval_text(p.white_score())).collect();
    let mw = moves.iter().map(|m| m.chars().count()).max().unwrap_or(0);
    let ew = evals.iter().map(|e| e.chars().count()).max().unwrap_or(0);
    for ((p, m), e) in a.plies.iter().zip(&moves).zip(&evals) {
        let mark = p.judgement.map_or("", |j| j.mark());
        let note = if p.forced {
            "forced".to_string()
        } else if p.is_best() {
            String::new()
        } else {
            format!(
                "best {} ({}), loss {:.2}",
                p.best_notation,
                eval_text(p.white_best_score()),
                p.loss as f64 / 100.0
            )
        };
        let line = format!("{m:<mw$}  {e:>ew$}  {mark:<2}  {note}");
        outln!("{}", line.trim_end());
    }
    outln!();
    for side in [Color::White, Color::Black] {
        let t = a.tally(side);
        let name = match side {
            Color::White => "White",
            Color::Black => "Black",
        };
        outln!(
            "{name}: {} moves ({} judged), {} {}, {} {}, {} {}, average loss {:.2}",
            t.moves,
            t.judged,
            t.inaccuracies,
            plural(t.inaccuracies, "inaccuracy", "inaccuracies"),
            t.mistakes,
            plural(t.mistakes, "mistake", "mistakes"),
            t.blunders,
            plural(t.blunders, "blunder", "blunders"),
            t.average_loss() / 100.0
        );
    }
    outln!(
        "Result: {}",
        r.game.outcome().map_or("* (the game goes on)".to_string(), |o| format!(
            "{} ({o})",
            o.result.pdn()
        ))
    );
}

fn plural<'a>(n: usize, one: &'a str, many: &'a str) -> &'a str {
    if n == 1 {
        one
    } else {
        many
    }
}

fn side_name(c: Color) -> &'static str {
    match c {
        Color::White => "white",
        Color::Black => "black",
    }
}

fn ply_json(rules: &Rules, game: &Game, p: &PlyAnalysis) -> serde_json::Value {
    serde_json::json!({
        "ply": p.index + 1,
        "number": p.move_number,
        "side": side_name(p.side),
        "move": p.notation,
        "full": rules.format_move_full(&p.before, &p.played),
        "fen": rules.to_fen(&p.before),
        "text": numbered(game, p),
        "forced": p.forced,
        "best": p.best_notation,
        "best_line": p.best_line,
        "best_score": p.best_score,
        "played_score": p.played_score,
        "eval": p.white_score(),
        "eval_text": eval_text(p.white_score()),
        "loss": p.loss,
        "judgement": p.judgement.map(|j| j.name()),
        "nag": p.judgement.map(|j| j.nag()),
        "depth": p.depth,
    })
}

fn tally_json(a: &GameAnalysis, side: Color) -> serde_json::Value {
    let t = a.tally(side);
    serde_json::json!({
        "moves": t.moves,
        "judged": t.judged,
        "inaccuracies": t.inaccuracies,
        "mistakes": t.mistakes,
        "blunders": t.blunders,
        "average_loss": (t.average_loss() * 100.0).round() / 100.0,
    })
}

fn game_json(r: &Record, a: &GameAnalysis) -> serde_json::Value {
    let rules = r.game.rules();
    let mut v = serde_json::json!({
        "line": r.pdn.line,
        "tags": r.pdn.tags.iter().map(|t| (t.name.clone(), serde_json::Value::String(t.value.clone()))).collect::<serde_json::Map<_, _>>(),
        "variant": rules.id(),
        "start": rules.to_fen(r.game.start_position()),
        "result": r.game.outcome().map_or("*", |o| o.result.pdn()),
        "plies": a.plies.iter().map(|p| ply_json(rules, &r.game, p)).collect::<Vec<_>>(),
        "white": tally_json(a, Color::White),
        "black": tally_json(a, Color::Black),
    });
    if let (Some(w), Some(obj)) = (&r.warning, v.as_object_mut()) {
        obj.insert("warnings".into(), serde_json::Value::Array(vec![w.clone()]));
    }
    v
}
