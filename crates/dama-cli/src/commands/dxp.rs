//! `dama dxp VARIANT --listen | --connect HOST:PORT`: the DamExchange
//! protocol (DXP) over TCP, as a follower (an engine that waits for games)
//! or as an initiator (which proposes a match of N games and writes them
//! to a PDN file). docs/dxp.md describes the protocol and the options.
//!
//! The messages, the square numbers, positions and moves, and the game
//! state machine (`DxpSession`) come from `dama_play::dxp`; the rules, the
//! end of a game and the search from the engine. This module is the
//! transport: it frames messages (NUL-terminated, bounded), keeps the
//! connection (a `DxpLink`), runs the match and writes its record.
//!
//! A peer that sends something that is not a DXP message gets a CHAT saying
//! why and the session goes on (stderr says so for the first
//! `MAX_REPORTED` of them, then counts the rest); one whose message has no
//! end in sight (more than `MAX_FRAME` bytes without a NUL, or not whole
//! within `MESSAGE_DEADLINE` of its first byte), that stays silent longer
//! than `--timeout`, that does not read what we send for as long, or that
//! breaks the connection is disconnected with a message on stderr. The
//! listener then waits for the next connection.

use std::io::{ErrorKind, Read, Write};
use std::net::{TcpListener, TcpStream, ToSocketAddrs};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use dama_engine::pdn::PdnTags;
use dama_engine::{Color, GameResult};
use dama_play::dxp::{
    DxpBoard, DxpIncoming, DxpLink, DxpMessage, DxpRole, DxpSession, DxpSessionError, DxpSettings, DXP_MAX_MESSAGE,
    DXP_PORT,
};
use dama_play::EngineConfig;

use super::Ctx;
use crate::engine_setup::EngineArgs;
use crate::error::CliError;
use crate::exit::Exit;
use crate::out::outln;
use crate::savefile::DateTime;

/// Arguments of `dama dxp`.
#[derive(Debug, clap::Args)]
#[command(after_help = "\
Speaks DamExchange (DXP) over TCP: GAMEREQ, GAMEACC, MOVE, GAMEEND, CHAT, BACKREQ, BACKACC. \
Squares are numbered in the standard order (1-50 on the international board). \
Examples: `dama dxp international --listen` (an engine on 127.0.0.1:27531); \
`dama dxp international --connect 127.0.0.1:27531 --games 10 --time 5 --pdn match.pdn`. \
See docs/dxp.md.")]
pub struct DxpArgs {
    /// A built-in variant or a path to a .toml file (its board must have at
    /// most 83 playable squares).
    #[arg(default_value = "international")]
    pub variant: String,
    /// Be a follower: wait for connections and play the games asked for.
    #[arg(long, conflicts_with = "connect", required_unless_present = "connect")]
    pub listen: bool,
    /// Be the initiator: connect to the engine at HOST:PORT and play a match.
    #[arg(long, value_name = "HOST:PORT")]
    pub connect: Option<String>,
    /// The address to listen on (with --listen).
    #[arg(long, default_value = "127.0.0.1", requires = "listen")]
    pub host: String,
    /// The port to listen on (with --listen; 0: any free port, printed on stderr).
    #[arg(long, default_value_t = DXP_PORT, requires = "listen")]
    pub port: u16,
    /// With --listen: stop after the first connection ends.
    #[arg(long, requires = "listen")]
    pub once: bool,
    /// The number of games of the match (the initiator alternates colours, White first).
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u32).range(1..=10_000))]
    pub games: u32,
    /// Thinking time per player and game, in minutes (sent in GAMEREQ; the engine spends it).
    #[arg(long, value_name = "MINUTES", default_value_t = 1, value_parser = clap::value_parser!(u16).range(0..=999))]
    pub time: u16,
    /// Start every game from this position (PDN FEN; sent in GAMEREQ).
    #[arg(long, requires = "connect")]
    pub fen: Option<String>,
    /// Write every game of the match to FILE (PDN).
    #[arg(long, value_name = "FILE", requires = "connect")]
    pub pdn: Option<PathBuf>,
    // The engine flags: any of --level, --depth, --nodes, --movetime
    // replaces spending the game's time.
    #[command(flatten)]
    pub engine: EngineArgs,
    /// The longest a game may last, in plies: then it is ended as a draw (at
    /// most 100000, the longest game a record may hold).
    #[arg(long, default_value_t = 400, value_parser = clap::value_parser!(u32).range(1..=dama_engine::Game::MAX_PLIES as i64))]
    pub max_plies: u32,
    /// Seconds to wait for the peer before giving up on it.
    #[arg(long, value_name = "SECONDS", default_value_t = 600, value_parser = clap::value_parser!(u64).range(1..))]
    pub timeout: u64,
    /// The name sent to the peer (cut to 32 characters).
    #[arg(long, default_value = "dama")]
    pub name: String,
    /// Print every message sent and received on stderr.
    #[arg(long, short)]
    pub verbose: bool,
    /// The longest one message may take to arrive once its first byte has,
    /// in milliseconds (hidden: the tests shorten it).
    #[arg(long, hide = true, value_name = "MS", default_value_t = MESSAGE_DEADLINE.as_millis() as u64,
          value_parser = clap::value_parser!(u64).range(1..))]
    pub message_deadline_ms: u64,
}

/// How the session plays, from the command line.
fn settings(args: &DxpArgs) -> DxpSettings {
    DxpSettings {
        name: args.name.clone(),
        time: args.time,
        max_plies: args.max_plies,
        limits: args.engine.has_limits().then(|| args.engine.limits().limits()),
    }
}

/// How long one message may take to arrive once its first byte has: a DXP
/// message is at most 128 bytes, so a peer that needs longer is not
/// sending one (the wait between messages is `--timeout`'s).
const MESSAGE_DEADLINE: Duration = Duration::from_secs(10);

/// How many bad messages and chat lines of one connection stderr shows;
/// the others are counted, and the count is shown when the connection ends.
const MAX_REPORTED: u32 = 10;

/// The most bytes read for one message before its NUL: more is not DXP.
const MAX_FRAME: usize = 1024;

pub fn run(ctx: &Ctx, args: DxpArgs) -> Exit {
    let loaded = match ctx.load_variant(&args.variant) {
        Ok(l) => l,
        Err(e) => return e,
    };
    let rules = Arc::new(loaded.rules.clone());
    let config = match args.engine.config(ctx, &rules) {
        Ok(c) => c,
        Err(e) => return e,
    };
    let board = match DxpBoard::new(Arc::clone(&rules)) {
        Ok(b) => b,
        Err(e) => {
            return CliError::system(format!("{} cannot be played over DXP: {e}", rules.id())).report(Some(ctx));
        }
    };
    let variant_file = dama_engine::source::builtin_text(&args.variant)
        .is_none()
        .then(|| args.variant.clone());
    match &args.connect {
        Some(addr) => {
            let start = match ctx.position(&loaded, args.fen.as_deref()) {
                Ok(p) => p,
                Err(e) => return e,
            };
            initiate(ctx, &args, &config, addr, board, start, variant_file)
        }
        None => listen(&args, &config, board),
    }
}

/// The follower: accept connections one at a time and play what they ask.
fn listen(args: &DxpArgs, config: &EngineConfig, board: DxpBoard) -> Exit {
    let settings = settings(args);
    let listener = match TcpListener::bind((args.host.as_str(), args.port)) {
        Ok(l) => l,
        Err(e) => {
            return CliError::system(format!("cannot listen on {}:{}: {e}", args.host, args.port)).report(None);
        }
    };
    match listener.local_addr() {
        Ok(a) => eprintln!("dama dxp: {} engine listening on {a}", board.rules().id()),
        Err(e) => eprintln!("dama dxp: listening ({e})"),
    }
    let mut engine = config.engine(board.rules());
    loop {
        let (stream, peer) = match listener.accept() {
            Ok(c) => c,
            Err(e) => {
                eprintln!("dama dxp: a connection failed: {e}");
                continue;
            }
        };
        eprintln!("dama dxp: connection from {peer}");
        match Conn::new(stream, args) {
            Ok(mut conn) => {
                let mut session = DxpSession::new(&settings, &board, &mut engine, DxpRole::Follower);
                let ended = session.follow(&mut conn);
                conn.report_hidden();
                match ended {
                    Ok(()) => eprintln!("dama dxp: {peer} ended the session"),
                    Err(e) => eprintln!("dama dxp: {peer}: {e}; disconnected"),
                }
            }
            Err(e) => eprintln!("dama dxp: {peer}: {e}"),
        }
        if args.once {
            return Exit::Success;
        }
    }
}

/// The initiator: connect, play `--games` games, append each to the PDN as
/// it ends, print the tally.
fn initiate(
    ctx: &Ctx,
    args: &DxpArgs,
    config: &EngineConfig,
    addr: &str,
    board: DxpBoard,
    start: dama_engine::Position,
    variant_file: Option<String>,
) -> Exit {
    let settings = settings(args);
    // The record's target is checked before anything is played; each game
    // is added as it ends, so a session stopped at any point (Ctrl-C,
    // kill -9) leaves every finished game (issue 37).
    let mut record = match ctx.record_appender(args.pdn.as_deref()) {
        Ok(r) => r,
        Err(e) => return e,
    };
    let stream = match connect(addr, Duration::from_secs(args.timeout)) {
        Ok(s) => s,
        Err(e) => {
            return CliError::system(format!("cannot connect to {addr}: {e}")).report(Some(ctx));
        }
    };
    let mut conn = match Conn::new(stream, args) {
        Ok(c) => c,
        Err(e) => {
            return CliError::system(format!("{addr}: {e}")).report(Some(ctx));
        }
    };
    let mut engine = config.engine(board.rules());
    let mut session = DxpSession::new(&settings, &board, &mut engine, DxpRole::Initiator);
    let mut games = 0usize;
    let (mut wins, mut draws, mut losses, mut unfinished) = (0u32, 0u32, 0u32, 0u32);
    let date = DateTime::now().pdn_date();
    let mut failure = None;
    let mut write_failed = false;
    for i in 0..args.games {
        let ours = if i % 2 == 0 { Color::White } else { Color::Black };
        let last = i + 1 == args.games;
        match session.initiate_game(&mut conn, ours, &start, last) {
            Ok(played) => {
                let peer = session.peer_name.clone();
                let (white, black) = if ours == Color::White {
                    (args.name.clone(), peer.clone())
                } else {
                    (peer.clone(), args.name.clone())
                };
                let result = played.game.outcome().map(|o| o.result);
                let text = match result {
                    Some(GameResult::Draw) => {
                        draws += 1;
                        "draw"
                    }
                    Some(r) if r == GameResult::win_for(ours) => {
                        wins += 1;
                        "win"
                    }
                    Some(_) => {
                        losses += 1;
                        "loss"
                    }
                    None => {
                        unfinished += 1;
                        "unfinished"
                    }
                };
                let why = played
                    .game
                    .outcome()
                    .map_or_else(|| played.note.clone(), |o| o.reason.to_string());
                let tags = PdnTags {
                    event: format!("dama dxp match ({})", board.rules().id()),
                    site: addr.to_string(),
                    date: date.clone(),
                    round: (i + 1).to_string(),
                    white,
                    black,
                    variant_file: variant_file.clone(),
                    extra: Vec::new(),
                };
                games += 1;
                if let (Some(record), Some(path)) = (record.as_mut(), args.pdn.as_deref()) {
                    let mut piece = if record.is_empty() { String::new() } else { "\n".into() };
                    piece.push_str(&played.game.to_pdn(&tags));
                    if let Err(e) = record.append(&piece) {
                        CliError::system(format!("cannot write {}: {e}", path.display())).report(None);
                        write_failed = true;
                        break;
                    }
                }
                // After the game is on disk: a game the line shows is in the file.
                eprintln!(
                    "game {}: {} as {}, {} plies: {text} ({})",
                    i + 1,
                    dama_engine::text::printable(&args.name),
                    ours,
                    played.game.ply_count(),
                    dama_engine::text::printable(&why)
                );
                if played.peer_stops && !last {
                    eprintln!("dama dxp: the peer wants no further game");
                    break;
                }
            }
            Err(e) => {
                CliError::system(format!("game {}: {e}", i + 1)).report(None);
                failure = Some(e);
                break;
            }
        }
    }
    conn.shutdown();
    conn.report_hidden();
    let peer = dama_engine::text::printable(&session.peer_name).into_owned();
    outln!(
        "{} against {peer}, {} games: {wins} wins, {draws} draws, {losses} losses{}",
        args.name,
        games,
        if unfinished > 0 {
            format!(", {unfinished} unfinished")
        } else {
            String::new()
        }
    );
    if failure.is_some() || write_failed {
        Exit::Failure
    } else {
        Exit::Success
    }
}

fn connect(addr: &str, timeout: Duration) -> std::io::Result<TcpStream> {
    let mut last = None;
    for a in addr.to_socket_addrs()? {
        match TcpStream::connect_timeout(&a, timeout) {
            Ok(s) => return Ok(s),
            Err(e) => last = Some(e),
        }
    }
    Err(last.unwrap_or_else(|| std::io::Error::new(ErrorKind::NotFound, "the address resolves to nothing")))
}

/// A connection: NUL-framed messages, bounded, with a read timeout
/// between messages and a deadline for each message.
struct Conn {
    stream: TcpStream,
    buf: Vec<u8>,
    timeout: u64,
    /// How long a message may take once its first byte is here.
    message_deadline: Duration,
    /// When the first byte of the message in `buf` arrived.
    message_started: Option<Instant>,
    verbose: bool,
    /// Bad messages and chat lines shown on stderr, and those not shown.
    bad: Reported,
    chats: Reported,
}

/// A kind of line a peer makes us print: the first [`MAX_REPORTED`] are
/// shown, the others counted.
#[derive(Default)]
struct Reported {
    shown: u32,
    hidden: u64,
}

impl Reported {
    /// Whether to show the next one (else it is counted).
    fn show(&mut self) -> bool {
        if self.shown < MAX_REPORTED {
            self.shown += 1;
            true
        } else {
            self.hidden += 1;
            false
        }
    }
}

impl Conn {
    fn new(stream: TcpStream, args: &DxpArgs) -> std::io::Result<Conn> {
        stream.set_read_timeout(Some(Duration::from_secs(args.timeout)))?;
        stream.set_write_timeout(Some(Duration::from_secs(args.timeout)))?;
        let _ = stream.set_nodelay(true);
        Ok(Conn {
            stream,
            buf: Vec::new(),
            timeout: args.timeout,
            message_deadline: Duration::from_millis(args.message_deadline_ms),
            message_started: None,
            verbose: args.verbose,
            bad: Reported::default(),
            chats: Reported::default(),
        })
    }

    /// How many bad messages and chat lines were not shown, if any.
    fn report_hidden(&self) {
        for (n, what) in [
            (self.bad.hidden, "bad or unexpected messages"),
            (self.chats.hidden, "chat lines"),
        ] {
            if n > 0 {
                eprintln!("dama dxp: and {n} more {what} from the peer (the first {MAX_REPORTED} are shown)");
            }
        }
    }

    fn shutdown(&mut self) {
        let _ = self.stream.shutdown(std::net::Shutdown::Both);
    }
}

impl DxpLink for Conn {
    fn send(&mut self, m: &DxpMessage) -> Result<(), DxpSessionError> {
        let text = m.to_string();
        if self.verbose {
            eprintln!("> {}", dama_engine::text::printable(&text));
        }
        let mut bytes = text.into_bytes();
        bytes.push(0);
        // A peer that reads nothing fills the connection and the write
        // waits `--timeout`: say that in words, not "os error 11".
        let written = self.stream.write_all(&bytes).and_then(|()| self.stream.flush());
        match written {
            Ok(()) => Ok(()),
            Err(e) if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) => {
                Err(DxpSessionError::NotReading(self.timeout))
            }
            Err(e) => Err(e.into()),
        }
    }

    /// The next message (or bad text) from the peer.
    fn recv(&mut self) -> Result<DxpIncoming, DxpSessionError> {
        loop {
            if let Some(i) = self.buf.iter().position(|&b| b == 0) {
                let frame: Vec<u8> = self.buf.drain(..=i).take(i).collect();
                // What is left has begun the next message.
                self.message_started = (!self.buf.is_empty()).then(Instant::now);
                let text = String::from_utf8_lossy(&frame).into_owned();
                if self.verbose {
                    eprintln!("< {}", text.escape_debug());
                }
                return Ok(match DxpMessage::parse(&text) {
                    Ok(m) => DxpIncoming::Message(m),
                    Err(e) => DxpIncoming::Bad(e.to_string()),
                });
            }
            if self.buf.len() > MAX_FRAME {
                return Err(DxpSessionError::TooLong(MAX_FRAME));
            }
            // Between messages the peer may think for `--timeout`; once a
            // message has begun, it must be whole by its deadline.
            let wait = match self.message_started {
                None => Duration::from_secs(self.timeout),
                Some(t) => {
                    let left = self.message_deadline.saturating_sub(t.elapsed());
                    if left.is_zero() {
                        return Err(DxpSessionError::SlowMessage(self.message_deadline));
                    }
                    left
                }
            };
            self.stream.set_read_timeout(Some(wait))?;
            let mut chunk = [0u8; 512];
            match self.stream.read(&mut chunk) {
                Ok(0) => return Err(DxpSessionError::Closed),
                Ok(n) => {
                    if self.buf.is_empty() {
                        self.message_started = Some(Instant::now());
                    }
                    self.buf.extend_from_slice(chunk.get(..n).unwrap_or_default());
                }
                Err(e) if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) => {
                    return Err(match self.message_started {
                        Some(_) => DxpSessionError::SlowMessage(self.message_deadline),
                        None => DxpSessionError::Timeout(self.timeout),
                    })
                }
                Err(e) if e.kind() == ErrorKind::Interrupted => {}
                Err(e) => return Err(e.into()),
            }
        }
    }

    /// A line on stderr about a bad or unexpected message of the peer's
    /// (the first few of them: a flood of them is counted).
    fn notice(&mut self, line: std::fmt::Arguments<'_>) {
        if self.bad.show() {
            eprintln!("dama dxp: {line}");
        }
    }

    /// A CHAT from the peer, on stderr (the first few of them).
    fn show_chat(&mut self, text: &str) {
        if self.chats.show() {
            eprintln!("chat: {}", dama_engine::text::printable(text));
        }
    }

    fn say(&mut self, line: &str) {
        eprintln!("{line}");
    }
}

#[allow(dead_code)]
const _: () = assert!(DXP_MAX_MESSAGE < MAX_FRAME);
