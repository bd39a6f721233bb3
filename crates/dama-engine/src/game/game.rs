//! A game in progress: the rules, the start position, the plies played,
//! undo and redo, and the end of the game exactly as the variant's `[end]`
//! table says.
//!
//! The end is judged once per game move (never per search node): after
//! every ply, [`Game`] generates the legal moves of the new position once,
//! updates two counters (plies since the last capture, plies in a row of
//! capture-free king moves) and scans back for repetitions only as far as
//! the last capture or promotion (positions before those can never recur).
//!
//! ```
//! use dama_engine::{Game, GameResult};
//! use dama_engine::Rules;
//!
//! let mut game = Game::new(Rules::builtin("dama").unwrap());
//! game.play_text("d3-d4").unwrap();
//! assert_eq!(game.plies()[0].notation, "d3-d4");
//! assert!(game.outcome().is_none());
//! game.resign(dama_engine::Color::Black).unwrap();
//! assert_eq!(game.outcome().unwrap().result, GameResult::WhiteWins);
//! ```

use std::sync::Arc;

use crate::board::Color;
use crate::board::Position;
use crate::board::{Move, MoveList};
use crate::game::{DrawClock, EndReason, GameResult, Outcome};
use crate::notation::MoveError;
use crate::rules::Rules;

/// One ply of a game: the move, the position it was played in, and its notation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ply {
    /// The move played.
    pub mv: Move,
    /// The position before the move.
    pub before: Position,
    /// The move in the shortest unambiguous notation ([`Rules::format_move_short`]),
    /// as written in PDN movetext.
    pub notation: String,
    /// The move with every landing square ([`Rules::format_move_full`]).
    pub full: String,
    /// The draw clock after this ply.
    clock: DrawClock,
}

impl Ply {
    /// The position after the move.
    pub fn after(&self) -> Position {
        self.before.after(&self.mv)
    }
    /// The side that played it.
    pub fn side(&self) -> Color {
        self.before.side_to_move()
    }
    /// Plies in a row without a capture, counting this one (0 if it captured).
    pub fn no_capture_plies(&self) -> u32 {
        self.clock.no_capture
    }
    /// Plies in a row of capture-free king moves, counting this one.
    pub fn kings_only_plies(&self) -> u32 {
        self.clock.kings_only
    }
    /// The draw clock after this ply.
    pub fn clock(&self) -> DrawClock {
        self.clock
    }
}

/// An end by the rules that a game went on past: a record that goes on after
/// a draw nobody claimed (a threefold repetition, a draw by a ply count),
/// as players record games the arbiter did not stop ([`Game::go_past_end`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PassedEnd {
    /// The plies played when the rules ended the game: the end is the
    /// position after this many plies, and the ply numbered `ply + 1`
    /// (counting from 1) is the first played past it.
    pub ply: usize,
    /// The end the rules gave there.
    pub outcome: Outcome,
}

/// A move that cannot be played.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PlayError {
    /// The game has already ended.
    #[error("the game is over ({0})")]
    GameOver(Outcome),
    /// The move text names no legal move, or several (with the reason).
    #[error(transparent)]
    Move(#[from] MoveError),
    /// A [`Move`] given directly is not legal in the current position.
    #[error("{notation} is not a legal move here")]
    NotLegal {
        /// The move, from and to.
        notation: String,
    },
    /// The game already has [`Game::MAX_PLIES`] plies.
    #[error("the game has reached {limit} plies, the most a game may have")]
    TooLong {
        /// The most plies a game may have.
        limit: usize,
    },
}

/// A game: the rules, the start position, the plies played (with undo and
/// redo) and, once it is over, its [`Outcome`].
#[derive(Debug, Clone)]
pub struct Game {
    rules: Arc<Rules>,
    start: Position,
    pos: Position,
    plies: Vec<Ply>,
    redo: Vec<Ply>,
    legal: MoveList,
    /// Outcome by the rules of play, judged after every ply.
    judged: Option<Outcome>,
    /// Outcome declared from outside (resignation, agreement, adjudication).
    declared: Option<Outcome>,
    /// The first end by the rules that the game went on past.
    passed: Option<PassedEnd>,
}

impl Game {
    /// The most plies a game may have: far more than any game played (the
    /// longest have a few hundred), few enough that a record of one replays in
    /// tens of megabytes, not gigabytes (issue 38). Records with more are
    /// refused ([`PdnError::TooLong`](crate::PdnError::TooLong)); match play's
    /// `--max-plies` stops at it, so every record the program writes reads back.
    pub const MAX_PLIES: usize = 100_000;

    /// A new game from the variant's initial position.
    pub fn new(rules: impl Into<Arc<Rules>>) -> Game {
        let rules = rules.into();
        let start = rules.start_position();
        Game::from_position(rules, start)
    }

    /// A new game from `start` (for example a position read from FEN).
    /// The game may be over at once (a side with no legal move).
    pub fn from_position(rules: impl Into<Arc<Rules>>, start: Position) -> Game {
        let rules = rules.into();
        let start = rules.track_runs(start);
        let legal = rules.legal_moves(&start);
        let mut g = Game {
            rules,
            start,
            pos: start,
            plies: Vec::new(),
            redo: Vec::new(),
            legal,
            judged: None,
            declared: None,
            passed: None,
        };
        g.judge();
        g
    }

    /// The rules.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }
    /// The rules, shared.
    pub fn shared_rules(&self) -> Arc<Rules> {
        Arc::clone(&self.rules)
    }
    /// The position the game started from.
    pub fn start_position(&self) -> &Position {
        &self.start
    }
    /// Whether the game started from the variant's initial position.
    pub fn starts_from_initial(&self) -> bool {
        self.start == self.rules.start_position()
    }
    /// The current position.
    pub fn position(&self) -> &Position {
        &self.pos
    }
    /// The side to move.
    pub fn side_to_move(&self) -> Color {
        self.pos.side_to_move()
    }
    /// The legal moves of the current position (also when the game is over
    /// by a draw rule; [`Game::play`] refuses them then).
    pub fn legal_moves(&self) -> &MoveList {
        &self.legal
    }
    /// The plies played so far, first to last.
    pub fn plies(&self) -> &[Ply] {
        &self.plies
    }
    /// Makes room for `n` more plies at once (a record of known length is
    /// replayed), so that the list of plies is not copied and doubled as it
    /// grows. Fails, without aborting, when that memory cannot be had.
    pub fn reserve_plies(&mut self, n: usize) -> Result<(), std::collections::TryReserveError> {
        self.plies.try_reserve_exact(n)
    }
    /// The last ply played.
    pub fn last_ply(&self) -> Option<&Ply> {
        self.plies.last()
    }
    /// The number of plies played.
    pub fn ply_count(&self) -> usize {
        self.plies.len()
    }
    /// The PDN move number of ply `index` (0-based) of this game: it counts
    /// full moves, and a game whose first mover is not the variant's first
    /// side starts with `1...`.
    pub fn move_number_of(&self, index: usize) -> u32 {
        let first = self.rules.start_position().side_to_move();
        let offset = usize::from(self.start.side_to_move() != first);
        ((index + offset) / 2 + 1) as u32
    }
    /// The move number of the next ply.
    pub fn move_number(&self) -> u32 {
        self.move_number_of(self.plies.len())
    }

    /// How the game ended, or `None` while it goes on.
    pub fn outcome(&self) -> Option<Outcome> {
        self.declared.or(self.judged)
    }
    /// Whether the game is over.
    pub fn is_over(&self) -> bool {
        self.outcome().is_some()
    }

    /// Goes on past the end the rules give at the current position, as a
    /// record does that goes on after a draw nobody claimed: the game is no
    /// longer over (until the rules end it again after a later ply), and
    /// [`Game::passed_end`] keeps the first end gone past. Does nothing when
    /// the game is not over.
    ///
    /// Only an end after which the side to move can still move can be gone
    /// past: a repetition, a draw by a ply count or by material, a lone-piece
    /// rule, a first crowning. It is refused ([`PlayError::GameOver`]) when
    /// the side to move has no legal move or no pieces, when neither side
    /// can move, and for an end declared from outside (resignation,
    /// agreement, adjudication).
    ///
    /// ```
    /// use dama_engine::{EndReason, Game, Rules};
    ///
    /// let rules = Rules::builtin("international").unwrap();
    /// let start = rules.parse_fen("W:WK47,46:BK4,5").unwrap();
    /// let mut game = Game::from_position(rules, start);
    /// for _ in 0..2 {
    ///     for m in ["47-41", "4-9", "41-47", "9-4"] {
    ///         game.play_text(m).unwrap();
    ///     }
    /// }
    /// assert_eq!(game.outcome().unwrap().reason, EndReason::Threefold);
    /// game.go_past_end().unwrap();
    /// game.play_text("46-41").unwrap();
    /// assert!(game.outcome().is_none());
    /// let passed = game.passed_end().unwrap();
    /// assert_eq!((passed.ply, passed.outcome.reason), (8, EndReason::Threefold));
    /// ```
    pub fn go_past_end(&mut self) -> Result<(), PlayError> {
        let Some(o) = self.outcome() else { return Ok(()) };
        let can_move = self.legal.as_slice().first().is_some_and(|m| !m.is_pass());
        if self.declared.is_some() || !can_move {
            return Err(PlayError::GameOver(o));
        }
        if self.passed.is_none() {
            self.passed = Some(PassedEnd {
                ply: self.plies.len(),
                outcome: o,
            });
        }
        self.judged = None;
        Ok(())
    }

    /// The first end by the rules that the game went on past
    /// ([`Game::go_past_end`]), if any. The game's [`Game::outcome`] is then
    /// judged at the last position as for any game (a record read back
    /// declares the result it gives, [`PdnGame::replay`](crate::pdn::PdnGame::replay)).
    pub fn passed_end(&self) -> Option<PassedEnd> {
        self.passed
    }
    /// The draw clock at the current position.
    pub fn clock(&self) -> DrawClock {
        self.plies.last().map_or(DrawClock::START, |p| p.clock)
    }
    /// Plies in a row without a capture, up to the current position.
    pub fn no_capture_plies(&self) -> u32 {
        self.clock().no_capture
    }
    /// Plies in a row of capture-free king moves, up to the current position.
    pub fn kings_only_plies(&self) -> u32 {
        self.clock().kings_only
    }
    /// How many times the current position (with the same side to move) has
    /// occurred in this game, counting the current one. Only the plies since
    /// the last capture or promotion are looked at ([`DrawClock::reversible`]).
    pub fn repetitions(&self) -> u32 {
        self.repetitions_up_to(u32::MAX)
    }

    /// [`Game::repetitions`], counted only up to `most`: the scan stops
    /// there, so that a game that goes round in a cycle (a record that goes
    /// on past a repetition) costs a few plies per ply, not the whole game.
    fn repetitions_up_to(&self, most: u32) -> u32 {
        let back = self.clock().reversible as usize;
        let mut n = 1;
        for p in self.plies.iter().rev().take(back) {
            if n >= most {
                break;
            }
            if p.before == self.pos {
                n += 1;
            }
        }
        n
    }

    /// Finds the legal move that `text` names, without playing it.
    pub fn resolve(&self, text: &str) -> Result<Move, MoveError> {
        self.rules.resolve_move(&self.pos, text)
    }

    /// Plays `m`, which must be one of [`Game::legal_moves`]. Clears the redo list
    /// unless `m` is the move that redo would play.
    pub fn play(&mut self, m: Move) -> Result<(), PlayError> {
        if let Some(o) = self.outcome() {
            return Err(PlayError::GameOver(o));
        }
        if self.plies.len() >= Self::MAX_PLIES {
            return Err(PlayError::TooLong { limit: Self::MAX_PLIES });
        }
        if !self.legal.iter().any(|o| *o == m) {
            return Err(PlayError::NotLegal {
                notation: if m.is_pass() {
                    crate::notation::PASS_TEXT.to_string()
                } else {
                    format!(
                        "{}{}{}",
                        self.rules.square_name(m.from()),
                        if m.is_capture() { "x" } else { "-" },
                        self.rules.square_name(m.to())
                    )
                },
            });
        }
        let redo_matches = self.redo.last().is_some_and(|p| p.mv == m);
        let ply = match self.redo.pop() {
            Some(p) if redo_matches => p,
            _ => {
                self.redo.clear();
                self.make_ply(m)
            }
        };
        self.push_ply(ply);
        Ok(())
    }

    /// Reads `text` ([`Rules::resolve_move`]: `d3-d4`, `d3d4`, `d4xd6xf6`,
    /// `d4:d6`, origin and destination alone when unambiguous) and plays it.
    pub fn play_text(&mut self, text: &str) -> Result<Move, PlayError> {
        if let Some(o) = self.outcome() {
            return Err(PlayError::GameOver(o));
        }
        let m = self.resolve(text)?;
        self.play(m)?;
        Ok(m)
    }

    /// Takes back the last ply (and any resignation, agreement or
    /// adjudication declared after it). Returns the move taken back.
    pub fn undo(&mut self) -> Option<Move> {
        if self.declared.take().is_some() && self.plies.is_empty() {
            return None;
        }
        let ply = self.plies.pop()?;
        let m = ply.mv;
        self.pos = ply.before;
        self.redo.push(ply);
        self.legal = self.rules.legal_moves(&self.pos);
        self.judge();
        if self.passed.is_some_and(|p| self.plies.len() <= p.ply) {
            self.passed = None;
        }
        Some(m)
    }

    /// Plays again the last ply taken back. Returns it.
    pub fn redo(&mut self) -> Option<Move> {
        if self.outcome().is_some() {
            return None;
        }
        let ply = self.redo.pop()?;
        let m = ply.mv;
        self.push_ply(ply);
        Some(m)
    }

    /// Whether there is a ply to take back.
    pub fn can_undo(&self) -> bool {
        !self.plies.is_empty() || self.declared.is_some()
    }
    /// Whether there is a ply to play again.
    pub fn can_redo(&self) -> bool {
        !self.redo.is_empty() && self.outcome().is_none()
    }

    /// `who` resigns: the other side wins.
    pub fn resign(&mut self, who: Color) -> Result<(), PlayError> {
        self.declare(Outcome::new(GameResult::win_for(!who), EndReason::Resignation(who)))
    }

    /// The players agree to a draw.
    pub fn agree_draw(&mut self) -> Result<(), PlayError> {
        self.declare(Outcome::new(GameResult::Draw, EndReason::Agreement))
    }

    /// Ends the game with `outcome` (adjudication, time forfeit, a result
    /// taken from a record). Refused if the game is already over.
    pub fn declare(&mut self, outcome: Outcome) -> Result<(), PlayError> {
        if let Some(o) = self.outcome() {
            return Err(PlayError::GameOver(o));
        }
        self.declared = Some(outcome);
        Ok(())
    }

    /// Every position of the game, the start first and the current last.
    pub fn positions(&self) -> impl Iterator<Item = Position> + '_ {
        std::iter::once(self.start).chain(self.plies.iter().map(Ply::after))
    }

    fn make_ply(&self, m: Move) -> Ply {
        Ply {
            mv: m,
            before: self.pos,
            notation: self.rules.format_move_short(&self.pos, &m),
            full: self.rules.format_move_full(&self.pos, &m),
            clock: DrawClock::START,
        }
    }

    fn push_ply(&mut self, mut ply: Ply) {
        ply.clock = self.clock().after(&ply.mv);
        self.pos = ply.after();
        self.plies.push(ply);
        self.rules.generate(&self.pos, &mut self.legal);
        self.judge();
    }

    /// Judges the current position by the variant's end rules.
    fn judge(&mut self) {
        self.judged = judge(self);
    }
}

/// The end rules applied at the start of a turn, in order: a crowned king
/// where the first to crown wins; no legal move; both sides blocked where a
/// blocked side passes; lone pieces (king against lone man, one each, king
/// against king); threefold repetition; the no-capture ply limit; the
/// kings-only ply limit; the draws by material. The first four depend on the
/// position alone and are judged as the search judges them
/// ([`Rules::crowning_outcome`], [`Rules::no_move_outcome`],
/// [`Rules::pass_outcome`], [`Rules::lone_piece_outcome`]).
fn judge(game: &Game) -> Option<Outcome> {
    let (rules, pos, legal) = (game.rules(), game.position(), game.legal_moves());
    let end = rules.end();
    if let Some(o) = rules.crowning_outcome(pos) {
        return Some(o);
    }
    if legal.is_empty() {
        return Some(rules.no_move_outcome(pos));
    }
    if legal.as_slice()[0].is_pass() {
        if let Some(o) = rules.pass_outcome(pos) {
            return Some(o);
        }
    }
    if let Some(o) = rules.lone_piece_outcome(pos, || true) {
        return Some(o);
    }
    if end.threefold_repetition && game.repetitions_up_to(3) >= 3 {
        return Some(Outcome::new(GameResult::Draw, EndReason::Threefold));
    }
    game.clock()
        .verdict(end, pos)
        .map(|reason| Outcome::new(GameResult::Draw, reason))
}
