//! DXP over TCP for `dama dxp`: NUL-framed messages with bounded size and
//! time, the connection as the play tier's `DxpLink`, the follower's
//! accept loop and the initiator's match with its record.
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
use std::time::{Duration, Instant};

use dama_engine::pdn::PdnTags;
use dama_engine::{Color, GameResult};
use dama_play::dxp::{
    DxpBoard, DxpIncoming, DxpLink, DxpMessage, DxpRole, DxpSession, DxpSessionError, DxpSettings, DXP_MAX_MESSAGE,
};
use dama_play::EngineConfig;

use crate::commands::Ctx;
use crate::error::CliError;
use crate::exit::Exit;
use crate::out::outln;
use crate::savefile::DateTime;

/// What the transport needs of `dama dxp`'s command line.
#[derive(Debug)]
pub(crate) struct DxpOptions {
    /// The address and port to listen on, and whether to stop after one connection.
    pub(crate) host: String,
    pub(crate) port: u16,
    pub(crate) once: bool,
    /// The games of the match, and the record they are appended to.
    pub(crate) games: u32,
    pub(crate) pdn: Option<std::path::PathBuf>,
    /// Seconds to wait for the peer; milliseconds one message may take.
    pub(crate) timeout: u64,
    pub(crate) message_deadline_ms: u64,
    /// Every message on stderr.
    pub(crate) verbose: bool,
    /// The name sent to the peer.
    pub(crate) name: String,
    /// How the session plays.
    pub(crate) settings: DxpSettings,
}

/// How long one message may take to arrive once its first byte has: a DXP
/// message is at most 128 bytes, so a peer that needs longer is not
/// sending one (the wait between messages is `--timeout`'s).
pub(crate) const MESSAGE_DEADLINE: Duration = Duration::from_secs(10);

/// How many bad messages and chat lines of one connection stderr shows;
/// the others are counted, and the count is shown when the connection ends.
pub(crate) const MAX_REPORTED: u32 = 10;

/// The most bytes read for one message before its NUL: more is not DXP.
pub(crate) const MAX_FRAME: usize = 1024;

/// The follower: accept connections one at a time and play what they ask.
pub(crate) fn listen(args: &DxpOptions, config: &EngineConfig, board: DxpBoard) -> Exit {
    let settings = &args.settings;
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
                let mut session = DxpSession::new(settings, &board, &mut engine, DxpRole::Follower);
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
pub(crate) fn initiate(
    ctx: &Ctx,
    args: &DxpOptions,
    config: &EngineConfig,
    addr: &str,
    board: DxpBoard,
    start: dama_engine::Position,
    variant_file: Option<String>,
) -> Exit {
    let settings = &args.settings;
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
    let mut session = DxpSession::new(settings, &board, &mut engine, DxpRole::Initiator);
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

pub(crate) fn connect(addr: &str, timeout: Duration) -> std::io::Result<TcpStream> {
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
    fn new(stream: TcpStream, args: &DxpOptions) -> std::io::Result<Conn> {
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
