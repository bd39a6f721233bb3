//! The game state machine of DXP: requests, moves, game ends and take-backs
//! as the initiator or the follower, over a [`DxpLink`] (the front end's
//! connection: framing, timeouts, what a person is told).

use std::time::{Duration, Instant};

use dama_engine::{Color, EndReason, Engine, Game, GameResult, Limits, Outcome, SearchRoot};

use super::messages::{
    AcceptCode, BackAnswer, BackRequest, DxpBoard, DxpMessage, DxpMove, GameAccept, GameEnd, GameEndReason, GameRequest,
};

/// One message read, or text that is not one.
#[derive(Debug)]
pub enum DxpIncoming {
    /// A message.
    Message(DxpMessage),
    /// Text that is not a DXP message, and why.
    Bad(String),
}

/// A connection to the peer, as the session uses it.
pub trait DxpLink {
    /// Sends one message.
    fn send(&mut self, m: &DxpMessage) -> Result<(), DxpSessionError>;
    /// The next message (or bad text) from the peer.
    fn recv(&mut self) -> Result<DxpIncoming, DxpSessionError>;
    /// Tells the person something about a bad or unexpected message of the
    /// peer's (a front end may show the first few and count the rest).
    fn notice(&mut self, line: std::fmt::Arguments<'_>);
    /// A CHAT from the peer, for the person.
    fn show_chat(&mut self, text: &str);
    /// A line about the games for the person (a game begins, ends, a move
    /// is refused).
    fn say(&mut self, line: &str);

    /// Sends a CHAT.
    fn chat(&mut self, text: &str) -> Result<(), DxpSessionError> {
        self.send(&DxpMessage::Chat(text.to_string()))
    }

    /// A bad message from the peer: noticed, and answered with a CHAT saying why.
    fn bad_message(&mut self, e: &str) -> Result<(), DxpSessionError> {
        self.notice(format_args!(
            "the peer sent a bad message: {}",
            dama_engine::text::printable(e)
        ));
        self.chat(&format!("error: {e}"))
    }
}

/// How a session plays: what it sends in a GAMEREQ or GAMEACC, and how long
/// it thinks.
#[derive(Debug, Clone)]
pub struct DxpSettings {
    /// The name sent to the peer.
    pub name: String,
    /// Minutes per player and game asked in a GAMEREQ (0: no clock).
    pub time: u16,
    /// A game still going after this many plies is a draw.
    pub max_plies: u32,
    /// Limits instead of spending the game's clock.
    pub limits: Option<Limits>,
}

/// Why a session ended early: the connection (the peer went away, was
/// silent, flooded or did not read) or the game (a refused request, a
/// broken exchange).
#[derive(Debug, thiserror::Error)]
pub enum DxpSessionError {
    /// The connection was closed.
    #[error("the peer closed the connection")]
    Closed,
    /// Nothing came for this many seconds.
    #[error("the peer sent nothing for {0} s")]
    Timeout(u64),
    /// One message took longer than this.
    #[error("the peer took more than {} to send one message (a DXP message is at most 128 bytes)", millis(.0))]
    SlowMessage(Duration),
    /// Nothing we sent was read for this many seconds.
    #[error("the peer has read nothing we sent for {0} s (it does not read its side of the connection)")]
    NotReading(u64),
    /// A frame of more than this many bytes without its end.
    #[error("a message of more than {0} bytes without its NUL: not DXP")]
    TooLong(usize),
    /// Another error of the connection.
    #[error("{0}")]
    Io(#[from] std::io::Error),
    /// The follower refused the game.
    #[error("the follower refused the game ({0:?}: {1})")]
    Refused(AcceptCode, &'static str),
    /// The exchange broke down.
    #[error("{0}")]
    Protocol(String),
}

/// `d` in words: whole seconds as `N s`, else milliseconds.
fn millis(d: &Duration) -> String {
    if d.subsec_millis() == 0 {
        format!("{} s", d.as_secs())
    } else {
        format!("{} ms", d.as_millis())
    }
}

/// Which side of the match the session is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DxpRole {
    /// Proposes the games (`GAMEREQ`).
    Initiator,
    /// Plays the games proposed.
    Follower,
}

/// A game being played.
#[derive(Debug)]
struct Current {
    game: Game,
    ours: Color,
    /// Our clock for the game (`None`: no time limit was given).
    remaining: Option<Duration>,
    /// The GAMEEND we sent, awaiting its confirmation.
    end_sent: bool,
}

/// A game at its end.
#[derive(Debug)]
pub struct DxpPlayed {
    /// The game.
    pub game: Game,
    /// Why it ended, when the rules did not end it.
    pub note: String,
    /// The peer wants no further game.
    pub peer_stops: bool,
}

/// What the message loop does next.
#[derive(Debug)]
enum Next {
    Continue,
    GameOver { peer_stops: bool, note: String },
    Quit,
}

/// One connection's games: the game state machine of DXP over a
/// [`DxpLink`] (the front end's connection).
#[derive(Debug)]
pub struct DxpSession<'a> {
    board: &'a DxpBoard,
    engine: &'a mut Engine,
    settings: &'a DxpSettings,
    role: DxpRole,
    current: Option<Current>,
    /// The peer's name, as it gave it.
    pub peer_name: String,
    /// The GAMEEND we send next says we stop (the initiator's last game).
    stop_after: bool,
}

impl<'a> DxpSession<'a> {
    /// A session on `board`, searching with `engine`, set up by `settings`.
    pub fn new(
        settings: &'a DxpSettings,
        board: &'a DxpBoard,
        engine: &'a mut Engine,
        role: DxpRole,
    ) -> DxpSession<'a> {
        DxpSession {
            board,
            engine,
            settings,
            role,
            current: None,
            peer_name: "?".into(),
            stop_after: false,
        }
    }

    /// The follower's loop: until the peer goes away or says stop.
    pub fn follow(&mut self, conn: &mut dyn DxpLink) -> Result<(), DxpSessionError> {
        loop {
            match self.step(conn) {
                Ok(Next::Continue | Next::GameOver { .. }) => {}
                Ok(Next::Quit) => return Ok(()),
                Err(DxpSessionError::Closed) => return Ok(()),
                Err(e) => return Err(e),
            }
        }
    }

    /// The initiator: asks for one game and plays it to its end.
    pub fn initiate_game(
        &mut self,
        conn: &mut dyn DxpLink,
        ours: Color,
        start: &dama_engine::Position,
        last: bool,
    ) -> Result<DxpPlayed, DxpSessionError> {
        let position = (*start != self.board.rules().start_position()).then(|| self.board.encode_position(start));
        conn.send(&DxpMessage::GameRequest(GameRequest {
            version: 1,
            initiator: self.settings.name.clone(),
            follower_color: !ours,
            minutes: self.settings.time,
            moves: 0,
            position,
        }))?;
        // The answer: GAMEACC (CHAT before it is logged).
        loop {
            match conn.recv()? {
                DxpIncoming::Message(DxpMessage::GameAccept(a)) => {
                    self.peer_name = if a.follower.trim().is_empty() {
                        "?".into()
                    } else {
                        a.follower.trim().to_string()
                    };
                    if a.code != AcceptCode::Accepted {
                        let why = match a.code {
                            AcceptCode::RefusedColor => "not with this colour",
                            AcceptCode::RefusedTime => "not with this time",
                            AcceptCode::RefusedPosition => "not from this position",
                            _ => "no reason given",
                        };
                        return Err(DxpSessionError::Refused(a.code, why));
                    }
                    break;
                }
                DxpIncoming::Message(DxpMessage::Chat(t)) => conn.show_chat(&t),
                DxpIncoming::Message(m) => {
                    conn.notice(format_args!("ignored a {} while waiting for GAMEACC", m.kind()))
                }
                DxpIncoming::Bad(e) => conn.bad_message(&e)?,
            }
        }
        self.stop_after = last;
        self.begin(Game::from_position(self.board.shared_rules(), *start), ours);
        let mut next = self.move_if_our_turn(conn)?;
        loop {
            match next {
                Next::Continue => {}
                Next::GameOver { peer_stops, note } => {
                    let Some(cur) = self.current.take() else {
                        return Err(DxpSessionError::Protocol("no game".into()));
                    };
                    return Ok(DxpPlayed {
                        game: cur.game,
                        note,
                        peer_stops,
                    });
                }
                Next::Quit => return Err(DxpSessionError::Closed),
            }
            next = self.step(conn)?;
        }
    }

    fn begin(&mut self, game: Game, ours: Color) {
        self.engine.clear();
        let remaining = (self.settings.time > 0).then(|| Duration::from_secs(u64::from(self.settings.time) * 60));
        self.current = Some(Current {
            game,
            ours,
            remaining,
            end_sent: false,
        });
    }

    /// Reads one message and answers it.
    fn step(&mut self, conn: &mut dyn DxpLink) -> Result<Next, DxpSessionError> {
        let m = match conn.recv()? {
            DxpIncoming::Message(m) => m,
            DxpIncoming::Bad(e) => {
                conn.bad_message(&e)?;
                return Ok(Next::Continue);
            }
        };
        match m {
            DxpMessage::Chat(t) => {
                conn.show_chat(&t);
                Ok(Next::Continue)
            }
            DxpMessage::GameRequest(r) => self.on_request(conn, &r),
            DxpMessage::Move(mv) => self.on_move(conn, &mv),
            DxpMessage::GameEnd(e) => self.on_end(conn, e),
            DxpMessage::BackRequest(b) => self.on_back(conn, b),
            DxpMessage::BackAccept(a) => {
                conn.notice(format_args!("a BACKACC ({a:?}) that answers nothing we asked"));
                Ok(Next::Continue)
            }
            DxpMessage::GameAccept(_) => {
                conn.chat("error: a GAMEACC answers a GAMEREQ, and none was sent")?;
                Ok(Next::Continue)
            }
        }
    }

    fn on_request(&mut self, conn: &mut dyn DxpLink, r: &GameRequest) -> Result<Next, DxpSessionError> {
        let refuse = |conn: &mut dyn DxpLink, code: AcceptCode, name: &str| {
            conn.send(&DxpMessage::GameAccept(GameAccept {
                follower: name.to_string(),
                code,
            }))
        };
        if self.role == DxpRole::Initiator {
            conn.chat("error: only the initiator sends GAMEREQ")?;
            return Ok(Next::Continue);
        }
        let start = match self.board.start_of(r) {
            Ok(p) => p,
            Err(e) => {
                conn.say(&format!(
                    "dama dxp: refused a game from {}: {e}",
                    dama_engine::text::printable(&r.initiator)
                ));
                refuse(conn, AcceptCode::RefusedPosition, &self.settings.name)?;
                return Ok(Next::Continue);
            }
        };
        self.peer_name = r.initiator.clone();
        conn.say(&format!(
            "dama dxp: game with {} ({} min, we play {})",
            dama_engine::text::printable(&r.initiator),
            r.minutes,
            r.follower_color
        ));
        refuse(conn, AcceptCode::Accepted, &self.settings.name)?;
        self.begin(Game::from_position(self.board.shared_rules(), start), r.follower_color);
        if let Some(cur) = &mut self.current {
            cur.remaining = (r.minutes > 0).then(|| Duration::from_secs(u64::from(r.minutes) * 60));
        }
        self.move_if_our_turn(conn)
    }

    fn on_move(&mut self, conn: &mut dyn DxpLink, mv: &DxpMove) -> Result<Next, DxpSessionError> {
        let Some(cur) = &mut self.current else {
            conn.chat("error: a MOVE but no game is being played")?;
            return Ok(Next::Continue);
        };
        if cur.game.is_over() || cur.end_sent {
            conn.chat("error: a MOVE after the end of the game")?;
            return self.send_end(conn, "a move after the end");
        }
        if cur.game.side_to_move() == cur.ours {
            conn.chat("error: a MOVE when it is our turn")?;
            return Ok(Next::Continue);
        }
        let pos = *cur.game.position();
        let m = match self.board.resolve(&pos, mv) {
            Ok(m) => m,
            Err(e) => {
                let text = DxpMessage::Move(mv.clone()).to_string();
                conn.say(&format!("dama dxp: the peer's move {text} is refused: {e}"));
                conn.chat(&format!("error: {text}: {e}"))?;
                // The games no longer agree: this one ends here.
                return self.send_end(conn, "an illegal move");
            }
        };
        if let Err(e) = cur.game.play(m) {
            conn.chat(&format!("error: {e}"))?;
            return self.send_end(conn, "an illegal move");
        }
        self.move_if_our_turn(conn)
    }

    /// Plays our move when it is our turn, or sends GAMEEND when the game is over.
    fn move_if_our_turn(&mut self, conn: &mut dyn DxpLink) -> Result<Next, DxpSessionError> {
        let Some(cur) = &mut self.current else {
            return Ok(Next::Continue);
        };
        if cur.end_sent || cur.game.side_to_move() != cur.ours {
            return Ok(Next::Continue);
        }
        if !cur.game.is_over() && cur.game.ply_count() >= self.settings.max_plies as usize {
            let n = cur.game.ply_count() as u32;
            let _ = cur.game.declare(Outcome::new(GameResult::Draw, EndReason::PlyLimit(n)));
        }
        if cur.game.is_over() {
            return self.send_end(conn, "");
        }
        let limits = self.limits();
        let Some(cur) = &mut self.current else {
            return Ok(Next::Continue);
        };
        let started = Instant::now();
        let result = self.engine.search(&SearchRoot::from_game(&cur.game), &limits);
        let spent = started.elapsed();
        if let Some(r) = &mut cur.remaining {
            *r = r.saturating_sub(spent);
        }
        let Some(m) = result.best else {
            return self.send_end(conn, "");
        };
        let seconds = u16::try_from(spent.as_secs()).unwrap_or(9999);
        let dxp_move = match self.board.encode_move(&m, seconds) {
            Ok(d) => d,
            Err(e) => {
                conn.chat(&format!("error: {e}"))?;
                return self.send_end(conn, "a move DXP cannot send");
            }
        };
        if cur.game.play(m).is_err() {
            return self.send_end(conn, "an engine error");
        }
        conn.send(&DxpMessage::Move(dxp_move))?;
        Ok(Next::Continue)
    }

    /// How long to think for the next move.
    fn limits(&self) -> Limits {
        if let Some(limits) = &self.settings.limits {
            return limits.clone();
        }
        match self.current.as_ref().and_then(|c| c.remaining) {
            // A share of what is left: about 30 more moves, never below 10 ms.
            Some(left) => Limits::movetime((left / 30).max(Duration::from_millis(10))),
            None => crate::LimitsRequest::default().limits(),
        }
    }

    /// Sends GAMEEND for the current game (instead of a move) and waits
    /// for its confirmation.
    fn send_end(&mut self, conn: &mut dyn DxpLink, note: &str) -> Result<Next, DxpSessionError> {
        let Some(cur) = &mut self.current else {
            return Ok(Next::Continue);
        };
        let reason = match cur.game.outcome().map(|o| o.result) {
            Some(GameResult::Draw) => GameEndReason::Draw,
            Some(r) if r == GameResult::win_for(cur.ours) => GameEndReason::Win,
            Some(_) => GameEndReason::Resign,
            None => GameEndReason::Unspecified,
        };
        cur.end_sent = true;
        let stop = self.role == DxpRole::Initiator && self.stop_after;
        conn.send(&DxpMessage::GameEnd(GameEnd { reason, stop }))?;
        let note = note.to_string();
        // The confirmation (CHAT and bad text are answered on the way).
        loop {
            match conn.recv() {
                Ok(DxpIncoming::Message(DxpMessage::GameEnd(e))) => {
                    return Ok(self.finish(conn, e.stop, note));
                }
                Ok(DxpIncoming::Message(DxpMessage::Chat(t))) => conn.show_chat(&t),
                Ok(DxpIncoming::Message(m)) => {
                    conn.notice(format_args!("ignored a {} while waiting for GAMEEND", m.kind()));
                }
                Ok(DxpIncoming::Bad(e)) => conn.bad_message(&e)?,
                // A follower that hangs up after our final GAMEEND has ended the game.
                Err(DxpSessionError::Closed) if stop || self.role == DxpRole::Follower => {
                    return Ok(self.finish(conn, true, note));
                }
                Err(e) => return Err(e),
            }
        }
    }

    /// The game is over: the follower forgets it; the initiator's caller takes it.
    fn finish(&mut self, conn: &mut dyn DxpLink, peer_stops: bool, note: String) -> Next {
        if self.role == DxpRole::Follower {
            if let Some(cur) = self.current.take() {
                let how = cur.game.outcome().map_or("unfinished".to_string(), |o| o.to_string());
                conn.say(&format!(
                    "dama dxp: game over after {} plies: {how}",
                    cur.game.ply_count()
                ));
            }
            if peer_stops {
                return Next::Quit;
            }
        }
        Next::GameOver { peer_stops, note }
    }

    /// The peer ends the game: take its word for it if the rules have not
    /// ended it, and confirm.
    fn on_end(&mut self, conn: &mut dyn DxpLink, e: GameEnd) -> Result<Next, DxpSessionError> {
        let note = match &mut self.current {
            None => {
                // Between games: a GAMEEND confirms nothing; answer it all the same.
                conn.send(&DxpMessage::GameEnd(GameEnd {
                    reason: GameEndReason::Unspecified,
                    stop: e.stop,
                }))?;
                return Ok(if e.stop { Next::Quit } else { Next::Continue });
            }
            Some(cur) => {
                let peer = !cur.ours;
                if !cur.game.is_over() {
                    let _ = match e.reason {
                        GameEndReason::Resign => cur.game.resign(peer),
                        GameEndReason::Draw => cur.game.agree_draw(),
                        GameEndReason::Win => Ok(()),
                        GameEndReason::Unspecified => Ok(()),
                    };
                }
                match e.reason {
                    GameEndReason::Win if !cur.game.is_over() => "the peer claimed a win".to_string(),
                    _ if !cur.game.is_over() => "the peer ended the game".to_string(),
                    _ => String::new(),
                }
            }
        };
        let stop = self.role == DxpRole::Initiator && self.stop_after;
        let already = self.current.as_ref().is_some_and(|c| c.end_sent);
        if !already {
            conn.send(&DxpMessage::GameEnd(GameEnd {
                reason: GameEndReason::Unspecified,
                stop,
            }))?;
        }
        Ok(self.finish(conn, e.stop, note))
    }

    /// BACKREQ: go back to the position before move `move_number` of
    /// `to_move`, if the game has been there.
    fn on_back(&mut self, conn: &mut dyn DxpLink, b: BackRequest) -> Result<Next, DxpSessionError> {
        let Some(cur) = &mut self.current else {
            conn.send(&DxpMessage::BackAccept(BackAnswer::Declined))?;
            return Ok(Next::Continue);
        };
        let target = (0..=cur.game.ply_count()).find(|&i| {
            cur.game.move_number_of(i) == u32::from(b.move_number) && side_before(&cur.game, i) == b.to_move
        });
        let Some(target) = target.filter(|_| !cur.end_sent) else {
            conn.send(&DxpMessage::BackAccept(BackAnswer::Declined))?;
            return Ok(Next::Continue);
        };
        while cur.game.ply_count() > target || cur.game.is_over() {
            if cur.game.undo().is_none() {
                break;
            }
        }
        conn.say(&format!(
            "dama dxp: took back to move {}{}",
            b.move_number,
            if b.to_move == Color::White { "" } else { "..." }
        ));
        conn.send(&DxpMessage::BackAccept(BackAnswer::Accepted))?;
        self.move_if_our_turn(conn)
    }
}

/// The side to move before ply `i` of `game`.
fn side_before(game: &Game, i: usize) -> Color {
    match game.plies().get(i) {
        Some(p) => p.side(),
        None => game.side_to_move(),
    }
}
