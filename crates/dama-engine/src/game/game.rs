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

use std::fmt;
use std::sync::Arc;

use crate::board::Color;
use crate::board::Position;
use crate::board::{Move, MoveList};
use crate::notation::MoveError;
use crate::rules::Rules;

/// Who won.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum GameResult {
    /// White won.
    WhiteWins,
    /// Black won.
    BlackWins,
    /// Nobody won.
    Draw,
}

impl GameResult {
    /// A win for `c`.
    pub const fn win_for(c: Color) -> GameResult {
        match c {
            Color::White => GameResult::WhiteWins,
            Color::Black => GameResult::BlackWins,
        }
    }

    /// The winner, if any.
    pub const fn winner(self) -> Option<Color> {
        match self {
            GameResult::WhiteWins => Some(Color::White),
            GameResult::BlackWins => Some(Color::Black),
            GameResult::Draw => None,
        }
    }

    /// The PDN result token (default result type): `1-0`, `0-1`, `1/2-1/2`.
    pub const fn pdn(self) -> &'static str {
        match self {
            GameResult::WhiteWins => "1-0",
            GameResult::BlackWins => "0-1",
            GameResult::Draw => "1/2-1/2",
        }
    }

    /// Reads a PDN result token, in the default (`1-0 0-1 1/2-1/2`) or the
    /// international (`2-0 0-2 1-1`) result type. `*`, `0-0` and anything
    /// else give `None`.
    pub fn from_pdn(token: &str) -> Option<GameResult> {
        match token.trim() {
            "1-0" | "2-0" => Some(GameResult::WhiteWins),
            "0-1" | "0-2" => Some(GameResult::BlackWins),
            "1/2-1/2" | "½-½" | "1-1" => Some(GameResult::Draw),
            _ => None,
        }
    }
}

impl fmt::Display for GameResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            GameResult::WhiteWins => "White wins",
            GameResult::BlackWins => "Black wins",
            GameResult::Draw => "Draw",
        })
    }
}

/// Why a game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum EndReason {
    /// The side to move has pieces but no legal move (`end.no_legal_move`).
    NoLegalMove(Color),
    /// The side to move has no pieces left (`end.no_legal_move`).
    NoPieces(Color),
    /// A lone king against a lone man (`end.lone_piece = "king_beats_lone_man"`).
    KingBeatsLoneMan,
    /// One piece each (`end.lone_piece = "one_each_draw"`).
    OneEach,
    /// One king each (`end.king_vs_king = "draw"`).
    KingVsKing,
    /// The same position with the same side to move for the third time
    /// (`end.threefold_repetition`).
    Threefold,
    /// This many plies in a row without a capture (`end.no_capture_draw_plies`).
    NoCapture(u32),
    /// This many plies in a row in which only kings moved and nothing was
    /// captured (`end.kings_only_draw_plies`).
    KingsOnly(u32),
    /// This side resigned.
    Resignation(Color),
    /// The players agreed to a draw.
    Agreement,
    /// This side ran out of time.
    TimeForfeit(Color),
    /// Adjudicated by a tool after this many plies (a match's game-length cap).
    PlyLimit(u32),
    /// The result was taken from a game record that gives no reason
    /// (a resignation or agreement the record does not spell out).
    Recorded,
}

impl fmt::Display for EndReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EndReason::NoLegalMove(c) => write!(f, "{c} has no legal move"),
            EndReason::NoPieces(c) => write!(f, "{c} has no pieces left"),
            EndReason::KingBeatsLoneMan => f.write_str("king against lone man"),
            EndReason::OneEach => f.write_str("one piece each"),
            EndReason::KingVsKing => f.write_str("king against king"),
            EndReason::Threefold => f.write_str("threefold repetition"),
            EndReason::NoCapture(n) => write!(f, "{n} plies without a capture"),
            EndReason::KingsOnly(n) => write!(f, "{n} plies of king moves without a capture"),
            EndReason::Resignation(c) => write!(f, "{c} resigned"),
            EndReason::Agreement => f.write_str("draw by agreement"),
            EndReason::TimeForfeit(c) => write!(f, "{c} lost on time"),
            EndReason::PlyLimit(n) => write!(f, "adjudicated after {n} plies"),
            EndReason::Recorded => f.write_str("as recorded"),
        }
    }
}

/// How a game ended: the result and the reason.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Outcome {
    /// Who won.
    pub result: GameResult,
    /// Why the game ended.
    pub reason: EndReason,
}

impl Outcome {
    /// Builds an outcome.
    pub const fn new(result: GameResult, reason: EndReason) -> Outcome {
        Outcome { result, reason }
    }
    /// The winner, if any.
    pub const fn winner(&self) -> Option<Color> {
        self.result.winner()
    }
}

impl fmt::Display for Outcome {
    /// `White wins: Black has no legal move`, `Draw: threefold repetition`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.result, self.reason)
    }
}

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
    no_capture: u32,
    kings_only: u32,
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
        self.no_capture
    }
    /// Plies in a row of capture-free king moves, counting this one.
    pub fn kings_only_plies(&self) -> u32 {
        self.kings_only
    }
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
}

impl Game {
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
    /// Plies in a row without a capture, up to the current position.
    pub fn no_capture_plies(&self) -> u32 {
        self.plies.last().map_or(0, |p| p.no_capture)
    }
    /// Plies in a row of capture-free king moves, up to the current position.
    pub fn kings_only_plies(&self) -> u32 {
        self.plies.last().map_or(0, |p| p.kings_only)
    }
    /// How many times the current position (with the same side to move) has
    /// occurred in this game, counting the current one.
    pub fn repetitions(&self) -> u32 {
        let mut n = 1;
        for p in self.plies.iter().rev() {
            if p.mv.is_capture() || p.mv.promotes() {
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
        if !self.legal.iter().any(|o| *o == m) {
            return Err(PlayError::NotLegal {
                notation: format!(
                    "{}{}{}",
                    self.rules.square_name(m.from()),
                    if m.is_capture() { "x" } else { "-" },
                    self.rules.square_name(m.to())
                ),
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
            no_capture: 0,
            kings_only: 0,
        }
    }

    fn push_ply(&mut self, mut ply: Ply) {
        let prev = self.plies.last();
        ply.no_capture = if ply.mv.is_capture() {
            0
        } else {
            prev.map_or(0, |p| p.no_capture) + 1
        };
        ply.kings_only = if ply.mv.is_king_move() && !ply.mv.is_capture() {
            prev.map_or(0, |p| p.kings_only) + 1
        } else {
            0
        };
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

/// The end rules applied at the start of a turn, in order: no legal move;
/// lone pieces (king against lone man, one each, king against king); threefold
/// repetition; the no-capture ply limit; the kings-only ply limit. The first
/// two depend on the position alone and are judged as the search judges them
/// ([`Rules::no_move_outcome`], [`Rules::lone_piece_outcome`]).
fn judge(game: &Game) -> Option<Outcome> {
    let (rules, pos, legal) = (game.rules(), game.position(), game.legal_moves());
    let end = rules.end();
    if legal.is_empty() {
        return Some(rules.no_move_outcome(pos));
    }
    if let Some(o) = rules.lone_piece_outcome(pos, || true) {
        return Some(o);
    }
    if end.threefold_repetition && game.repetitions() >= 3 {
        return Some(Outcome::new(GameResult::Draw, EndReason::Threefold));
    }
    let n = end.no_capture_draw_plies;
    if n > 0 && game.no_capture_plies() >= n {
        return Some(Outcome::new(GameResult::Draw, EndReason::NoCapture(n)));
    }
    let k = end.kings_only_draw_plies;
    if k > 0 && game.kings_only_plies() >= k {
        return Some(Outcome::new(GameResult::Draw, EndReason::KingsOnly(k)));
    }
    None
}
