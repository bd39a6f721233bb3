//! Game records as the commands read them (`replay`, `analyze`): the file or
//! standard input within its limit, the variant each game names (loaded
//! once), the replay to the record's end, and the errors and warnings said
//! where they are.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use dama_engine::pdn;
use dama_engine::pdn::{PdnError, PdnGame};
use dama_engine::Loaded;
use dama_engine::{Game, Rules};
use dama_play::source::RecordRules;

use crate::commands::Ctx;
use crate::error::CliError;
use crate::exit::Exit;
use crate::json;
use crate::json::Code;
use crate::render;

/// Largest record read, in bytes.
const MAX_PDN_BYTES: u64 = 64 << 20;

/// What a record without a game lacks.
pub const NO_GAME_HELP: &str = "a PDN game is tags such as [Event \"?\"] and moves ending with a result";

/// Warns on stderr when game `n` of `file` went on after the rules ended
/// it, naming the ply and the rule; returns the warning as a JSON
/// diagnostic (code `past-end`) for the JSON output.
pub fn warn_past_end(file: &str, n: usize, g: &PdnGame, game: &Game) -> Option<serde_json::Value> {
    let pe = g.past_end(game)?;
    let name = if file == "-" { "<stdin>" } else { file };
    let message = format!(
        "game {n}: the rules ended the game before `{}` (ply {}, move {}): {}; the record goes on and is replayed to its end",
        pe.text, pe.ply, pe.move_number, pe.outcome
    );
    eprintln!("warning: {message}\n  --> {name}:{}:{}", pe.line, pe.column);
    Some(serde_json::json!({
        "severity": "warning",
        "code": "past-end",
        "message": message,
        "ply": pe.ply,
        "rule": pe.outcome.reason.to_string(),
        "location": {"file": name, "line": pe.line, "column": pe.column},
    }))
}

/// The games of one record replayed one by one under the rules each is
/// played under ([`RecordRules`]: `--variant`, else what the game names),
/// a failure reported where it is (the record's line and column).
pub(crate) struct Replayer<'a> {
    ctx: &'a Ctx,
    file: &'a str,
    text: &'a str,
    rules: RecordRules,
    forced: Option<Arc<Rules>>,
    base_dir: Option<PathBuf>,
    strict: bool,
}

impl<'a> Replayer<'a> {
    /// For the record `text` read from `file` (`-`: standard input), under
    /// `forced` (`--variant`) when given; `strict` refuses moves after an end.
    pub(crate) fn new(ctx: &'a Ctx, file: &'a str, text: &'a str, forced: Option<&Loaded>, strict: bool) -> Self {
        let base_dir = (file != "-")
            .then(|| Path::new(file).parent().map(Path::to_path_buf))
            .flatten();
        let forced = forced.map(|l| Arc::new(l.rules.clone()));
        let rules = match &forced {
            Some(r) => RecordRules::given(Arc::clone(r)),
            None => RecordRules::named(base_dir.as_deref()),
        };
        Replayer {
            ctx,
            file,
            text,
            rules,
            forced,
            base_dir,
            strict,
        }
    }

    /// Game `n` (from 1), `g`, replayed; a failure is reported.
    pub(crate) fn replay(&mut self, n: usize, g: &PdnGame) -> Result<Game, Exit> {
        if let Some(forced) = &self.forced {
            if let Some(named) = g.variant_name(self.base_dir.as_deref()) {
                if named != forced.id() && g.tag("VariantFile").is_none() {
                    eprintln!(
                        "note: game {n} names variant `{named}`; replaying it as `{}` as asked by --variant",
                        forced.id()
                    );
                }
            }
        }
        self.rules.replay(g, self.strict).map_err(|e| {
            report(self.ctx, self.file, self.text, &e);
            if let PdnError::Variant { load: None, .. } = e {
                eprintln!("  = help: give the variant with --variant, e.g. --variant dama");
            }
            Exit::Failure
        })
    }
}

pub fn read_input(file: &str) -> Result<String, String> {
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

/// Prints a PDN error with the line of the record and a caret under the column.
pub fn report(ctx: &Ctx, file: &str, text: &str, e: &PdnError) {
    let name = if file == "-" { "<stdin>" } else { file };
    eprint!("{}", render::pdn_error(name, text, e, ctx.color_err));
    if let PdnError::Variant { load: Some(le), .. } = e {
        ctx.report_load_error(le);
    }
    ctx.json_errors(|| json::pdn_error(name, e));
}

/// Reads and replays every game of the record (all of them before any is
/// analysed, so that a bad record fails at once), and the variant given by
/// `--variant` (`variant`).
pub(crate) fn read_records(
    ctx: &Ctx,
    file: &str,
    variant: Option<&str>,
    strict: bool,
) -> Result<(Vec<Record>, Option<Loaded>), Exit> {
    let text = read_input(file).map_err(|msg| CliError::failed(Code::Read, msg).report(Some(ctx)))?;
    let forced: Option<Loaded> = match variant {
        Some(v) => Some(ctx.load_variant(v)?),
        None => None,
    };
    let mut replayer = Replayer::new(ctx, file, &text, forced.as_ref(), strict);
    let mut records = Vec::new();
    for g in pdn::games(&text) {
        let g = g.map_err(|e| {
            report(ctx, file, &text, &e);
            Exit::Failure
        })?;
        let game = replayer.replay(records.len() + 1, &g)?;
        let warning = warn_past_end(file, records.len() + 1, &g, &game);
        records.push(Record { pdn: g, game, warning });
    }
    if records.is_empty() {
        return Err(CliError::failed(Code::NoGame, format!("{}: no game found", file))
            .help(NO_GAME_HELP)
            .report(Some(ctx)));
    }
    Ok((records, forced))
}

/// One game of the record, replayed.
pub(crate) struct Record {
    pub(crate) pdn: PdnGame,
    pub(crate) game: Game,
    /// Where the record went on after the rules ended the game, as JSON.
    pub(crate) warning: Option<serde_json::Value>,
}

/// The openings of `--openings-file`, or a message saying where it is wrong.
pub(crate) fn read_openings_file(
    ctx: &Ctx,
    rules: &dama_engine::Rules,
    path: &std::path::Path,
) -> Result<Vec<dama_play::Opening>, Exit> {
    let fail = |msg: String, code: Code| CliError::failed(code, msg).report(Some(ctx));
    let text = crate::commands::read_text_bounded(path, crate::commands::MAX_OPENINGS_BYTES, "--openings-file")
        .map_err(|e| fail(e, Code::Read))?;
    dama_play::read_openings(rules, &text)
        .map_err(|e| fail(format!("--openings-file {}: {e}", path.display()), Code::Read))
}
