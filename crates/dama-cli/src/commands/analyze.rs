//! `dama analyze game.pdn`: every move of a record searched again and
//! judged against the engine's best move (`dama_play::Analyzer`); a
//! summary, an annotated PDN record, or JSON.

use std::io::Write;
use std::path::{Path, PathBuf};

use dama_engine::Limits;
use dama_play::{Analyzer, EngineConfig, PlyAnalysis, Thresholds};

use super::Ctx;
use crate::args::OutputArgs;
use crate::cli::Format;
use crate::engine_setup::EngineArgs;
use crate::error::CliError;
use crate::exit::Exit;
use crate::out::{out, outln};
use crate::records::read_records;
use crate::render;
use crate::render::analysis::{annotated, game_json, show};

/// The depth searched unless told otherwise.
pub const DEFAULT_DEPTH: u32 = 8;

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

    let (records, forced) = match read_records(ctx, &args.file, args.variant.as_deref(), args.strict) {
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
