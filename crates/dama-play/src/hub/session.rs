//! The Hub protocol's engine side (version 2, as spoken by Scan 3.x and
//! the Hub GUI): the session's state machine. It reads one command line at
//! a time and answers through [`HubIo`]; a search runs on a thread of its
//! own, which sends the `info` lines and the final `done`. While it runs,
//! `ping` is answered and `stop` honoured (through the engine's stop flag);
//! any other command waits for the search to end (a search without limits,
//! `level infinite`, is stopped first), so a script that pipes a whole
//! session in gets every search to its end. The transport (standard input
//! and output, bounded lines) is the front end's: `dama hub`.

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Duration;

use dama_engine::text::clip;

use dama_engine::egtb::Tablebase;
use dama_engine::search::{MATE, MATE_BOUND, MAX_PLY};
use dama_engine::source::BUILTIN;
use dama_engine::{Engine, Limits, LoadError, Position, Rules, SearchResult, SearchRoot, Severity};

use super::notation::{HubBoard, HubNotation};
use crate::config::{check_tables, EngineConfig};
use crate::source::VariantSource;

/// Largest transposition table accepted by `tt-size`, in megabytes.
const MAX_TT_MB: usize = 1024;
/// Transposition table size until `tt-size` says otherwise, in megabytes.
const DEFAULT_TT_MB: usize = 16;
/// Longest message sent in an `error` line, in characters.
const MAX_MESSAGE: usize = 400;
/// Deepest `level depth=` accepted.
const MAX_DEPTH: u32 = MAX_PLY as u32 - 8;
/// Longest time accepted in `level`, in seconds (a year).
const MAX_SECONDS: f64 = 365.0 * 24.0 * 3600.0;

/// Where a session's lines go: `send` for the protocol's answers (from the
/// session and from its search thread), `warn` for what a person should
/// read (a folder of tables without the variant's tables).
#[derive(Clone)]
pub struct HubIo {
    /// Writes one protocol line.
    pub send: Arc<dyn Fn(&str) + Send + Sync>,
    /// Says one warning.
    pub warn: Arc<dyn Fn(&str) + Send + Sync>,
}

impl std::fmt::Debug for HubIo {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("HubIo")
    }
}

impl HubIo {
    fn send(&self, line: &str) {
        (self.send)(line);
    }

    /// `error message="..."`, the message on one line and clipped.
    fn error(&self, message: &str) {
        let mut m: String = message.chars().take(MAX_MESSAGE).collect();
        if m.len() < message.len() {
            m.push('…');
        }
        self.send(&format!("error message={}", quoted(&m)));
    }

    fn warn(&self, text: &str) {
        (self.warn)(text);
    }
}

/// Whether to go on reading.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HubFlow {
    /// Read the next line.
    Continue,
    /// `quit`: stop reading.
    Quit,
}

/// A search running on its own thread.
#[derive(Debug)]
struct Running {
    handle: JoinHandle<Engine>,
    stop: Arc<AtomicBool>,
    infinite: bool,
}

/// The search limits set by `level`.
#[derive(Debug, Clone)]
struct Level {
    limits: Limits,
    infinite: bool,
}

/// The engine's state between commands: the variant, the position, the
/// limits, the engine and its running search.
#[derive(Debug)]
pub struct HubSession {
    board: HubBoard,
    /// The `variant-file` parameter, when the variant came from a file.
    file: Option<String>,
    tt_mb: usize,
    /// The `egtb` parameter: the folder of endgame tables, if any.
    egtb: Option<PathBuf>,
    /// The seed, weights and search switches from the command line.
    base: EngineConfig,
    /// Where lines go.
    io: HubIo,
    /// Built at `init` (or at the first search); away while a search runs.
    engine: Option<Engine>,
    /// The positions of the game set by `pos`, first to current; the reason
    /// when the last `pos` was refused.
    game: Result<Vec<Position>, String>,
    level: Level,
    search: Option<Running>,
}

impl HubSession {
    /// A session for `rules` (read from `file`, when not built in): its
    /// engines set up with `base` (seed, weights, switches), its lines
    /// sent through `io`.
    pub fn new(rules: Rules, file: Option<String>, base: EngineConfig, io: HubIo) -> HubSession {
        let rules = Arc::new(rules);
        let start = rules.start_position();
        HubSession {
            io,
            board: HubBoard::new(rules, HubNotation::Auto),
            file,
            tt_mb: DEFAULT_TT_MB,
            egtb: None,
            base,
            engine: None,
            game: Ok(vec![start]),
            level: Level {
                limits: crate::LimitsRequest::default().limits(),
                infinite: false,
            },
            search: None,
        }
    }

    /// The variant played.
    pub fn rules(&self) -> &Rules {
        self.board.rules()
    }

    /// A new engine: the transposition table's size and the tables as set.
    fn new_engine(&self) -> Engine {
        EngineConfig {
            table_mb: Some(self.tt_mb),
            tables: self.egtb.clone(),
            ..self.base.clone()
        }
        .engine(self.rules())
    }

    /// Says on stderr when the tables' folder holds nothing for the variant.
    fn warn_without_tables(&self) {
        if let Some(dir) = &self.egtb {
            if let Ok(check) = check_tables(self.rules(), dir) {
                for w in &check.warnings {
                    self.io.warn(w);
                }
            }
        }
    }

    /// Whether a search is still running.
    fn searching(&self) -> bool {
        self.search.as_ref().is_some_and(|s| !s.handle.is_finished())
    }

    /// Waits for the running search (stopping it first if it has no
    /// limits) and takes the engine back.
    pub fn wait_for_search(&mut self) {
        if let Some(s) = self.search.take() {
            if s.infinite {
                s.stop.store(true, Ordering::Relaxed);
            }
            match s.handle.join() {
                Ok(mut engine) => {
                    engine.set_stop_flag(None);
                    self.engine = Some(engine);
                }
                // The search thread already said so and sent `done`.
                Err(_) => self.engine = None,
            }
        }
    }

    /// Answers one line of the GUI.
    pub fn handle(&mut self, line: &str) -> HubFlow {
        let cmd = match Command::parse(line) {
            Ok(Some(c)) => c,
            Ok(None) => return HubFlow::Continue,
            Err(e) => {
                if !self.searching() {
                    self.io.error(&e);
                }
                return HubFlow::Continue;
            }
        };
        if self.searching() {
            match cmd.name.as_str() {
                "ping" => {
                    self.io.send("pong");
                    return HubFlow::Continue;
                }
                "stop" => {
                    if let Some(s) = &self.search {
                        s.stop.store(true, Ordering::Relaxed);
                    }
                    return HubFlow::Continue;
                }
                // Pondering is searched as thinking: nothing changes on a hit.
                "ponder-hit" => return HubFlow::Continue,
                _ => {}
            }
        }
        self.wait_for_search();
        match cmd.name.as_str() {
            "hub" => self.hello(),
            "set-param" => self.set_param(&cmd),
            "init" => {
                self.engine = Some(self.new_engine());
                self.io.send("ready");
            }
            "new-game" => {
                if let Some(e) = &mut self.engine {
                    e.clear();
                }
            }
            "ping" => self.io.send("pong"),
            "pos" => self.pos(&cmd),
            "level" => self.set_level(&cmd),
            "go" => self.go(),
            "quit" => return HubFlow::Quit,
            // `stop` and `ponder-hit` with no search running, and anything
            // not understood, are ignored.
            _ => {}
        }
        HubFlow::Continue
    }

    fn hello(&self) {
        self.io
            .send(&format!("id name=dama version={}", value(env!("CARGO_PKG_VERSION"))));
        let ids: Vec<&str> = BUILTIN.iter().map(|(id, _)| *id).collect();
        self.io.send(&format!(
            "param name=variant value={} type=enum values={}",
            value(self.rules().id()),
            value(&ids.join(" "))
        ));
        self.io.send(&format!(
            "param name=variant-file value={} type=string",
            value(self.file.as_deref().unwrap_or(""))
        ));
        self.io.send(&format!(
            "param name=notation value={} type=enum values={}",
            self.board.notation().name(),
            value(HubNotation::NAMES)
        ));
        self.io.send(&format!(
            "param name=tt-size value={} type=int min=1 max={MAX_TT_MB}",
            self.tt_mb
        ));
        self.io.send(&format!(
            "param name=egtb value={} type=string",
            value(&self.egtb.as_ref().map(|d| d.display().to_string()).unwrap_or_default())
        ));
        self.io.send("wait");
    }

    fn set_param(&mut self, cmd: &Command) {
        let (Some(name), Some(val)) = (cmd.get("name"), cmd.get("value")) else {
            self.io.error("set-param: expected name=... value=...");
            return;
        };
        match name {
            "variant" => match VariantSource::Builtin(val).load() {
                Ok(l) => self.set_rules(l.rules, None),
                Err(e) => self.io.error(&format!("variant: {}", load_error_text(&e))),
            },
            "variant-file" => {
                if val.trim().is_empty() {
                    return;
                }
                // A file, even one named like a built-in variant.
                match VariantSource::File(std::path::Path::new(val)).load() {
                    Ok(l) => self.set_rules(l.rules, Some(val.to_string())),
                    Err(e) => self.io.error(&format!("variant-file: {}", load_error_text(&e))),
                }
            }
            "notation" => match HubNotation::parse(val) {
                Some(n) => self.board.set_notation(n),
                None => self.io.error(&format!(
                    "notation: `{}` is not one of {}",
                    clip(val),
                    HubNotation::NAMES
                )),
            },
            "tt-size" => match val.trim().parse::<usize>() {
                Ok(mb) if (1..=MAX_TT_MB).contains(&mb) => {
                    if mb != self.tt_mb {
                        self.tt_mb = mb;
                        if self.engine.is_some() {
                            self.engine = Some(self.new_engine());
                        }
                    }
                }
                _ => self.io.error(&format!(
                    "tt-size: `{}` is not a size in megabytes from 1 to {MAX_TT_MB}",
                    clip(val)
                )),
            },
            "egtb" => {
                if val.trim().is_empty() {
                    self.egtb = None;
                } else {
                    let dir = PathBuf::from(val);
                    match check_tables(self.rules(), &dir) {
                        Err(e) => {
                            self.io.error(&format!("egtb: {e}"));
                            return;
                        }
                        Ok(check) => {
                            for w in &check.warnings {
                                self.io.warn(w);
                            }
                            self.egtb = Some(dir);
                        }
                    }
                }
                if let Some(e) = &mut self.engine {
                    e.set_tables(self.egtb.as_deref().map(|d| Tablebase::open(self.board.rules(), d)));
                }
            }
            // Parameters not declared are ignored.
            _ => {}
        }
    }

    /// A new variant: a new engine (at once if one was built), the new
    /// initial position.
    fn set_rules(&mut self, rules: Rules, file: Option<String>) {
        let rules = Arc::new(rules);
        self.game = Ok(vec![rules.start_position()]);
        self.board = HubBoard::new(rules, self.board.notation());
        self.file = file;
        if self.engine.is_some() {
            self.engine = Some(self.new_engine());
        }
        self.warn_without_tables();
    }

    fn pos(&mut self, cmd: &Command) {
        self.game = self.read_game(cmd);
        if let Err(e) = &self.game {
            self.io.error(e);
        }
    }

    fn read_game(&self, cmd: &Command) -> Result<Vec<Position>, String> {
        let start = match (cmd.get("pos"), cmd.get("fen")) {
            (Some(p), _) => self.board.parse_position(p.trim()).map_err(|e| format!("pos: {e}"))?,
            (None, Some(f)) => self.rules().parse_fen(f).map_err(|e| format!("pos: {e}"))?,
            (None, None) => self.rules().start_position(),
        };
        let mut game = vec![start];
        let mut pos = start;
        for (i, text) in cmd.get("moves").unwrap_or("").split_whitespace().enumerate() {
            let m = self
                .board
                .resolve(&pos, text)
                .map_err(|e| format!("pos: move {} of moves: {e}", i + 1))?;
            pos.play(&m);
            game.push(pos);
        }
        Ok(game)
    }

    fn set_level(&mut self, cmd: &Command) {
        match read_level(cmd) {
            Ok(l) => self.level = l,
            Err(e) => self.io.error(&format!("level: {e}")),
        }
    }

    fn go(&mut self) {
        let root = match &self.game {
            Ok(g) => SearchRoot::from_history(g),
            Err(_) => None,
        };
        let Some(root) = root else {
            self.io.error("go: no position to search (the last pos was refused)");
            self.io.send("done");
            return;
        };
        // Only a side without a capture can be without a move: asking that
        // first spares listing every capture of a position whose capture
        // tree is huge (the search bounds that listing by its limits).
        if !self.rules().has_capture(&root.pos) && self.rules().legal_moves(&root.pos).is_empty() {
            let end = self.rules().no_move_outcome(&root.pos);
            self.io
                .error(&format!("go: the side to move has no legal move ({end})"));
            self.io.send("done");
            return;
        }
        let mut engine = match self.engine.take() {
            Some(e) => e,
            None => self.new_engine(),
        };
        let stop = Arc::new(AtomicBool::new(false));
        engine.set_stop_flag(Some(Arc::clone(&stop)));
        let limits = self.level.limits.clone();
        let board = self.board.clone();
        let io = self.io.clone();
        let spawned = std::thread::Builder::new()
            .name("search".into())
            .stack_size(crate::SEARCH_STACK)
            .spawn(move || search(engine, &board, &root, &limits, &io));
        match spawned {
            Ok(handle) => {
                self.search = Some(Running {
                    handle,
                    stop,
                    infinite: self.level.infinite,
                })
            }
            Err(e) => {
                self.io.error(&format!("go: cannot start the search: {e}"));
                self.io.send("done");
            }
        }
    }
}

/// Runs one search, printing `info` after every iteration and `done` at
/// the end; gives the engine back.
fn search(mut engine: Engine, board: &HubBoard, root: &SearchRoot, limits: &Limits, io: &HubIo) -> Engine {
    let run = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        engine.search_reporting(root, limits, &mut |r| io.send(&info_line(board, r)))
    }));
    match run {
        Ok(r) => {
            let mut line = "done".to_string();
            for (key, m) in ["move", "ponder"].into_iter().zip(r.best.iter().chain(r.pv.get(1))) {
                line.push_str(&format!(" {key}={}", value(&board.format_move(m))));
            }
            io.send(&line);
            engine
        }
        Err(_) => {
            io.error("the search failed");
            io.send("done");
            Engine::with_table_size(board.rules(), DEFAULT_TT_MB)
        }
    }
}

/// `info depth=... score=... nodes=... time=... nps=... pv="..."`: the
/// score in men (a forced win in n plies is 100 - n/100, as Scan writes
/// it), the time in seconds, the speed in millions of nodes per second.
fn info_line(board: &HubBoard, r: &SearchResult) -> String {
    let secs = r.elapsed.as_secs_f64();
    let pv: Vec<String> = r.pv.iter().map(|m| board.format_move(m)).collect();
    format!(
        "info depth={} seldepth={} score={} nodes={} time={:.3} nps={:.2} pv={}",
        r.depth,
        r.seldepth,
        hub_score(r.score),
        r.nodes,
        secs,
        if secs > 0.0 { r.nodes as f64 / secs / 1e6 } else { 0.0 },
        quoted(&pv.join(" "))
    )
}

/// A score in men with two decimals; forced results as Scan writes them.
fn hub_score(score: i32) -> String {
    let centi = if score > MATE_BOUND {
        10_000 - (MATE - score)
    } else if score < -MATE_BOUND {
        -(10_000 - (MATE + score))
    } else {
        score
    };
    let sign = if centi < 0 { "-" } else { "" };
    format!("{sign}{}.{:02}", centi.abs() / 100, centi.abs() % 100)
}

/// Reads the arguments of `level`.
fn read_level(cmd: &Command) -> Result<Level, String> {
    if cmd.has("infinite") {
        return Ok(Level {
            limits: Limits {
                depth: None,
                movetime: None,
                nodes: None,
                noise: 0,
            },
            infinite: true,
        });
    }
    let mut limits = crate::LimitsRequest::default();
    if let Some(d) = cmd.get("depth") {
        let d: u32 = d
            .trim()
            .parse()
            .ok()
            .filter(|d| (1..=MAX_DEPTH).contains(d))
            .ok_or_else(|| format!("depth=`{}` is not a depth from 1 to {MAX_DEPTH}", clip(d)))?;
        limits.depth = Some(d);
    }
    if let Some(n) = cmd.get("nodes") {
        let n: u64 = n
            .trim()
            .parse()
            .ok()
            .filter(|&n| n >= 1)
            .ok_or_else(|| format!("nodes=`{}` is not a positive number of nodes", clip(n)))?;
        limits.nodes = Some(n);
    }
    if let Some(t) = cmd.get("move-time") {
        limits.movetime = Some(duration(seconds("move-time", t)?));
    }
    if let Some(t) = cmd.get("time") {
        let time = seconds("time", t)?;
        let inc = match cmd.get("inc") {
            Some(i) => seconds("inc", i)?,
            None => 0.0,
        };
        let moves = match cmd.get("moves") {
            Some(m) => Some(
                m.trim()
                    .parse::<u32>()
                    .map_err(|_| format!("moves=`{}` is not a number of moves", clip(m)))?,
            ),
            None => None,
        };
        let budget = duration(move_budget(time, inc, moves));
        limits.movetime = Some(limits.movetime.map_or(budget, |t| t.min(budget)));
    }
    if !limits.is_explicit() {
        return Err(
            "expected depth=N, move-time=SECONDS, time=SECONDS [inc=SECONDS] [moves=N], nodes=N or infinite".into(),
        );
    }
    Ok(Level {
        limits: limits.limits(),
        infinite: false,
    })
}

/// The time for this move out of `time` seconds left, `inc` added per move
/// (already added for this one, as the protocol says) and `moves` left to
/// the next time control (sudden death when absent: 30 are assumed).
/// Never more than half the clock, nor 80 % of it for the last move before
/// a control.
fn move_budget(time: f64, inc: f64, moves: Option<u32>) -> f64 {
    let avail = time + inc;
    let left = match moves {
        Some(n) if n >= 1 => f64::from(n.min(50)),
        _ => 30.0,
    };
    let share = time / left + inc;
    let cap = if left <= 1.0 { avail * 0.8 } else { avail * 0.5 };
    share.min(cap).max(0.01)
}

fn seconds(name: &str, text: &str) -> Result<f64, String> {
    text.trim()
        .parse::<f64>()
        .ok()
        .filter(|s| s.is_finite() && *s >= 0.0)
        .map(|s| s.min(MAX_SECONDS))
        .ok_or_else(|| format!("{name}=`{}` is not a number of seconds", clip(text)))
}

fn duration(secs: f64) -> Duration {
    Duration::try_from_secs_f64(secs.max(0.001)).unwrap_or(Duration::from_secs(1))
}

/// A command line: the command and its `name=value` arguments (a flag has no value).
#[derive(Debug)]
struct Command {
    name: String,
    args: Vec<(String, Option<String>)>,
}

impl Command {
    /// Reads a line; `Ok(None)` for a blank one.
    fn parse(line: &str) -> Result<Option<Command>, String> {
        let mut rest = line.trim_start();
        if rest.is_empty() {
            return Ok(None);
        }
        let name = take_name(&mut rest);
        if name.is_empty() {
            return Err(format!(
                "cannot read the command: unexpected `{}`",
                shown(rest.chars().next().unwrap_or(' '))
            ));
        }
        let mut args = Vec::new();
        loop {
            rest = rest.trim_start();
            if rest.is_empty() {
                break;
            }
            let arg = take_name(&mut rest);
            if arg.is_empty() {
                return Err(format!(
                    "{name}: unexpected `{}`",
                    shown(rest.chars().next().unwrap_or(' '))
                ));
            }
            rest = rest.trim_start();
            let val = if let Some(after) = rest.strip_prefix('=') {
                rest = after.trim_start();
                if let Some(quoted) = rest.strip_prefix('"') {
                    let Some(end) = quoted.find('"') else {
                        return Err(format!("{name}: the value of {arg} has no closing quote"));
                    };
                    let v = quoted[..end].to_string();
                    rest = &quoted[end + 1..];
                    Some(v)
                } else {
                    Some(take_name(&mut rest).to_string())
                }
            } else {
                None
            };
            args.push((arg.to_string(), val));
        }
        Ok(Some(Command {
            name: name.to_string(),
            args,
        }))
    }

    /// The value of argument `name` (the last one given); a flag reads as "".
    fn get(&self, name: &str) -> Option<&str> {
        self.args
            .iter()
            .rev()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_deref().unwrap_or(""))
    }

    fn has(&self, name: &str) -> bool {
        self.args.iter().any(|(n, _)| n == name)
    }
}

/// Characters of a name or a bare value: anything but blanks, controls, `=` and `"`.
fn is_id(c: char) -> bool {
    !c.is_control() && !c.is_whitespace() && c != '=' && c != '"'
}

fn take_name<'a>(rest: &mut &'a str) -> &'a str {
    let end = rest.find(|c: char| !is_id(c)).unwrap_or(rest.len());
    let (name, after) = rest.split_at(end);
    *rest = after;
    name
}

/// A value as the protocol writes it: bare when it can be, else in double
/// quotes (the protocol has no escapes, so a `"` inside becomes `'`).
fn value(s: &str) -> String {
    if !s.is_empty() && s.chars().all(is_id) {
        s.to_string()
    } else {
        quoted(s)
    }
}

fn quoted(s: &str) -> String {
    let clean: String = s
        .chars()
        .map(|c| match c {
            '"' => '\'',
            c if c.is_control() => ' ',
            c => c,
        })
        .collect();
    format!("\"{clean}\"")
}

/// A character as shown in a message.
fn shown(c: char) -> String {
    if c.is_control() {
        format!("U+{:04X}", c as u32)
    } else {
        c.to_string()
    }
}

/// At most 40 characters of user text, for messages (control characters
/// as `�`, as everywhere text from a user is shown).
/// The first error of a failed load, in one line, and how many more there are.
fn load_error_text(e: &LoadError) -> String {
    let errors: Vec<_> = e.diagnostics.iter().filter(|d| d.severity == Severity::Error).collect();
    let Some(first) = errors.first() else {
        return "the variant cannot be loaded".into();
    };
    let more = match errors.len() {
        1 => String::new(),
        2 => " (and 1 more problem: `dama validate` lists them all)".into(),
        n => format!(" (and {} more problems: `dama validate` lists them all)", n - 1),
    };
    format!("{first}{more}")
}

impl HubSession {
    /// The search limits until `level` changes them.
    pub fn set_limits(&mut self, limits: Limits) {
        self.level = Level {
            limits,
            infinite: false,
        };
    }

    /// The folder of endgame tables, checked by the caller (`egtb` until
    /// `set-param name=egtb` changes it).
    pub fn set_tables(&mut self, dir: Option<PathBuf>) {
        self.egtb = dir;
    }

    /// Refuses a line of `bytes` bytes, longer than the front end reads
    /// (`max` bytes), once the running search is over.
    pub fn refuse_line(&mut self, bytes: usize, max: usize) {
        self.wait_for_search();
        self.io.error(&format!(
            "the line is {bytes} bytes long; the longest line read is {max} bytes"
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_hub_lines() {
        let c = Command::parse(r#"pos pos=Wbbe moves="a1-a2 b2xb4xb3"  fen = "W:Wa1""#)
            .unwrap()
            .unwrap();
        assert_eq!(c.name, "pos");
        assert_eq!(c.get("pos"), Some("Wbbe"));
        assert_eq!(c.get("moves"), Some("a1-a2 b2xb4xb3"));
        assert_eq!(c.get("fen"), Some("W:Wa1"));
        let c = Command::parse("level infinite").unwrap().unwrap();
        assert!(c.has("infinite"));
        assert_eq!(c.get("infinite"), Some(""));
        assert!(Command::parse("   ").unwrap().is_none());
        assert!(Command::parse(r#"pos pos="W"#).is_err());
        assert!(Command::parse("=x").is_err());
    }

    #[test]
    fn writes_values_and_scores() {
        assert_eq!(value("dama"), "dama");
        assert_eq!(value(""), "\"\"");
        assert_eq!(value("a b"), "\"a b\"");
        assert_eq!(value("say \"hi\""), "\"say 'hi'\"");
        assert_eq!(hub_score(125), "1.25");
        assert_eq!(hub_score(-5), "-0.05");
        assert_eq!(hub_score(0), "0.00");
        assert_eq!(hub_score(MATE - 7), "99.93");
        assert_eq!(hub_score(-(MATE - 4)), "-99.96");
    }

    #[test]
    fn budgets_stay_within_the_clock() {
        assert!((move_budget(60.0, 0.0, None) - 2.0).abs() < 1e-9);
        assert!((move_budget(60.0, 1.0, None) - 3.0).abs() < 1e-9);
        assert!((move_budget(10.0, 0.0, Some(1)) - 8.0).abs() < 1e-9);
        assert!((move_budget(10.0, 0.0, Some(5)) - 2.0).abs() < 1e-9);
        assert!(move_budget(0.0, 0.0, None) >= 0.01);
        assert!(move_budget(1.0, 10.0, None) <= 5.5);
    }
}
