//! One file per subcommand; `run` dispatches.

pub mod analyze;
pub mod cases;
mod completions;
pub mod diagram;
pub mod dxp;
pub mod egtb;
pub mod hub;
pub mod match_;
mod moves;
mod perft;
pub mod play;
pub mod replay;
mod show;
pub mod tune;
mod validate;
mod variants;

use dama_engine::{FenOptions, LoadError, Loaded, Position};
use dama_play::source::VariantSource;

use crate::cli::{Cli, Command, EgtbCommand, Format};
use crate::error::CliError;
use crate::exit::Exit;
use crate::{json, out, render};

/// Runs the parsed command line and returns the exit code, which says so
/// when the output could not be written (`out::finish`).
pub fn run(cli: Cli) -> Exit {
    let code = dispatch(cli);
    out::finish(code)
}

fn dispatch(cli: Cli) -> Exit {
    let color_err = render::use_color(cli.color, render::stderr_tty());
    let color_out = render::use_color(cli.color, render::stdout_tty());
    // `validate --format json` reports every problem in its own array.
    let json = Format::Json
        == match &cli.command {
            Command::Variants { output } | Command::Show { output, .. } | Command::Moves { output, .. } => {
                output.format
            }
            Command::Replay(args) => args.output.format,
            Command::Analyze(args) => args.output.format,
            Command::Match(args) => args.output.format,
            _ => Format::Text,
        };
    let ctx = Ctx {
        color_err,
        color_out,
        json,
    };
    match cli.command {
        Command::Variants { output } => variants::run(&ctx, output.format),
        Command::Show { variant, output } => show::run(&ctx, &variant, output.format),
        Command::Validate { files, output } => validate::run(&ctx, &files, output.format),
        Command::Moves {
            variant,
            position,
            output,
        } => moves::run(
            &ctx,
            &variant,
            position.fen.as_deref(),
            position.fen_options(),
            output.format,
        ),
        Command::Perft {
            variant,
            position,
            depth,
            divide,
            count,
            threads,
        } => {
            let fen = (position.fen.as_deref(), position.fen_options());
            perft::run(&ctx, &variant, fen, depth, divide, count, threads)
        }
        Command::Play(args) => play::run(&ctx, args),
        Command::Replay(args) => replay::run(&ctx, args),
        Command::Analyze(args) => analyze::run(&ctx, args),
        Command::Match(args) => match_::run(&ctx, args),
        Command::Tune(args) => tune::run(&ctx, args),
        Command::Cases(args) => cases::run(&ctx, args),
        Command::Diagram(args) => diagram::run(&ctx, args),
        Command::Hub(args) => hub::run(&ctx, args),
        Command::Dxp(args) => dxp::run(&ctx, args),
        Command::Serve(args) => crate::serve::run(&ctx, args),
        Command::Egtb(EgtbCommand::Build {
            variant,
            pieces,
            material,
            only,
            dir,
            max_memory,
            threads,
        }) => {
            let what = (pieces, material.as_deref(), only);
            let run = || egtb::build(&ctx, &variant, what, dir, max_memory);
            if threads == 0 {
                run()
            } else {
                match rayon::ThreadPoolBuilder::new().num_threads(threads).build() {
                    Ok(pool) => pool.install(run),
                    Err(e) => CliError::system(format!("cannot start {threads} threads: {e}")).report(Some(&ctx)),
                }
            }
        }
        Command::Egtb(EgtbCommand::Probe { variant, fen, dir }) => egtb::probe(&ctx, &variant, &fen, dir),
        Command::Egtb(EgtbCommand::Stats { variant, material, dir }) => {
            egtb::stats(&ctx, &variant, material.as_deref(), dir)
        }
        Command::Completions { shell } => completions::completions(shell),
        Command::Man => completions::man(),
    }
}

/// What every command needs to know about the terminal.
#[derive(Debug, Clone, Copy)]
pub struct Ctx {
    /// Color on stderr.
    pub color_err: bool,
    /// Color on stdout.
    pub color_out: bool,
    /// `--format json`: errors are also written on stdout, as JSON (`json.rs`).
    pub json: bool,
}

impl Ctx {
    /// Prints a load failure to stderr.
    pub fn report_load_error(&self, e: &LoadError) {
        for d in &e.diagnostics {
            eprint!("{}", render::diagnostic(d, &e.files, self.color_err));
        }
    }

    /// With `--format json`, writes `errors` on stdout (the message for
    /// people goes to stderr as well, by the caller).
    pub fn json_errors(&self, errors: impl FnOnce() -> Vec<serde_json::Value>) {
        if self.json {
            json::print(errors());
        }
    }

    /// Writes `text`, a file of `kind`, to `path` atomically (a temporary
    /// file, then a rename; never over anything but a file of that kind:
    /// `savefile`); on failure says so on stderr (and as JSON with
    /// `--format json`).
    pub fn write_file(&self, path: &std::path::Path, text: &str, kind: crate::savefile::Kind) -> Result<(), Exit> {
        crate::savefile::write_atomic_as(path, text, kind).map_err(|e| self.write_error(path, &e))
    }

    /// Says on stderr (and as JSON with `--format json`) that `path` could
    /// not be written; the exit code.
    pub fn write_error(&self, path: &std::path::Path, e: &crate::savefile::SaveError) -> Exit {
        CliError::failed(json::Code::Write, format!("cannot write {}: {e}", path.display())).report(Some(self))
    }

    /// The appender of a game record given by `--pdn`, checked before
    /// anything is played (each game is added as it ends, so a session
    /// stopped at any point leaves every finished game); `None` without one.
    pub fn record_appender(&self, path: Option<&std::path::Path>) -> Result<Option<crate::savefile::Appender>, Exit> {
        let Some(path) = path else { return Ok(None) };
        crate::savefile::Appender::new(path, crate::savefile::Kind::GameRecord)
            .map(Some)
            .map_err(|e| self.write_error(path, &e))
    }

    /// Loads a variant as a user names it (a built-in id or alias, or a
    /// path: [`VariantSource::Named`]); prints diagnostics on failure.
    pub fn load_variant(&self, name: &str) -> Result<Loaded, Exit> {
        VariantSource::Named(name).load().map_err(|e| {
            self.report_load_error(&e);
            self.json_errors(|| json::load_error(&e));
            Exit::Failure
        })
    }

    /// The position given by `--fen`, or the initial one.
    pub fn position(&self, loaded: &Loaded, fen: Option<&str>) -> Result<Position, Exit> {
        self.read_position(loaded, fen, FenOptions::default(), false)
    }

    /// The position given by `--fen`, read with `options`, or the initial one,
    /// for a command with `--allow-men-on-promotion-rank`: a FEN that only
    /// that option would accept says so.
    pub fn position_with(&self, loaded: &Loaded, fen: Option<&str>, options: FenOptions) -> Result<Position, Exit> {
        self.read_position(loaded, fen, options, true)
    }

    fn read_position(
        &self,
        loaded: &Loaded,
        fen: Option<&str>,
        options: FenOptions,
        has_allow_option: bool,
    ) -> Result<Position, Exit> {
        match fen {
            None => Ok(loaded.rules.start_position()),
            Some(f) => loaded.rules.parse_fen_with(f, options).map_err(|e| {
                let mut error = CliError::failed(json::Code::Fen, e.to_string()).at("--fen", 1, e.column, &e.message);
                // (rel, issue 7) A hostile FEN is not echoed back whole.
                if f.chars().count() <= 200 && !f.contains(char::is_control) {
                    error = error
                        .line(format!("  {f}"))
                        .line(format!("  {}^", " ".repeat(e.column.saturating_sub(1))));
                }
                // (issue 37) Refused only for its men on their promotion rank.
                let allowed = FenOptions {
                    allow_men_on_promotion_rank: true,
                };
                if has_allow_option
                    && !options.allow_men_on_promotion_rank
                    && loaded.rules.parse_fen_with(f, allowed).is_ok()
                {
                    error = error.help(
                        "to study this position, pass --allow-men-on-promotion-rank: the men stay men until a move crowns them",
                    );
                }
                error.report(Some(self))
            }),
        }
    }
}

/// The largest `--openings-file` read: a million openings of a line each.
pub(crate) const MAX_OPENINGS_BYTES: u64 = 16 << 20;
/// The largest `tune --positions` PDN read: tens of thousands of games.
pub(crate) const MAX_POSITIONS_BYTES: u64 = 64 << 20;

/// The text of the file `path`, read only up to `limit` bytes: a larger
/// file (or a device that never ends) is refused with a message that says
/// so, rather than read whole into memory; `what` names the option.
pub(crate) fn read_text_bounded(path: &std::path::Path, limit: u64, what: &str) -> Result<String, String> {
    use std::io::Read;
    let shown = path.display();
    let too_big = || format!("{shown} is larger than {limit} bytes, the most {what} reads");
    let f = std::fs::File::open(path).map_err(|e| format!("cannot read {shown}: {e}"))?;
    if f.metadata().is_ok_and(|m| m.is_dir()) {
        return Err(format!("cannot read {shown}: it is a directory"));
    }
    if f.metadata().is_ok_and(|m| m.len() > limit) {
        return Err(too_big());
    }
    let mut bytes = Vec::new();
    f.take(limit + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| format!("cannot read {shown}: {e}"))?;
    if bytes.len() as u64 > limit {
        return Err(too_big());
    }
    String::from_utf8(bytes).map_err(|e| format!("{shown} is not UTF-8 text (byte {})", e.utf8_error().valid_up_to()))
}
